"""Moodle XML, Moodle's main question export: written here as Moodle 4 writes it, one question of each core type.

Rows are the questions' numbers in the file (categories not counted); a
problem's column is the question's name. What plays follows D1 (a guess
answer is one whole number >= 0) and D2 (4 options, one right).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from triviador_nb.banks import BankProblem, check_bank_file, load_bank
from triviador_nb.banks.formats import detect_format, import_file
from triviador_nb.cli import main
from triviador_nb.engine.questions import ChoiceQuestion, GuessQuestion


def located(problems: list[BankProblem]) -> list[tuple[int, str, str, str]]:
    return [(problem.row, problem.column, problem.severity, problem.message) for problem in problems]


def question(kind: str, name: str, text: str, inner: str = "", text_format: str = "html") -> str:
    return (f'  <question type="{kind}">\n    <name><text>{name}</text></name>\n'
            f'    <questiontext format="{text_format}"><text><![CDATA[{text}]]></text></questiontext>\n'
            f'    <generalfeedback format="html"><text></text></generalfeedback>\n{inner}  </question>\n')


def answer(fraction: str, text: str, extra: str = "", text_format: str = "html") -> str:
    return (f'    <answer fraction="{fraction}" format="{text_format}"><text><![CDATA[{text}]]></text>'
            f'<feedback format="html"><text>ok</text></feedback>{extra}</answer>\n')


MOODLE_XML = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n<!-- question: 0  -->\n'
    '  <question type="category">\n    <category><text>$course$/top/Default for Geography/Capitals</text>'
    '</category>\n    <info format="html"><text></text></info>\n  </question>\n'
    + question("multichoice", "Capital HU", "<p>What is the capital of <b>Hungary</b>?</p>",
               "    <single>true</single>\n    <shuffleanswers>true</shuffleanswers>\n"
               + answer("100", "<p>Budapest</p>") + answer("0", "Debrecen") + answer("0", "Szeged")
               + answer("0", "P&eacute;cs"))
    + question("multichoice", "Rivers", "Which rivers flow through Hungary?",
               "    <single>false</single>\n" + answer("50", "Danube") + answer("50", "Tisza")
               + answer("-100", "Vltava") + answer("-100", "Rhine"))
    + question("multichoice", "Three options", "Capital of Austria?",
               "    <single>true</single>\n" + answer("100", "Vienna") + answer("0", "Graz") + answer("0", "Linz"))
    + question("numerical", "Chain Bridge", "When was the Chain Bridge opened?",
               answer("100", "1849", "<tolerance>0</tolerance>", "moodle_auto_format")
               + answer("0", "*", "<tolerance>0</tolerance>", "moodle_auto_format")
               + "    <units><unit><multiplier>1</multiplier><unit_name>AD</unit_name></unit></units>\n")
    + question("numerical", "Kekes", "How high is Kékes, in metres?",
               answer("100", "1014.0", "<tolerance>5</tolerance>", "moodle_auto_format"))
    + question("numerical", "Pi", "Pi to two places?",
               answer("100", "3.14", "<tolerance>0.005</tolerance>", "moodle_auto_format"))
    + question("shortanswer", "Legs", "How many legs has a spider?",
               "    <usecase>0</usecase>\n" + answer("100", "8", text_format="moodle_auto_format"))
    + question("shortanswer", "Capital word", "Capital of Slovakia?",
               "    <usecase>0</usecase>\n" + answer("100", "Bratislava", text_format="moodle_auto_format"))
    + question("truefalse", "Danube", "The Danube flows into the Black Sea.",
               answer("100", "true", text_format="moodle_auto_format")
               + answer("0", "false", text_format="moodle_auto_format"))
    + question("matching", "Capitals", "<p>Match each country with its capital.</p>",
               '    <subquestion format="html"><text>Hungary</text><answer><text>Budapest</text></answer>'
               "</subquestion>\n")
    + question("essay", "Essay", "<p>Describe the Danube.</p>", '    <responseformat>editor</responseformat>\n')
    + question("multianswer", "Cloze", "Budapest lies on the {1:SHORTANSWER:=Danube} and has {1:NUMERICAL:=23} "
                                       "districts.")
    + question("calculated", "Area", "What is the area of a {r} m circle?")
    + question("description", "Intro", "<p>The next questions are about rivers.</p>")
    + question("ddwtos", "Drag", "The [[1]] flows through [[2]].")
    + question("gapselect", "Gaps", "The [[1]] is longer than the [[2]].")
    + question("ordering", "Order", "Order the rivers by length.")
    + question("coderunner", "Program", "Write a function that adds two numbers.")
    + question("multichoice", "Bridge picture",
               '<p>Which bridge is this?</p><img src="@@PLUGINFILE@@/bridge.png" alt="">',
               "    <single>true</single>\n" + answer("100", "Chain Bridge") + answer("0", "Elisabeth Bridge")
               + answer("0", "Liberty Bridge") + answer("0", "Margaret Bridge"))
    + "</quiz>\n"
)

SKIPS = [
    (2, "Rivers", "warning", 'skipped "Which rivers flow through Hungary?": several right answers (a multiple-answer '
                             "question): a game's question has exactly one right answer"),
    (3, "Three options", "warning",
     'skipped "Capital of Austria?": 3 options: a game needs 4 (one right answer and 3 wrong ones)'),
    (4, "Chain Bridge", "warning", "names 'chain bridge', the answer of row 19: a game never asks both (a give-away; "
                                   "give both the same fact key if they belong together on purpose, or reword one)"),
    (5, "Kekes", "warning", "the tolerance 5 is ignored; the closest guess wins"),
    (6, "Pi", "warning", "skipped \"Pi to two places?\": numeric answer '3.14' is not a whole number >= 0; a guess "
                         "question needs one"),
    (8, "Capital word", "warning", 'skipped "Capital of Slovakia?": short-answer question: no options and no number '
                                   "(a guess question needs one whole-number answer)"),
    (9, "Danube", "warning", 'skipped "The Danube flows into the Black...": true/false question: a game needs 4 '
                             "options"),
    (10, "Capitals", "warning", 'skipped "Match each country with its capital.": matching question: a game needs one '
                                "answer and 3 wrong options"),
    (11, "Essay", "warning", 'skipped "Describe the Danube.": essay question: it has no answer'),
    (12, "Cloze", "warning", 'skipped "Budapest lies on the {1:SHORTANSWER:=Danube} and...": embedded answers (Cloze) '
                             "question: it has several gaps; a game's question has one answer"),
    (13, "Area", "warning", 'skipped "What is the area of a...": calculated question: its numbers change from '
                            "student to student"),
    (14, "Intro", "warning", 'skipped "The next questions are about rivers.": a description, no question'),
    (15, "Drag", "warning", 'skipped "The [[1]] flows through [[2]].": drag-and-drop question: a game needs one '
                            "answer and 3 wrong options"),
    (16, "Gaps", "warning", 'skipped "The [[1]] is longer than the...": select-missing-words question: it has '
                            "several gaps; a game's question has one answer"),
    (17, "Order", "warning", 'skipped "Order the rivers by length.": ordering question: a game needs one answer and 3 '
                             "wrong options"),
    (18, "Program", "warning", "skipped \"Write a function that adds two...\": 'coderunner' question: only "
                               "multichoice (one right answer, 3 wrong), numerical and short answer (one whole "
                               "number) can be played"),
    (19, "Bridge picture", "warning", "the question's picture is not shown in the game: check that it can be "
                                      "answered without it"),
]


def test_moodle_xml_plays_multichoice_numerical_and_whole_number_short_answers(tmp_path: Path) -> None:
    path = tmp_path / "export.xml"
    path.write_text(MOODLE_XML, encoding="utf-8")

    assert detect_format(path) == "moodle_xml"
    assert located(check_bank_file(path)) == SKIPS
    bank = load_bank(path)
    capitals = {"category": "Capitals"}
    assert bank.choice == (
        ChoiceQuestion("export:1", "What is the capital of Hungary?", "Budapest", ("Debrecen", "Szeged", "Pécs"),
                       **capitals),
        ChoiceQuestion("export:19", "Which bridge is this?", "Chain Bridge",
                       ("Elisabeth Bridge", "Liberty Bridge", "Margaret Bridge"), **capitals),
    )
    assert bank.guess == (
        GuessQuestion("export:4", "When was the Chain Bridge opened?", 1849, **capitals),  # the * catch-all: feedback
        GuessQuestion("export:5", "How high is Kékes, in metres?", 1014, **capitals),  # 1014.0
        GuessQuestion("export:7", "How many legs has a spider?", 8, **capitals),
    )


def test_moodle_xml_was_read_as_csv_or_gift_before_and_is_now_recognised_by_content(tmp_path: Path) -> None:
    path = tmp_path / "moodle_export.gift"  # the name says GIFT; the content is Moodle XML
    path.write_text(MOODLE_XML.replace('<?xml version="1.0" encoding="UTF-8"?>\n', ""), encoding="utf-8")

    assert detect_format(path) == "moodle_xml"
    assert located(check_bank_file(path)) == SKIPS


def test_moodle_xml_in_its_declared_latin1_encoding(tmp_path: Path) -> None:
    path = tmp_path / "latin1.xml"
    path.write_bytes(('<?xml version="1.0" encoding="ISO-8859-1"?>\n<quiz>\n'
                      + question("numerical", "Kékes", "Höhe des Kékes?", answer("100", "1014")) + "</quiz>\n"
                      ).encode("latin-1"))

    imported = import_file(path)
    assert imported.format == "moodle_xml"
    assert imported.rows[["question", "answer"]].values.tolist() == [["Höhe des Kékes?", "1014"]]


@pytest.mark.parametrize(("text", "message"), [
    ("<quiz>\n<question type=\"multichoice\">\n<name><text>a</text></question>\n</quiz>\n",
     "a Moodle XML file, but the XML is damaged at line 3, column 23 (mismatched tag)"),
    ('<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>\n'
     "<quiz><question type=\"essay\"><name><text>&b;</text></name></question></quiz>\n",
     "a Moodle XML file, but the XML declares entities or refers to other files, which are not read (for safety)"),
    ('<quiz>\n  <question type="category"><category><text>$course$/top</text></category></question>\n</quiz>\n',
     "no questions: this Moodle XML file has no <question> of a kind other than category"),
])
def test_a_moodle_xml_file_that_cannot_be_read_is_one_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "broken.xml"
    path.write_text(text, encoding="utf-8")

    assert located(check_bank_file(path)) == [(1, "-", "error", message)]


def test_bank_convert_reads_moodle_xml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "export.xml"
    source.write_text(MOODLE_XML, encoding="utf-8")
    out = tmp_path / "out.csv"

    assert main(["bank", "convert", str(source), str(out)]) == 0

    assert capsys.readouterr().out.splitlines() == [
        *(f"{source}:{row}:{name}: warning: {message}" for row, name, _, message in SKIPS
          if "give-away" not in message),  # the bank-wide search for give-aways is bank check's
        f"{out}: wrote 5 questions (read as Moodle XML)",
    ]
