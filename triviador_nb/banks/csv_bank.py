"""Question banks in the project's CSV format: loading and checking every row.

One question per row; columns are found by header name, in any order:

* ``type`` - ``guess`` or ``choice``.
* ``question`` - the text shown to players, kept literally (no markup is
  processed). In every cell, a ``'`` before ``=``, ``+``, ``-``, ``@``, a tab
  or a carriage return is taken off (``bank convert`` writes it so that a
  spreadsheet does not run the cell: :func:`triviador_nb.exports.restore`);
  invisible characters are taken out with a warning (:mod:`invisible`).
* ``answer`` - guess: the correct whole number >= 0, written with digits only
  (``1000``; ``1 000``, ``1,000`` and ``1.000`` are errors, surrounding
  spaces are fine). Choice: the correct option's text.
* ``wrong_1``, ``wrong_2``, ``wrong_3`` - choice: the three wrong options.
  Required as columns only when the file has a choice row.
* ``category``, ``difficulty``, ``source`` - optional metadata.
* ``fact`` - optional: questions with the same key (in any file of the bank)
  are never both asked in one game (the same fact in another language, or a
  question that gives another away; :mod:`triviador_nb.engine.related`).
* ``id`` - optional; an empty id becomes ``<file stem>:<row>`` (``<file>:<row>``
  when an earlier file of the bank has the same stem).

Files are UTF-8 (with or without BOM); other encodings (cp1250 from
Central European Excel, cp1252/latin-1) and ``;`` or tab delimiters are
detected by :mod:`triviador_nb.banks.detect`; cells are read by
:mod:`triviador_nb.banks.reading` (pyarrow, or pandas for a broken file). Files in other quiz tools'
formats (Kahoot, Quizizz, Blooket, Gimkit, GIFT, Aiken, Moodle XML, QTI, Quizlet) are recognised by
content and imported by :mod:`triviador_nb.banks.formats`; their rows the game
cannot use are skipped with a warning, while a project CSV's row errors stay
errors (its author fixes them). Header names match
ignoring case and surrounding spaces; every cell is stripped of surrounding
spaces. Blank rows are skipped but still counted, so row numbers are the ones
a spreadsheet shows (header = row 1). When a required column is missing, only
the header is checked.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from itertools import compress
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from triviador_nb.banks.detect import Decoded, decode, not_text, nul_lines
from triviador_nb.banks.formats import import_data
from triviador_nb.banks.imported import BANK_FILES, SKIPPED, Imported, skipped
from triviador_nb.banks.invisible import strip_invisible
from triviador_nb.banks.problems import WHOLE_ROW, BankError, BankProblem, Severity
from triviador_nb.banks.quality import bank_texts, quality_problems, same_question_codes, text_codes
from triviador_nb.banks.reading import read_table
from triviador_nb.engine.questions import ChoiceQuestion, GuessQuestion, QuestionBank
from triviador_nb.exports import FORMULA_START, restore
from triviador_nb.resources import data_dir

REQUIRED_COLUMNS = ("type", "question", "answer")
WRONG_COLUMNS = ("wrong_1", "wrong_2", "wrong_3")
OPTION_COLUMNS = ("answer", *WRONG_COLUMNS)
METADATA_COLUMNS = ("category", "difficulty", "source", "fact")
KNOWN_COLUMNS = (*REQUIRED_COLUMNS, *WRONG_COLUMNS, *METADATA_COLUMNS, "id")
KINDS = ("guess", "choice")
SUGGESTED_BANK = "general_knowledge_en"
"""The built-in bank with both kinds that messages suggest loading beside a one-kind file."""
MAX_QUESTION_CHARS = 200
MAX_OPTION_CHARS = 60
MAX_GUESS_DIGITS = 15  # guess answers up to 999 999 999 999 999
_QUOTED_FORMULA = re.compile("'[" + re.escape("".join(FORMULA_START)) + "]")

StrPath = str | os.PathLike[str]


@dataclass(frozen=True)
class _Sheet:
    """One bank file as read or checked: question rows indexed by spreadsheet row number."""

    file: str
    rows: pd.DataFrame
    problems: list[BankProblem]
    header: list[str] = field(default_factory=list)  # the file's column names, for ordering problems
    relabel: Callable[[BankProblem], BankProblem] | None = None  # imported files: to the source's rows and columns
    format: str = "csv"  # or the foreign format it was imported from (formats.FORMATS)


# ---------------------------------------------------------------- public API


def check_bank_file(path: StrPath) -> list[BankProblem]:
    """Every problem in one bank file (errors and warnings), by row then column.

    Raises:
        FileNotFoundError: the file does not exist (other ``OSError`` for
            unreadable files). Content problems are returned, never raised.
    """
    return check_bank_files([path])


def check_bank_files(paths: Iterable[StrPath]) -> list[BankProblem]:
    """Every problem in bank files meant to be loaded together.

    Problems are grouped by file (in the given order), then sorted by row and
    column. Besides each file's own problems this reports ids repeated across
    files, give-aways and options that give their answer away
    (:mod:`~triviador_nb.banks.giveaways`, :mod:`~triviador_nb.banks.options`),
    and - when there is no other error - a bank lacking guess or choice
    questions.

    Raises:
        FileNotFoundError: a file does not exist.
    """
    return _check_sheets([Path(path) for path in paths], read_words=True).problems


def load_bank(path_or_paths: StrPath | Iterable[StrPath], name: str | None = None) -> QuestionBank:
    """Load one bank file, or several merged into one bank (in the given order).

    Args:
        path_or_paths: a CSV file, or several; ids must be unique across them.
        name: the bank's label; default the file stems joined by ``+``.

    Returns:
        The bank; its ``warnings`` hold every warning as
        ``FILE:ROW:COLUMN: warning: message`` (but those of give-aways and options, which
        only :func:`check_bank_files` and :func:`check_and_load_bank` look for).

    Raises:
        BankError: any error in any file; ``.problems`` lists them all.
        FileNotFoundError: a file does not exist.
        ValueError: no path given.
    """
    paths = _as_paths(path_or_paths)
    return _load_bank(paths, name)


def check_and_load_bank(path_or_paths: StrPath | Iterable[StrPath],
                        name: str | None = None) -> tuple[list[BankProblem], QuestionBank | None]:
    """Check the files once and load them when they have no error.

    Returns:
        ``(problems, bank)``: every problem as :func:`check_bank_files` gives
        them, and the bank as :func:`load_bank` gives it, or None when any
        problem is an error.

    Raises:
        FileNotFoundError: a file does not exist.
        ValueError: no path given.
    """
    paths = _as_paths(path_or_paths)
    checked = _check_sheets(paths, build_questions=True, read_words=True)
    if any(problem.is_error for problem in checked.problems):
        return checked.problems, None
    return checked.problems, _bank_from(checked, paths, name)


def _load_bank(paths: list[Path], name: str | None) -> QuestionBank:
    checked = _check_sheets(paths, build_questions=True)
    errors = [problem for problem in checked.problems if problem.is_error]
    if errors:
        raise BankError(errors)
    return _bank_from(checked, paths, name)


def _bank_from(checked: _Checked, paths: list[Path], name: str | None) -> QuestionBank:
    """The bank of error-free checked files; their problems (warnings) go into it."""
    guess, choice = checked.questions
    return QuestionBank(
        guess=guess,
        choice=choice,
        name=name or "+".join(path.stem for path in paths),
        warnings=tuple(str(problem) for problem in checked.problems),
    )


def _questions(sheets: list[_Sheet]) -> tuple[tuple[GuessQuestion, ...], tuple[ChoiceQuestion, ...]]:
    """The guess and the choice questions of error-free ``sheets``, in bank order, built column-wise."""
    rows = pd.concat([sheet.rows for sheet in sheets]) if len(sheets) > 1 else sheets[0].rows
    kind = rows["kind"].tolist()
    is_guess = [value == "guess" for value in kind]
    is_choice = [value == "choice" for value in kind]

    def column(name: str, keep: list[bool]) -> Iterator[str]:
        return compress(rows[name].tolist(), keep)

    guess = tuple(map(GuessQuestion, *(column(name, is_guess) for name in ("id", "question")),
                      map(int, column("answer", is_guess)), *(column(name, is_guess) for name in METADATA_COLUMNS)))
    choice = tuple(map(ChoiceQuestion, *(column(name, is_choice) for name in ("id", "question", "answer")),
                       zip(*(column(name, is_choice) for name in WRONG_COLUMNS)),
                       *(column(name, is_choice) for name in METADATA_COLUMNS)))
    return guess, choice


def builtin_bank_names() -> list[str]:
    """Names of the built-in banks (``<name>.csv`` in the question bank folder), sorted."""
    return sorted(path.stem for path in data_dir("question_banks").glob("*.csv"))


DEFAULT_BANK = "general_knowledge_en"  #: the questions of a game given none, in a language with no bank of its own


def language_bank(bank: str, code: str) -> str | None:
    """The built-in bank in language ``code`` to put in place of ``bank``
    (when the setup form's language changes, and for ``play``, ``host`` and
    ``teach`` given no bank): only when ``bank`` is a built-in bank of
    another language
    (``general_knowledge_en`` -> ``hungarian_hu``; ``pt_BR`` looks for a
    ``_pt`` bank); a teacher's own files are never replaced. None: keep
    ``bank``."""
    names = builtin_bank_names()
    language = code.split("_")[0].split("@")[0]  # pt_BR: the Portuguese bank
    if bank not in names or bank.endswith(f"_{language}"):
        return None
    return next((name for name in names if name.endswith(f"_{language}")), None)


def load_builtin_bank(name: str = "general_knowledge_en") -> QuestionBank:
    """Load the built-in bank ``name`` (see :func:`builtin_bank_names`).

    Raises:
        ValueError: no built-in bank has that name (the message lists them).
        BankError: the shipped file has errors.
    """
    return load_bank(builtin_bank_path(name), name=name)


def builtin_bank_path(name: str) -> Path:
    """The file of the built-in bank ``name``.

    Raises:
        ValueError: no built-in bank has that name (the message lists them).
    """
    names = builtin_bank_names()
    if name not in names:
        raise ValueError(f"no built-in question bank {name!r} (available: {', '.join(names) or 'none'})")
    return data_dir("question_banks") / f"{name}.csv"


def resolve_bank(bank: str | Path | Sequence[str | Path] | QuestionBank) -> QuestionBank:
    """A question bank from built-in names and files, mixed freely, or a bank.

    ``bank`` is a built-in name (``general_knowledge_en``), a file, a list of
    both, or one string of them separated by commas
    (``"general_knowledge_en, my_kahoot.xlsx"``); an existing file's name is
    never split or taken for a built-in name. Several are loaded as one bank
    (see :func:`bank_files`).

    Raises:
        BankError: a file has errors (every one is listed).
        FileNotFoundError: a path that does not exist (says where relative paths start).
        ValueError: nothing given, or an unknown built-in name (the known ones are listed).
    """
    if isinstance(bank, QuestionBank):
        return bank
    paths = bank_files(bank)
    missing = [str(p) for p in paths if not Path(p).is_file()]
    if missing:
        raise FileNotFoundError(f"no question bank file {', '.join(missing)} (relative paths start in "
                                f"{Path.cwd()}); give the full path, or e.g. '../question_banks/NAME.csv' "
                                "from the notebooks folder")
    return load_bank(paths if len(paths) > 1 else paths[0])


def bank_files(bank: str | Path | Sequence[str | Path]) -> list[Path]:
    """The files of built-in names and paths given as :func:`resolve_bank` takes them.

    A name without a suffix that is no existing file and is a built-in bank
    becomes that bank's file; other names are returned as paths (they may not
    exist). A string that is no existing file is split at commas.

    Raises:
        ValueError: nothing given, something that is no name or path (a
            number in the list), or a name without a suffix that is neither
            a file nor a built-in bank.
    """
    listed = isinstance(bank, Iterable) and not isinstance(bank, (str, bytes, dict, os.PathLike))
    given = [bank] if isinstance(bank, (str, os.PathLike)) else list(bank) if listed else None
    if given is None or not all(isinstance(item, (str, os.PathLike)) for item in given):
        odd = bank if given is None else next(i for i in given if not isinstance(i, (str, os.PathLike)))
        raise ValueError(f"a question bank is a built-in name or a file, not {odd!r} ({type(odd).__name__}); "
                         "give names and paths, e.g. ['general_knowledge_en', 'my_questions.csv']")
    if not given:
        raise ValueError("no question bank files given")
    names: list[str | Path] = []
    for item in given:
        if isinstance(item, str) and not Path(item).exists():
            names += [part.strip() for part in item.split(",") if part.strip()]
        else:
            names.append(item)
    if not names:
        raise ValueError("no question bank given: a built-in name (e.g. general_knowledge_en) or a file")
    paths = []
    for name in names:
        path = Path(name)
        if path.suffix == "" and not path.exists():
            paths.append(builtin_bank_path(str(name)))  # raises for an unknown name, listing the known ones
        else:
            paths.append(path)
    return paths


def _as_paths(path_or_paths: StrPath | Iterable[StrPath]) -> list[Path]:
    if isinstance(path_or_paths, (str, os.PathLike)):
        return [Path(path_or_paths)]
    paths = [Path(path) for path in path_or_paths]
    if not paths:
        raise ValueError("no question bank files given")
    return paths


class _Checked(NamedTuple):
    """Checked files, all their problems, and their questions (empty when not built)."""

    sheets: list[_Sheet]
    problems: list[BankProblem]
    questions: tuple[tuple[GuessQuestion, ...], tuple[ChoiceQuestion, ...]] = ((), ())


def _check_sheets(paths: list[Path], build_questions: bool = False, read_words: bool = False) -> _Checked:
    """Every file read, then checked row by row while a worker thread searches the whole bank for
    near-duplicates and doubtful answers (:mod:`quality`; its numpy and pyarrow parts run beside
    the row checks and the building of the questions). An error in the row checks is raised once
    the search has ended.

    ``questions`` are built when asked for and the rows have no error; ``read_words``: the
    author's check, which also looks for give-aways and options that give their answer away
    (:func:`~triviador_nb.banks.quality.quality_problems`).
    """
    read: list[_Sheet] = []
    for path in paths:
        read.append(_read_file(path, read))
    bank = bank_texts([(sheet.file, sheet.rows) for sheet in read], options=read_words)
    with ThreadPoolExecutor(max_workers=1) as worker:
        searching = worker.submit(quality_problems, bank, None, read_words)
        sheets = [_with_row_problems(sheet, read[:place]) for place, sheet in enumerate(read)]
        found = [problem for sheet in sheets for problem in sheet.problems]
        clean = not any(problem.is_error for problem in found)
        questions = _questions(sheets) if build_questions and clean else ((), ())
        relabels = {sheet.file: sheet.relabel for sheet in sheets if sheet.relabel is not None}
        kept = {sheet.file: sheet.rows.index for sheet in sheets if sheet.relabel is not None}
        extra = [relabels[p.file](p) if p.file in relabels else p for p in searching.result()
                 if p.file not in kept or p.row in kept[p.file]]  # none about a skipped row
        problems = _merged(sheets, found, extra)  # the search adds warnings only
    if clean:
        problems += _missing_kind_problems(sheets)
    return _Checked(sheets, problems, questions)


def _merged(sheets: list[_Sheet], problems: list[BankProblem], extra: list[BankProblem]) -> list[BankProblem]:
    """``problems`` plus the bank-wide warnings ``extra``, still by file then row."""
    if not extra:
        return problems
    order = {sheet.file: place for place, sheet in enumerate(sheets)}
    return sorted(problems + extra, key=lambda problem: (order.get(problem.file, len(order)), problem.row))


def _missing_kind_problems(sheets: list[_Sheet]) -> list[BankProblem]:
    kinds = set().union(*(sheet.rows["kind"].unique() for sheet in sheets))
    label = "+".join(sheet.file for sheet in sheets)
    files = shlex.quote(",".join([SUGGESTED_BANK, *(sheet.file for sheet in sheets)]))
    return [
        BankProblem(
            label,
            1,
            "type",
            f"the bank has no {kind} questions; a game needs both kinds: add some, or load it together with a "
            f"bank that has them, e.g. --bank {files} (in the setup form: "
            f"{SUGGESTED_BANK}, {', '.join(sheet.file for sheet in sheets)})",
        )
        for kind in KINDS
        if kind not in kinds
    ]


# ------------------------------------------------------------ one file


def _check_file(path: Path, earlier: list[_Sheet]) -> _Sheet:
    """Read and check one file; ``earlier`` are the files before it in the same bank."""
    return _with_row_problems(_read_file(path, earlier), earlier)


def _with_row_problems(sheet: _Sheet, earlier: list[_Sheet]) -> _Sheet:
    """``sheet`` with the problems of its rows added (see :func:`_row_problems`), sorted by row and column.

    Invisible characters are taken out of the cells first (:mod:`invisible`).
    In a file imported from another tool, a row with an error is left out
    and its errors become warnings (``skipped "first words": ...``); an error
    remains only when no question is left.
    """
    rows, before, invisible = strip_invisible(sheet.file, sheet.rows, KNOWN_COLUMNS)
    found = invisible + _row_problems(sheet.file, rows, earlier, before)
    if sheet.relabel is None:
        return replace(sheet, rows=rows, problems=_sorted(sheet.problems + found, sheet.header))
    found = [sheet.relabel(problem) for problem in found]
    bad = {problem.row for problem in found if problem.is_error}
    if bad:
        questions = rows["question"]
        found = [replace(problem, message=skipped(questions[problem.row], problem.message), severity="warning")
                 if problem.is_error else problem for problem in found]
        rows = rows.drop(index=sorted(bad))
    problems = sheet.problems + found
    if rows.empty and not any(problem.is_error for problem in problems):
        left = sum(problem.message.startswith(SKIPPED) for problem in problems)
        problems.append(BankProblem(sheet.file, 1, WHOLE_ROW, (
            f"no playable questions: every question of this {sheet.format} file was skipped "
            "(the warnings say why)" if left else f"no questions: nothing in this {sheet.format} file")))
    return replace(sheet, rows=rows, problems=_sorted(problems, sheet.header))


def _read_file(path: Path, earlier: list[_Sheet]) -> _Sheet:
    """One file read, with the problems of reading it and of its header; its rows are not checked yet."""
    file = str(path)
    data = path.read_bytes()
    kind = not_text(data)
    if kind is not None:
        message = f"this is not a text file (it looks like {kind}); a question bank is {BANK_FILES}"
        return _Sheet(file, _no_rows(), [BankProblem(file, 1, WHOLE_ROW, message)])
    workbook = data.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0"))  # xlsx, or an old .xls (formats says so)
    decoded = None if workbook else decode(data)  # the text is decoded once
    damage = []
    if decoded is not None and "\x00" in decoded.text:  # readers would end a cell there, or misread it
        damage = [BankProblem(file, line, WHOLE_ROW, f"line {line} of the file holds a NUL character (byte 0), "
                              "which was removed; the file may be damaged: check that line's text", "warning")
                  for line in nul_lines(decoded.text)]
        decoded = Decoded(decoded.text.replace("\x00", ""), "utf-8")
        data = decoded.text.encode("utf-8", "surrogatepass")
    imported = import_data(data, file, decoded)  # Kahoot, ..., Moodle XML, QTI, Quizlet (see formats)
    if imported is not None:
        imported.problems[:0] = damage
        return _read_imported(path, imported, earlier)
    table, problems = read_table(path, file, data, decoded)
    problems[:0] = damage
    if table is None:
        return _Sheet(file, _no_rows(), problems)
    header = list(table.iloc[0])
    body = table.iloc[1:]
    rows = _with_kind(_question_rows(header, body, decoded is None or _may_restore(decoded.text)))
    problems += _header_problems(file, header, body)
    missing = _missing_columns(file, header, rows)
    if missing:
        return _Sheet(file, _no_rows(), problems + missing, header)
    if rows.empty:
        problems.append(BankProblem(file, 1, WHOLE_ROW, "no questions: the file has a header but no question rows"))
    same_stem = any(Path(sheet.file).stem == path.stem for sheet in earlier)
    rows = _with_ids(rows, file if same_stem else path.stem)  # a/q.csv and b/q.csv: ids stay unique
    return _Sheet(file, rows, problems, header)


def _read_imported(path: Path, imported: Imported, earlier: list[_Sheet]) -> _Sheet:
    """An imported file's rows, to be checked like a project CSV's and reported in the source's rows and columns."""
    file = str(path)
    rows = _with_kind(imported.rows)
    same_stem = any(Path(sheet.file).stem == path.stem for sheet in earlier)
    rows = _with_ids(rows, file if same_stem else path.stem)
    return _Sheet(file, rows, list(imported.problems), imported.header, imported.relabel, imported.format)


