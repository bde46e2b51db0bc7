"""QTI: the IMS question format Canvas, Blackboard and many others export (a zip with XML inside).

Read by content (:func:`detect.qti_members`): every XML file in the zip (or a
lone XML file) whose first element is ``<questestinterop>`` (QTI 1.2: Canvas'
"Export quiz as QTI", Blackboard's ``res00001.dat``) or ``<assessmentItem>``
(QTI 2.x, one item a file), taken in the zip's order.

What becomes a game question (D1, D2):

* QTI 1.2 ``<item>`` with one ``<response_lid>`` of single cardinality:
  the options whose ident a scoring condition (``<respcondition>`` setting a
  score above 0, or Blackboard's ``SCORE.max``) accepts are right, the rest
  wrong; one right and 3 wrong are a multiple-choice question. With one
  ``<response_str>``/``<response_num>`` (Canvas' numerical question): the
  accepted value (``<varequal>``, or a ``<vargte>``/``<varlte>`` pair around
  one whole number) is a guess question's answer.
* QTI 2.x ``<assessmentItem>`` with one ``<choiceInteraction>`` (``maxChoices``
  1) and a ``<correctResponse>``: multiple choice; with one
  ``<textEntryInteraction>`` whose correct response is a whole number: a
  guess question.

Other items (matching, essay, multiple answers, fill-in several blanks,
ordering, hotspot, ...) are skipped with a warning naming them. Rows are the
items' numbers in the package (1 = the first) and each problem's column is
the item's title (:class:`~triviador_nb.banks.imported.Numbered`); a QTI 1.2
item's category is its assessment's title.
"""

from __future__ import annotations

import io
import zipfile
from xml.etree.ElementTree import Element

from triviador_nb.banks.detect import qti_members
from triviador_nb.banks.html_text import html_text_and_images
from triviador_nb.banks.imported import (ESSAY, MATCHING, MULTI_ANSWER, TRUE_FALSE, Imported, Numbered, failed,
                                         options_reason, plain_text, whole_number)
from triviador_nb.banks.moodle_xml import PICTURE, PLAYABLE
from triviador_nb.banks.xml_read import XmlError, all_text, child, children, descendants, local, parse_xml

MAX_MEMBER_BYTES = 50 * 2**20
"""A file in the zip larger than this (unpacked) is not read."""
SEVERAL_GAPS = "it has several blanks; a game's question has one answer"
_TYPES_12 = {  # Canvas' question_type, Blackboard's bbmd_questiontype
    "matching_question": MATCHING, "matching": MATCHING,
    "essay_question": ESSAY, "essay": ESSAY, "short response": ESSAY, "file_upload_question": ESSAY,
    "file response": ESSAY,
    "multiple_answers_question": MULTI_ANSWER, "multiple answer": MULTI_ANSWER,
    "true_false_question": TRUE_FALSE, "true/false": TRUE_FALSE, "either/or": TRUE_FALSE,
    "fill_in_multiple_blanks_question": f"fill-in-multiple-blanks question: {SEVERAL_GAPS}",
    "multiple_dropdowns_question": f"multiple-dropdowns question: {SEVERAL_GAPS}",
    "calculated_question": "formula question: its numbers change from student to student",
    "calculated": "calculated question: its numbers change from student to student",
    "text_only_question": "a text, no question",
    "ordering": "ordering question: a game needs one answer and 3 wrong options",
    "hot spot": "hot spot question: the game shows no pictures",
}
_INTERACTIONS_2 = {
    "matchInteraction": MATCHING, "associateInteraction": MATCHING, "gapMatchInteraction": MATCHING,
    "graphicGapMatchInteraction": MATCHING,
    "extendedTextInteraction": ESSAY, "uploadInteraction": ESSAY, "drawingInteraction": ESSAY,
    "orderInteraction": "ordering question: a game needs one answer and 3 wrong options",
    "inlineChoiceInteraction": "drop-down (inline choice) question: a game needs 4 options shown as buttons",
}
_BLOCKS = frozenset({"p", "div", "br", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "prompt", "blockquote"})
_HIDDEN = frozenset({"rubricBlock", "modalFeedback", "feedbackBlock", "feedbackInline", "templateBlock",
                     "stylesheet"})


