"""Problems found in a question bank file, and the error raised for them."""

from __future__ import annotations

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


class BankError(ValueError):
    """A bank could not be loaded because of errors in its files.

    Attributes:
        problems: every error found, in report order (file, row, column).
            ``str(error)`` lists them one per line.
    """

    def __init__(self, problems: Iterable[BankProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))
