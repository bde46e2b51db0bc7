"""Importers for question bank formats teachers already have.

:func:`import_file` recognises a file by its content (never by its name) and
turns it into rows in the project's columns (see
:mod:`triviador_nb.banks.csv_bank`), with problems located in the source
file's own terms:

* ``kahoot`` - Kahoot's xlsx template: a header row (row 8 in the template,
  found anywhere in the first 20 rows) with Question, Answer 1-4, Time limit
  and Correct answer(s) (answer numbers, ``2`` or ``1,3``). Rows are the row
  numbers Excel shows; columns are the header names (``Answer 2``).
* ``quizizz`` - Quizizz's xlsx template: Question Text, Question Type,
  Option 1-5, Correct Answer (option number), Time in seconds, Image Link.
  Multiple Choice (and Checkbox with one correct option) become choice
  questions, Fill-in-the-Blank with a whole-number answer a guess question.
* ``blooket`` - Blooket's CSV: a banner row, then Question #, Question Text,
  Answer 1-4, Time Limit (sec), Correct Answer(s) (answer numbers).
* ``gimkit`` - Gimkit's CSV: Question, Correct Answer, Incorrect Answer 1-3
  (a whole-number Correct Answer with no incorrect answers is a guess
  question).
* ``gift`` - Moodle GIFT: ``{=right ~wrong ~wrong ~wrong}`` is a choice
  question, ``{#1822}`` a guess question (a tolerance ``{#1822:5}`` is
  accepted with a warning that it is ignored). ``//`` comments, ``::title::``,
  ``[html]``-style format tags, feedback after ``#``, ``$CATEGORY:`` lines
  (their last part becomes the category) and the escapes ``\\= \\~ \\# \\{
  \\} \\: \\\\ \\n`` are understood. Rows are line numbers (a question's
  first line); columns are ``-``.
* ``aiken`` - Moodle Aiken: a question line, options ``A. ...`` or
  ``A) ...``, then ``ANSWER: B``. Rows are line numbers.
* ``moodle_xml`` - Moodle XML (``<quiz>``): :mod:`triviador_nb.banks.moodle_xml`.
* ``qti`` - QTI 1.2 and 2.x, a zip (Canvas, Blackboard) or one XML file:
  :mod:`triviador_nb.banks.qti`.
* ``quizlet`` - a Quizlet export, ``term TAB definition`` lines:
  :mod:`triviador_nb.banks.quizlet`.

Which one a file is, is told by :mod:`triviador_nb.banks.detect`
(:func:`~triviador_nb.banks.detect.xml_kind`, ``is_qti_package``,
``is_quizlet``) and the header search here; an XML file of another kind (an
IMS manifest alone, a QTI 3.0 item, Canvas' quiz settings) is one error
saying what it is and what to give instead.

Spreadsheet formats (the xlsx and CSV ones) are recognised from their header
row, so a Kahoot sheet saved as CSV works too; CSV files are decoded and
split by :mod:`triviador_nb.banks.detect`. A row that cannot be a game
question (a true/false, essay, matching, typing or poll question, 2 or 3
answers, several correct answers...) is skipped with a warning naming its row,
its first words and why (:func:`skipped`); the rest loads. Only a file that
cannot be read at all is an error here.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import Callable
from datetime import date, datetime, time
from pathlib import Path

import pandas as pd

from triviador_nb.banks.detect import Decoded, XmlKind, decode, is_qti_package, is_quizlet, sniff_delimiter, xml_kind
from triviador_nb.banks.html_text import html_text_and_images, html_to_text
from triviador_nb.banks.imported import (BANK_FILES, COLUMNS, TRUE_FALSE, TYPING, Imported, empty_rows as _empty_rows,
                                         failed, skipped)
from triviador_nb.banks.moodle_xml import import_moodle_xml
from triviador_nb.banks.problems import WHOLE_ROW, BankProblem, Severity
from triviador_nb.banks.qti import import_qti_package, import_qti_xml
from triviador_nb.banks.quizlet import import_quizlet

HEADER_SEARCH_ROWS = 20
FORMATS = ("kahoot", "quizizz", "blooket", "gimkit", "gift", "aiken", "moodle_xml", "qti", "quizlet")


# ---------------------------------------------------------------- detection


def detect_format(path: str | Path) -> str:
    """``"csv"`` (the project's format, also the default) or one of :data:`FORMATS` (``"xlsx"`` or
    ``"xls"`` for a workbook that cannot be imported, ``"xml"`` for an XML file of another kind)."""
    imported = import_file(path)
    return "csv" if imported is None else imported.format


def _text_format(text: str, head: list[list[str]]) -> str:
    """``csv`` (a project header on row 1, or nothing else recognised), ``quizlet``, ``gift`` or ``aiken``."""
    if head and {"type", "question", "answer"} <= {cell.lower() for cell in head[0]}:
        return "csv"
    if is_quizlet(text) and not {"question", "answer"} & {cell.lower() for cell in head[0]}:
        return "quizlet"
    if _GIFT_BLOCK.search(_escaped(_without_gift_comments(text))):
        return "gift"
    if _AIKEN_ANSWER.search(text) and _AIKEN_OPTION.search(text):
        return "aiken"
    return "csv"


def import_file(path: str | Path, file: str | None = None) -> Imported | None:
    """Import a file in a foreign format; None when it is (or defaults to) a project CSV.

    ``file`` is the name used in problems (default ``str(path)``).
    """
    path = Path(path)
    return import_data(path.read_bytes(), str(path) if file is None else file)


def import_data(data: bytes, file: str, decoded: Decoded | None = None) -> Imported | None:
    """Like :func:`import_file` for a file whose bytes (and perhaps decoded text) were already read."""
    if data.startswith(b"\xd0\xcf\x11\xe0"):  # the old binary Excel format
        return failed("xls", file, "an old .xls workbook, which cannot be read: save it as .xlsx or CSV")
    if data.startswith(b"PK\x03\x04") and is_qti_package(data):  # Canvas, Blackboard, QTI 2.1
        return import_qti_package(data, file)
    if data.startswith(b"PK\x03\x04"):
        try:
            records = _xlsx_records(data)
        except Exception as exc:  # openpyxl raises many kinds for damaged workbooks
            return failed("xlsx", file, f"cannot read the workbook: {exc}")
        found = _find_header(records)
        if not found:
            return failed(
                "xlsx", file, "an xlsx workbook, but its first sheet has no Kahoot header (Question, Answer 1-4, "
                "Correct answer(s)) or Quizizz header (Question Text, Option 1-5, Correct Answer) in its first "
                f"{HEADER_SEARCH_ROWS} rows; or save it as CSV in the project's columns",
            )
        return _import_sheet(file, records, *found)
    text = (decoded or decode(data)).text
    xml = xml_kind(text)
    if xml is not None:
        return _import_xml(xml, data, text, file)
    head = _csv_records(text, HEADER_SEARCH_ROWS)
    found = _find_header(head)
    if found:
        return _import_sheet(file, _csv_records(text), *found)
    kind = _text_format(text, head)
    if kind == "quizlet":
        return import_quizlet(text, file)
    if kind == "gift":
        return _import_gift(file, text)
    if kind == "aiken":
        return _import_aiken(file, text)
    return None


def _import_xml(xml: XmlKind, data: bytes, text: str, file: str) -> Imported:
    """A Moodle XML or QTI file, or one error saying what the XML file is."""
    source = data if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<") else text.encode("utf-8")  # UTF-16
    if xml.format == "moodle_xml":
        return import_moodle_xml(source, file)
    if xml.format == "qti":
        return import_qti_xml(source, file)
    return failed("xml", file, f"this is {xml.what}; a question bank is {BANK_FILES}")


# ---------------------------------------------------------------- spreadsheets


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).upper()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    return str(value).strip()


def _xlsx_records(data: bytes) -> list[list[str]]:
    """The first sheet's cells as text, one list per Excel row (row 1 first, blank rows kept)."""
    from openpyxl import load_workbook

    workbook = load_workbook(io.BytesIO(data), data_only=True)  # from the bytes: any file name
    try:
        sheet = workbook.worksheets[0]
        return [
            [_cell_text(value) for value in row]
            for row in sheet.iter_rows(min_row=1, max_row=sheet.max_row, values_only=True)
        ]
    finally:
        workbook.close()


