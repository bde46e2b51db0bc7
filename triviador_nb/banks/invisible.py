"""Invisible characters in a bank's cells: found, named and taken out.

Zero-width spaces and joiners, the word joiner, a stray byte-order mark and
the soft hyphen (:data:`INVISIBLE`) show as nothing, yet make two texts
differ: four answer buttons reading "Paris" may be four different options to
the computer, and a guess answer ``18<U+200B>22`` is no number. Every cell
holding one has them removed, with a warning naming them; the checks then
see the text a player sees (so such options are reported as the same).

Control characters (:data:`CONTROL`: a line break pasted from Word is
``\x0b``, ESC, NUL in a workbook...) show as nothing on screen and break a
report's spreadsheet: a line or page break becomes a space, the others are
removed, each cell with a warning naming its file, row and column (the row
is kept).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate

import pandas as pd

from triviador_nb.banks.problems import BankProblem

INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
"""ZERO WIDTH SPACE, ZERO WIDTH NON-JOINER, ZERO WIDTH JOINER, WORD JOINER,
ZERO WIDTH NO-BREAK SPACE (the BOM) and SOFT HYPHEN."""

JOINERS = "\u200c\u200d"
"""The two of :data:`INVISIBLE` that written languages and emoji need
(``👨\u200d👩\u200d👧`` is one family, Persian and Indic words use the
non-joiner): they are removed only at the ends of a cell or beside ASCII
(``Par\u200dis``), where they do nothing but make texts differ."""

CONTROL = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f"
"""The control characters taken out of a cell (a regular-expression class): C0 but tab, line feed and
carriage return; DEL."""
_CONTROL = re.compile(f"[{CONTROL}]")
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_BREAKS = re.compile("[\x0b\x0c]")
_CONTROL_NAMES = {"\x00": "NUL", "\x0b": "a line break from Word", "\x0c": "a page break", "\x1b": "ESC",
                  "\x7f": "DEL"}

_ALWAYS = "".join(c for c in INVISIBLE if c not in JOINERS)
_FOUND = re.compile(f"[{_ALWAYS}]|(?:^|(?<=[\\x00-\\x7f]))[{JOINERS}]+|[{JOINERS}]+(?=[\\x00-\\x7f]|$)")


def invisible_names(text: str) -> str:
    """The invisible characters of ``text``, each once in order of appearance: ``U+200B ZERO WIDTH SPACE, ...``."""
    found = dict.fromkeys("".join(_FOUND.findall(text)))  # a match may be a run of joiners
    return ", ".join(f"U+{ord(char):04X} {unicodedata.name(char)}" for char in found)


def control_names(text: str) -> str:
    """The control characters of ``text``, each once in order of appearance: ``U+000B (a line break from Word), ...``."""
    found = dict.fromkeys(_CONTROL.findall(text))
    return ", ".join(f"U+{ord(char):04X}" + (f" ({_CONTROL_NAMES[char]})" if char in _CONTROL_NAMES else "")
                     for char in found)


def _strip_control(file: str, column: str, cells: pd.Series, warnings: list[BankProblem]) -> pd.Series | None:
    """``cells`` without control characters (a line or page break: a space), a warning per cell
    changed; None when none holds one."""
    if not _holds_control("".join(cells.tolist())):
        return None
    has = cells.str.contains(_CONTROL)
    for row, text in cells[has].items():
        message = (f"control characters replaced ({control_names(text)}): a line or page break by a space, the "
                   "others removed; they show as nothing and a spreadsheet cannot hold them")
        warnings.append(BankProblem(file, int(row), column, message, "warning"))
    return cells.str.replace(_BREAKS, " ", regex=True).str.replace(_CONTROL, "", regex=True)


def _holds_control(text: str) -> bool:
    """Whether ``text`` holds a :data:`CONTROL` character: its UTF-8 bytes lose some when those are
    deleted (they are ASCII, and no byte of another character's UTF-8 is ASCII). A C-level pass,
    where the regular expression over a joined column took about 50 ms (benchmarks/bank_load.py)."""
    data = text.encode("utf-8", "surrogatepass")
    return len(data.translate(None, _CONTROL_BYTES)) != len(data)


def strip_invisible(file: str, rows: pd.DataFrame,
                    columns: Sequence[str]) -> tuple[pd.DataFrame, pd.DataFrame | None, list[BankProblem]]:
    """``rows`` (indexed by row number, text cells) with :data:`INVISIBLE` and :data:`CONTROL` characters
    taken out of ``columns``.

    Returns:
        ``(clean, before, warnings)``: the rows without invisible and control characters
        (a changed cell is also stripped of surrounding spaces); ``rows`` as
        given when any cell changed, else None; one warning per changed cell,
        by row then column. Only the cells that hold one of :data:`INVISIBLE`
        are searched for those (:func:`cells_holding`).
    """
    changed: dict[str, pd.Series] = {}
    warnings: list[BankProblem] = []
    for column in columns:
        cells = _strip_control(file, column, rows[column], warnings)
        if cells is None:
            cells = rows[column]
        else:
            changed[column] = cells.str.strip()
        texts = cells.tolist()
        found = [place for place in cells_holding(texts, INVISIBLE) if _FOUND.search(texts[place])]
        if not found:
            continue
        for place in found:
            message = f"invisible characters removed ({invisible_names(texts[place])}): they show as nothing but make texts differ"
            warnings.append(BankProblem(file, int(cells.index[place]), column, message, "warning"))
        values = changed.get(column, cells).to_numpy(copy=True)
        values[found] = [_FOUND.sub("", texts[place]).strip() for place in found]
        changed[column] = pd.Series(values, index=cells.index, dtype=object)
    if not changed:
        return rows, None, []
    order = {column: place for place, column in enumerate(columns)}
    warnings.sort(key=lambda problem: (problem.row, order[problem.column]))
    return rows.assign(**changed), rows, warnings


def cells_holding(texts: Sequence[str], characters: str) -> list[int]:
    """The places (sorted) of the ``texts`` that hold any of ``characters``.

    The texts are joined once and each character looked for with ``str.find``
    (a memchr-like scan, and no scan at all in a text too narrow to hold it):
    a column of 100,000 cells without one takes about a millisecond, where a
    regular expression over it took 0.1-1 s (benchmarks/bank_load.py).
    """
    joined = "".join(texts)
    starts = [at for char in characters for at in _occurrences(joined, char)]
    if not starts:
        return []
    ends = list(accumulate(map(len, texts)))
    return sorted({bisect_right(ends, at) for at in starts})


def _occurrences(text: str, char: str) -> Iterator[int]:
    at = text.find(char)
    while at >= 0:
        yield at
        at = text.find(char, at + 1)
