"""Reports after play: how each question went, so authors can fix or retire it.

Built from the games' event logs (every "answers" event reveals the correct
answer and each player's answer and time), so a report can be made for any
finished or unfinished game, and for several games together.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median
from typing import Iterable

import pandas as pd

from .engine import Game
from .exports import SafeTable


@dataclass(frozen=True)
class QuestionReport:
    """How one question went in the games reported on.

    Attributes:
        question: the question's id in its bank.
        kind: ``"guess"`` or ``"choice"``.
        text: the question.
        asked: times it was asked.
        answers: answers given (no-answers not counted).
        correct: right answers (multiple choice) or exact guesses.
        median_off: median distance of the guesses from the correct number
            (None for multiple choice or without guesses).
        worst_off: the largest distance of a guess (None likewise).
    """

    question: str
    kind: str
    text: str
    asked: int
    answers: int
    correct: int
    median_off: float | None
    worst_off: int | None

    @property
    def correct_rate(self) -> float | None:
        """Share of given answers that were right (0-1), None without answers."""
        return self.correct / self.answers if self.answers else None


def question_reports(games: Iterable[Game]) -> list[QuestionReport]:
    """One :class:`QuestionReport` per question asked in ``games``, in the
    order the questions were first asked."""
    seen: dict[str, dict] = {}
    for game in games:
        for event in game.events:
            if event.kind != "answers":
                continue
            d = event.data
            entry = seen.setdefault(d["question"], {"kind": d["kind"], "text": d["question_text"], "asked": 0,
                                                     "given": [], "correct": 0})
            entry["asked"] += 1
            for answer in d["answers"]:
                given = answer["given"]
                if given is None:
                    continue
                if d["kind"] == "guess":
                    entry["given"].append(abs(given - d["correct"]))
                    entry["correct"] += given == d["correct"]
                else:
                    entry["given"].append(given)
                    entry["correct"] += given == d["correct_option"]
    return [
        QuestionReport(
            question=qid, kind=e["kind"], text=e["text"], asked=e["asked"], answers=len(e["given"]),
            correct=e["correct"],
            median_off=float(median(e["given"])) if e["kind"] == "guess" and e["given"] else None,
            worst_off=max(e["given"]) if e["kind"] == "guess" and e["given"] else None,
        )
        for qid, e in seen.items()
    ]


def report_table(games: Iterable[Game]) -> pd.DataFrame:
    """The question reports as a table (one row per question), ready for
    ``.to_csv("report.csv")`` or ``.to_excel("report.xlsx")``, which write
    every text cell inert (:class:`~triviador_nb.exports.SafeTable`); columns
    as in :class:`QuestionReport` plus ``correct_rate``."""
    rows = [dict(r.__dict__, correct_rate=r.correct_rate) for r in question_reports(games)]
    columns = ["question", "kind", "text", "asked", "answers", "correct", "correct_rate", "median_off", "worst_off"]
    return SafeTable(rows, columns=columns)
