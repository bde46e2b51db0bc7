"""Reading a text bank file's cells into a table of strings.

Two readers, one result:

* pyarrow's CSV reader reads a well-formed file (every row as wide as the
  header, quotes closed) - several times faster than pandas' for a bank of
  100,000 questions, on all cores;
* pandas' C parser reads any file pyarrow rejects, or may misread, and says
  what is wrong with it: the rows with more cells than the header, a quote
  never closed (pyarrow would read the rest of the file into that cell).

Both give the same table for a file both accept (tests check this on
generated files): header row included, every cell a ``str`` (missing cells
``""``) stripped like ``str.strip``, columns numbered from 0, and the index
the spreadsheet row (header = 1, blank rows counted).
"""

from __future__ import annotations

import io
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as arrow_csv
from pandas.errors import EmptyDataError, ParserError, ParserWarning

from triviador_nb.banks.detect import DELIMITER_NAMES, Decoded, decode, sniff_delimiter
from triviador_nb.banks.problems import WHOLE_ROW, BankProblem

EXPECTED_HEADER = "type,question,answer,wrong_1,wrong_2,wrong_3"

_SKIPPED_LINE = re.compile(r"Skipping line (\d+): expected (\d+) fields, saw (\d+)")
_OPEN_QUOTE = re.compile(r"EOF inside string starting at row (\d+)")
_LINE_END = re.compile(r"[\r\n]")


def read_table(
    path: Path, file: str, data: bytes | None = None, decoded: Decoded | None = None
) -> tuple[pd.DataFrame | None, list[BankProblem]]:
    """The file's cells and the problems met reading them.

    Args:
        path: the file (read only when ``data`` is not given).
        file: its label in problems.
        data: its bytes, when already read.
        decoded: its text, when already decoded (:func:`detect.decode`).

    Returns:
        ``(table, problems)``: the table as the module docstring describes,
        or None when nothing can be read (an empty file, a blank first row, a
        quote never closed); rows with more cells than the header are left out
        of the table and reported, one problem each.
    """
    if data is None:
        data = path.read_bytes()
    if decoded is None:
        decoded = decode(data)  # UTF-8, else cp1250 or cp1252/latin-1 (see detect)
    text = decoded.text
    if not text or text.isspace():
        return None, [BankProblem(file, 1, WHOLE_ROW, f"the file is empty; expected a header row such as {EXPECTED_HEADER}")]
    delimiter = sniff_delimiter(text)
    # pandas' verdicts stand where the two would differ: a blank first row, NUL characters (pandas ends a cell there)
    fast = text[0] not in "\r\n" and "\x00" not in text
    table = _arrow_cells(_utf8(data, decoded), delimiter, text) if fast else None
    if table is not None:
        return table, []
    return _pandas_cells(data, decoded, file, delimiter)


def _utf8(data: bytes, decoded: Decoded) -> bytes:
    if decoded.encoding == "utf-8":
        return data
    if decoded.encoding == "utf-8-sig":
        return data[3:]
    return decoded.text.encode("utf-8", "surrogatepass")


