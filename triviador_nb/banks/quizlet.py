"""Quizlet's export: one ``term TAB definition`` a line (Quizlet's default separators).

Each line becomes a multiple-choice question (D2): the definition is the
question, the term the answer, and 3 of the set's other terms the wrong
options. They are drawn with ``random.Random(f"{QUIZLET_SEED}:{term}")``
from the other terms (different from the answer and from each other,
ignoring case), so the same file always gives the same questions, and a
term's options do not change when lines are added elsewhere in the set
unless they fall among its options. A line without a tab continues the
definition before it (a definition over several lines). Rows are line
numbers. A set needs 4 different terms; a line with an empty term or
definition is skipped with a warning.
"""

from __future__ import annotations

import random

import pandas as pd

from triviador_nb.banks.imported import COLUMNS, Imported, empty_rows, plain_text, skipped
from triviador_nb.banks.problems import WHOLE_ROW, BankProblem

QUIZLET_SEED = "triviador-quizlet"
WRONG_OPTIONS = 3  # D2: 4 options, one right


def import_quizlet(text: str, file: str) -> Imported:
    """The questions of a Quizlet export's text, format ``quizlet``."""
    cards: list[list] = []  # [line, term, definition]
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if "\t" in line:
            term, definition = line.split("\t", 1)
            cards.append([number, plain_text(term), plain_text(definition)])
        elif cards:
            cards[-1][2] = plain_text(f"{cards[-1][2]} {line}")
    problems: list[BankProblem] = []
    records: dict[int, dict[str, str]] = {}
    distinct: dict[str, str] = {}  # casefolded term -> its first spelling, in the set's order
    for _, term, definition in cards:
        if term and definition:
            distinct.setdefault(term.casefold(), term)
    terms, place = list(distinct.values()), {key: index for index, key in enumerate(distinct)}
    for line, term, definition in cards:
        if not term or not definition:
            missing = "term" if not term else "definition"
            problems.append(BankProblem(file, line, WHOLE_ROW, skipped(definition or term, f"the {missing} is empty"),
                                        "warning"))
            continue
        if len(terms) - 1 < WRONG_OPTIONS:
            problems.append(BankProblem(file, line, WHOLE_ROW, skipped(definition, (
                f"the set has {len(terms)} different terms; a multiple-choice question takes 3 of the other "
                "terms as wrong options, so a Quizlet set needs at least 4")), "warning"))
            continue
        wrong = _wrong_options(term, terms, place[term.casefold()])
        record = dict.fromkeys(COLUMNS, "")
        record.update(type="choice", question=definition, answer=term)
        record.update(zip(("wrong_1", "wrong_2", "wrong_3"), wrong))
        records[line] = record
    rows = pd.DataFrame.from_dict(records, orient="index", columns=list(COLUMNS), dtype=object)
    return Imported("quizlet", [], rows if records else empty_rows(), problems)


def _wrong_options(term: str, terms: list[str], own: int) -> list[str]:
    """3 of ``terms`` other than ``terms[own]`` (the answer), as ``random.Random(f"{QUIZLET_SEED}:{term}")
    .sample(others, 3)`` draws them from the list of the others, without building that list."""
    picked = random.Random(f"{QUIZLET_SEED}:{term}").sample(range(len(terms) - 1), WRONG_OPTIONS)
    return [terms[index if index < own else index + 1] for index in picked]
