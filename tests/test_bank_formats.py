"""Bank files teachers already have: encodings, delimiters and other quiz tools' formats.

Every sample is generated here (xlsx with openpyxl); files are recognised by
content, so the tests also rename them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from openpyxl import Workbook

from triviador_nb.banks import BankProblem, check_bank_file, check_bank_files, load_bank
from triviador_nb.banks.convert import convert_bank_file
from triviador_nb.banks.detect import cp1250_score, decode, sniff_delimiter
from triviador_nb.banks.formats import detect_format
from triviador_nb.cli import main
from triviador_nb.engine.questions import ChoiceQuestion, GuessQuestion

HEADER = "id,type,question,answer,wrong_1,wrong_2,wrong_3,category,difficulty,source\n"


def located(problems: list[BankProblem]) -> list[tuple[int, str, str, str]]:
    return [(problem.row, problem.column, problem.severity, problem.message) for problem in problems]


def write_xlsx(path: Path, rows: list[list[object]]) -> Path:
    workbook = Workbook()
    sheet = workbook.active
    for number, row in enumerate(rows, start=1):
        for column, value in enumerate(row, start=1):
            if value is not None:
                sheet.cell(number, column, value)
    workbook.save(path)
    return path


# ---------------------------------------------------------------- encodings and delimiters


HU_CS = (
    "type;question;answer;wrong_1;wrong_2;wrong_3\r\n"
    "guess;Hány lakosa van Győrnek?;132000;;;\r\n"
    "choice;Melyik város van Csehországban?;Příbram;Győr;Pécs;Szőny\r\n"
)


def test_semicolon_cp1250_csv_from_central_european_excel(tmp_path: Path) -> None:
    path = tmp_path / "hu.csv"
    path.write_bytes(HU_CS.encode("cp1250"))

    bank = load_bank(path)

    assert bank.warnings == ()
    assert bank.guess == (GuessQuestion("hu:2", "Hány lakosa van Győrnek?", 132000),)
    assert bank.choice == (
        ChoiceQuestion("hu:3", "Melyik város van Csehországban?", "Příbram", ("Győr", "Pécs", "Szőny")),
    )


def test_tab_separated_utf8(tmp_path: Path) -> None:
    path = tmp_path / "tab.csv"
    path.write_text(HU_CS.replace(";", "\t"), encoding="utf-8", newline="")

    bank = load_bank(path)

    assert bank.choice[0].answer == "Příbram"
    assert bank.guess[0].text == "Hány lakosa van Győrnek?"


def test_latin1_csv(tmp_path: Path) -> None:
    path = tmp_path / "fr.csv"
    text = HEADER + (
        "c1,choice,Où est né le crème brûlée?,France,España,Niño,Ærø,,,\n"
        "g1,guess,Combien de côtés?,4,,,,,,\n"
    )
    path.write_bytes(text.encode("latin-1"))

    bank = load_bank(path)

    assert bank.choice[0].text == "Où est né le crème brûlée?"
    assert bank.choice[0].wrong == ("España", "Niño", "Ærø")


def test_row_numbers_stay_exact_in_semicolon_cp1250_files(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    text = (
        "type;question;answer;wrong_1;wrong_2;wrong_3\r\n"
        "guess;Győr?;1 000;;;\r\n"
        "\r\n"
        'choice;"Příbram;\r\nmesto";a;b;c;c\r\n'
        "guess;Ő?;1;;;;x\r\n"
    )
    path.write_bytes(text.encode("cp1250"))

    assert located(check_bank_file(path)) == [
        (2, "answer", "error", "guess answer '1 000' is not a whole number >= 0 (write digits only, e.g. 1000)"),
        (4, "wrong_3", "error", "option 'c' repeats wrong_2 (the 4 options must all differ)"),
        (5, "-", "error",
         "this row has 7 cells but the header has 6; put a cell that contains a semicolon in double quotes"),
    ]


@pytest.mark.parametrize(
    ("text", "encoding", "expected"),
    [
        ("Győr", "cp1250", "cp1250"),
        ("Příbram", "cp1250", "cp1250"),
        ("České Budějovice", "cp1250", "cp1250"),
        ("Przełęcz Łódź", "cp1250", "cp1250"),
        ("Žluťoučký kůň", "cp1250", "cp1250"),
        ("Crème brûlée", "latin-1", "cp1252"),
        ("El niño español", "latin-1", "cp1252"),
        ("Köln café", "latin-1", "cp1252"),
        ("“quoted” – 5 €", "cp1252", "cp1252"),
        ("plain ascii", "ascii", "utf-8"),
        ("Győr", "utf-8", "utf-8"),
        ("Győr", "utf-8-sig", "utf-8-sig"),
    ],
)
def test_encoding_rule(text: str, encoding: str, expected: str) -> None:
    decoded = decode(text.encode(encoding))

    assert (decoded.encoding, decoded.text) == (expected, text)


def test_undefined_cp1252_bytes_fall_back_to_latin1() -> None:
    assert decode(b"caf\xe9 \x81").encoding == "latin-1"
    assert cp1250_score("ő".encode("cp1250")) == 2


@pytest.mark.parametrize(
    ("first_line", "delimiter"),
    [("a,b,c", ","), ("a;b;c", ";"), ("a\tb\tc", "\t"), ('"x;y;z",b', ","), ("one", ","), ("a;b,c;d", ";")],
)
def test_delimiter_rule(first_line: str, delimiter: str) -> None:
    assert sniff_delimiter(first_line + "\nmore;;;;,,,\t\t\t\t\n") == delimiter


# ---------------------------------------------------------------- Kahoot


KAHOOT_BANNER = [
    ["Quiz template"],
    ["Add questions, at least two answer alternatives, time limit and choose correct answers (at least one)."],
    [],
    [None, "Kahoot! quiz template"],
    [],
    [],
    [],
    [
        None,
        "Question - max 120 characters",
        "Answer 1 - max 75 characters",
        "Answer 2 - max 75 characters",
        "Answer 3 - max 75 characters",
        "Answer 4 - max 75 characters",
        "Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs",
        "Correct answer(s) - choose at least one",
    ],
]
KAHOOT_ROWS = [
    [1, "Capital of Hungary?", "Debrecen", "Budapest", "Szeged", "Pécs", 20, 2],  # row 9
    [2, "The Danube is a river", "True", "False", None, None, 10, 1],  # row 10: 2 answers
    [3],  # row 11: blank (only the number column)
    [4, "Which are prime?", "2", "3", "4", "6", 20, "1,2"],  # row 12: 2 correct
    [5, "Largest planet?", "Mars", "Venus", "Earth", "Jupiter", 30, "4"],  # row 13
    [6, "Pick the odd one", "A", "B", "b", "C", 20, 1],  # row 14: repeated option
    [7, "Three answers?", "x", "y", "z", None, 20, 5],  # row 15: bad number and 3 answers
]


def kahoot(path: Path, rows: list[list[object]] = KAHOOT_ROWS) -> Path:
    return write_xlsx(path, KAHOOT_BANNER + rows)


def test_kahoot_xlsx_problems_in_excel_rows_and_kahoot_columns(tmp_path: Path) -> None:
    path = kahoot(tmp_path / "kahoot.xlsx")

    assert detect_format(path) == "kahoot"
    assert located(check_bank_file(path)) == [
        (10, "-", "warning", 'skipped "The Danube is a river": true/false question: a game needs 4 options'),
        (12, "Correct answer(s)", "warning",
         'skipped "Which are prime?": 2 correct answers (1,2); a game\'s question has exactly one'),
        (14, "Answer 3", "warning",
         'skipped "Pick the odd one": option \'b\' repeats Answer 2 (the 4 options must all differ)'),
        (15, "-", "warning", 'skipped "Three answers?": 3 answers: a game needs 4 options'),
        (15, "Correct answer(s)", "warning",
         'skipped "Three answers?": correct answer \'5\' is not a list of answer numbers 1-4'),
        (1, "type", "error", "the bank has no guess questions; a game needs both kinds: add some, or load it "
         f"together with a bank that has them, e.g. --bank general_knowledge_en,{path} (in the setup form: "
         f"general_knowledge_en, {path})"),
    ]


def test_kahoot_good_rows_load_and_renamed_file_is_still_kahoot(tmp_path: Path) -> None:
    path = kahoot(tmp_path / "kahoot.xlsx", [KAHOOT_ROWS[0], KAHOOT_ROWS[2], KAHOOT_ROWS[4]])
    renamed = tmp_path / "my questions.dat"
    shutil.copy(path, renamed)
    guesses = tmp_path / "guess.csv"
    guesses.write_text("type,question,answer\nguess,Year of the Moon landing?,1969\n", encoding="utf-8")

    bank = load_bank([renamed, guesses])

    assert detect_format(renamed) == "kahoot"
    assert bank.choice == (
        ChoiceQuestion("my questions:9", "Capital of Hungary?", "Budapest", ("Debrecen", "Szeged", "Pécs")),
        ChoiceQuestion("my questions:11", "Largest planet?", "Jupiter", ("Mars", "Venus", "Earth")),
    )
    assert bank.guess == (GuessQuestion("guess:2", "Year of the Moon landing?", 1969),)


# ---------------------------------------------------------------- Quizizz


QUIZIZZ_HEADER = ["Question Text", "Question Type", "Option 1", "Option 2", "Option 3", "Option 4", "Option 5",
                  "Correct Answer", "Time in seconds", "Image Link"]


def test_quizizz_xlsx(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "quizizz.xlsx", [
        QUIZIZZ_HEADER,
        ["Capital of Czechia?", "Multiple Choice", "Brno", "Prague", "Ostrava", "Plzeň", None, 2, 30, None],
        ["Pick the even ones", "Checkbox", "1", "2", "3", "4", None, "2,4", 30, None],
        ["Height of Gerlach (m)?", "Fill-in-the-Blank", 2655, None, None, None, None, None, 30, None],
        ["What do you think?", "Poll", "a", "b", None, None, None, None, 30, None],
        ["Five options?", "Multiple Choice", "a", "b", "c", "d", "e", 1, 30, "https://x/y.png"],
        ["One right box", "Checkbox", "w", "x", "y", "z", None, 3, 30, None],
        ["Name a colour", "Fill-in-the-Blank", "red", None, None, None, None, None, 30, None],
    ])

    problems = check_bank_file(path)
    assert located(problems) == [
        (3, "Correct Answer", "warning",
         'skipped "Pick the even ones": 2 correct answers (2,4); a game\'s question has exactly one'),
        (5, "Question Type", "warning", 'skipped "What do you think?": Poll question: it has no correct answer'),
        (6, "-", "warning", 'skipped "Five options?": 5 options: a game needs 4 options'),
        (6, "Image Link", "warning", "the image is not shown in the game"),
        (8, "Question Type", "warning",
         'skipped "Name a colour": Fill-in-the-Blank question: no options and no number (a guess question '
         "needs one whole-number answer in Option 1)"),
    ]
    bank = load_bank(path)
    assert [question.id for question in bank.choice] == ["quizizz:2", "quizizz:7"]
    assert [question.id for question in bank.guess] == ["quizizz:4"]


def test_quizizz_good_rows(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "qz.xlsx", [
        QUIZIZZ_HEADER,
        ["Capital of Czechia?", "Multiple Choice", "Brno", "Prague", "Ostrava", "Plzeň", None, 2, 30, None],
        ["Height of Gerlach (m)?", "Fill-in-the-Blank", 2655, None, None, None, None, None, 30, None],
        ["One right box", "Checkbox", "w", None, "x", "y", "z", 5, 30, None],
    ])

    bank = load_bank(path)

    assert bank.choice == (
        ChoiceQuestion("qz:2", "Capital of Czechia?", "Prague", ("Brno", "Ostrava", "Plzeň")),
        ChoiceQuestion("qz:4", "One right box", "z", ("w", "x", "y")),
    )
    assert bank.guess == (GuessQuestion("qz:3", "Height of Gerlach (m)?", 2655),)


# ---------------------------------------------------------------- Blooket and Gimkit


BLOOKET = (
    '"Blooket\nImport Template",,,,,,,\n'
    'Question #,Question Text,Answer 1,Answer 2,"Answer 3\n(Optional)","Answer 4\n(Optional)",'
    '"Time Limit (sec)\n(Max: 300 seconds)","Correct Answer(s)\n(Only include Answer #)"\n'
    "1,Capital of Slovakia?,Košice,Bratislava,Nitra,Žilina,20,2\n"
    "2,Is water wet?,Yes,No,,,20,1\n"
    "3,,,,,,,\n"
    "4,Primes?,2,3,4,6,20,\"1,2\"\n"
    "5,Deepest lake?,Baikal,Balaton,Tanganyika,Superior,20,1\n"
)


def test_blooket_csv_rows_count_the_banner_and_multiline_header(tmp_path: Path) -> None:
    path = tmp_path / "blooket.csv"
    path.write_text(BLOOKET, encoding="utf-8", newline="")

    assert detect_format(path) == "blooket"
    assert located(check_bank_file(path))[:2] == [
        (4, "-", "warning", 'skipped "Is water wet?": true/false question: a game needs 4 options'),
        (6, "Correct Answer(s)", "warning",
         'skipped "Primes?": 2 correct answers (1,2); a game\'s question has exactly one'),
    ]


def test_blooket_good_rows_load(tmp_path: Path) -> None:
    lines = BLOOKET.split("\n")
    path = tmp_path / "b.txt"
    path.write_text("\n".join(lines[:8] + [lines[9]] + lines[11:]), encoding="utf-8", newline="")

    bank = load_bank([path, _guess_file(tmp_path)])

    assert bank.choice == (
        ChoiceQuestion("b:3", "Capital of Slovakia?", "Bratislava", ("Košice", "Nitra", "Žilina")),
        ChoiceQuestion("b:5", "Deepest lake?", "Baikal", ("Balaton", "Tanganyika", "Superior")),
    )


def _guess_file(folder: Path) -> Path:
    path = folder / "guess.csv"
    path.write_text("type,question,answer\nguess,Year of the Moon landing?,1969\n", encoding="utf-8")
    return path


def test_gimkit_csv(tmp_path: Path) -> None:
    path = tmp_path / "gimkit.csv"
    path.write_text(
        "Question,Correct Answer,Incorrect Answer 1,Incorrect Answer 2 (Optional),Incorrect Answer 3 (Optional)\n"
        "Capital of Poland?,Warsaw,Kraków,Gdańsk,Łódź\n"
        "Legs of a spider?,8,,,\n"
        "Two options?,yes,no,,\n"
        "Colour of the sky?,blue,,,\n",
        encoding="utf-8",
    )

    assert detect_format(path) == "gimkit"
    assert located(check_bank_file(path)) == [
        (4, "-", "warning", 'skipped "Two options?": 1 incorrect answer: a game needs 3 (or none and a '
                            "whole-number correct answer, for a guess question)"),
        (5, "-", "warning", 'skipped "Colour of the sky?": typing question: no options and no number (a game '
                            "needs 4 options, or one whole number for a guess question)"),
    ]
    path.write_text("\n".join(path.read_text(encoding="utf-8").split("\n")[:3]) + "\n", encoding="utf-8")
    bank = load_bank(path)
    capital = ChoiceQuestion("gimkit:2", "Capital of Poland?", "Warsaw", ("Kraków", "Gdańsk", "Łódź"))
    assert bank.choice == (capital,)
    assert bank.guess == (GuessQuestion("gimkit:3", "Legs of a spider?", 8),)


# ---------------------------------------------------------------- GIFT and Aiken


GIFT = """// Geography quiz, exported from Moodle
$CATEGORY: $course$/top/Geography