_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+\Z")
"""A line as io.StringIO(newline="") reads it: ended by \\r\\n, \\r or \\n, or the text's end."""


def _csv_records(text: str, limit: int | None = None) -> list[list[str]]:
    """The first ``limit`` (default all) CSV records, one per spreadsheet row (blank: ``[]``), cells stripped."""
    # the first records only: the lines io.StringIO(text, newline="") yields, without copying all the text
    lines = io.StringIO(text, newline="") if limit is None else (match[0] for match in _LINE.finditer(text))
    reader = csv.reader(lines, delimiter=sniff_delimiter(text))
    try:
        return [[cell.strip() for cell in record] for record in itertools.islice(reader, limit)]
    except csv.Error:
        return []


def _key(name: str) -> str:
    """A header cell's comparable name: first line, before ' - ', no (...) parts, lower case."""
    first = name.strip().split("\n")[0]
    first = re.split(r"\s+[-–]\s+", first)[0]
    first = re.sub(r"\([^)]*\)", "", first)
    return " ".join(first.lower().split())


def _label(name: str) -> str:
    """A header cell as named in problems: its first line before ' - '."""
    return re.split(r"\s+[-–]\s+", name.strip().split("\n")[0])[0].strip()


_SIGNATURES = (
    ("kahoot", {"question", "answer 1", "answer 2", "correct answer"}),
    ("blooket", {"question text", "answer 1", "answer 2", "correct answer"}),
    ("quizizz", {"question text", "option 1", "option 2", "correct answer"}),
    ("gimkit", {"question", "correct answer", "incorrect answer 1"}),
)