def import_qti_package(data: bytes, file: str) -> Imported:
    """The questions of a zip holding QTI files (see the module docstring), format ``qti``."""
    result = Numbered("qti", file)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for member in qti_members(archive):
                if archive.getinfo(member).file_size > MAX_MEMBER_BYTES:
                    result.problem(result.count + 1, "", f"{member} in the zip is larger than "
                                   f"{MAX_MEMBER_BYTES // 2**20} MB unpacked; it is not read")
                    continue
                try:
                    _import_root(result, parse_xml(archive.read(member)))
                except XmlError as exc:
                    result.problem(1, "", f"{member} in the zip cannot be read: {exc}", "error")
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError, ValueError) as exc:
        return failed("qti", file, f"a QTI zip, but it cannot be unpacked: {exc}")
    return result.result()


def import_qti_xml(data: bytes, file: str) -> Imported:
    """The questions of one QTI XML file (not zipped), format ``qti``."""
    try:
        root = parse_xml(data)
    except XmlError as exc:
        return failed("qti", file, f"a QTI file, but {exc}")
    result = Numbered("qti", file)
    _import_root(result, root)
    return result.result()


def _import_root(result: Numbered, root: Element) -> None:
    """The items of one QTI file: an ``<assessmentItem>``, or a ``<questestinterop>``'s ``<item>``s."""
    if local(root) == "assessmentItem":
        _item_2(result, _next_row(result), root)
        return
    assessments = list(descendants(root, "assessment")) or [root]
    for assessment in assessments:
        category = plain_text(assessment.get("title", "")) if assessment is not root else ""
        for item in descendants(assessment, "item"):
            _item_12(result, _next_row(result), item, category)


def _next_row(result: Numbered) -> int:
    """The next item's number in the package (items skipped or kept alike)."""
    result.count += 1
    return result.count


# ---------------------------------------------------------------- QTI 1.2


def _material_text(result: Numbered, row: int, name: str, element: Element, warn: bool = False) -> str:
    """The text of the ``<mattext>``/``<mat_formattedtext>`` in ``element`` (HTML made text)."""
    texts = []
    for node in element.iter():
        if local(node) in ("mattext", "mat_formattedtext"):
            raw = "".join(node.itertext())
            kind = (node.get("texttype") or node.get("type") or "").lower()
            if "html" in kind or raw.lstrip().startswith("<"):
                raw, pictures = html_text_and_images(raw)
                if warn and pictures:
                    result.problem(row, name, PICTURE)
            texts.append(raw)
        elif warn and local(node) in ("matimage", "mat_image"):
            result.problem(row, name, PICTURE)
    return plain_text(" ".join(texts))


def _metadata(item: Element) -> dict[str, str]:
    fields = {}
    for field in descendants(item, "qtimetadatafield"):
        fields[all_text(child(field, "fieldlabel")).lower()] = all_text(child(field, "fieldentry"))
    for node in item.iter():  # Blackboard: <bbmd_questiontype>Multiple Choice</bbmd_questiontype>
        if local(node) == "bbmd_questiontype":
            fields["bbmd_questiontype"] = all_text(node)
    return fields


def _accepted(item: Element) -> list[Element]:
    """The ``<conditionvar>`` of each scoring condition that gives marks."""
    found = []
    for condition in descendants(item, "respcondition"):
        marks = [all_text(setvar) for setvar in children(condition, "setvar")]
        if condition.get("title", "").lower() == "correct" or any(_gives_marks(mark) for mark in marks):
            found += children(condition, "conditionvar")
    return found


