"""QTI, as Canvas and Blackboard export it (QTI 1.2) and as QTI 2.1 packages hold it: zips written here.

Rows are the items' numbers in the package; a problem's column is the
item's title. What plays follows D1 (one whole number >= 0) and D2 (4
options, one right).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from triviador_nb.banks import BankProblem, check_bank_file
from triviador_nb.banks.convert import convert_bank
from triviador_nb.banks.formats import detect_format, import_file


def located(problems: list[BankProblem]) -> list[tuple[int, str, str, str]]:
    return [(problem.row, problem.column, problem.severity, problem.message) for problem in problems]


def item_12(ident: str, title: str, kind: str, text: str, response: str, scoring: str = "") -> str:
    return (f'<item ident="{ident}" title="{title}"><itemmetadata><qtimetadata><qtimetadatafield>'
            f"<fieldlabel>question_type</fieldlabel><fieldentry>{kind}</fieldentry></qtimetadatafield>"
            f'</qtimetadata></itemmetadata><presentation><material><mattext texttype="text/html">{text}</mattext>'
            f"</material>{response}</presentation><resprocessing>{scoring}</resprocessing></item>\n")


def choices(*texts: str, cardinality: str = "Single") -> str:
    labels = "".join(f'<response_label ident="{100 + place}"><material><mattext texttype="text/plain">{text}'
                     "</mattext></material></response_label>" for place, text in enumerate(texts, start=1))
    return f'<response_lid ident="response1" rcardinality="{cardinality}"><render_choice>{labels}</render_choice>' \
           "</response_lid>"


def scores(*conditions: str) -> str:
    return "".join(f'<respcondition continue="No"><conditionvar>{condition}</conditionvar>'
                   '<setvar action="Set" varname="SCORE">100</setvar></respcondition>' for condition in conditions)


CANVAS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">\n'
    '<assessment ident="g1" title="Geography quiz"><section ident="root_section">\n'
    + item_12("i1", "Capital", "multiple_choice_question", "&lt;div&gt;&lt;p&gt;What is the capital of "
              "Czechia?&lt;/p&gt;&lt;/div&gt;", choices("Brno", "Prague", "Ostrava", "Plzeň"),
              scores('<varequal respident="response1">102</varequal>'))
    + item_12("i2", "Chain Bridge", "numerical_question", "&lt;p&gt;When was the Chain Bridge opened?&lt;/p&gt;",
              '<response_str ident="response1" rcardinality="Single"><render_fib fibtype="Decimal">'
              '<response_label ident="answer1"/></render_fib></response_str>',
              scores('<or><varequal respident="response1">1849.0</varequal><and><vargte respident="response1">'
                     '1849.0</vargte><varlte respident="response1">1849.0</varlte></and></or>'))
    + item_12("i3", "Kekes", "numerical_question", "How high is Kékes, in metres?",
              '<response_str ident="response1" rcardinality="Single"><render_fib fibtype="Decimal"/></response_str>',
              scores('<or><varequal respident="response1">1014</varequal><and><vargte respident="response1">1010'
                     '</vargte><varlte respident="response1">1018</varlte></and></or>'))
    + item_12("i4", "Rivers", "multiple_answers_question", "Which rivers flow through Hungary?",
              choices("Danube", "Tisza", "Vltava", "Rhine", cardinality="Multiple"))
    + item_12("i5", "Countries and capitals", "matching_question", "Match each country with its capital.",
              choices("Budapest") + choices("Vienna"))
    + item_12("i6", "Danube", "true_false_question", "The Danube flows into the Black Sea.",
              choices("True", "False"), scores('<varequal respident="response1">101</varequal>'))
    + item_12("i7", "Essay", "essay_question", "Describe the Danube.",
              '<response_str ident="response1" rcardinality="Single"><render_fib/></response_str>')
    + item_12("i8", "Three options", "multiple_choice_question", "Capital of Austria?",
              choices("Vienna", "Graz", "Linz"), scores('<varequal respident="response1">101</varequal>'))
    + item_12("i9", "Range", "numerical_question", "A year of the 1840s?",
              '<response_str ident="response1" rcardinality="Single"><render_fib fibtype="Decimal"/></response_str>',
              scores('<vargte respident="response1">1840</vargte><varlte respident="response1">1849</varlte>'))
    + "</section></assessment></questestinterop>\n"
)
BLACKBOARD = (  # Blackboard's Export Test: res00001.dat, its options in <flow_mat>, the right one scored SCORE.max
    '<?xml version="1.0" encoding="UTF-8"?>\n<questestinterop><assessment title="Pool 1"><section>'
    "<item title=\"Poland\"><itemmetadata><bbmd_questiontype>Multiple Choice</bbmd_questiontype></itemmetadata>"
    '<presentation><flow class="Block"><flow class="QUESTION_BLOCK"><flow class="FORMATTED_TEXT_BLOCK"><material>'
    '<mat_extension><mat_formattedtext type="HTML">&lt;p&gt;Capital of Poland?&lt;/p&gt;</mat_formattedtext>'
    '</mat_extension></material></flow></flow><flow class="RESPONSE_BLOCK"><response_lid ident="response" '
    'rcardinality="Single"><render_choice>'
    + "".join(f'<flow_label><response_label ident="{ident}"><flow_mat><material><mat_extension><mat_formattedtext '
              f'type="HTML">{text}</mat_formattedtext></mat_extension></material></flow_mat></response_label>'
              "</flow_label>" for ident, text in (("a1", "Kraków"), ("a2", "Warsaw"), ("a3", "Gdańsk"),
                                                  ("a4", "Łódź")))
    + '</render_choice></response_lid></flow></flow></presentation><resprocessing><respcondition title="correct">'
    '<conditionvar><varequal respident="response" case="No">a2</varequal></conditionvar>'
    '<setvar variablename="SCORE" action="Set">SCORE.max</setvar></respcondition><respcondition title="incorrect">'
    '<conditionvar><other/></conditionvar><setvar variablename="SCORE" action="Set">0</setvar></respcondition>'
    "</resprocessing></item></section></assessment></questestinterop>\n"
)


def canvas_zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("imsmanifest.xml", '<?xml version="1.0"?><manifest identifier="m" xmlns='
                         '"http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"><resources/></manifest>')
        archive.writestr("g1/g1.xml", CANVAS)
        archive.writestr("g1/assessment_meta.xml", '<?xml version="1.0"?><quiz identifier="g1" '
                         'xmlns="http://canvas.instructure.com/xsd/cccv1p0"><title>Geography quiz</title></quiz>')
        archive.writestr("res00001.dat", BLACKBOARD)
    return path


def test_a_qti_12_zip_from_canvas_and_blackboard(tmp_path: Path) -> None:
    path = canvas_zip(tmp_path / "canvas_export.zip")

    assert detect_format(path) == "qti"
    assert located(import_file(path).problems) == [
        (3, "Kekes", "warning", "the margin 1010..1018 is ignored; the closest guess wins"),
        (4, "Rivers", "warning", 'skipped "Which rivers flow through Hungary?": several right answers (a '
                                 "multiple-answer question): a game's question has exactly one right answer"),
        (5, "Countries and capitals", "warning", 'skipped "Match each country with its capital.": matching '
                                                 "question: a game needs one answer and 3 wrong options"),
        (6, "Danube", "warning", 'skipped "The Danube flows into the Black...": true/false question: a game needs '
                                 "4 options"),
        (7, "Essay", "warning", 'skipped "Describe the Danube.": essay question: it has no answer'),
        (8, "Three options", "warning", 'skipped "Capital of Austria?": 3 options: a game needs 4 (one right answer '
                                        "and 3 wrong ones)"),
        (9, "Range", "warning", 'skipped "A year of the 1840s?": a range answer 1840..1849: a guess question needs '
                                "one whole number"),
    ]
    converted = convert_bank(path)
    assert converted.format == "qti"
    assert converted.text.splitlines()[1:] == [
        ",choice,What is the capital of Czechia?,Prague,Brno,Ostrava,Plzeň,Geography quiz,,",
        ",guess,When was the Chain Bridge opened?,1849,,,,Geography quiz,,",
        ",guess,\"How high is Kékes, in metres?\",1014,,,,Geography quiz,,",
        ",choice,Capital of Poland?,Warsaw,Kraków,Gdańsk,Łódź,Pool 1,,",
    ]


ITEM_21 = ('<?xml version="1.0" encoding="UTF-8"?>\n<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" '
           'identifier="{id}" title="{title}" adaptive="false" timeDependent="false">{declaration}<itemBody>{body}'
           "</itemBody></assessmentItem>\n")


def declaration(cardinality: str, base: str, *values: str) -> str:
    correct = "".join(f"<value>{value}</value>" for value in values)
    return (f'<responseDeclaration identifier="RESPONSE" cardinality="{cardinality}" baseType="{base}">'
            f"<correctResponse>{correct}</correctResponse></responseDeclaration>")


def simple_choices(*texts: str) -> str:
    return "".join(f'<simpleChoice identifier="{chr(65 + place)}">{text}</simpleChoice>'
                   for place, text in enumerate(texts))


QTI_21 = {
    "items/capital.xml": ITEM_21.format(
        id="capital", title="Capital of Poland", declaration=declaration("single", "identifier", "B"),
        body='<p>Which city is the <b>capital</b> of Poland?</p><choiceInteraction responseIdentifier="RESPONSE" '
             'shuffle="true" maxChoices="1"><prompt>Pick one.</prompt>'
             + simple_choices("Kraków", 'Warsaw<feedbackInline outcomeIdentifier="FEEDBACK" identifier="B">Right'
                                        "</feedbackInline>", "Gdańsk", "Łódź") + "</choiceInteraction>"),
    "items/legs.xml": ITEM_21.format(
        id="legs", title="Spider legs", declaration=declaration("single", "integer", "8"),
        body='<p>A spider has <textEntryInteraction responseIdentifier="RESPONSE" expectedLength="3"/> legs.</p>'),
    "items/pi.xml": ITEM_21.format(
        id="pi", title="Pi", declaration=declaration("single", "float", "3.14"),
        body='<p>Pi to two places: <textEntryInteraction responseIdentifier="RESPONSE"/></p>'),
    "items/rivers.xml": ITEM_21.format(
        id="rivers", title="Rivers", declaration=declaration("multiple", "identifier", "A", "B"),
        body='<choiceInteraction responseIdentifier="RESPONSE" maxChoices="0"><prompt>Which rivers flow through '
             "Hungary?</prompt>" + simple_choices("Danube", "Tisza", "Vltava", "Rhine") + "</choiceInteraction>"),
    "items/order.xml": ITEM_21.format(
        id="order", title="Rivers by length", declaration=declaration("ordered", "identifier", "A", "B"),
        body='<orderInteraction responseIdentifier="RESPONSE"><prompt>Order the rivers by length.</prompt>'
             + simple_choices("Danube", "Tisza") + "</orderInteraction>"),
    "items/match.xml": ITEM_21.format(
        id="match", title="Capitals", declaration=declaration("multiple", "directedPair", "A X"),
        body='<matchInteraction responseIdentifier="RESPONSE"><prompt>Match each country with its capital.'
             "</prompt></matchInteraction>"),
    "tests/test.xml": '<assessmentTest xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="t" title="T"/>',
}


def test_a_qti_21_package(tmp_path: Path) -> None:
    path = tmp_path / "package.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("imsmanifest.xml", '<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"/>')
        for name, text in QTI_21.items():
            archive.writestr(name, text)

    assert detect_format(path) == "qti"
    assert located(import_file(path).problems) == [
        (3, "Pi", "warning", "skipped \"Pi to two places: _____\": numeric answer '3.14' is not one whole number >= 0; "
                             "a guess question needs one"),
        (4, "Rivers", "warning", 'skipped "Which rivers flow through Hungary?": several right answers (a '
                                 "multiple-answer question): a game's question has exactly one right answer"),
        (5, "Rivers by length", "warning", 'skipped "Order the rivers by length.": ordering question: a game needs '
                                           "one answer and 3 wrong options"),
        (6, "Capitals", "warning", 'skipped "Match each country with its capital.": matching question: a game needs '
                                   "one answer and 3 wrong options"),
    ]
    assert convert_bank(path).text.splitlines()[1:] == [
        ",choice,Which city is the capital of Poland? Pick one.,Warsaw,Kraków,Gdańsk,Łódź,,,",
        ",guess,A spider has _____ legs.,8,,,,,,",
    ]


def test_one_qti_21_item_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "legs.xml"
    path.write_text(QTI_21["items/legs.xml"], encoding="utf-8")

    assert detect_format(path) == "qti"
    assert import_file(path).rows[["question", "answer"]].values.tolist() == [["A spider has _____ legs.", "8"]]


NOT_A_BANK = ("a question bank is a CSV or text file (the project's columns, Blooket, Gimkit, GIFT, Aiken, a Quizlet "
              "export), a Moodle XML or QTI file (a QTI zip too) or an xlsx workbook (Kahoot, Quizizz)")


@pytest.mark.parametrize(("name", "text", "what"), [
    ("imsmanifest.xml", '<?xml version="1.0"?>\n<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1">'
                        "</manifest>", "this is an IMS package manifest (imsmanifest.xml), which only lists a "
                                       "package's files: give the whole zip"),
    ("test.xml", QTI_21["tests/test.xml"], "this is a QTI 2 test, which only lists its item files: give the whole zip "
                                           "package (the test with its items)"),
    ("item.xml", '<qti-assessment-item identifier="a" title="b"/>', "this is a QTI 3.0 item, which cannot be read: "
                                                                    "export QTI 2.1 or 1.2 instead"),
    ("assessment_meta.xml", '<quiz identifier="g1" xmlns="http://canvas.instructure.com/xsd/cccv1p0"/>',
     "this is Canvas' quiz settings (assessment_meta.xml), which hold no questions: give the whole QTI zip that "
     "Canvas exported"),
    ("feed.xml", "<rss><channel/></rss>", "this is an XML file whose first element is <rss>"),
])
def test_an_xml_file_that_is_no_bank_says_what_it_is(tmp_path: Path, name: str, text: str, what: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")

    assert located(check_bank_file(path)) == [(1, "-", "error", f"{what}; {NOT_A_BANK}")]


@pytest.mark.parametrize(("members", "what"), [
    ({"imsmanifest.xml": "<manifest/>", "index.html": "<html/>"},
     "an IMS package (SCORM or Common Cartridge) without QTI questions: export the quiz as QTI (Canvas: Export quiz "
     "as QTI; Blackboard: Export test) or Moodle XML"),
    ({"h5p.json": "{}", "content/content.json": "{}"},
     "an H5P package, which cannot be read: export its questions in another format"),
    ({"moodle_backup.xml": "<moodle_backup/>"},
     "a Moodle course backup (.mbz): export the questions from Moodle's question bank as Moodle XML instead"),
])
def test_a_zip_of_another_kind_says_what_it_is(tmp_path: Path, members: dict[str, str], what: str) -> None:
    path = tmp_path / "export.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)

    assert located(check_bank_file(path)) == [
        (1, "-", "error", f"this is not a text file (it looks like {what}); {NOT_A_BANK}")]