def _find_header(records: list[list[str]]) -> tuple[str, int] | None:
    """(format, 0-based header record index) of the first record with a known header."""
    for place, record in enumerate(records[:HEADER_SEARCH_ROWS]):
        keys = {_key(cell) for cell in record if cell}
        for kind, signature in _SIGNATURES:
            if signature <= keys:
                return kind, place
    return None


class _Sheet:
    """Collects one imported spreadsheet's rows and problems."""

    def __init__(self, kind: str, file: str, header: list[str]) -> None:
        self.kind = kind
        self.file = file
        self.place: dict[str, int] = {}
        self.labels: dict[str, str] = {}
        for place, name in enumerate(header):
            key = _key(name)
            if key and key not in self.place:
                self.place[key] = place
                self.labels[key] = _label(name)
        self.header = [_label(name) for name in header]
        self.records: dict[int, dict[str, str]] = {}
        self.problems: list[BankProblem] = []
        self.columns: dict[tuple[int, str], str] = {}

    def cell(self, record: list[str], key: str) -> str:
        place = self.place.get(key)
        return record[place] if place is not None and place < len(record) else ""

    def problem(self, row: int, key: str, message: str, severity: Severity = "error") -> None:
        self.problems.append(BankProblem(self.file, row, self.labels.get(key, key), message, severity))

    def skip(self, row: int, key: str, reason: str, record: list[str]) -> None:
        """Leave the row out, with a warning naming its first words and ``reason``."""
        self.problem(row, key, skipped(self.cell(record, _QUESTION_KEYS[self.kind]), reason), "warning")

    def add(self, row: int, kind: str, question: tuple[str, str], options: list[tuple[str, str]]) -> None:
        """Keep a row: ``question`` and ``options`` are (header key, text); the answer first."""
        record = dict.fromkeys(COLUMNS, "")
        record["type"] = kind
        record["question"] = question[1]
        self.columns[(row, "question")] = self.labels.get(question[0], question[0])
        for column, (key, text) in zip(("answer", "wrong_1", "wrong_2", "wrong_3"), options):
            record[column] = text
            self.columns[(row, column)] = self.labels.get(key, key)
        self.records[row] = record

    def result(self) -> Imported:
        rows = pd.DataFrame.from_dict(self.records, orient="index", columns=list(COLUMNS), dtype=object)
        return Imported(self.kind, self.header, rows if self.records else _empty_rows(), self.problems, self.columns)

    def choice(self, row: int, question_key: str, option_keys: list[str], correct_key: str, record: list[str],
               what: str = "answers") -> None:
        """A row with numbered options and a "correct answer numbers" cell."""
        options = [(key, self.cell(record, key)) for key in option_keys]
        filled = [(key, text) for key, text in options if text]
        correct_text = self.cell(record, correct_key)
        numbers = [part for part in re.split(r"[\s,;]+", correct_text) if part]
        bad = [part for part in numbers if not _is_digits(part) or not 1 <= int(part) <= len(options)]
        if len(filled) == 1 and (not numbers or numbers == [str(option_keys.index(filled[0][0]) + 1)]):
            if _is_digits(filled[0][1]):  # a typing question with a whole-number answer: a guess question
                self.add(row, "guess", (question_key, self.cell(record, question_key)), filled)
            else:
                self.skip(row, WHOLE_ROW, TYPING, record)
            return
        reasons: list[tuple[str, str]] = []
        if not numbers:
            reasons.append((correct_key, f"no correct answer given (write the number of the right {what[:-1]}, "
                                         f"1-{len(options)})"))
        elif bad:
            reasons.append((correct_key, f"correct answer {correct_text!r} is not a list of {what[:-1]} numbers "
                                         f"1-{len(options)}"))
        elif len(numbers) > 1:
            reasons.append((correct_key, f"{len(numbers)} correct answers ({correct_text}); "
                                         "a game's question has exactly one"))
        elif not options[int(numbers[0]) - 1][1]:
            reasons.append((correct_key, f"correct answer {numbers[0]} points at an empty {what[:-1]}"))
        if len(filled) != 4:
            reasons.insert(0, (WHOLE_ROW, _wrong_count(len(filled), [text for _, text in filled], what)))
        for key, reason in reasons:
            self.skip(row, key, reason, record)
        if not reasons:
            right = options[int(numbers[0]) - 1]
            self.add(row, "choice", (question_key, self.cell(record, question_key)),
                     [right, *(option for option in filled if option != right)])