def _no_rows() -> pd.DataFrame:
    return pd.DataFrame(columns=[*KNOWN_COLUMNS, "kind"], dtype=object)


def _with_kind(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with the column ``kind``: the type lower-cased (``GUESS`` -> ``guess``), for every check
    and the loader to share; each distinct type is lower-cased once."""
    codes, types = pd.factorize(rows["type"].to_numpy())
    lowered = np.array([kind.lower() for kind in types] + [""], dtype=object)  # "" pads an empty table
    return rows.assign(kind=lowered[codes])


def _sorted(problems: list[BankProblem], header: list[str]) -> list[BankProblem]:
    """Problems by row, then by the column's place in the header (whole-row first)."""
    position = {WHOLE_ROW: -1}
    for place, name in enumerate(header):
        position.setdefault(name, place)
        position.setdefault(name.lower(), place)
    return sorted(problems, key=lambda problem: (problem.row, position.get(problem.column, len(header))))


# ------------------------------------------------------------ header


def _question_rows(header: list[str], body: pd.DataFrame, restores: bool = True) -> pd.DataFrame:
    """The non-blank rows' known columns (the first of each name; absent ones empty), each cell
    :func:`~triviador_nb.exports.restore`-d (``'=1+1`` as written by ``bank convert`` is ``=1+1``);
    ``restores`` False: the file's text holds no ``'`` before a formula character, so no cell is
    looked at (joining each column to search it took about 30 ms a load, benchmarks/bank_load.py)."""
    first: dict[str, int] = {}
    for place, name in enumerate(header):
        first.setdefault(name.lower(), place)
    rows = pd.DataFrame(
        {column: (_restored(body[first[column]]) if restores else body[first[column]]) if column in first else ""
         for column in KNOWN_COLUMNS},
        index=body.index,
        dtype=object,
    )
    blank = np.ones(len(rows), dtype=bool)
    for column in KNOWN_COLUMNS:  # only the rows still blank are compared
        blank[blank] = rows[column].to_numpy()[blank] == ""
    return rows[~blank] if blank.any() else rows


def _may_restore(text: str) -> bool:
    """Whether ``text`` holds a ``'`` before a formula character (a cell
    :func:`~triviador_nb.exports.restore` changes holds one): a regular expression starting with a
    literal, 5-9 ms over a 100,000-question file however many ``'`` it holds (``in`` for each
    two-character pair took 30-60 ms)."""
    return _QUOTED_FORMULA.search(text) is not None


def _restored(cells: pd.Series) -> pd.Series:
    """``cells`` with :func:`~triviador_nb.exports.restore` applied, searched at once for a ``'``."""
    if "'" not in "".join(cells.tolist()):
        return cells
    return cells.map(restore)


def _header_problems(file: str, header: list[str], body: pd.DataFrame) -> list[BankProblem]:
    problems = []
    for place, name in enumerate(header):
        key = name.lower()
        if not name:
            if body[place].ne("").any():
                problems.append(
                    BankProblem(
                        file, 1, WHOLE_ROW, f"column {place + 1} has cells but no header; they are ignored", "warning"
                    )
                )
        elif key in (earlier.lower() for earlier in header[:place]):
            problems.append(BankProblem(file, 1, name, f"column {name!r} appears twice; only the first one is read"))
        elif key not in KNOWN_COLUMNS:
            known = ", ".join(KNOWN_COLUMNS)
            problems.append(
                BankProblem(file, 1, name, f"unknown column {name!r} is ignored (known columns: {known})", "warning")
            )
    return problems


def _missing_columns(file: str, header: list[str], rows: pd.DataFrame) -> list[BankProblem]:
    if len(header) == 1 and any(separator in header[0] for separator in ";\t"):
        return [
            BankProblem(
                file,
                1,
                WHOLE_ROW,
                f"the header is one cell {header[0]!r}: the file seems to use ';' or tabs between cells; "
                "save it as comma-separated CSV",
            )
        ]
    present = {name.lower() for name in header}
    problems = [
        BankProblem(file, 1, column, f"missing required column {column!r}")
        for column in REQUIRED_COLUMNS
        if column not in present
    ]
    if rows["kind"].eq("choice").any():
        problems += [
            BankProblem(file, 1, column, f"missing column {column!r} (required because the file has choice questions)")
            for column in WRONG_COLUMNS
            if column not in present
        ]
    return problems


# ------------------------------------------------------------ rows


def _row_problems(file: str, rows: pd.DataFrame, earlier: list[_Sheet],
                  before: pd.DataFrame | None = None) -> list[BankProblem]:
    """The problems of the rows; ``before`` are the rows as written, when invisible characters were taken out."""
    kind = rows["kind"]
    is_guess, is_choice = kind.eq("guess").to_numpy(), kind.eq("choice").to_numpy()
    return [
        *_type_problems(file, rows["type"], kind),
        *_question_problems(file, rows["question"]),
        *_guess_problems(file, rows.loc[is_guess, ["answer", *WRONG_COLUMNS]]),
        *_choice_problems(file, rows.loc[is_choice, list(OPTION_COLUMNS)],
                          None if before is None else before.loc[is_choice, list(OPTION_COLUMNS)]),
        *_id_problems(file, rows["id"]),
        *_ids_used_before(file, rows["id"], earlier),
    ]


def _flag(
    file: str, where: pd.Series, column: str, message: str | pd.Series, severity: Severity = "error"
) -> list[BankProblem]:
    """One problem per row where ``where`` is true (a Series indexed by row number).

    ``message`` is one text for every row, or a Series of texts indexed like ``where``.
    """
    flagged = where.to_numpy(dtype=bool)
    if not flagged.any():
        return []
    if isinstance(message, pd.Series):
        return [BankProblem(file, int(row), column, text, severity) for row, text in message[flagged].items()]
    return [BankProblem(file, int(row), column, message, severity) for row in where.index[flagged]]


def _flag_each(
    file: str, where: pd.Series, column: str, message: Callable[[pd.Series], pd.Series], severity: Severity = "error"
) -> list[BankProblem]:
    """Like :func:`_flag` with a Series of texts, built by ``message(where)`` for the flagged rows only.

    ``message`` gets the boolean mask and returns the texts of the rows it selects.
    """
    flagged = where.to_numpy(dtype=bool)
    if not flagged.any():
        return []
    return [BankProblem(file, int(row), column, text, severity) for row, text in message(flagged).items()]


def _lengths(cells: pd.Series) -> pd.Series:
    """Each text's length in characters."""
    return pd.Series(np.fromiter(map(len, cells.tolist()), dtype=np.int64, count=len(cells)), index=cells.index)


def _casefolded(cells: pd.Series) -> np.ndarray:
    """Each text ``str.casefold``-ed, as an object array (all at once: case folding maps each character alone)."""
    texts = cells.tolist()
    folded = "\x00".join(texts).casefold().split("\x00")
    if len(folded) != len(texts):  # a text holds a NUL
        folded = [text.casefold() for text in texts]
    array = np.empty(len(folded), dtype=object)
    array[:] = folded
    return array


def _quoted(cells: pd.Series) -> pd.Series:
    """Cell texts as they appear in messages: ``'gues'``."""
    return cells.map(repr)


def _row_numbers(cells: pd.Series) -> pd.Series:
    return cells.index.to_series(index=cells.index)


def _earlier_row(keys: pd.Series) -> pd.Series:
    """For each row, the first row above it with the same key, or 0 when there is none."""
    return _earlier_row_by_code(text_codes(keys.tolist()), keys.index)


def _earlier_row_by_code(codes: np.ndarray, index: pd.Index) -> pd.Series:
    """Like :func:`_earlier_row` for keys already coded in order of first appearance (0, 1, 2, ...)."""
    rows = index.to_numpy()
    new_code = codes > np.maximum.accumulate(np.r_[-1, codes[:-1]])  # a code's first row: higher than all before
    first = rows[new_code][codes]
    return pd.Series(np.where(first != rows, first, 0), index=index)


def _with_ids(rows: pd.DataFrame, prefix: str) -> pd.DataFrame:
    """``rows`` with every empty id replaced by ``<prefix>:<row>``."""
    empty = rows["id"].eq("").to_numpy()
    if not empty.any():
        return rows
    ids = rows["id"].copy()
    ids[empty] = [f"{prefix}:{row}" for row in rows.index[empty]]
    return rows.assign(id=ids)


def _type_problems(file: str, found: pd.Series, kind: pd.Series) -> list[BankProblem]:
    expected = "(expected 'guess' or 'choice')"
    unknown = ~kind.isin(("", *KINDS))
    return _flag(file, kind.eq(""), "type", f"type is empty {expected}") + _flag_each(
        file, unknown, "type", lambda flagged: "unknown type " + _quoted(found[flagged]) + f" {expected}"
    )


def _question_problems(file: str, text: pd.Series) -> list[BankProblem]:
    cells = text.tolist()
    length = _lengths(text)
    same_as = _earlier_row_by_code(same_question_codes(cells), text.index)
    empty = text.eq("")

    def too_long(flagged: np.ndarray) -> pd.Series:
        return "question is " + length[flagged].astype(str) + (
            f" characters long; more than {MAX_QUESTION_CHARS} is too long to read on a projector"
        )

    return [
        *_flag(file, empty, "question", "question is empty"),
        *_flag_each(file, length > MAX_QUESTION_CHARS, "question", too_long, "warning"),
        *_flag_each(
            file,
            ~empty & same_as.gt(0),
            "question",
            lambda flagged: "same question as row " + same_as[flagged].astype(str),
            "warning",
        ),
    ]


def _guess_problems(file: str, guess: pd.DataFrame) -> list[BankProblem]:
    answer = guess["answer"]
    empty = answer.eq("")
    joined = "".join(answer.tolist())
    if joined.isascii() and joined.isdigit():  # every answer is digits or empty (the usual case, checked at once)
        digits = ~empty
    else:
        digits = answer.str.fullmatch(r"[0-9]+").astype(bool)
    not_digits = ~digits & ~empty
    long = (digits & (_lengths(answer) > MAX_GUESS_DIGITS)).to_numpy(dtype=bool)  # only these can have too many digits
    too_big = pd.Series(long, index=answer.index)
    too_big[long] = (answer[long].str.lstrip("0").str.len() > MAX_GUESS_DIGITS).to_numpy(dtype=bool)
    problems = [
        *_flag_each(
            file,
            too_big,
            "answer",
            lambda flagged: "guess answer has "
            + answer[flagged].str.len().astype(str)
            + f" digits; at most {MAX_GUESS_DIGITS} fit a guess question",
        ),
        *_flag(file, empty, "answer", "guess answer is empty (write a whole number, e.g. 1000)"),
        *_flag_each(
            file,
            not_digits,
            "answer",
            lambda flagged: "guess answer "
            + _quoted(answer[flagged])
            + " is not a whole number >= 0 (write digits only, e.g. 1000)",
        ),
    ]
    for column in WRONG_COLUMNS:
        ignored = "guess questions have no wrong options; this cell is ignored"
        problems += _flag(file, guess[column].ne(""), column, ignored, "warning")
    return problems


def _choice_problems(file: str, choice: pd.DataFrame, before: pd.DataFrame | None = None) -> list[BankProblem]:
    problems = []
    for column in OPTION_COLUMNS:
        cells = choice[column]
        length = _lengths(cells)
        empty = f"{column} is empty (a choice question needs its answer and 3 wrong options)"

        def too_long(flagged: np.ndarray, length: pd.Series = length) -> pd.Series:
            return "option is " + length[flagged].astype(str) + (
                f" characters long; more than {MAX_OPTION_CHARS} does not fit on an answer button"
            )

        problems += _flag(file, cells.eq(""), column, empty)
        problems += _flag_each(file, length > MAX_OPTION_CHARS, column, too_long, "warning")
    return problems + _repeated_options(file, choice, before)


def _repeated_options(file: str, choice: pd.DataFrame, before: pd.DataFrame | None = None) -> list[BankProblem]:
    """Options equal to an option to their left in the same row, ignoring case; ``before`` (the
    options as written) tells the ones that differed only by invisible characters."""
    keys = {column: _casefolded(choice[column]) for column in OPTION_COLUMNS}
    written = None if before is None else {column: _casefolded(before[column]) for column in OPTION_COLUMNS}
    problems = []
    for place, column in enumerate(OPTION_COLUMNS):
        flagged = keys[column] == ""
        for earlier in OPTION_COLUMNS[:place]:
            same = (keys[column] == keys[earlier]) & ~flagged

            def message(picked: np.ndarray, column: str = column, earlier: str = earlier) -> pd.Series:
                said = "option " + _quoted(choice[column][picked])
                repeats = f" repeats {earlier} (the 4 options must all differ)"
                if written is None:
                    return said + repeats
                hidden = written[column][picked] != written[earlier][picked]
                return said + np.where(hidden, f" is the same as {earlier} once invisible characters are removed "
                                               "(they look alike; the 4 options must all differ)", repeats)

            problems += _flag_each(file, pd.Series(same, index=choice.index), column, message)
            flagged |= same
    return problems


def _id_problems(file: str, ids: pd.Series) -> list[BankProblem]:
    earlier = _earlier_row(ids)

    def message(flagged: np.ndarray) -> pd.Series:
        picked = ids[flagged]
        return (
            "duplicate id " + _quoted(picked) + ": rows " + earlier[flagged].astype(str)
            + " and " + _row_numbers(picked).astype(str)
        )

    return _flag_each(file, earlier.gt(0), "id", message)


def _ids_used_before(file: str, ids: pd.Series, earlier: list[_Sheet]) -> list[BankProblem]:
    """Ids of this file already used in the bank's earlier files."""
    if not earlier:
        return []
    used: dict[str, str] = {}
    for sheet in earlier:
        for row, id_ in sheet.rows["id"].items():
            used.setdefault(id_, f"{sheet.file} row {row}")
    return [
        BankProblem(file, int(row), "id", f"duplicate id {id_!r}: {used[id_]} and {file} row {row}")
        for row, id_ in ids.items()
        if id_ in used
    ]
