"""GIFT cases modelled on GIFT-grammar-PEG.js's own test suite (tests/questions/*.gift there).

Run against that suite, the importer read these wrongly: an answer's own
format tag (``~[plain]blue``, ``=[moodle]Nunca.``, ``=[markdown]...``) was
kept in the option's text, and a numeric question's catch-all ``~#feedback``
line counted as a second answer. The inputs below are written here, in the
same shapes; none is copied from that repository. Questions follow D1 (a
guess answer is one whole number >= 0) and D2 (4 options, one correct).
"""

from __future__ import annotations

from pathlib import Path

from triviador_nb.banks import BankProblem, check_bank_file
from triviador_nb.banks.formats import import_file


def located(problems: list[BankProblem]) -> list[tuple[int, str, str]]:
    return [(problem.row, problem.severity, problem.message) for problem in problems]


def rows(path: Path) -> list[tuple[int, str, str, str, list[str]]]:
    imported = import_file(path)
    assert imported is not None and imported.format == "gift"
    return [(line, row["type"], row["question"], row["answer"], [row["wrong_1"], row["wrong_2"], row["wrong_3"]])
            for line, row in imported.rows.iterrows()]


def test_an_answers_own_format_tag_is_not_part_of_its_text(tmp_path: Path) -> None:
    path = tmp_path / "tags.gift"
    path.write_text(
        "// like totara_moodle_multichoice.gift: [plain] before one answer\n"
        "::Q2:: Which colour lies between orange and green?\n"
        "{\n"
        "    =yellow # right\n"
        "    ~red # [html]no, it's yellow\n"
        "    ~[plain]blue # no\n"
        "    ~[plain]violet\n"
        "}\n"
        "\n"
        "// like mcHTMLComment.gift: [moodle] answers in an [html] question, then #### general feedback\n"
        "::P079::[html]<p>When may the <b>prosecutor</b> order a search?</p>{\n"
        "\t~[moodle]When the judge is absent.\n"
        "\t~[moodle]For terrorism.\n"
        "\t=[moodle]Never.\n"
        "\t~[html]<p>Always &amp; <em>everywhere</em></p>\n"
        "\t####<p>Article 5 \\: see the <a href\\=\"x\">statute</a></p>\n"
        "}\n"
        "\n"
        "// like type_inferred_multiline_markdown.gift: [markdown] on an answer over two lines\n"
        "[markdown]stem line1  \n"
        "stem line2{\n"
        "    =answer1 line1  \n"
        "answer1 line2\n"
        "    ~[markdown]answer2 line1  \n"
        "answer2 line2\n"
        "    ~answer3\n"
        "    ~answer4\n"
        "}\n",
        encoding="utf-8",
    )

    assert rows(path) == [
        (2, "choice", "Which colour lies between orange and green?", "yellow", ["red", "blue", "violet"]),
        (11, "choice", "When may the prosecutor order a search?", "Never.",
         ["When the judge is absent.", "For terrorism.", "Always & everywhere"]),
        (20, "choice", "stem line1 stem line2", "answer1 line1 answer1 line2",
         ["answer2 line1 answer2 line2", "answer3", "answer4"]),
    ]
    assert check_bank_file(path)[-1].message.startswith("the bank has no guess questions")


def test_a_numeric_catch_all_feedback_line_is_no_second_answer(tmp_path: Path) -> None:
    path = tmp_path / "numeric.gift"
    path.write_text(
        "// Moodle exports the '*' catch-all of a numerical question as ~#feedback\n"
        "::Q5:: What is a number from 1 to 5? {#\n"
        "=3:2\n"
        "~#Completely wrong}\n"
        "\n"
        "::Q6:: Legs of a spider? {#=8 ~#Count again ~7}\n",
        encoding="utf-8",
    )

    assert rows(path) == [(2, "guess", "What is a number from 1 to 5?", "3", ["", "", ""]),
                          (6, "guess", "Legs of a spider?", "8", ["", "", ""])]  # ~7: a wrong value's feedback
    assert located(import_file(path).problems) == [(2, "warning", "the tolerance :2 is ignored; the closest guess wins")]


def test_one_short_answer_needs_no_equals_sign(tmp_path: Path) -> None:
    path = tmp_path / "short.gift"
    path.write_text(
        "// like shortAnswer2.gift: one correct short answer without =\n"
        "How do you write the number 1 in words? {One}\n"
        "\n"
        "When was the Chain Bridge opened? {1849}\n"
        "\n"
        "Which is right? {=a ~b}\n",
        encoding="utf-8",
    )

    assert rows(path) == [(4, "guess", "When was the Chain Bridge opened?", "1849", ["", "", ""])]
    assert located(import_file(path).problems) == [
        (2, "warning", 'skipped "How do you write the number...": short-answer question: no options and no '
                       "number (a choice question needs one = answer and three ~ answers; a guess question a "
                       "whole number {#1822})"),
        (6, "warning", 'skipped "Which is right?": 1 wrong answer (~): a game needs 3'),
    ]