def _wrong_count(count: int, texts: list[str], what: str = "answers") -> str:
    """Why a question with ``count`` options (``texts``) cannot be played."""
    if count == 2 and {text.casefold() for text in texts} in ({"true", "false"}, {"yes", "no"}):
        return TRUE_FALSE
    return f"{count} {what if count != 1 else what[:-1]}: a game needs 4 options"


def _import_sheet(file: str, records: list[list[str]], kind: str, header_at: int) -> Imported:
    sheet = _Sheet(kind, file, records[header_at])
    for place, record in enumerate(records[header_at + 1:], start=header_at + 2):
        _IMPORTERS[kind](sheet, place, record)
    return sheet.result()


def _blank(sheet: _Sheet, record: list[str], keys: list[str]) -> bool:
    return not any(sheet.cell(record, key) for key in keys)


def _four_answer_row(question: str) -> Callable[[_Sheet, int, list[str]], None]:
    """The row importer of a sheet with Answer 1-4 and Correct Answer(s) columns (Kahoot, Blooket),
    its question in column ``question``."""
    answers = ["answer 1", "answer 2", "answer 3", "answer 4"]

    def import_row(sheet: _Sheet, row: int, record: list[str]) -> None:
        if not _blank(sheet, record, [question, *answers, "correct answer"]):
            sheet.choice(row, question, answers, "correct answer", record)

    return import_row


def _quizizz_row(sheet: _Sheet, row: int, record: list[str]) -> None:
    options = [f"option {number}" for number in range(1, 6)]
    if _blank(sheet, record, ["question text", *options, "correct answer"]):
        return
    if sheet.cell(record, "image link"):
        sheet.problem(row, "image link", "the image is not shown in the game", "warning")
    kind = _key(sheet.cell(record, "question type"))
    if kind in ("multiple choice", "checkbox", ""):
        sheet.choice(row, "question text", options, "correct answer", record, what="options")
    elif kind == "fill-in-the-blank":
        answers = [(key, sheet.cell(record, key)) for key in options if sheet.cell(record, key)]
        if len(answers) == 1 and _is_digits(answers[0][1]):
            sheet.add(row, "guess", ("question text", sheet.cell(record, "question text")), answers)
        else:
            sheet.skip(row, "question type", "Fill-in-the-Blank question: no options and no number (a guess "
                                             "question needs one whole-number answer in Option 1)", record)
    elif kind in ("open-ended", "poll"):
        sheet.skip(row, "question type", f"{sheet.cell(record, 'question type')} question: it has no correct "
                                         "answer", record)
    else:
        sheet.skip(row, "question type", f"unknown question type {sheet.cell(record, 'question type')!r} "
                                         "(expected Multiple Choice, Checkbox or Fill-in-the-Blank)", record)


