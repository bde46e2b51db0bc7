"""Reports after play: how each question went (so authors can fix or retire
it), who answered what, and how the scores moved (so a teacher sees what the
class knew).

Built from the games' event logs (every "answers" event reveals the correct
answer and each player's answer and time; D10's points are in the other
events), so a report can be made for any finished or unfinished game, and for
several games together. Tables are :class:`~triviador_nb.exports.SafeTable`:
their ``to_csv``/``to_excel`` write no cell a spreadsheet would run; their
column names are data and stay English in code (``report.players["score"]``),
while the files :meth:`Report.export` writes for the teacher head them in the
language in use (:func:`translated_columns`). The charts' titles and axis
labels are in the language in use (:mod:`triviador_nb.i18n`).
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Iterable, Sequence

import pandas as pd
from matplotlib.figure import Figure

from .engine import Game
from .exports import SafeTable, write_table
from .i18n import REPORT_COLUMN, LanguageError, _, pgettext, speaking


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
    return SafeTable(rows, columns=QUESTION_COLUMNS)


QUESTION_COLUMNS = ["question", "kind", "text", "asked", "answers", "correct", "correct_rate", "median_off",
                    "worst_off"]


ANSWER_COLUMNS = ["game", "number", "question", "kind", "purpose", "text", "seat", "player", "given", "correct",
                  "right", "off", "ms"]


def answers_table(games: Sequence[Game]) -> SafeTable:
    """One row per player per question asked, in the order asked.

    Columns: ``game`` (1-based, in the order given), ``number`` (the question's
    place in its game, 1-based), ``question`` (id), ``kind`` (``"guess"`` or
    ``"choice"``), ``purpose`` (what it decided: ``"expansion"``,
    ``"battle"``...), ``text``, ``seat`` (0-based), ``player``, ``given`` (the
    guess, the option's text, or None for no answer), ``correct`` (the number
    or the right option's text), ``right`` (the right option, or an exact
    guess; None without an answer), ``off`` (a guess's distance from the
    answer; None otherwise), ``ms`` (response time in milliseconds as the
    table stamped it; None without an answer or time). Missing values are
    empty cells in CSV and xlsx (pandas shows them as None or NaN).
    """
    rows = []
    for number, game in enumerate(games, start=1):
        asked = 0
        for event in game.events:
            if event.kind != "answers":
                continue
            asked += 1
            d = event.data
            guess = d["kind"] == "guess"
            correct = d["correct"] if guess else d["options"][d["correct_option"]]
            for answer in d["answers"]:
                given = answer["given"]
                shown = given if guess or given is None else d["options"][given]
                rows.append({
                    "game": number, "number": asked, "question": d["question"], "kind": d["kind"],
                    "purpose": d["purpose"], "text": d["question_text"], "seat": answer["seat"],
                    "player": game.players[answer["seat"]].name, "given": shown, "correct": correct,
                    "right": None if given is None else (given == d["correct"] if guess
                                                         else given == d["correct_option"]),
                    "off": abs(given - d["correct"]) if guess and given is not None else None,
                    "ms": answer["ms"] if given is not None else None,
                })
    return SafeTable(rows, columns=ANSWER_COLUMNS)


PLAYER_COLUMNS = ["game", "seat", "player", "place", "score", "asked", "answered", "right", "right_rate",
                  "median_off", "median_ms"]


def players_table(games: Sequence[Game]) -> SafeTable:
    """One row per player per game: ``place`` (1 = best, D13's ranking, shared
    places equal: D13, D16; None
    while the game goes on), ``score`` (D10), ``asked`` (questions put to
    them), ``answered``, ``right`` (right options and exact guesses),
    ``right_rate`` (0-1 of answered; None without answers), ``median_off``
    (of their guesses), ``median_ms`` (of their answers)."""
    answers = answers_table(games)
    rows = []
    for number, game in enumerate(games, start=1):
        places = dict(zip(game.ranking, game.places)) if game.is_over else {}
        scores = game.scores()
        for player in game.players:
            mine = answers[(answers["game"] == number) & (answers["seat"] == player.seat)]
            given = mine[mine["given"].notna()]
            offs = [v for v in given["off"] if v is not None and not pd.isna(v)]
            times = [v for v in given["ms"] if v is not None and not pd.isna(v)]
            right = int(sum(bool(v) for v in given["right"]))
            rows.append({
                "game": number, "seat": player.seat, "player": player.name, "place": places.get(player.seat),
                "score": scores[player.seat], "asked": len(mine), "answered": len(given), "right": right,
                "right_rate": right / len(given) if len(given) else None,
                "median_off": float(median(offs)) if offs else None,
                "median_ms": float(median(times)) if times else None,
            })
    return SafeTable(rows, columns=PLAYER_COLUMNS)


#: Every column name of the report's tables (the template lists them for translators).
REPORT_COLUMNS = tuple(dict.fromkeys([*QUESTION_COLUMNS, *ANSWER_COLUMNS, *PLAYER_COLUMNS, "event"]))


def translated_columns(table: pd.DataFrame, ours: int | None = None) -> pd.DataFrame:
    """``table`` with its first ``ours`` column headers (None: all) in the
    language in use (``"player"`` -> ``"játékos"``), as the teacher's files
    show them; the columns after them (the scores table's, headed by
    players' own names) stay as they are. Two headers that would read the
    same keep the English one of the second."""
    seen: set[str] = set()
    names = []
    for i, column in enumerate(table.columns):
        translate = column in REPORT_COLUMNS and (ours is None or i < ours)
        name = pgettext(REPORT_COLUMN, column) if translate else column
        name = column if name in seen else name
        seen.add(name)
        names.append(name)
    return table.set_axis(names, axis="columns")


def scores_table(game: Game) -> SafeTable:
    """How the scores moved (D10): one row per event that moved a score,
    ``event`` (its index in the log), ``question`` (questions revealed so
    far), then one column per player with their score after it."""
    revealed = [0] * (len(game.events) + 1)
    for e in game.events:
        revealed[e.index + 1] = revealed[e.index] + (e.kind == "answers")
    names = player_columns(game)
    rows = [{"event": index, "question": revealed[index + 1], **dict(zip(names, scores))}
            for index, scores in game.score_history()]
    return SafeTable(rows, columns=["event", "question", *names])


def player_columns(game: Game) -> list[str]:
    """A column name per seat: the player's name, with the seat number after
    it where two players share a name or a name is ``event`` or ``question``."""
    names = [p.name for p in game.players]
    return [f"{name} ({seat + 1})" if names.count(name) > 1 or name in ("event", "question") else name
            for seat, name in enumerate(names)]


def score_chart(game: Game) -> Figure:
    """A line per player: score (D10) after each question revealed; each
    player's line has its own dash pattern as well as its own colour."""
    table = scores_table(game).drop_duplicates("question", keep="last")
    figure = Figure(figsize=(7, 3.6), layout="constrained")
    axes = figure.subplots()
    for column, style in zip(player_columns(game), ["-", "--", ":", "-."] * 3):
        axes.step(table["question"], table[column], where="post", label=column, linewidth=2.2, linestyle=style)
    axes.set_xlabel(_("questions revealed"))
    axes.set_ylabel(_("score"))
    axes.set_title(_("Score over the game"))
    axes.legend(loc="upper left")
    return figure


def hardest_chart(games: Sequence[Game], top: int = 8) -> Figure:
    """The questions the class found hardest: multiple-choice questions by the
    share answered wrong, guess questions by the median guess's distance from
    the answer as a share of the answer (capped at 100%); ``top`` of each,
    hardest at the top."""
    reports = question_reports(games)
    choice = sorted((r for r in reports if r.kind == "choice" and r.answers),
                    key=lambda r: -(1 - r.correct_rate))[:top]
    answers = answers_table(games)
    guess = []
    for r in reports:
        if r.kind == "guess" and r.answers:
            rows = answers[(answers["question"] == r.question) & answers["off"].notna()]
            offs = pd.to_numeric(rows["off"]) / pd.to_numeric(rows["correct"]).abs().clip(lower=1)
            share = min(1.0, float(median(offs)))
            guess.append((share, r))
    guess = sorted(guess, key=lambda pair: -pair[0])[:top]
    figure = Figure(figsize=(9, 3.8), layout="constrained")
    left, right = figure.subplots(1, 2)
    for axes, pairs, title in ((left, [(1 - r.correct_rate, r) for r in choice], _("multiple choice: answered wrong")),
                               (right, guess, _("guess questions: median guess off by"))):
        labels = [_short(r.text) for _share, r in reversed(pairs)]
        axes.barh(labels, [100 * v for v, _r in reversed(pairs)], color="#d55e00")
        axes.set_xlim(0, 100)
        axes.set_xlabel("%")
        axes.set_title(title, fontsize=10)
    figure.suptitle(_("The questions the class found hardest"))
    return figure


def _short(text: str, limit: int = 38) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


class Report:
    """Everything the games of a lesson tell: per question, per answer, per
    player, and the score over time of each game.

    Args:
        games: the games, in the order played (e.g. ``app.games``).

    Attributes:
        questions: :func:`report_table`; answers: :func:`answers_table`;
        players: :func:`players_table`.
    """

    def __init__(self, games: Iterable[Game]):
        self.games = list(games)
        self.questions = report_table(self.games)
        self.answers = answers_table(self.games)
        self.players = players_table(self.games)

    def score_chart(self, game: int = -1) -> Figure:
        """:func:`score_chart` of one game (the last by default).

        Raises:
            ValueError: the report has no game.
        """
        if not self.games:
            raise ValueError("there is no game to chart: the report was made from no games")
        return score_chart(self.games[game])

    def hardest_chart(self, top: int = 8) -> Figure:
        """:func:`hardest_chart` of all the games."""
        return hardest_chart(self.games, top)

    def export(self, path: str | Path, language: str | None = None) -> list[Path]:
        """Write the report in one call: ``<path>.xlsx`` with the sheets
        ``players``, ``answers``, ``questions`` and ``scores`` (the last game),
        and one CSV per table beside it (``<path>-players.csv``...), their
        column headers in the language in use (:func:`translated_columns`:
        a Hungarian lesson's report reads ``játékos``, ``pontszám``; a
        room host passes the room's ``language``, a code this kernel may not
        have, then the kernel's language is used); every
        text cell inert, control characters shown as symbols
        (:mod:`triviador_nb.exports`). A suffix on ``path`` is dropped.

        All or nothing: every file is written under a temporary name first
        and renamed once all are written, so a failure leaves no file and
        no half-written one. Nothing is overwritten: when a file of that
        name exists (Save report clicked twice in one second), the report is
        written as ``<path>-2.xlsx``... (:func:`free_report_name`).

        Returns:
            The files written, the xlsx first.

        Raises:
            OSError: a file cannot be written (e.g. the disk is full); none
                of the report's files is left.
        """
        base = Path(path)
        base = base.with_suffix("") if base.suffix.lower() in (".xlsx", ".csv") else base
        tables = {"players": self.players, "answers": self.answers, "questions": self.questions}
        if self.games:
            tables["scores"] = scores_table(self.games[-1])
        tables = _headed(tables, language)
        base = free_report_name(base, list(tables))
        finals = report_files(base, list(tables))
        token = secrets.token_hex(4)
        temps = [final.with_name(f".{final.stem}.{token}.part{final.suffix}") for final in finals]
        done: list[Path] = []
        try:
            for temp, table in zip(temps[1:], tables.values()):
                write_table(table, temp)
            with pd.ExcelWriter(temps[0], engine="openpyxl") as writer:
                for name, table in tables.items():
                    table.to_excel(writer, sheet_name=name, index=False)
            for temp, final in zip(temps, finals):
                os.replace(temp, final)
                done.append(final)
        except BaseException:
            for left in (*temps, *done):  # nothing half-written, and not some files without the others
                left.unlink(missing_ok=True)
            raise
        return finals


def _headed(tables: dict[str, pd.DataFrame], language: str | None) -> dict[str, pd.DataFrame]:
    """The report's tables headed in ``language`` (None, or a code this
    kernel has no catalogue for: the language in use); the scores table's
    player columns as they are."""
    try:
        with speaking(language):
            return {name: translated_columns(table, 2 if name == "scores" else None) for name, table in tables.items()}
    except LanguageError:
        return _headed(tables, None)


def report_files(base: Path, tables: Sequence[str]) -> list[Path]:
    """The files :meth:`Report.export` writes for ``base``: ``<base>.xlsx``,
    then ``<base>-<table>.csv`` for each table."""
    return [base.with_name(base.name + ".xlsx"), *(base.with_name(f"{base.name}-{name}.csv") for name in tables)]


def free_report_name(base: Path, tables: Sequence[str]) -> Path:
    """``base``, or ``<base>-2``, ``<base>-3``... : the first whose files
    (:func:`report_files`) are none of them there."""
    candidate, n = base, 1
    while any(path.exists() for path in report_files(candidate, tables)):
        n += 1
        candidate = base.with_name(f"{base.name}-{n}")
    return candidate
