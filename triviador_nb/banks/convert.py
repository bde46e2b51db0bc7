"""Convert any bank file :mod:`csv_bank` can read into the project's CSV format."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

from triviador_nb.banks import csv_bank
from triviador_nb.banks.imported import first_words
from triviador_nb.banks.problems import BankProblem
from triviador_nb.exports import inert_row

OUTPUT_COLUMNS = ("id", "type", "question", "answer", "wrong_1", "wrong_2", "wrong_3", "category", "difficulty",
                  "source")


FORMAT_NAMES = {"csv": "the project's CSV", "kahoot": "a Kahoot xlsx", "quizizz": "a Quizizz xlsx",
                "blooket": "a Blooket CSV", "gimkit": "a Gimkit CSV", "gift": "Moodle GIFT", "aiken": "Moodle Aiken",
                "moodle_xml": "Moodle XML", "qti": "QTI", "quizlet": "a Quizlet export"}
"""How ``bank convert`` names the format it read."""
MADE_UP = ("quizlet",)
"""Formats whose wrong options the importer chooses (``bank convert`` lists those questions)."""


@dataclass(frozen=True)
class Converted:
    """One converted file.

    Attributes:
        text: the project CSV text, or None when the file has errors.
        problems: every problem of the file.
        format: ``"csv"`` or the foreign format read (:data:`FORMAT_NAMES` keys).
        made: for :data:`MADE_UP` formats, one line per question written:
            ``FILE:ROW: "question" -> answer 'x'; wrong 'a', 'b', 'c'``.
    """

    text: str | None
    problems: list[BankProblem]
    format: str = "csv"
    made: list[str] = field(default_factory=list)


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
    converted = convert_bank(path)
    return converted.text, converted.problems


def convert_bank(path: str | Path) -> Converted:
    """Like :func:`convert_bank_file`, with the format read and, for Quizlet, the questions made.

    Raises:
        FileNotFoundError: the file does not exist.
    """
    path = Path(path)
    sheet = csv_bank._check_file(path, [])
    if any(problem.is_error for problem in sheet.problems):
        return Converted(None, sheet.problems, sheet.format)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(OUTPUT_COLUMNS)
    made = []
    for row, record in sheet.rows.iterrows():
        record = dict(record)
        if record["id"] == f"{path.stem}:{row}":
            record["id"] = ""
        record["type"] = record["kind"]
        writer.writerow(inert_row(record[column] for column in OUTPUT_COLUMNS))
        if sheet.format in MADE_UP:
            wrong = ", ".join(repr(record[column]) for column in ("wrong_1", "wrong_2", "wrong_3"))
            made.append(f"{sheet.file}:{row}: {first_words(record['question'])} -> answer {record['answer']!r}; "
                        f"wrong {wrong}")
    return Converted(out.getvalue(), sheet.problems, sheet.format, made)