::Q1:: What is the capital of Hungary? {
  =Budapest
  ~Debrecen
  ~Szeged # not the capital
  ~Pécs
}

// a numeric question
::Q2::[html]In which year was Budapest created? {#1873}

::Q3:: Height of Kékes in metres? {#1014:5}

::Q4:: Escapes\\: 1 \\= 1, \\{braces\\} and \\# and \\~ {=a\\=b ~c\\~d ~e\\#f ~g}

Pi to two places? {#3.14}

The Danube flows into the Black Sea. {T}

::Q7:: Two wrong? {=yes ~no ~maybe}

Mount Everest is {=8849 ~8848 ~8850 ~8000} metres high.
"""


GIVEAWAY = ("names 'budapest', the answer of row 4: a game never asks bo"
            "th (a give-away; give both the same fact key if they belong together on purpose, or reword one)")


def test_gift_file_named_txt(tmp_path: Path) -> None:
    path = tmp_path / "moodle.txt"
    path.write_text(GIFT, encoding="utf-8")

    assert detect_format(path) == "gift"
    assert located(check_bank_file(path)) == [
        (12, "question", "warning", GIVEAWAY),  # "In which year was Budapest created?" names line 4's answer
        (14, "-", "warning", "the tolerance :5 is ignored; the closest guess wins"),
        (18, "-", "warning",
         'skipped "Pi to two places?": numeric answer \'3.14\' is not a whole number >= 0; a guess question needs one'),
        (20, "-", "warning",
         'skipped "The Danube flows into the Black...": true/false question: a game needs 4 options'),
        (22, "-", "warning", 'skipped "Two wrong?": 2 wrong answers (~): a game needs 3'),
    ]


def test_gift_questions_loaded(tmp_path: Path) -> None:
    lines = GIFT.split("\n")
    path = tmp_path / "moodle.gift"
    path.write_text("\n".join(lines[:17] + lines[23:]), encoding="utf-8")

    bank = load_bank(path)

    geo = {"category": "Geography"}
    assert bank.choice == (
        ChoiceQuestion(
            "moodle:4", "What is the capital of Hungary?", "Budapest", ("Debrecen", "Szeged", "Pécs"), **geo
        ),
        ChoiceQuestion("moodle:16", "Escapes: 1 = 1, {braces} and # and ~", "a=b", ("c~d", "e#f", "g"), **geo),
        ChoiceQuestion("moodle:18", "Mount Everest is _____ metres high.", "8849", ("8848", "8850", "8000"), **geo),
    )
    assert bank.guess == (
        GuessQuestion("moodle:12", "In which year was Budapest created?", 1873, **geo),
        GuessQuestion("moodle:14", "Height of Kékes in metres?", 1014, **geo),
    )
    # the give-away of row 12 is the author's check's (above), not a loading game's
    assert bank.warnings == (f"{path}:14:-: warning: the tolerance :5 is ignored; the closest guess wins",)


AIKEN = """What is the capital of Czechia?
A. Brno
B. Prague
C. Ostrava
D. Plzeň
ANSWER: B

Which river flows through Budapest?
A) Tisza
B) Danube
C) Vltava
ANSWER: B

