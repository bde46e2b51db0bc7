"""Tables written for spreadsheets, with no cell a spreadsheet would run.

A cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
is taken for a formula by Excel, LibreOffice and Google Sheets when a CSV is
opened, and openpyxl writes such a string as a live formula into xlsx. A
question bank or a report can hold any text a student or an author typed, so
every writer of this project passes its cells through :func:`inert`, which
puts a ``'`` before such a cell as OWASP's CSV-injection guidance says
(https://owasp.org/www-community/attacks/CSV_Injection). A plain number
written as text (``-40``, ``+3.5``) is left alone: no spreadsheet runs it, and
a guess question's negative answer must stay a number.

The project's own CSV reader takes the ``'`` off again (see
:func:`restore`), so ``bank convert``'s output loads back unchanged.

Control characters (a Word line break ``\x0b``, NUL, ESC...) are written as
the symbol Unicode draws for them (:func:`visible`: ``␋``, ``␀``, ``␛``, from
the Control Pictures block): xlsx cannot hold them at all (openpyxl refuses
the whole workbook), and in a CSV they are invisible bytes that some
programs stop at. Tab, line feed and carriage return are kept (a cell may
hold lines; CSV quotes them).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable

import pandas as pd

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula."""

_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")

CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""The control characters a spreadsheet cell must not hold: C0 but tab, line feed and carriage return; DEL."""


def visible(text: str) -> str:
    """``text`` with each :data:`CONTROL` character as its Control Pictures
    symbol (U+2400 + its code; DEL is U+2421): ``visible("a\\x0bb") == "a␋b"``,
    NUL is ``␀``, ESC ``␛``."""
    if not CONTROL.search(text):
        return text
    return CONTROL.sub(lambda found: "\u2421" if found.group() == "\x7f" else chr(0x2400 + ord(found.group())), text)


def inert(value: Any) -> Any:
    """``value`` with a ``'`` before it when it is text a spreadsheet would
    run, and its control characters :func:`visible`.

    Only strings change; numbers, None and other values come back as they are.
    ``inert("=HYPERLINK(...)") == "'=HYPERLINK(...)"``, ``inert("-40") == "-40"``,
    ``inert("\\t=1") == "'\\t=1"``, ``inert("Fox\\x0bes") == "Fox␋es"``.
    """
    if not isinstance(value, str):
        return value
    value = visible(value)
    if value.startswith(FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def restore(value: str) -> str:
    """The text :func:`inert` was given: one leading ``'`` taken off when a
    formula character follows it. Used by the project's CSV reader."""
    if value.startswith("'") and value[1:].startswith(FORMULA_START):
        return value[1:]
    return value


def inert_row(values: Iterable[Any]) -> list[Any]:
    """:func:`inert` applied to each value of a row (for ``csv.writer``)."""
    return [inert(v) for v in values]


def inert_table(table: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``table`` with :func:`inert` applied to every text cell, the
    column names and the row labels (the index); numbers are not touched."""
    out = table.copy()
    for position in range(out.shape[1]):  # by position: column names may repeat
        column = out.iloc[:, position]
        if column.dtype == object or pd.api.types.is_string_dtype(column):
            out.isetitem(position, column.map(inert))
    out.columns = [inert(c) for c in out.columns]
    if isinstance(out.index, pd.MultiIndex):  # row labels are written as cells too
        out.index = pd.MultiIndex.from_tuples([tuple(inert(v) for v in key) for key in out.index],
                                              names=[inert(n) for n in out.index.names])
    else:
        out.index = pd.Index([inert(v) for v in out.index], name=inert(out.index.name))
    return out


def write_table(table: pd.DataFrame, path: str | Path, *, sheet: str = "report") -> Path:
    """Write ``table`` to ``path`` as CSV (UTF-8, comma) or xlsx, chosen by the
    suffix, with every text cell made :func:`inert`; no index column.

    Returns:
        The path written.

    Raises:
        ValueError: the suffix is neither ``.csv`` nor ``.xlsx``.
        OSError: the file cannot be written.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise ValueError(f"{path.name}: write a report as .csv or .xlsx, not {path.suffix or 'no suffix'!r}")
    safe = inert_table(table)
    if suffix == ".csv":
        # RFC 4180 line ends, so a carriage return inside a cell is quoted too
        safe.to_csv(path, index=False, lineterminator="\r\n")
    else:
        safe.to_excel(path, index=False, sheet_name=sheet, engine="openpyxl")
    return path


class SafeTable(pd.DataFrame):
    """A pandas DataFrame whose ``to_csv`` and ``to_excel`` write every text
    cell :func:`inert` (the frame itself keeps the text as it is). Reports are
    returned as this type, so ``app.report().to_csv("r.csv")`` is safe too."""

    @property
    def _constructor(self):
        return SafeTable

    def to_csv(self, *args, **kwargs):  # type: ignore[override]
        kwargs.setdefault("lineterminator", "\r\n")  # a CR inside a cell is quoted too
        return pd.DataFrame.to_csv(inert_table(pd.DataFrame(self)), *args, **kwargs)

    def to_excel(self, *args, **kwargs):  # type: ignore[override]
        return pd.DataFrame.to_excel(inert_table(pd.DataFrame(self)), *args, **kwargs)