def _gimkit_row(sheet: _Sheet, row: int, record: list[str]) -> None:
    wrong_keys = ["incorrect answer 1", "incorrect answer 2", "incorrect answer 3"]
    if _blank(sheet, record, ["question", "correct answer", *wrong_keys]):
        return
    question = ("question", sheet.cell(record, "question"))
    right = ("correct answer", sheet.cell(record, "correct answer"))
    wrong = [(key, sheet.cell(record, key)) for key in wrong_keys if sheet.cell(record, key)]
    if not wrong and _is_digits(right[1]):
        sheet.add(row, "guess", question, [right])
    elif not wrong:
        sheet.skip(row, WHOLE_ROW, TYPING, record)
    elif len(wrong) != 3:
        plural = "s" if len(wrong) > 1 else ""
        sheet.skip(row, WHOLE_ROW, f"{len(wrong)} incorrect answer{plural}: a game needs 3 (or none and a "
                                   "whole-number correct answer, for a guess question)", record)
    else:
        sheet.add(row, "choice", question, [right, *wrong])


_QUESTION_KEYS = {"kahoot": "question", "blooket": "question text", "quizizz": "question text",
                  "gimkit": "question"}
_IMPORTERS = {"kahoot": _four_answer_row("question"), "blooket": _four_answer_row("question text"), "quizizz": _quizizz_row, "gimkit": _gimkit_row}


# ---------------------------------------------------------------- text formats


class _Text:
    """Collects one imported text file's questions, keyed by line number."""

    def __init__(self, kind: str, file: str) -> None:
        self.kind = kind
        self.file = file
        self.records: dict[int, dict[str, str]] = {}
        self.problems: list[BankProblem] = []

    def problem(self, line: int, message: str, severity: Severity = "error") -> None:
        self.problems.append(BankProblem(self.file, line, WHOLE_ROW, message, severity))

    def skip(self, line: int, question: str, reason: str) -> None:
        """Leave the question out, with a warning naming its first words and ``reason``."""
        self.problem(line, skipped(question, reason), "warning")

    def add(self, line: int, question: str, answer: str, wrong: list[str] = (), category: str = "") -> None:
        record = dict.fromkeys(COLUMNS, "")
        record.update(type="choice" if wrong else "guess", question=question, answer=answer, category=category)
        record.update(zip(("wrong_1", "wrong_2", "wrong_3"), wrong))
        self.records[line] = record

    def result(self) -> Imported:
        rows = pd.DataFrame.from_dict(self.records, orient="index", columns=list(COLUMNS), dtype=object)
        return Imported(self.kind, [], rows if self.records else _empty_rows(), self.problems)


_ESCAPES = {"\\\\": "\x00", "\\=": "\x01", "\\~": "\x02", "\\#": "\x03", "\\{": "\x04", "\\}": "\x05",
            "\\:": "\x06", "\\n": "\n"}
_UNESCAPES = {"\x00": "\\", "\x01": "=", "\x02": "~", "\x03": "#", "\x04": "{", "\x05": "}", "\x06": ":"}
_GIFT_BLOCK = re.compile(r"\{\s*(?:[=~#]|(?:T|F|TRUE|FALSE)\s*[}#])", re.IGNORECASE)
_AIKEN_ANSWER = re.compile(r"^ANSWER:\s*[A-Za-z]\s*$", re.MULTILINE)
_AIKEN_OPTION = re.compile(r"^([A-Z])[.)]\s+(.*)$", re.MULTILINE)


def _escaped(text: str) -> str:
    return re.sub(r"\\[\\=~#{}:n]", lambda match: _ESCAPES[match[0]], text)


def _unescaped(text: str) -> str:
    return " ".join("".join(_UNESCAPES.get(char, char) for char in text).split())


def _without_gift_comments(text: str) -> str:
    return "\n".join("" if line.lstrip().startswith("//") else line for line in text.splitlines())


