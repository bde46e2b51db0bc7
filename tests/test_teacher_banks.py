"""Teachers' real quiz files (issue 13): rows a game cannot use are skipped with a
warning and the rest loads; Moodle's real GIFT; built-in banks mixed with files;
quiet damage (invisible characters, NUL bytes, binary files, a million bad rows);
formula-safe ``bank convert``; and no crash on any bytes at all.

Every file is written here, small, with the shape a public file has.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from test_bank_formats import KAHOOT_BANNER, located, write_xlsx
from triviador_nb.banks import BankError, check_bank_file, check_bank_files, load_bank, resolve_bank
from triviador_nb.banks.convert import convert_bank_file
from triviador_nb.banks.problems import BankProblem, capped_lines
from triviador_nb.cli import main
from triviador_nb.engine.questions import ChoiceQuestion, GuessQuestion
from triviador_nb.ui.setup import bank_warnings_html

NOT_TEXT = ("a question bank is a CSV or text file (the project's columns, Blooket, Gimkit, GIFT, Aiken, a Quizlet "
            "export), a Moodle XML or QTI file (a QTI zip too) or an xlsx workbook (Kahoot, Quizizz)")


def kahoot(path: Path, rows: list[list[object]]) -> Path:
    """A Kahoot template sheet: the banner, the header on row 8, questions from row 9."""
    return write_xlsx(path, KAHOOT_BANNER + rows)


def needs_guess_questions(files: str) -> str:
    return ("the bank has no guess questions; a game needs both kinds: add some, or load it together with a bank "
            f"that has them, e.g. --bank general_knowledge_en,{files} (in the setup form: general_knowledge_en, "
            f"{files})")


# ---------------------------------------------------------------- unplayable rows are skipped


KAHOOT_QUIZ = [
    [1, "Capital of Hungary?", "Debrecen", "Budapest", "Szeged", "Pécs", 20, 2],  # row 9
    [2, "The Danube reaches the Black Sea", "True", "False", None, None, 10, 1],  # row 10: true/false
    [3, "Largest planet?", "Mars", "Venus", "Earth", "Jupiter", 30, 4],  # row 11
]


def test_a_kahoot_quiz_with_a_true_false_question_loads_the_rest_beside_a_guess_bank(tmp_path: Path) -> None:
    path = kahoot(tmp_path / "my_kahoot.xlsx", KAHOOT_QUIZ)
    true_false = (10, "-", "warning",
                  'skipped "The Danube reaches the Black Sea": true/false question: a game needs 4 options')

    assert located(check_bank_file(path)) == [true_false, (1, "type", "error", needs_guess_questions(str(path)))]
    bank = resolve_bank(f"general_knowledge_en, {path}")

    assert bank.name == "general_knowledge_en+my_kahoot"
    assert bank.choice[-2:] == (
        ChoiceQuestion("my_kahoot:9", "Capital of Hungary?", "Budapest", ("Debrecen", "Szeged", "Pécs")),
        ChoiceQuestion("my_kahoot:11", "Largest planet?", "Jupiter", ("Mars", "Venus", "Earth")),
    )
    assert f"{path}:10:-: warning: {true_false[3]}" in bank.warnings


def test_a_kahoot_quiz_alone_says_how_to_add_guess_questions(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = kahoot(tmp_path / "my_kahoot.xlsx", KAHOOT_QUIZ)

    with pytest.raises(BankError) as raised:
        load_bank(path)
    assert [problem.message for problem in raised.value.problems] == [needs_guess_questions(str(path))]
    assert main(["simulate", "--bank", str(path), "--games", "1"]) == 2
    assert capsys.readouterr().err == (
        f"triviador-nb: error: {path}:1:type: {needs_guess_questions(str(path))}\n")


def test_built_in_bank_names_mix_with_files_wherever_a_bank_is_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = kahoot(tmp_path / "my_kahoot.xlsx", KAHOOT_QUIZ)

    assert main(["simulate", "--bank", f"general_knowledge_en,{path}", "--games", "1"]) == 0
    assert main(["simulate", "--bank", "general_knowledge_en", str(path), "--games", "1"]) == 0
    assert main(["bank", "simulate", f"general_knowledge_en, {path}", "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("rules: conquiztador\n") == 2
    assert "general_knowledge_en+my_kahoot with ConQUIZtador on hungary, 1 game (seed 0):" in out
    assert resolve_bank(["general_knowledge_en", path]).choice[-1].id == "my_kahoot:11"
    with pytest.raises(ValueError, match=r"^no built-in question bank 'general_knowledge' \(available: "):
        resolve_bank(f"general_knowledge, {path}")


def test_a_room_host_takes_built_in_names_and_files(tmp_path: Path) -> None:
    from triviador_nb.rooms import RoomHost

    path = kahoot(tmp_path / "my_kahoot.xlsx", KAHOOT_QUIZ)
    room_host = RoomHost()
    try:
        room = room_host.open_room(bank=f"general_knowledge_en, {path}")
        assert room.bank.name == "general_knowledge_en+my_kahoot"
        assert room.bank.choice[-1].id == "my_kahoot:11"
    finally:
        room_host.close()


def test_the_setup_form_takes_built_in_names_and_files_and_shows_the_skipped_rows(tmp_path: Path) -> None:
    from triviador_nb.classroom import ManualClock
    from triviador_nb.ui import setup

    path = kahoot(tmp_path / "my_kahoot.xlsx", KAHOOT_QUIZ)
    form = setup(clock=ManualClock(), bank=f"general_knowledge_en, {path}")
    try:
        assert form.selected_bank().choice[-1].id == "my_kahoot:11"
        assert ('<details class="tnb-note"><summary>1 warning about the questions (rows left out, and why)</summary>'
                f'<div style="white-space:pre-wrap">{path}:10:-: warning: skipped &quot;The Danube reaches the '
                "Black Sea&quot;: true/false question: a game needs 4 options</div></details>") in form.enough.value
    finally:
        form.close()


def test_a_blooket_typing_question_is_skipped_and_a_number_typed_is_a_guess_question(tmp_path: Path) -> None:
    path = tmp_path / "blooket.csv"
    path.write_text(
        '"Blooket\nImport Template",,,,,,,\n'
        "Question #,Question Text,Answer 1,Answer 2,Answer 3,Answer 4,Time Limit (sec),Correct Answer(s)\n"
        "1,Capital of Slovakia?,Košice,Bratislava,Nitra,Žilina,20,2\n"
        "2,Spell the capital of Poland,Warsaw,,,,20,1\n"
        "3,How many legs has a spider?,8,,,,20,1\n",
        encoding="utf-8", newline="")

    assert located(check_bank_file(path)) == [
        (4, "-", "warning", 'skipped "Spell the capital of Poland": typing question: no options and no number '
                            "(a game needs 4 options, or one whole number for a guess question)"),
    ]
    bank = load_bank(path)
    assert bank.guess == (GuessQuestion("blooket:5", "How many legs has a spider?", 8),)
    assert [question.id for question in bank.choice] == ["blooket:3"]


def test_a_file_with_no_playable_question_is_an_error(tmp_path: Path) -> None:
    path = kahoot(tmp_path / "tf.xlsx", [KAHOOT_QUIZ[1]])

    assert located(check_bank_file(path)) == [
        (1, "-", "error", "no playable questions: every question of this kahoot file was skipped "
                          "(the warnings say why)"),
        (9, "-", "warning",
         'skipped "The Danube reaches the Black Sea": true/false question: a game needs 4 options'),
    ]


def test_a_skipped_row_gets_no_other_warnings(tmp_path: Path) -> None:
    path = kahoot(tmp_path / "k.xlsx", [
        KAHOOT_QUIZ[0],  # row 9: the answer is Budapest
        [2, "Is Budapest older than Vienna?", "Yes", "No", "yes", "Maybe", 20, 1],  # row 10: names it, and is skipped
    ])

    assert located(check_bank_file(path))[:1] == [
        (10, "Answer 3", "warning", 'skipped "Is Budapest older than Vienna?": option \'yes\' repeats Answer 1 '
                                    "(the 4 options must all differ)"),
    ]
    assert [problem.row for problem in check_bank_file(path)] == [10, 1]


def test_the_project_csv_still_refuses_its_own_broken_rows(tmp_path: Path) -> None:
    path = tmp_path / "own.csv"
    path.write_text("type,question,answer,wrong_1,wrong_2,wrong_3\nguess,How many?,8,,,\n"
                    "choice,Pick one,a,b,c,A\nchoice,Capital?,Rome,Milan,Turin,Naples\n", encoding="utf-8")

    assert located(check_bank_file(path)) == [
        (3, "wrong_3", "error", "option 'A' repeats answer (the 4 options must all differ)"),
    ]


# ---------------------------------------------------------------- Moodle's real GIFT


MOODLE_GIFT = """// question: 101  name: Essay
::Essay::[html]<p>Describe the Danube.</p>{}

