"""The CSV question bank loader (triviador_nb.banks) and ``triviador-nb bank check``.

Guess answers are whole numbers >= 0 (D1); choice questions have exactly four
distinct options (D2); ids are unique so no question repeats in a game (D4).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from triviador_nb.banks import (
    BankError,
    BankProblem,
    builtin_bank_names,
    check_bank_file,
    load_bank,
    load_builtin_bank,
)
from triviador_nb.cli import main
from triviador_nb.engine.questions import ChoiceQuestion, GuessQuestion

HEADER = "id,type,question,answer,wrong_1,wrong_2,wrong_3,category,source\n"
GOOD = HEADER + (
    "g1,guess,How many bones has an adult human?, 206 ,,,,body,Gray's Anatomy\n"
    'c1,choice,"Capital of <b>Australia</b>, officially?",Canberra,Sydney,Melbourne,Perth,geo,\n'
    ",guess,Year of the Moon landing?,1969,,,,history,NASA\n"
)
SHIPPED_BANK = Path(__file__).resolve().parents[1] / "question_banks" / "general_knowledge_en.csv"


def write(folder: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = folder / name
    path.write_text(text, encoding=encoding, newline="")
    return path


def located(problems: list[BankProblem]) -> list[tuple[int, str, str]]:
    return [(problem.row, problem.column, problem.severity) for problem in problems]


# ---------------------------------------------------------------- good files


def test_a_cell_bank_convert_made_inert_loads_as_written_and_other_apostrophes_stay(tmp_path: Path) -> None:
    """``bank convert`` writes ``'=`` (and ``'+``, ``'-``, ``'@``) so a spreadsheet does not run a cell; the
    loader takes that apostrophe off, anywhere in the file, and leaves every other one (issue 29 item 6: the
    cells are looked at only when the file's text holds such a pair)."""
    text = HEADER + (
        "g1,guess,'-40 degrees: which year was the coldest?,1942,,,,,Gray's\n"
        "c1,choice,What's '=1+1?,'=2,'+3,'@4,'five,,\n"
    )
    bank = load_bank(write(tmp_path, "inert.csv", text))
    assert bank.guess[0].text == "-40 degrees: which year was the coldest?" and bank.guess[0].source == "Gray's"
    assert (bank.choice[0].text, bank.choice[0].answer, bank.choice[0].wrong) == ("What's '=1+1?", "=2",
                                                                                  ("+3", "@4", "'five"))
    plain = load_bank(write(tmp_path, "plain.csv", GOOD))  # apostrophes, none before a formula character
    assert plain.guess[0].source == "Gray's Anatomy"


def test_good_file_loads_with_every_field(tmp_path: Path) -> None:
    bank = load_bank(write(tmp_path, "mini.csv", GOOD))

    assert bank.name == "mini"
    assert bank.warnings == ()
    assert bank.guess == (
        GuessQuestion("g1", "How many bones has an adult human?", 206, category="body", source="Gray's Anatomy"),
        GuessQuestion("mini:4", "Year of the Moon landing?", 1969, category="history", source="NASA"),
    )
    assert bank.choice == (
        ChoiceQuestion(
            "c1",
            "Capital of <b>Australia</b>, officially?",
            "Canberra",
            ("Sydney", "Melbourne", "Perth"),
            category="geo",
        ),
    )


def test_bom_file_is_read_like_plain_utf8(tmp_path: Path) -> None:
    path = write(tmp_path, "bom.csv", GOOD.replace("Perth", "Perth – WA"), encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")

    bank = load_bank(path)

    assert [question.id for question in bank.guess] == ["g1", "bom:4"]
    assert bank.choice[0].wrong == ("Sydney", "Melbourne", "Perth – WA")


def test_header_names_ignore_case_spaces_and_order(tmp_path: Path) -> None:
    text = " Answer ,QUESTION,Type,Wrong_3,wrong_2,WRONG_1\n7,Days in a week?,guess,,,\nB,Pick?,Choice,D,C,A\n"

    bank = load_bank(write(tmp_path, "loose.csv", text))

    assert bank.guess == (GuessQuestion("loose:2", "Days in a week?", 7),)
    assert bank.choice == (ChoiceQuestion("loose:3", "Pick?", "B", ("A", "C", "D")),)


def test_digits_only_guess_answers_with_spaces_around(tmp_path: Path) -> None:
    rows = "".join(f"guess,Q{n}?,{answer},,,\n" for n, answer in enumerate(["0", " 42 ", "007", "123456789012"]))
    text = "type,question,answer,wrong_1,wrong_2,wrong_3\n" + rows + "choice,C?,a,b,c,d\n"
    path = write(tmp_path, "numbers.csv", text)

    assert [question.answer for question in load_bank(path).guess] == [0, 42, 7, 123456789012]


# ---------------------------------------------------------------- problems


def test_every_problem_of_a_file_is_reported_at_once_sorted_by_row_then_column(tmp_path: Path) -> None:
    text = (
        "id,type,question,answer,wrong_1,wrong_2,wrong_3,notes\n"  # 1: unknown column
        "a1,gues,What?,1,,,,\n"  # 2: unknown type
        "a1,,Who?,x,,,,\n"  # 3: duplicate id, empty type
        ",guess,,1 000,w,,,\n"  # 4: empty question, bad number, ignored wrong_1
        ",choice,Capital of France?,Paris,,PARIS , paris,\n"  # 5: empty wrong_1, repeats
        ",guess,capital of  FRANCE?,12,,,,\n"  # 6: same question as row 5
        ",choice,Q?," + "x" * 61 + ",b,c,d,\n"  # 7: long option
        ",choice," + "q" * 201 + ",a,b,c,d,\n"  # 8: long question
    )
    problems = check_bank_file(write(tmp_path, "many.csv", text))

    assert [(p.row, p.column, p.severity, p.message) for p in problems] == [
        (1, "notes", "warning", "unknown column 'notes' is ignored (known columns: type, question, answer, "
         "wrong_1, wrong_2, wrong_3, category, difficulty, source, fact, id)"),
        (2, "type", "error", "unknown type 'gues' (expected 'guess' or 'choice')"),
        (3, "id", "error", "duplicate id 'a1': rows 2 and 3"),
        (3, "type", "error", "type is empty (expected 'guess' or 'choice')"),
        (4, "question", "error", "question is empty"),
        (4, "answer", "error", "guess answer '1 000' is not a whole number >= 0 (write digits only, e.g. 1000)"),
        (4, "wrong_1", "warning", "guess questions have no wrong options; this cell is ignored"),
        (5, "wrong_1", "error", "wrong_1 is empty (a choice question needs its answer and 3 wrong options)"),
        (5, "wrong_2", "error", "option 'PARIS' repeats answer (the 4 options must all differ)"),
        (5, "wrong_3", "error", "option 'paris' repeats answer (the 4 options must all differ)"),
        (6, "question", "warning", "same question as row 5"),
        (7, "answer", "warning", "option is 61 characters long; more than 60 does not fit on an answer button"),
        (8, "question", "warning", "question is 201 characters long; more than 200 is too long to read on a projector"),
    ]


def test_rows_are_spreadsheet_rows_across_multiline_cells_and_blank_rows(tmp_path: Path) -> None:
    text = (
        "type,question,answer,wrong_1,wrong_2,wrong_3\n"
        'guess,"How many\nlines\nhere?",3,,,\n'  # row 2 spans three lines
        "\n"  # row 3 is blank: skipped, still counted
        "choice,Pick one,a,b,c,\n"  # row 4
        "guess,x,1,2,3,4,5\n"  # row 5: too many cells
        "guess,Negative?,-5,,,\n"  # row 6
    )
    problems = check_bank_file(write(tmp_path, "lines.csv", text))

    assert [(p.row, p.column, p.message) for p in problems] == [
        (4, "wrong_3", "wrong_3 is empty (a choice question needs its answer and 3 wrong options)"),
        (5, "-", "this row has 7 cells but the header has 6; put a cell that contains a comma in double quotes"),
        (6, "answer", "guess answer '-5' is not a whole number >= 0 (write digits only, e.g. 1000)"),
    ]


def test_multiline_question_text_is_kept(tmp_path: Path) -> None:
    text = 'type,question,answer,wrong_1,wrong_2,wrong_3\nguess,"Two\nlines?",2,,,\nchoice,C?,a,b,c,d\n'

    assert load_bank(write(tmp_path, "ml.csv", text)).guess[0].text == "Two\nlines?"


@pytest.mark.parametrize("answer", ['"1,000"', "1.000", "3.5", "-1", "ten", "١٢"])
def test_guess_answer_must_be_ascii_digits(tmp_path: Path, answer: str) -> None:
    path = write(tmp_path, "n.csv", f"type,question,answer\nguess,How many?,{answer}\n")
    shown = answer.strip('"')

    assert [(p.row, p.column, p.message) for p in check_bank_file(path)] == [
        (2, "answer", f"guess answer {shown!r} is not a whole number >= 0 (write digits only, e.g. 1000)")
    ]


def test_empty_guess_answer(tmp_path: Path) -> None:
    path = write(tmp_path, "n.csv", "type,question,answer\nguess,How many?,  \n")

    assert [str(p) for p in check_bank_file(path)] == [
        f"{path}:2:answer: guess answer is empty (write a whole number, e.g. 1000)"
    ]


def test_missing_required_columns_are_reported_on_row_1(tmp_path: Path) -> None:
    path = write(tmp_path, "cols.csv", "type,text\nchoice,What?\n")

    assert [(p.row, p.column, p.message) for p in check_bank_file(path)] == [
        (1, "text", "unknown column 'text' is ignored (known columns: type, question, answer, wrong_1, wrong_2, "
         "wrong_3, category, difficulty, source, fact, id)"),
        (1, "question", "missing required column 'question'"),
        (1, "answer", "missing required column 'answer'"),
        (1, "wrong_1", "missing column 'wrong_1' (required because the file has choice questions)"),
        (1, "wrong_2", "missing column 'wrong_2' (required because the file has choice questions)"),
        (1, "wrong_3", "missing column 'wrong_3' (required because the file has choice questions)"),
    ]


def test_wrong_columns_are_optional_without_choice_rows(tmp_path: Path) -> None:
    path = write(tmp_path, "guess_only.csv", "type,question,answer\nguess,How many?,3\n")

    assert located(check_bank_file(path)) == [(1, "type", "error")]  # no choice questions in the bank


def test_duplicate_column_and_nameless_column(tmp_path: Path) -> None:
    path = write(tmp_path, "dup.csv", "type,question,answer,Answer,\nguess,Q?,1,2,note\n")

    assert [(p.row, p.column, p.severity, p.message) for p in check_bank_file(path)] == [
        (1, "-", "warning", "column 5 has cells but no header; they are ignored"),
        (1, "Answer", "error", "column 'Answer' appears twice; only the first one is read"),
    ]


@pytest.mark.parametrize(
    ("content", "row", "message"),
    [
        (b"", 1, "the file is empty; expected a header row such as type,question,answer,wrong_1,wrong_2,wrong_3"),
        (b"\xef\xbb\xbf \n", 1, "the file is empty; expected a header row such as type,question,answer,wrong_1,"
         "wrong_2,wrong_3"),
        (b"type,question,answer\n", 1, "no questions: the file has a header but no question rows"),
        (b"type,question,answer\n,,\n", 1, "no questions: the file has a header but no question rows"),
        (b"\ntype,question,answer\n", 1, "row 1 is blank; the header must be the first row"),
        (b'type,question,answer\nguess,Q?,1\nguess,"Open,1\nguess,Q2?,2\n', 3,
         'a quoted cell starting on this row is never closed (a " is missing)'),
    ],
)
def test_unreadable_files_give_one_error(tmp_path: Path, content: bytes, row: int, message: str) -> None:
    path = tmp_path / "broken.csv"
    path.write_bytes(content)

    errors = [p for p in check_bank_file(path) if p.is_error]

    assert [(p.row, p.column, p.message) for p in errors] == [(row, "-", message)]


def test_missing_file_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        check_bank_file(tmp_path / "nope.csv")
    with pytest.raises(FileNotFoundError):
        load_bank(tmp_path / "nope.csv")


def test_problem_str_is_file_row_column_message() -> None:
    assert str(BankProblem("a.csv", 3, "answer", "bad")) == "a.csv:3:answer: bad"
    assert str(BankProblem("a.csv", 1, "notes", "odd", "warning")) == "a.csv:1:notes: warning: odd"


# ---------------------------------------------------------------- load_bank


def test_load_bank_raises_with_every_error_and_no_warning(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.csv", "type,question,answer,x\ngues,Q?,1,\nguess,,z,\n")

    with pytest.raises(BankError) as caught:
        load_bank(path)

    assert isinstance(caught.value, ValueError)
    assert str(caught.value).splitlines() == [
        f"{path}:2:type: unknown type 'gues' (expected 'guess' or 'choice')",
        f"{path}:3:question: question is empty",
        f"{path}:3:answer: guess answer 'z' is not a whole number >= 0 (write digits only, e.g. 1000)",
    ]
    assert [p.row for p in caught.value.problems] == [2, 3, 3]


def test_warnings_are_kept_on_the_bank(tmp_path: Path) -> None:
    path = write(tmp_path, "warn.csv", GOOD.replace("1969,,", "1969,oops,"))

    assert load_bank(path).warnings == (
        f"{path}:4:wrong_1: warning: guess questions have no wrong options; this cell is ignored",
    )


def test_several_files_merge_in_order(tmp_path: Path) -> None:
    first = write(tmp_path, "first.csv", "type,question,answer\nguess,G1?,1\nguess,G2?,2\n")
    second = write(tmp_path, "second.csv", "type,question,answer,wrong_1,wrong_2,wrong_3\nchoice,C?,a,b,c,d\n"
                   "guess,G3?,3,,,\n")

    bank = load_bank([first, str(second)])

    assert bank.name == "first+second"
    assert [q.id for q in bank.guess] == ["first:2", "first:3", "second:3"]
    assert [q.id for q in bank.choice] == ["second:2"]
    assert load_bank([first, second], name="mine").name == "mine"


def test_duplicate_id_across_files_names_both_files(tmp_path: Path) -> None:
    first = write(tmp_path, "a.csv", "id,type,question,answer\nq1,guess,G?,1\nq2,guess,H?,2\n")
    second = write(tmp_path, "b.csv", "type,question,answer,wrong_1,wrong_2,wrong_3,id\nchoice,C?,a,b,c,d,q2\n")

    with pytest.raises(BankError) as caught:
        load_bank([first, second])

    assert [str(p) for p in caught.value.problems] == [
        f"{second}:2:id: duplicate id 'q2': {first} row 3 and {second} row 2"
    ]


def test_a_bank_needs_both_kinds(tmp_path: Path) -> None:
    path = write(tmp_path, "choice.csv", "type,question,answer,wrong_1,wrong_2,wrong_3\nchoice,C?,a,b,c,d\n")

    with pytest.raises(BankError, match="the bank has no guess questions"):
        load_bank(path)


def test_load_bank_needs_a_path() -> None:
    with pytest.raises(ValueError, match="no question bank files given"):
        load_bank([])


def test_unknown_builtin_bank_lists_the_available_ones() -> None:
    with pytest.raises(ValueError, match=r"no built-in question bank 'klingon' \(available: "):
        load_builtin_bank("klingon")


# ---------------------------------------------------------------- CLI


def test_cli_check_clean_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "mini.csv", GOOD)

    assert main(["bank", "check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{path}: OK, 3 questions (1 choice, 2 guess)"]


def test_cli_check_warnings_only_succeeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "mini.csv", GOOD.replace("category,", "categry,"))

    assert main(["bank", "check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{path}:1:categry: warning: unknown column 'categry' is ignored")
    assert out[1:] == [f"{path}: OK, 3 questions (1 choice, 2 guess), 1 warning"]


def test_cli_check_errors_in_several_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.csv", GOOD)
    bad = write(tmp_path, "bad.csv", "id,type,question,answer,hint\ng1,guess,Q?,1.5,\n")

    assert main(["bank", "check", str(good), str(bad)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{bad}:1:hint: warning: unknown column 'hint' is ignored (known columns: type, question, answer, "
        "wrong_1, wrong_2, wrong_3, category, difficulty, source, fact, id)",
        f"{bad}:2:id: duplicate id 'g1': {good} row 2 and {bad} row 2",
        f"{bad}:2:answer: guess answer '1.5' is not a whole number >= 0 (write digits only, e.g. 1000)",
        "2 files: 2 errors, 1 warning",
    ]


def test_cli_missing_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.csv"

    assert main(["bank", "check", str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"triviador-nb: error: cannot read {missing}: No such file or directory\n"


@pytest.mark.parametrize("argv", [[], ["bank"], ["bank", "check"], ["bank", "explode", "x.csv"]])
def test_cli_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "usage: triviador-nb" in capsys.readouterr().err


def test_cli_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bank", "check", "--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: triviador-nb bank check [-h] FILE [FILE ...]")


# ---------------------------------------------------------------- shipped bank


@pytest.mark.skipif(not SHIPPED_BANK.exists(), reason="question_banks/general_knowledge_en.csv not written yet")
def test_shipped_bank_loads_cleanly() -> None:
    assert [str(p) for p in check_bank_file(SHIPPED_BANK) if p.is_error] == []
    bank = load_builtin_bank()

    assert "general_knowledge_en" in builtin_bank_names()
    assert bank.name == "general_knowledge_en"
    assert len(bank.choice) >= 80
    assert len(bank.guess) >= 60
    assert [q.id for q in bank.guess if not q.source] == []


def test_control_characters_in_a_bank_are_replaced_with_a_warning_naming_file_row_and_column(tmp_path):
    """Issue 25: a Word line break (\\x0b) and ESC were accepted silently, then broke Save report."""
    path = tmp_path / "pasted.csv"
    path.write_text("type,question,answer,wrong_1,wrong_2,wrong_3\n"
                    "guess,How many counties\x0bhas Hungary?,19,,,\n"
                    "choice,Capital\x1b of Hungary?,Budapest,Pest,Buda\x07,Szeged\n"
                    "guess,Year of the revolution?,1848,,,\n"
                    "choice,Second?,A,B,C,D\n", encoding="utf-8")
    bank = load_bank(path)
    said = "a line or page break by a space, the others removed; they show as nothing and a spreadsheet cannot hold them"
    assert list(bank.warnings) == [
        f"{path}:2:question: warning: control characters replaced (U+000B (a line break from Word)): {said}",
        f"{path}:3:question: warning: control characters replaced (U+001B (ESC)): {said}",
        f"{path}:3:wrong_2: warning: control characters replaced (U+0007): {said}",
    ]
    assert [q.text for q in bank.guess][0] == "How many counties has Hungary?"
    assert bank.choice[0].text == "Capital of Hungary?" and bank.choice[0].wrong == ("Pest", "Buda", "Szeged")
