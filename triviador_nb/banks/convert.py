"""Convert any bank file :mod:`csv_bank` can read into the project's CSV format."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from triviador_nb.banks import csv_bank
from triviador_nb.banks.problems import BankProblem
from triviador_nb.exports import inert_row

OUTPUT_COLUMNS = ("id", "type", "question", "answer", "wrong_1", "wrong_2", "wrong_3", "category", "difficulty",
                  "source")


def convert_bank_file(path: str | Path) -> tuple[str | None, list[BankProblem]]:
    """The file as project CSV text (None when it has errors) and every problem of the file.

    The text has the header :data:`OUTPUT_COLUMNS`, commas, ``\\n`` line ends
    and minimal quoting; write it as UTF-8. Every cell is written
    :func:`~triviador_nb.exports.inert` (``=HYPERLINK(...)`` as
    ``'=HYPERLINK(...)``), which the project's reader undoes, so the file
    loads back as it was converted. Rows the game cannot use are left out
    (their warnings are among the problems). Ids the loader made up
    (``<stem>:<row>``) are left empty, so the new file numbers its own rows.
    Only the file's own problems count: a file with only choice (or only
    guess) questions converts fine.

    Raises:
        FileNotFoundError: the file does not exist.
    """
    path = Path(path)
    sheet = csv_bank._check_file(path, [])
    if any(problem.is_error for problem in sheet.problems):
        return None, sheet.problems
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(OUTPUT_COLUMNS)
    for row, record in sheet.rows.iterrows():
        record = dict(record)
        if record["id"] == f"{path.stem}:{row}":
            record["id"] = ""
        record["type"] = record["kind"]
        writer.writerow(inert_row(record[column] for column in OUTPUT_COLUMNS))
    return out.getvalue(), sheet.problems
