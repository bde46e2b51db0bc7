"""Problems found in a question bank file, and the error raised for them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Iterable
from typing import Literal

Severity = Literal["error", "warning"]

WHOLE_ROW = "-"
"""The ``column`` of a problem about a whole row or the whole file."""


@dataclass(frozen=True)
class BankProblem:
    """One problem in a bank file, located the way a spreadsheet shows it.

    Attributes:
        file: the file as it was given (a path string).
        row: the spreadsheet row number: the header is row 1, the first
            question row 2. Quoted cells spanning several lines still count
            as one row; blank rows count too.
        column: the column's header name, or :data:`WHOLE_ROW` (``"-"``) for the whole row/file.
        message: what is wrong, with what was found.
        severity: ``"error"`` (the bank cannot be loaded) or ``"warning"``.
    """

    file: str
    row: int
    column: str
    message: str
    severity: Severity = "error"

    @property
    def is_error(self) -> bool:
        """True for an error, False for a warning."""
        return self.severity == "error"

    def __str__(self) -> str:
        label = "warning: " if self.severity == "warning" else ""
        return f"{self.file}:{self.row}:{self.column}: {label}{self.message}"


SHOWN_OF_A_KIND = 20
"""How many problems of one kind a report lists before it only counts the rest."""

_VARYING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\d+")


def problem_kind(problem: BankProblem | str) -> str:
    """What problems "like this" share: the text with quoted parts and numbers
    (rows, counts, cell values) left out, so ``row 5: guess answer 'x' is not
    a whole number`` and the same for row 6 and ``'y'`` are one kind."""
    return _VARYING.sub("#", str(problem))


def capped_lines(problems: Iterable[BankProblem | str], shown: int = SHOWN_OF_A_KIND) -> list[str]:
    """The problems one per line, in their order, with at most ``shown`` of
    each kind (:func:`problem_kind`); after the last one shown of a kind comes
    ``... and 99,980 more like this``.

    Accepts problems or their ``str`` (a bank's ``warnings``).
    """
    counts: dict[str, int] = {}
    lines: list[str] = []
    last_shown: dict[str, int] = {}
    for problem in problems:
        kind = problem_kind(problem)
        seen = counts[kind] = counts.get(kind, 0) + 1
        if seen <= shown:
            lines.append(str(problem))
            last_shown[kind] = len(lines) - 1
    more = {last_shown[kind]: count - shown for kind, count in counts.items() if count > shown}
    if not more:
        return lines
    out = []
    for place, line in enumerate(lines):
        out.append(line)
        if place in more:
            out.append(f"... and {more[place]:,} more like this")
    return out


class BankError(ValueError):
    """A bank could not be loaded because of errors in its files.

    Attributes:
        problems: every error found, in report order (file, row, column).
            ``str(error)`` lists them one per line, at most
            :data:`SHOWN_OF_A_KIND` of a kind (see :func:`capped_lines`).
    """

    def __init__(self, problems: Iterable[BankProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(capped_lines(self.problems)))