def _import_gift(file: str, text: str) -> Imported:
    result = _Text("gift", file)
    category = ""
    block: list[str] = []
    start = 0
    for number, line in enumerate([*text.splitlines(), ""], start=1):
        if line.lstrip().startswith("//"):
            continue
        if line.strip().startswith("$CATEGORY:") and not block:
            category = line.split(":", 1)[1].strip().rstrip("/").split("/")[-1].replace("$course$", "").strip()
            continue
        if line.strip():
            if not block:
                start = number
            block.append(line)
        elif block:
            _gift_question(result, start, "\n".join(block), category)
            block = []
    return result.result()


def _gift_question(result: _Text, line: int, text: str, category: str) -> None:
    text = _escaped(text)
    text = re.sub(r"^\s*::.*?::", "", text, count=1, flags=re.DOTALL)
    markup = _GIFT_MARKUP.match(text)
    if markup:
        text = text[markup.end():]
    html = markup is not None and markup[1] == "html"
    plain = (lambda part: html_to_text(_unescaped(part))) if html else _unescaped
    if html and html_text_and_images(_unescaped(text))[1]:
        result.problem(line, "the question's picture is not shown in the game: check that it can be answered "
                             "without it", "warning")
    opening = text.find("{")
    closing = text.find("}", opening + 1)
    if opening < 0:
        result.problem(line, "text without an answer block {...} is not a question; it is ignored", "warning")
        return
    before, after = plain(text[:opening]), plain(text[closing + 1:]) if closing >= 0 else ""
    question = f"{before} _____ {after}" if after else before
    if closing < 0:
        result.skip(line, question, "the answer block's { is never closed (write \\{ for a literal brace)")
        return
    inside = text[opening + 1:closing].strip()
    if inside.startswith("#"):
        _gift_numeric(result, line, question, inside[1:], category)
    elif re.fullmatch(r"(?:T|F|TRUE|FALSE)\s*(?:#.*)?", inside, re.IGNORECASE | re.DOTALL):
        result.skip(line, question, TRUE_FALSE)
    elif not inside:
        result.skip(line, question, "essay question: it has no answer")
    elif _is_matching(inside):
        result.skip(line, question, "matching question: a game needs one answer and 3 wrong options")
    else:
        _gift_choice(result, line, question, inside, category, plain)


def _gift_answers(inside: str) -> list[tuple[str, float | None, str]]:
    """The answers of a block: ``(mark, weight or None, text)``, each without its ``#`` feedback."""
    answers = []
    for mark, body in re.findall(r"([=~])([^=~]*)", inside):
        body = body.split("#")[0]
        weight = re.match(r"\s*%(-?[\d.]+)%", body)
        try:
            value = float(weight[1]) if weight else None
        except ValueError:  # %1.2.3%
            value = None
        answers.append((mark, value, body[weight.end():] if weight else body))
    return answers


_GIFT_MARKUP = re.compile(r"^\s*\[(html|moodle|plain|markdown)\]")
"""A format tag before a question's text, or before one answer's (``~[plain]blue``)."""


def _gift_answer_text(body: str, plain: Callable[[str], str]) -> str:
    """An answer's text: with its own format tag taken off (and its HTML made text), else as the question's."""
    markup = _GIFT_MARKUP.match(body)
    if markup is None:
        return plain(body)
    rest = body[markup.end():]
    return html_to_text(_unescaped(rest)) if markup[1] == "html" else _unescaped(rest)


def _is_matching(inside: str) -> bool:
    """Matching questions pair ``=a -> b`` inside the braces (``->`` in feedback after ``#`` does not count)."""
    answers = _gift_answers(inside)
    return bool(answers) and all(mark == "=" and "->" in body for mark, _, body in answers)