def _gives_marks(value: str) -> bool:
    if value.upper().endswith(".MAX"):  # Blackboard: SCORE.max
        return True
    try:
        return float(value) > 0
    except ValueError:
        return False


def _values(conditions: list[Element], name: str) -> list[str]:
    """The texts of ``<name>`` tests in ``conditions``, outside ``<not>``."""
    values = []
    for condition in conditions:
        negated = {id(node) for parent in descendants(condition, "not") for node in parent.iter()}
        values += [all_text(node) for node in descendants(condition, name) if id(node) not in negated]
    return values


def _item_12(result: Numbered, row: int, item: Element, category: str) -> None:
    name = plain_text(item.get("title") or item.get("ident") or "")
    presentation = child(item, "presentation")
    responses = [node for node in (presentation.iter() if presentation is not None else ())
                 if local(node).startswith("response_") and local(node) != "response_label"]
    question = _question_12(result, row, name, presentation, responses)
    kinds = _metadata(item)
    kind = (kinds.get("question_type") or kinds.get("bbmd_questiontype") or "").lower()
    if kind in _TYPES_12:
        result.skip(row, name, question, _TYPES_12[kind])
    elif len(responses) != 1:
        result.skip(row, name, question, f"{len(responses)} answer fields: a game's question has one"
                    if responses else "no answer field: a text, no question")
    elif local(responses[0]) == "response_lid":
        _choice_12(result, row, name, question, item, responses[0], category)
    elif local(responses[0]) in ("response_str", "response_num"):
        _numeric_12(result, row, name, question, item, responses[0], kind, category)
    else:
        result.skip(row, name, question, f"QTI {local(responses[0])} item: {PLAYABLE}")


def _question_12(result: Numbered, row: int, name: str, presentation: Element | None,
                 responses: list[Element]) -> str:
    """The item's text: its presentation's material outside the answer fields."""
    if presentation is None:
        return ""
    inside = {id(node) for response in responses for node in response.iter()}
    texts = [_material_text(result, row, name, node, warn=True) for node in presentation.iter()
             if local(node) == "material" and id(node) not in inside]
    return plain_text(" ".join(texts))


def _choice_12(result: Numbered, row: int, name: str, question: str, item: Element, response: Element,
               category: str) -> None:
    if response.get("rcardinality", "Single").lower() != "single":
        result.skip(row, name, question, MULTI_ANSWER)
        return
    accepted = set(_values(_accepted(item), "varequal"))
    labels = list(descendants(response, "response_label"))
    right = [_material_text(result, row, name, label) for label in labels if label.get("ident") in accepted]
    wrong = [_material_text(result, row, name, label) for label in labels if label.get("ident") not in accepted]
    reason = options_reason(right, wrong)
    if reason:
        result.skip(row, name, question, reason)
    else:
        result.add(row, name, question, right[0], wrong, category)


def _numeric_12(result: Numbered, row: int, name: str, question: str, item: Element, response: Element,
                kind: str, category: str) -> None:
    conditions = _accepted(item)
    exact = list(dict.fromkeys(_values(conditions, "varequal")))
    low, high = _values(conditions, "vargte"), _values(conditions, "varlte")
    between = len(low) == 1 and len(high) == 1 and whole_number(low[0]) != whole_number(high[0])
    answer = None
    if len(exact) == 1:  # Canvas: <varequal> the answer, with its margin as a <vargte>/<varlte> pair
        answer = whole_number(exact[0])
    elif not exact and between:
        result.skip(row, name, question, f"a range answer {low[0]}..{high[0]}: a guess question needs one whole "
                                         "number")
        return
    elif not exact and len(low) == 1 and len(high) == 1:
        answer = whole_number(low[0])
    if answer is None:
        numeric = local(response) == "response_num" or "numeric" in kind or "numerical" in kind or any(
            node.get("fibtype", "").lower() in ("integer", "decimal") for node in descendants(response, "render_fib"))
        shown = ", ".join(repr(value) for value in exact) or "none"
        result.skip(row, name, question, (f"numeric answer {shown} is not one whole number >= 0; a guess question "
                                          "needs one") if numeric else
                    "short-answer question: no options and no number (a guess question needs one whole-number "
                    "answer)")
        return
    if between:
        result.problem(row, name, f"the margin {low[0]}..{high[0]} is ignored; the closest guess wins")
    result.add(row, name, question, answer, category=category)