// question: 102  name: Matching
::Match::Match the capitals. {
  =Hungary -> Budapest
  =Czechia -> Prague
  =Poland -> Warsaw
}

::Html::[html]<p>Which city is the <b>Paris of the East</b>?</p><br>{=<p>Budapest</p> ~Bucure&\\#351;ti ~Caf&eacute; town ~Wien}

::Feedback::Capital of Slovakia? {=Bratislava#Good --> next ~Košice ~Nitra ~Žilina}

::Percent::When was the Chain Bridge opened? {#=%50%1848 =%100%1849}

::Colon::In which year was Pest united with Buda? {#=1873:0 =%50%1872:2}

::Range::How tall is Kékes? {#1000..1020}

::Two full::Year? {#=1849 =1850}

::Picture::[html]<p>Which bridge is this?</p><img src="@@PLUGINFILE@@/b.png">{=Széchenyi ~Erzsébet ~Petőfi ~Árpád}
"""


def test_moodle_gift_export_loads_its_playable_questions(tmp_path: Path) -> None:
    path = tmp_path / "moodle.gift"
    path.write_text(MOODLE_GIFT, encoding="utf-8")

    assert located(check_bank_file(path)) == [
        (2, "-", "warning", 'skipped "Describe the Danube.": essay question: it has no answer'),
        (5, "-", "warning",
         'skipped "Match the capitals.": matching question: a game needs one answer and 3 wrong options'),
        (19, "-", "warning",
         "skipped \"How tall is Kékes?\": numeric answer '1000..1020' is not one whole number >= 0 "
         "(write {#1822})"),
        (21, "-", "warning",
         'skipped "Year?": 2 numeric answers with full marks; a guess question needs exactly one (write {#1822})'),
        (23, "-", "warning",
         "the question's picture is not shown in the game: check that it can be answered without it"),
    ]
    bank = load_bank(path)
    assert bank.choice == (
        ChoiceQuestion("moodle:11", "Which city is the Paris of the East?", "Budapest",
                       ("Bucureşti", "Café town", "Wien")),
        ChoiceQuestion("moodle:13", "Capital of Slovakia?", "Bratislava", ("Košice", "Nitra", "Žilina")),
        ChoiceQuestion("moodle:23", "Which bridge is this?", "Széchenyi", ("Erzsébet", "Petőfi", "Árpád")),
    )
    assert bank.guess == (
        GuessQuestion("moodle:15", "When was the Chain Bridge opened?", 1849),
        GuessQuestion("moodle:17", "In which year was Pest united with Buda?", 1873),
    )


# ---------------------------------------------------------------- quiet damage


def test_options_that_differ_only_by_invisible_characters(tmp_path: Path) -> None:
    path = kahoot(tmp_path / "zw.xlsx", [
        [1, "Capital of France?", "Paris", "Pa\u200bris", "Lyon", "Paris\u00ad", 20, 1],  # row 9
        [2, "Capital\u2060 of Italy?", "Milan", "Rome", "Turin", "Naples", 20, 2],  # row 10
    ])
    invisible = "they show as nothing but make texts differ"

    assert located(check_bank_file(path))[:5] == [
        (9, "Answer 2", "warning", f"invisible characters removed (U+200B ZERO WIDTH SPACE): {invisible}"),
        (9, "Answer 2", "warning", "skipped \"Capital of France?\": option 'Paris' is the same as Answer 1 once "
                                   "invisible characters are removed (they look alike; the 4 options must all differ)"),
        (9, "Answer 4", "warning", f"invisible characters removed (U+00AD SOFT HYPHEN): {invisible}"),
        (9, "Answer 4", "warning", "skipped \"Capital of France?\": option 'Paris' is the same as Answer 1 once "
                                   "invisible characters are removed (they look alike; the 4 options must all differ)"),
        (10, "Question", "warning",
         f"invisible characters removed (U+2060 WORD JOINER): {invisible}"),
    ]
    own = tmp_path / "own.csv"
    own.write_text("type,question,answer,wrong_1,wrong_2,wrong_3\nguess,Year\u200b?,18\u200b22,,,\n"
                   "choice,Capital?,Paris,Pa\ufeffris,Lyon,Nice\n", encoding="utf-8")
    assert located(check_bank_file(own)) == [
        (2, "question", "warning", f"invisible characters removed (U+200B ZERO WIDTH SPACE): {invisible}"),
        (2, "answer", "warning", f"invisible characters removed (U+200B ZERO WIDTH SPACE): {invisible}"),
        (3, "wrong_1", "warning", f"invisible characters removed (U+FEFF ZERO WIDTH NO-BREAK SPACE): {invisible}"),
        (3, "wrong_1", "error", "option 'Paris' is the same as answer once invisible characters are removed "
                                "(they look alike; the 4 options must all differ)"),
    ]


def test_joiners_that_emoji_and_scripts_need_are_kept(tmp_path: Path) -> None:
    family, persian = "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    own = tmp_path / "own.csv"
    own.write_text("type,question,answer,wrong_1,wrong_2,wrong_3\n"
                   f"choice,Which emoji is a family?,{family},{persian},Par\u200dis,Lyon\n", encoding="utf-8")
    assert located(check_bank_file(own))[:1] == [
        (2, "wrong_2", "warning", "invisible characters removed (U+200D ZERO WIDTH JOINER): "
                                  "they show as nothing but make texts differ"),
    ]
    assert [p.row for p in check_bank_file(own)] == [2, 1]  # and "no guess questions" (row 1: the header)
    (question,) = resolve_bank(f"{own}, general_knowledge_en").choice[:1]
    assert (question.answer, question.wrong[:2]) == (family, (persian, "Paris"))


def test_a_run_of_joiners_beside_ascii_is_named_once_not_a_traceback(tmp_path: Path) -> None:
    own = tmp_path / "own.csv"  # two joiners in a row are one match of the rule; each character is named
    own.write_text("type,question,answer,wrong_1,wrong_2,wrong_3\n"
                   "choice,Capital?,Par\u200d\u200dis,Lyon\u200c\u200d,Nice,Lille\n", encoding="utf-8")
    assert located(check_bank_file(own))[:2] == [
        (2, "answer", "warning", "invisible characters removed (U+200D ZERO WIDTH JOINER): "
                                 "they show as nothing but make texts differ"),
        (2, "wrong_1", "warning", "invisible characters removed (U+200C ZERO WIDTH NON-JOINER, U+200D ZERO WIDTH "
                                  "JOINER): they show as nothing but make texts differ"),
    ]


def test_a_nul_byte_is_reported_on_its_row_and_the_text_is_kept_whole(tmp_path: Path) -> None:
    path = tmp_path / "nul.csv"
    path.write_bytes(b"type,question,answer,wrong_1,wrong_2,wrong_3\nguess,How many\x00 legs has a spider?,8,,,\n"
                     b"choice,Capital of Italy?,Rome,Milan,Turin,Naples\n")

    assert located(check_bank_file(path)) == [
        (2, "-", "warning", "line 2 of the file holds a NUL character (byte 0), which was removed; the file may be "
                            "damaged: check that line's text"),
    ]
    assert load_bank(path).guess == (GuessQuestion("nul:2", "How many legs has a spider?", 8),)


@pytest.mark.parametrize(("name", "data", "looks_like"), [
    ("picture.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4, "a PNG image"),
    ("scan.txt", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "a PDF document"),
    ("random.gift", bytes(range(256)) * 8, "binary data"),
])
def test_a_binary_file_is_one_message(tmp_path: Path, name: str, data: bytes, looks_like: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)

    assert located(check_bank_file(path)) == [
        (1, "-", "error", f"this is not a text file (it looks like {looks_like}); {NOT_TEXT}"),
    ]


def test_a_zip_renamed_gift_is_one_message(tmp_path: Path) -> None:
    path = tmp_path / "quiz.gift"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("questions.txt", "::a:: Legs of a spider? {#8}\n")

    assert located(check_bank_file(path)) == [
        (1, "-", "error", f"this is not a text file (it looks like a zip archive); {NOT_TEXT}"),
    ]


def test_a_hundred_thousand_bad_rows_print_twenty_and_a_count(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.csv"
    path.write_text("type,question,answer\n" + "".join(f"guess,Question number {row}?,about {row}\n"
                                                      for row in range(2, 100_002)), encoding="utf-8")

    assert main(["bank", "check", str(path)]) == 1

    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        *(f"{path}:{row}:answer: guess answer 'about {row}' is not a whole number >= 0 (write digits only, "
          "e.g. 1000)" for row in range(2, 22)),
        "... and 99,980 more like this",
        f"{path}: 100000 errors, 0 warnings",
    ]


def test_capped_lines_count_each_kind_after_its_twentieth() -> None:
    problems = [BankProblem("q.gift", line, "-", f"skipped \"Q{line}\": essay question: it has no answer", "warning")
                for line in range(1, 31)] + [BankProblem("q.gift", 40, "-", "the tolerance :5 is ignored", "warning")]

    lines = capped_lines(problems)

    assert lines[19:] == ['q.gift:20:-: warning: skipped "Q20": essay question: it has no answer',
                          "... and 10 more like this", "q.gift:40:-: warning: the tolerance :5 is ignored"]
    assert "... and 10 more like this" in bank_warnings_html([str(problem) for problem in problems])
    assert str(BankError(problems)).splitlines() == lines


# ---------------------------------------------------------------- formula-safe bank convert


def test_convert_writes_formulas_inert_and_loads_them_back_unchanged(tmp_path: Path) -> None:
    source = kahoot(tmp_path / "k.xlsx", [
        [1, '=HYPERLINK("x","y")', "-40", "+1", "@home", "=1+1", 20, 1],
    ])
    workbook = load_workbook(source)
    for cell in workbook.active[9]:
        if isinstance(cell.value, str) and cell.value.startswith("="):
            cell.data_type = "s"  # text, as another tool exports it (openpyxl made it a formula)
    workbook.save(source)
    out = tmp_path / "k.csv"

    assert main(["bank", "convert", str(source), str(out)]) == 0

    assert out.read_text(encoding="utf-8").splitlines()[1] == (
        ',choice,"\'=HYPERLINK(""x"",""y"")",-40,+1,\'@home,\'=1+1,,,')
    bank = resolve_bank([out, "general_knowledge_en"])
    assert bank.choice[0] == ChoiceQuestion("k:2", '=HYPERLINK("x","y")', "-40", ("+1", "@home", "=1+1"))
    assert convert_bank_file(out)[0] == out.read_text(encoding="utf-8")


# ---------------------------------------------------------------- no crash on any file


SUFFIXES = (".csv", ".txt", ".tsv", ".gift", ".xlsx", ".xls", "")
GIFT_AND_CSV_PIECES = st.sampled_from([
    "{", "}", "=", "~", "#", "->", "::", "[html]", "<p>", "&eacute;", "%50%", "\\", ":", "..", "\n", "\n\n", ",",
    ";", "\t", '"', "type,question,answer,wrong_1,wrong_2,wrong_3\n", "guess", "choice", "ANSWER: A", "A. ",
    "Question Text,Answer 1,Answer 2,Correct Answer\n", "1822", "-1", "\x00", "\u200b", "\ufeff", "'=", "T", "",
])
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _loads_or_says_why(path: Path) -> None:
    """Checking returns problems and loading raises only BankError, whatever the file holds."""
    problems = check_bank_files([path])
    assert all(isinstance(problem, BankProblem) for problem in problems)
    try:
        load_bank(path)
    except BankError as error:
        assert error.problems
    convert_bank_file(path)


@pytest.mark.parametrize("suffix", SUFFIXES)
@SETTINGS
@given(data=st.binary(max_size=600))
def test_random_bytes_never_crash_the_loader(tmp_path: Path, suffix: str, data: bytes) -> None:
    path = tmp_path / f"bank{suffix}"
    path.write_bytes(data)
    _loads_or_says_why(path)


@pytest.mark.parametrize("suffix", SUFFIXES)
@SETTINGS
@given(text=st.one_of(st.text(max_size=300), st.lists(GIFT_AND_CSV_PIECES, max_size=40).map("".join)))
def test_random_text_never_crashes_the_loader(tmp_path: Path, suffix: str, text: str) -> None:
    path = tmp_path / f"bank{suffix}"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    _loads_or_says_why(path)
