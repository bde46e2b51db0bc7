"""Moodle XML, Moodle's main question export (``<quiz><question type="...">...``).

What becomes a game question (D1, D2):

* ``multichoice`` with ``<single>true</single>``: the answer with fraction
  100 is the answer, the three with fraction <= 0 the wrong options (other
  counts are skipped, as in every format: the game's multiple-choice
  question has exactly 4 options, one right);
* ``numerical``: its one full-marks answer, a whole number >= 0 (``1873`` or
  ``1873.0``), is a guess question's answer; a tolerance is ignored with a
  warning, and answers without marks (Moodle's ``*`` catch-all) are feedback;
* ``shortanswer`` with one full-marks answer that is a whole number: a guess
  question, as in GIFT.

Every other question (true/false, essay, matching, multiple-answer,
Cloze, calculated, drag-and-drop, ...) is skipped with a warning naming it.
``<question type="category">`` entries set the category of the questions
after them (the last part of the path). Rows are the questions' numbers in
the file (categories not counted) and each problem's column is the
question's ``<name>`` (:class:`~triviador_nb.banks.imported.Numbered`).
Texts in ``html`` format are made plain (:mod:`html_text`); a picture is
warned about.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element

from triviador_nb.banks.html_text import html_text_and_images
from triviador_nb.banks.imported import (ESSAY, MATCHING, MULTI_ANSWER, PARTIAL_CREDIT, TRUE_FALSE, Imported, Numbered,
                                         failed, options_reason, plain_text, whole_number)
from triviador_nb.banks.xml_read import XmlError, all_text, child, children, parse_xml

PICTURE = "the question's picture is not shown in the game: check that it can be answered without it"
_OTHER_TYPES = {
    "truefalse": TRUE_FALSE,
    "essay": ESSAY,
    "matching": MATCHING,
    "randomsamatch": "random short-answer matching question: " + MATCHING.split(": ", 1)[1],
    "multianswer": "embedded answers (Cloze) question: it has several gaps; a game's question has one answer",
    "calculated": "calculated question: its numbers change from student to student",
    "calculatedsimple": "calculated question: its numbers change from student to student",
    "calculatedmulti": "calculated multiple-choice question: its numbers change from student to student",
    "description": "a description, no question",
    "ddwtos": "drag-and-drop question: " + MATCHING.split(": ", 1)[1],
    "ddimageortext": "drag-and-drop question: " + MATCHING.split(": ", 1)[1],
    "ddmarker": "drag-and-drop question: " + MATCHING.split(": ", 1)[1],
    "gapselect": "select-missing-words question: it has several gaps; a game's question has one answer",
    "ordering": "ordering question: a game needs one answer and 3 wrong options",
    "random": "a random question from a category, no question of its own",
}
_PLAYABLE_TYPES = ("multichoice", "numerical", "shortanswer")
PLAYABLE = "only multichoice (one right answer, 3 wrong), numerical and short answer (one whole number) can be played"


def import_moodle_xml(data: bytes, file: str) -> Imported:
    """The questions of a Moodle XML file (its bytes: the XML's own encoding declaration is followed).

    Returns an :class:`Imported` of format ``moodle_xml``; a file that is no
    well-formed XML is one error (with line and column).
    """
    try:
        root = parse_xml(data)
    except XmlError as exc:
        return failed("moodle_xml", file, f"a Moodle XML file, but {exc}")
    result = Numbered("moodle_xml", file)
    category = ""
    number = 0
    for question in children(root, "question"):
        kind = question.get("type", "")
        if kind == "category":
            path = all_text(child(question, "category"))
            category = path.rstrip("/").split("/")[-1].replace("$course$", "").replace("$system$", "").strip()
            continue
        number += 1
        _question(result, number, question, kind, category)
    if number == 0:
        result.problem(1, "", "no questions: this Moodle XML file has no <question> of a kind other than category",
                       "error")
    return result.result()


def _text(result: Numbered, row: int, name: str, element: Element | None, warn: bool = False,
          default: str = "") -> str:
    """The plain text of a ``<questiontext>`` (``html`` unless it says otherwise) or ``<answer>`` (``html``
    only when it says so): HTML made text (a picture warned about when ``warn``), other formats as
    written, whitespace runs as one space."""
    if element is None:
        return ""
    node = child(element, "text")
    text = "" if node is None else "".join(node.itertext())
    if element.get("format", default) == "html":
        text, pictures = html_text_and_images(text)
        if warn and (pictures or child(element, "file") is not None):
            result.problem(row, name, PICTURE)
    return plain_text(text)


def _question(result: Numbered, row: int, question: Element, kind: str, category: str) -> None:
    name = all_text(child(child(question, "name"), "text"))
    text = _text(result, row, name, child(question, "questiontext"), warn=kind in _PLAYABLE_TYPES,
                 default="html")
    answers = [(_fraction(answer), _text(result, row, name, answer), answer) for answer in children(question, "answer")]
    if kind == "multichoice":
        if all_text(child(question, "single")).lower() in ("false", "0"):
            result.skip(row, name, text, MULTI_ANSWER)
            return
        if any(0 < fraction < 100 for fraction, _, _ in answers):
            result.skip(row, name, text, PARTIAL_CREDIT)
            return
        right = [answer for fraction, answer, _ in answers if fraction >= 100]
        wrong = [answer for fraction, answer, _ in answers if fraction <= 0]
        reason = options_reason(right, wrong)
        if reason:
            result.skip(row, name, text, reason)
        else:
            result.add(row, name, text, right[0], wrong, category)
    elif kind in ("numerical", "shortanswer"):
        full = [(answer, element) for fraction, answer, element in answers if fraction >= 100]
        number = whole_number(full[0][0]) if len(full) == 1 else None
        if number is None:
            result.skip(row, name, text, _guess_reason(kind, [answer for answer, _ in full]))
            return
        tolerance = all_text(child(full[0][1], "tolerance"))
        if tolerance.strip("0.") != "":
            result.problem(row, name, f"the tolerance {tolerance} is ignored; the closest guess wins")
        result.add(row, name, text, number, category=category)
    else:
        result.skip(row, name, text, _OTHER_TYPES.get(kind, f"{kind!r} question: {PLAYABLE}"))


def _guess_reason(kind: str, full: list[str]) -> str:
    if len(full) != 1:
        return f"{len(full)} answers with full marks; a guess question needs exactly one whole number"
    if kind == "shortanswer":
        return ("short-answer question: no options and no number (a guess question needs one whole-number "
                "answer)")
    return f"numeric answer {full[0]!r} is not a whole number >= 0; a guess question needs one"


def _fraction(answer: Element) -> float:
    """An answer's marks in percent (``fraction="100"``, ``"33.33333"``); unreadable ones count as 0."""
    try:
        return float(answer.get("fraction", "0"))
    except ValueError:
        return 0.0