def _arrow_cells(utf8: bytes, delimiter: str, text: str) -> pd.DataFrame | None:
    """The cells as pyarrow reads them, or None when pyarrow rejects the file (pandas then tells why)."""
    line_end = _LINE_END.search(text)
    width = text.count(delimiter, 0, line_end.start() if line_end else len(text)) + 1  # at least the header's width (quoted delimiters add a few)
    try:
        table = arrow_csv.read_csv(
            io.BytesIO(utf8),
            read_options=arrow_csv.ReadOptions(autogenerate_column_names=True),
            parse_options=arrow_csv.ParseOptions(
                delimiter=delimiter, newlines_in_values=True, ignore_empty_lines=False
            ),
            convert_options=arrow_csv.ConvertOptions(
                column_types={f"f{place}": pa.string() for place in range(width)},
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if any(column.type != pa.string() for column in table.columns):  # a header cell with a newline
        return None
    if table.num_rows and _may_end_in_open_quote(text, table.column(table.num_columns - 1)[-1].as_py()):
        return None
    cells = table.to_pandas(deduplicate_objects=False)  # one str per cell, as pandas' reader makes them
    cells.columns = range(table.num_columns)
    cells.index = pd.RangeIndex(1, len(cells) + 1)
    for place, column in enumerate(table.columns):
        maybe = _may_need_strip(column)
        if len(maybe):
            values = cells[place].to_numpy(copy=True)
            values[maybe] = [value.strip() for value in values[maybe]]
            cells[place] = values
    return cells


def _may_end_in_open_quote(text: str, last: str) -> bool:
    """Whether the file's last cell, read by pyarrow as ``last``, may be a quoted cell never closed.

    pyarrow reads a quote left open as a cell running to the end of the file
    (pandas reports it): the text then ends with the quote and the cell as
    written, quotes doubled. A cell that was closed, or never quoted, ends the
    text otherwise (except a cell of quotes only, which pandas reads then).
    """
    return text.endswith('"' + last.replace('"', '""'))


WHITESPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + (
    "\u2028\u2029\u202f\u205f\u3000"
)
"""Exactly the characters ``str.isspace`` accepts, i.e. what ``str.strip`` removes (a test checks it)."""

WHITESPACE_UTF8 = tuple(char.encode() for char in WHITESPACE)

# the bytes that start (end) a whitespace character in UTF-8
_FIRST_BYTES = np.zeros(256, dtype=bool)
_FIRST_BYTES[[code[0] for code in WHITESPACE_UTF8]] = True
_LAST_BYTES = np.zeros(256, dtype=bool)
_LAST_BYTES[[code[-1] for code in WHITESPACE_UTF8]] = True


def _may_need_strip(column: pa.ChunkedArray) -> np.ndarray:
    """The places of the cells whose first or last byte may belong to a whitespace character
    (every cell ``str.strip`` would change, and a few more), read off pyarrow's buffers."""
    found = []
    start = 0
    for chunk in column.chunks:
        offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32)[chunk.offset:chunk.offset + len(chunk) + 1]
        data = np.frombuffer(chunk.buffers()[2], dtype=np.uint8) if chunk.buffers()[2] else np.zeros(0, np.uint8)
        filled = np.flatnonzero(offsets[1:] > offsets[:-1])
        edge = _FIRST_BYTES[data[offsets[filled]]] | _LAST_BYTES[data[offsets[filled + 1] - 1]]
        found.append(filled[edge] + start)
        start += len(chunk)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def _pandas_cells(
    data: bytes, decoded: Decoded, file: str, delimiter: str
) -> tuple[pd.DataFrame | None, list[BankProblem]]:
    """The cells as pandas reads them, with the rows it had to skip reported."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ParserWarning)
        try:
            source, encoding = _csv_source(data, decoded)
            table = pd.read_csv(
                source,
                encoding=encoding,
                sep=delimiter,
                header=None,
                dtype=str,
                keep_default_na=False,
                skip_blank_lines=False,
                on_bad_lines="warn",
            )
        except EmptyDataError:  # the text is not blank, so its first line is
            return None, [BankProblem(file, 1, WHOLE_ROW, "row 1 is blank; the header must be the first row")]
        except ParserError as exc:
            return None, [_parse_problem(file, exc)]
    too_long = _too_long_rows(file, caught, delimiter)
    skipped = {problem.row for problem in too_long}
    if skipped:
        table.index = [row for row in range(1, len(table) + len(skipped) + 1) if row not in skipped]
    else:
        table.index = pd.RangeIndex(1, len(table) + 1)
    return _stripped(table), too_long


_SPACE_BY_NUL = re.compile(r"\x00(?:\s|(?<=\s\x00))")  # starts with a literal: a fast scan


def _stripped(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with missing cells made ``""`` and every cell ``str.strip``-ed; columns without a
    cell to fill or strip are kept as they are.

    A column needs stripping when, its cells joined by NULs, whitespace
    touches a NUL or an end (``\\s`` matches exactly ``str.isspace``).
    """
    for column in table.columns:
        cells = table[column]
        try:
            joined = "\x00".join(cells.tolist())
        except TypeError:  # a missing cell (NaN: a row shorter than the header)
            cells = table[column] = cells.fillna("")
            joined = "\x00".join(cells.tolist())
        if joined[:1].isspace() or joined[-1:].isspace() or _SPACE_BY_NUL.search(joined):
            table[column] = cells.map(str.strip)
    return table


def _csv_source(data: bytes, decoded: Decoded) -> tuple[io.IOBase, str | None]:
    """What ``read_csv`` reads: UTF-8 files as their bytes (pandas' fastest path), others as decoded text."""
    if decoded.encoding == "utf-8":
        return io.BytesIO(data), "utf-8"
    if decoded.encoding == "utf-8-sig":
        return io.BytesIO(data[3:]), "utf-8"
    return io.StringIO(decoded.text), None


def _too_long_rows(file: str, caught: list[warnings.WarningMessage], delimiter: str = ",") -> list[BankProblem]:
    """The rows pandas skipped (``on_bad_lines="warn"``) for having too many cells."""
    messages = "\n".join(str(warning.message) for warning in caught if issubclass(warning.category, ParserWarning))
    return [
        BankProblem(
            file,
            int(row),
            WHOLE_ROW,
            f"this row has {saw} cells but the header has {expected}; "
            f"put a cell that contains a {DELIMITER_NAMES[delimiter]} in double quotes",
        )
        for row, expected, saw in _SKIPPED_LINE.findall(messages)
    ]


def _parse_problem(file: str, exc: ParserError) -> BankProblem:
    unclosed = _OPEN_QUOTE.search(str(exc))
    if unclosed:  # pandas counts rows from 0
        return BankProblem(
            file, int(unclosed[1]) + 1, WHOLE_ROW, 'a quoted cell starting on this row is never closed (a " is missing)'
        )
    return BankProblem(file, 1, WHOLE_ROW, f"cannot read the file as CSV: {exc}")