def _gift_numeric(result: _Text, line: int, question: str, body: str, category: str) -> None:
    body = body.strip()
    if body.startswith("="):  # {#=1821:0 =%50%1822:2}: the full-marks answer is the answer
        answers = _gift_answers(body)
        # ~ answers (a wrong value's feedback, or "~#feedback": Moodle's catch-all) and =%0%... give no marks
        full = [text.strip() for mark, weight, text in answers if mark == "=" and weight in (None, 100)]
        if len(full) != 1:
            result.skip(line, question, f"{len(full)} numeric answers with full marks; a guess question needs "
                                        "exactly one (write {#1822})")
            return
        body = full[0]
    else:
        body = body.split("#")[0].strip()  # feedback follows an unescaped #
    match = re.fullmatch(r"([^:\s]+)(?::\s*(\S+))?", body)
    if not match or ".." in body:
        result.skip(line, question, f"numeric answer {_unescaped(body)!r} is not one whole number >= 0 "
                                    "(write {#1822})")
        return
    value, tolerance = match[1], match[2]
    if not _is_digits(value):
        result.skip(line, question, f"numeric answer {_unescaped(value)!r} is not a whole number >= 0; "
                                    "a guess question needs one")
        return
    if tolerance is not None and tolerance.strip("0.") != "":
        result.problem(line, f"the tolerance :{tolerance} is ignored; the closest guess wins", "warning")
    result.add(line, question, value, category=category)


def _gift_choice(result: _Text, line: int, question: str, inside: str, category: str,
                 plain: Callable[[str], str]) -> None:
    right: list[str] = []
    wrong: list[str] = []
    answers = _gift_answers(inside)
    if not re.search(r"[=~]", inside):  # {Nazareth}: one short answer needs no = (GIFT-grammar-PEG.js)
        answers = [("=", None, inside.split("#")[0])]
    for mark, weight, body in answers:
        if weight is not None and ((mark == "=" and weight != 100) or (mark == "~" and weight > 0)):
            result.skip(line, question, "partial-credit answers (%50%) cannot be played; "
                                        "mark one answer = and three ~")
            return
        (right if mark == "=" else wrong).append(_gift_answer_text(body, plain))
    if not wrong and len(right) == 1 and _is_digits(right[0]):
        result.add(line, question, right[0], category=category)
    elif not wrong:
        result.skip(line, question, "short-answer question: no options and no number (a choice question needs "
                                    "one = answer and three ~ answers; a guess question a whole number {#1822})")
    elif len(right) != 1:
        result.skip(line, question, f"{len(right)} right answers (=); a game's question has exactly one")
    elif len(wrong) != 3:
        result.skip(line, question, TRUE_FALSE if len(wrong) == 1 and {right[0].casefold(), wrong[0].casefold()}
                    in ({"true", "false"}, {"yes", "no"})
                    else f"{len(wrong)} wrong answer{'s' if len(wrong) != 1 else ''} (~): a game needs 3")
    else:
        result.add(line, question, right[0], wrong, category=category)


def _import_aiken(file: str, text: str) -> Imported:
    result = _Text("aiken", file)
    start = 0
    question: list[str] = []
    options: list[tuple[str, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        answer = re.fullmatch(r"ANSWER:\s*(.*)", line)
        option = _AIKEN_OPTION.fullmatch(line)
        if answer and question:
            _aiken_question(result, start, " ".join(question), options, answer[1].strip())
            question, options = [], []
        elif answer:
            result.problem(number, "an ANSWER line without a question before it is ignored", "warning")
        elif option and question:
            options.append((option[1], option[2].strip()))
        else:
            if options:  # a new question although the previous one has no ANSWER line
                result.skip(start, " ".join(question), "the question has no ANSWER: line after its options")
                question, options = [], []
            if not question:
                start = number
            question.append(line)
    if question:
        result.skip(start, " ".join(question), "the question has no ANSWER: line after its options")
    return result.result()


def _aiken_question(result: _Text, line: int, question: str, options: list[tuple[str, str]], answer: str) -> None:
    letters = [letter for letter, _ in options]
    if len(options) != 4:
        result.skip(line, question, _wrong_count(len(options), [text for _, text in options], "options"))
    elif letters != ["A", "B", "C", "D"]:
        result.skip(line, question, f"options are lettered {', '.join(letters)}; expected A, B, C, D")
    elif answer not in letters:
        result.skip(line, question, f"ANSWER: {answer} is not one of the option letters A-D")
    else:
        right = letters.index(answer)
        result.add(line, question, options[right][1], [text for place, (_, text) in enumerate(options)
                                                        if place != right])


def _is_digits(text: str) -> bool:
    """True for ASCII digits only ("²" and "١" pass str.isdigit but are no answer numbers)."""
    return re.fullmatch(r"[0-9]+", text) is not None