# ---------------------------------------------------------------- QTI 2.x


def _item_2(result: Numbered, row: int, item: Element) -> None:
    name = plain_text(item.get("title") or item.get("identifier") or "")
    body = child(item, "itemBody")
    interactions = [node for node in (body.iter() if body is not None else ())
                    if local(node).endswith("Interaction")]
    question = _body_text(body, interactions[0] if len(interactions) == 1 else None)
    if body is not None and any(local(node) in ("img", "object") for node in body.iter()):
        result.problem(row, name, PICTURE)
    if len(interactions) != 1:
        result.skip(row, name, question, f"{len(interactions)} interactions: a game's question has one answer"
                    if interactions else "no interaction: a text, no question")
        return
    interaction = interactions[0]
    kind = local(interaction)
    declaration = next((node for node in children(item, "responseDeclaration")
                        if node.get("identifier") == interaction.get("responseIdentifier")), None)
    correct = [all_text(value) for value in descendants(child(declaration, "correctResponse"), "value")]
    if kind == "choiceInteraction":
        if interaction.get("maxChoices", "1") != "1" or (declaration is not None and
                                                         declaration.get("cardinality", "single") != "single"):
            result.skip(row, name, question, MULTI_ANSWER)
            return
        choices = list(descendants(interaction, "simpleChoice"))
        right = [_choice_text(choice) for choice in choices if choice.get("identifier") in correct]
        wrong = [_choice_text(choice) for choice in choices if choice.get("identifier") not in correct]
        reason = options_reason(right, wrong)
        if reason:
            result.skip(row, name, question, reason)
        else:
            result.add(row, name, question, right[0], wrong)
    elif kind == "textEntryInteraction":
        answer = whole_number(correct[0]) if len(correct) == 1 else None
        if answer is None:
            numeric = declaration is not None and declaration.get("baseType") in ("integer", "float")
            shown = ", ".join(repr(value) for value in correct) or "none"
            result.skip(row, name, question, (f"numeric answer {shown} is not one whole number >= 0; a guess "
                                              "question needs one") if numeric else
                        "short-answer question: no options and no number (a guess question needs one "
                        "whole-number answer)")
        else:
            result.add(row, name, question, answer)
    else:
        result.skip(row, name, question, _INTERACTIONS_2.get(kind, f"QTI {kind}: {PLAYABLE}"))


def _choice_text(choice: Element) -> str:
    return _body_text(choice, None)


def _body_text(body: Element | None, interaction: Element | None) -> str:
    """The text a player reads: ``body`` without feedback, the interaction's choices left out (its
    prompt kept) and a text entry shown as ``_____``."""
    if body is None:
        return ""
    parts: list[str] = []

    def walk(node: Element, top: bool = False) -> None:
        name = local(node)
        if name in _HIDDEN:
            parts.append(node.tail or "")
            return
        if node is interaction and name != "textEntryInteraction":
            for prompt in children(node, "prompt"):
                parts.append(" " + all_text(prompt) + " ")
        elif node is interaction:
            parts.append(" _____ ")
        else:
            parts.append(" " if name in _BLOCKS else "")
            parts.append(node.text or "")
            for inner in node:
                walk(inner)
            parts.append(" " if name in _BLOCKS else "")
        if not top:
            parts.append(node.tail or "")

    walk(body, top=True)
    return plain_text("".join(parts))
