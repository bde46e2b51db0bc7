"""What every importer of another tool's format gives: :class:`Imported` rows in the project's columns.

Shared by :mod:`formats` (spreadsheets, GIFT, Aiken), :mod:`moodle_xml`,
:mod:`qti` and :mod:`quizlet`. A question the game cannot use is left out
with a warning made by :func:`skipped`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pandas as pd

from triviador_nb.banks.problems import WHOLE_ROW, BankProblem, Severity

COLUMNS = ("type", "question", "answer", "wrong_1", "wrong_2", "wrong_3", "category", "difficulty", "source", "fact", "id")
BANK_FILES = ("a CSV or text file (the project's columns, Blooket, Gimkit, GIFT, Aiken, a Quizlet export), "
              "a Moodle XML or QTI file (a QTI zip too) or an xlsx workbook (Kahoot, Quizizz)")
"""What a question bank file can be, as messages say it."""
SKIPPED = "skipped "
"""How every warning about a row left out of the bank begins (see :func:`skipped`)."""
FIRST_WORDS = 6


def first_words(question: str) -> str:
    """The question's first :data:`FIRST_WORDS` words in double quotes, ``...`` when cut."""
    words = question.split()
    if not words:
        return "(a question without text)"
    cut = " ".join(words[:FIRST_WORDS])
    return f'"{cut}..."' if len(words) > FIRST_WORDS else f'"{cut}"'


def skipped(question: str, reason: str) -> str:
    """The message of a row left out: ``skipped "Is the Danube a river?": true/false question: ...``."""
    return f"{SKIPPED}{first_words(question)}: {reason}"


TRUE_FALSE = "true/false question: a game needs 4 options"
TYPING = ("typing question: no options and no number (a game needs 4 options, or one whole number "
          "for a guess question)")


@dataclass
class Imported:
    """One imported file.

    Attributes:
        format: one of :data:`FORMATS`.
        header: the source's column names in order (empty for text formats);
            problems are sorted by their place.
        rows: the question rows in the project's columns (all text), indexed
            by source row/line number. Rows with an import error are left out.
        problems: what the importer found, in source terms.
        columns: ``(row, project column)`` to the source column naming it,
            used to report the project's checks in source terms.
    """

    format: str
    header: list[str] = field(default_factory=list)
    rows: pd.DataFrame | None = None
    problems: list[BankProblem] = field(default_factory=list)
    columns: dict[tuple[int, str], str] = field(default_factory=dict)

    def relabel(self, problem: BankProblem) -> BankProblem:
        """``problem`` with its project column replaced by the source column."""
        column = self.columns.get((problem.row, problem.column))
        if column is None:
            return problem
        message = re.sub(  # "option 'b' repeats wrong_1" names the source column too
            r"(?:(?<= repeats )|(?<= the same as ))(answer|wrong_[123])\b",
            lambda match: self.columns.get((problem.row, match[0]), match[0]),
            problem.message,
        )
        return BankProblem(problem.file, problem.row, column, message, problem.severity)


def empty_rows() -> pd.DataFrame:
    return pd.DataFrame(columns=list(COLUMNS), dtype=object)


MULTI_ANSWER = "several right answers (a multiple-answer question): a game's question has exactly one right answer"
PARTIAL_CREDIT = "partial-credit answers cannot be played: a game's question has one right answer and 3 wrong ones"
ESSAY = "essay question: it has no answer"
MATCHING = "matching question: a game needs one answer and 3 wrong options"


def options_reason(right: list[str], wrong: list[str]) -> str | None:
    """Why one right answer and the wrong ones cannot be a multiple-choice question (D2: 4 options,
    one right), or None when they can."""
    if len(right) != 1:
        return MULTI_ANSWER if right else "no right answer: a game's question has exactly one"
    if len(wrong) == 3:
        return None
    texts = {text.casefold() for text in [*right, *wrong]}
    if len(wrong) == 1 and texts in ({"true", "false"}, {"yes", "no"}):
        return TRUE_FALSE
    count = len(wrong) + 1
    return f"{count} option{'s' if count != 1 else ''}: a game needs 4 (one right answer and 3 wrong ones)"


def whole_number(text: str) -> str | None:
    """``text`` as a guess answer (D1: a whole number >= 0, ASCII digits; ``1873.0`` is ``1873``), or None."""
    text = text.strip()
    if re.fullmatch(r"[0-9]+", text):
        return text
    if re.fullmatch(r"[0-9]+\.0*", text):
        return text.split(".")[0]
    return None


def plain_text(text: str) -> str:
    """Runs of whitespace as one space, ends stripped."""
    return " ".join(text.split())


class Numbered:
    """Collects the questions of a format whose questions have names (Moodle XML, QTI).

    Rows are the questions' numbers in the file (1 = the first question);
    each problem's column is the question's name (``-`` without one), so a
    problem reads ``quiz.xml:3:Capitals: warning: skipped "Match...": why``.
    """

    def __init__(self, kind: str, file: str) -> None:
        self.kind = kind
        self.file = file
        self.records: dict[int, dict[str, str]] = {}
        self.problems: list[BankProblem] = []
        self.columns: dict[tuple[int, str], str] = {}
        self.count = 0  # the questions numbered so far (kept or skipped)

    def problem(self, row: int, name: str, message: str, severity: Severity = "warning") -> None:
        self.problems.append(BankProblem(self.file, row, name or WHOLE_ROW, message, severity))

    def skip(self, row: int, name: str, question: str, reason: str) -> None:
        """Leave the question out, with a warning naming it, its first words and ``reason``."""
        self.problem(row, name, skipped(question, reason))

    def add(self, row: int, name: str, question: str, answer: str, wrong: list[str] | tuple[str, ...] = (),
            category: str = "") -> None:
        """Keep a question: a guess question without ``wrong`` options, else a multiple-choice one."""
        record = dict.fromkeys(COLUMNS, "")
        record.update(type="choice" if wrong else "guess", question=question, answer=answer, category=category)
        record.update(zip(("wrong_1", "wrong_2", "wrong_3"), wrong))
        self.records[row] = record
        self.columns[(row, "question")] = name or WHOLE_ROW

    def result(self) -> Imported:
        rows = pd.DataFrame.from_dict(self.records, orient="index", columns=list(COLUMNS), dtype=object)
        return Imported(self.kind, [], rows if self.records else empty_rows(), self.problems, self.columns)


def failed(kind: str, file: str, message: str) -> Imported:
    """A file that cannot be imported at all: one error on row 1."""
    return Imported(kind, [], empty_rows(), [BankProblem(file, 1, WHOLE_ROW, message)])