How many legs has an insect?
A. 4
B. 6
C. 8
D. 10
ANSWER: E

Largest lake of Central Europe?
A. Balaton
B. Neusiedl
C. Lipno
D. Orava
ANSWER: A
"""


def test_aiken(tmp_path: Path) -> None:
    path = tmp_path / "aiken.txt"
    path.write_text(AIKEN, encoding="utf-8")

    assert detect_format(path) == "aiken"
    assert located(check_bank_file(path))[:2] == [
        (8, "-", "warning", 'skipped "Which river flows through Budapest?": 3 options: a game needs 4 options'),
        (14, "-", "warning", 'skipped "How many legs has an insect?": ANSWER: E is not one of the option letters A-D'),
    ]
    good = tmp_path / "good.txt"
    good.write_text("\n".join(AIKEN.split("\n")[:7] + AIKEN.split("\n")[20:]), encoding="utf-8")
    bank = load_bank([good, _guess_file(tmp_path)])
    assert bank.choice == (
        ChoiceQuestion("good:1", "What is the capital of Czechia?", "Prague", ("Brno", "Ostrava", "Plzeň")),
        ChoiceQuestion("good:8", "Largest lake of Central Europe?", "Balaton", ("Neusiedl", "Lipno", "Orava")),
    )


def test_every_format_in_one_bank(tmp_path: Path) -> None:
    paths = [
        kahoot(tmp_path / "k.xlsx", [KAHOOT_ROWS[0]]),
        tmp_path / "hu.csv",
        tmp_path / "g.gift",
    ]
    paths[1].write_bytes(HU_CS.encode("cp1250"))
    paths[2].write_text("::a:: Legs of a spider? {#8}\n", encoding="utf-8")

    bank = load_bank(paths)

    assert [question.id for question in bank.choice] == ["k:9", "hu:3"]
    assert [question.id for question in bank.guess] == ["hu:2", "g:1"]
    assert check_bank_files(paths) == []


def test_unknown_xlsx_is_one_error(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "other.xlsx", [["Name", "Score"], ["Ann", 3]])

    assert [(p.row, p.column) for p in check_bank_file(path)] == [(1, "-")]
    assert check_bank_file(path)[0].message.startswith("an xlsx workbook, but its first sheet has no Kahoot header")


# ---------------------------------------------------------------- bank convert


def test_convert_writes_project_csv_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = kahoot(tmp_path / "kahoot.xlsx", [KAHOOT_ROWS[0], KAHOOT_ROWS[4],
                                               [8, 'Say "hi", please', "a,b", "c", "d", "é", 20, 3]])
    out = tmp_path / "out.csv"

    assert main(["bank", "convert", str(source), str(out)]) == 0

    assert out.read_bytes() == (
        HEADER
        + ",choice,Capital of Hungary?,Budapest,Debrecen,Szeged,Pécs,,,\n"
        + ",choice,Largest planet?,Jupiter,Mars,Venus,Earth,,,\n"
        + ',choice,"Say ""hi"", please",d,"a,b",c,é,,,\n'
    ).encode("utf-8")
    assert capsys.readouterr().out == f"{out}: wrote 3 questions (read as a Kahoot xlsx)\n"
    assert [question.text for question in load_bank([out, _guess_file(tmp_path)]).choice][2] == 'Say "hi", please'


def test_convert_gift_and_cp1250_csv(tmp_path: Path) -> None:
    gift = tmp_path / "g.txt"
    gift.write_text("// c\n::t:: Year? {#1873:0}\n\nA \\{b\\}? {=x ~y ~z ~w}\n", encoding="utf-8")
    hu = tmp_path / "hu.csv"
    with_ids = HU_CS.replace("type;", "id;type;").replace("\nguess", "\nq1;guess").replace("\nchoice", "\n;choice")
    hu.write_bytes(with_ids.encode("cp1250"))

    assert convert_bank_file(gift) == (HEADER + ",guess,Year?,1873,,,,,,\n,choice,A {b}?,x,y,z,w,,,\n", [])
    assert convert_bank_file(hu)[0] == (
        HEADER
        + "q1,guess,Hány lakosa van Győrnek?,132000,,,,,,\n"
        + ",choice,Melyik város van Csehországban?,Příbram,Győr,Pécs,Szőny,,,\n"
    )


def test_convert_writes_the_playable_questions_and_the_skipped_ones_as_warnings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "aiken.txt"
    source.write_text(AIKEN, encoding="utf-8")
    out = tmp_path / "out.csv"

    assert main(["bank", "convert", str(source), str(out)]) == 0

    assert out.read_text(encoding="utf-8") == (
        HEADER + ",choice,What is the capital of Czechia?,Prague,Brno,Ostrava,Plzeň,,,\n"
        ",choice,Largest lake of Central Europe?,Balaton,Neusiedl,Lipno,Orava,,,\n")
    assert capsys.readouterr().out.splitlines() == [
        f'{source}:8:-: warning: skipped "Which river flows through Budapest?": 3 options: a game needs 4 options',
        f'{source}:14:-: warning: skipped "How many legs has an insect?": ANSWER: E is not one of the option '
        "letters A-D",
        f"{out}: wrote 2 questions (read as Moodle Aiken)",
    ]


def test_convert_refuses_files_with_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "own.csv"
    source.write_text("type,question,answer\nguess,How many?,many\n", encoding="utf-8")
    out = tmp_path / "out.csv"

    assert main(["bank", "convert", str(source), str(out)]) == 1

    assert not out.exists()
    assert capsys.readouterr().out.splitlines() == [
        f"{source}:2:answer: guess answer 'many' is not a whole number >= 0 (write digits only, e.g. 1000)",
        f"{source}: 1 error, 0 warnings; {out} not written",
    ]


def test_convert_missing_input_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bank", "convert", str(tmp_path / "nope.xlsx"), str(tmp_path / "out.csv")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_cli_check_accepts_foreign_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "blooket.csv"
    source.write_text(BLOOKET, encoding="utf-8", newline="")

    assert main(["bank", "check", str(source)]) == 1  # only choice questions

    assert capsys.readouterr().out.splitlines()[-1] == f"{source}: 1 error, 2 warnings"


def test_review_cases_superscript_numbers_utf16_old_xls_and_gift_equals(tmp_path: Path) -> None:
    from triviador_nb.banks import check_bank_files, load_bank

    gimkit = tmp_path / "g.csv"
    gimkit.write_text("Question,Correct Answer,Incorrect Answer 1,Incorrect Answer 2,Incorrect Answer 3\n"
                      "How many?,²,,,\n", encoding="utf-8")
    problems = check_bank_files([gimkit])  # '²' is no whole number: a problem, not a crash
    assert [(p.row, p.severity) for p in problems] == [(1, "error"), (2, "warning")]
    utf16 = tmp_path / "u.txt"
    utf16.write_bytes("type\tquestion\tanswer\twrong_1\twrong_2\twrong_3\nguess\tHány?\t19\t\t\t\n"
                      "choice\tMelyik?\tGyőr\tPápa\tSopron\tEger\n".encode("utf-16"))
    bank = load_bank(utf16)
    assert [q.text for q in bank.guess] == ["Hány?"] and bank.choice[0].answer == "Győr"
    old = tmp_path / "old.xls"
    old.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100)
    assert any("old .xls workbook" in p.message for p in check_bank_files([old]))
    gift = tmp_path / "q.gift"
    gift.write_text("::a:: When did the Chain Bridge open? {#=1849}\n\n::b:: Pick {=A ~B ~C ~D}\n", encoding="utf-8")
    assert [q.answer for q in load_bank(gift).guess] == [1849]
