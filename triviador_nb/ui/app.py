"""The single-screen game: a game table and the one game screen that shows it.

:class:`GameApp` is a :class:`~triviador_nb.classroom.Table` (the game, its
bots, its clock and deadlines; it stamps every response time) shown by the
:class:`~.screen.GameScreen`, which renders only the seat's view and sends
intents. A student's remote screen is the same screen fed by a room client.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping, Sequence

import pandas as pd

from ..bots import Bot
from ..classroom import Clock, Journal, Table
from ..classroom.journal import JournalContents
from ..engine import Game
from ..engine.actions import Draw
from ..i18n import _
from ..maps import GameMap
from ..reports import Report, question_reports, report_table
from . import panels
from .cells import shown_by_cell
from .controls import TeacherControls
from .screen import GameScreen, TableSource


class GameApp(GameScreen):
    """One game on one screen.

    Args:
        game: a new game.
        game_map: the map the game's board comes from.
        human: the seat the person at the screen plays, or None to watch bots.
        bots: seat -> bot for every other seat.
        clock: the table's clock (default: the kernel's asyncio loop).
        pace: multiplies every bot delay and the pause after a result
            (1.0 = realistic, 0 = instant).
        reveal_s: seconds the result of a question stays before play goes on.
        think_s: seconds a bot takes to choose a territory.
        new_game: makes the next game for "Play again": ``new_game(seed,
            asked_before)`` -> (game, bots), where ``seed`` is the next game
            number, or None for a game with a fresh secret (after one with a
            secret: :meth:`~triviador_nb.classroom.Table.restart`), and ``asked_before`` holds the
            ids of every question asked in this app so far (D4: they come
            after every unasked one).
        teams: seat -> name of the teams sharing this screen, whose answers
            the teacher enters (issue 12); ``human`` is then ignored.
        controls: show the teacher's controls (pause, skip, undo, end).
        earlier: games played before ``game`` (a resumed journal's).
        language: the language code of the screen and its controls
            (``"hu"``; None: the kernel's).

    Attributes:
        table: the game table the screen shows.
        controls: the :class:`~.controls.TeacherControls` (None without).
        journal: the :class:`~triviador_nb.classroom.Journal` writing this
            app's games, once :meth:`keep_journal` was called and the game
            started (None before: a new journal's file is made at Start).
        journal_path: where :meth:`keep_journal` keeps the games (None: nowhere).
        widget: the root widget (the app also displays itself).
        map_view, panel: the map and the question panel (tests click them).
    """

    def __init__(self, game: Game, game_map: GameMap, human: int | None, bots: Mapping[int, Bot],
                 clock: Clock | None = None, pace: float = 1.0, reveal_s: float = 3.0, think_s: float = 1.2,
                 new_game: Callable[[int, frozenset[str]], tuple[Game, Mapping[int, Bot]]] | None = None,
                 teams: Mapping[int, str] | None = None, controls: bool = True, earlier: Sequence[Game] = (),
                 language: str | None = None):
        self.table = Table(game, bots, clock, pace=pace, reveal_s=reveal_s, think_s=think_s, new_game=new_game,
                           earlier=earlier)
        self.journal: Journal | None = None
        self.journal_path: Path | None = None
        self._unsaved = ""  # why the journal could not be made at Start ("": it was, or not yet)
        self._discard_unplayed = False
        source = TableSource(self.table, report=lambda: panels.report_html(question_reports([self.table.game])))
        super().__init__(source, game_map, human, teams=dict(teams or {}), language=language)
        # a student's own game (one person against bots): the teacher's box folded away at the bottom (issue 24)
        self.controls = (TeacherControls(self.table, self.teams, language=self.language, folded=not self.teams)
                         if controls or self.teams else None)
        if self.controls is not None:
            self.table.on_change(lambda _events: self._guarded(self.controls.refresh))
            self.controls.attach(self)
        shown_by_cell(self)  # a re-run of the cell that made this app closes the app it made before

    def close(self) -> None:
        """Stop the game and close every widget (the journal file stays)."""
        super().close()
        if self.controls is not None:
            self.controls.close()
        if self.journal is not None:
            if not self._discard_unplayed or any(not isinstance(e, Draw) for g in self.table.games for e in g.record):
                self.journal.close()
            else:
                self.journal.discard()  # nobody moved: nothing to resume (the cell run again, Run All)

    def keep_journal(self, path: str | Path, setup: dict, resumed: JournalContents | None = None,
                     discard_unplayed: bool = False) -> None:
        """Write every game of this app to the journal ``path`` as it is played
        (:class:`~triviador_nb.classroom.Journal`); the teacher's box then
        says where, and a failed write is shown. A new journal's file is made
        at the first move, Start (issue 24: every page open wrote one, so
        opening play.ipynb and closing it left a file when the kernel died
        first); a ``resumed`` one is continued at once. With
        ``discard_unplayed`` (a journal the app named itself) the file is
        deleted when the app closes before anyone moved.

        Raises:
            FileExistsError: a new journal's ``path`` exists already.
        """
        self.journal_path = Path(path)
        self._discard_unplayed = discard_unplayed and resumed is None
        if resumed is None and not self.table.started:
            if self.journal_path.exists():
                raise FileExistsError(_("{path} exists already: a new game is saved to a new file")
                                      .format(path=self.journal_path))
            self.table.on_change(lambda _events: self._guarded(lambda: self._open_journal(setup)))
        else:
            self._open_journal(setup, resumed)
        self.table.on_change(lambda _events: self._guarded(self._journal_problem))

    def _open_journal(self, setup: dict, resumed: JournalContents | None = None) -> None:
        """Make (or continue) the journal, once the game has started (or at once when resumed)."""
        if self.journal is not None or self._unsaved or self.journal_path is None or not (self.table.started
                                                                                          or resumed):
            return
        path = self.journal_path
        try:
            self.journal = Journal(path, self.table, setup, resumed=resumed,
                                   on_lost=lambda: self.table.clock.call_later(0, self.table.hold))
        except OSError as error:
            if resumed is not None:
                raise
            self._unsaved = str(error) or type(error).__name__  # one try: the game goes on unsaved, and says so
            return
        if self.controls is not None:
            self.controls.show_journal(str(path.resolve()))

    def _journal_problem(self) -> None:
        if self.journal is not None and self.journal.lost:
            self._say(_("This game was resumed on another screen (another tab, or this page reloaded) and goes on "
                        "there; it is paused here."), warn=True)
        elif self.journal is not None and self.journal.problem or self._unsaved:
            problem = self.journal.problem if self.journal is not None else self._unsaved
            self._say(_("Not saved: {problem}. The game goes on.").format(problem=problem), warn=True)

    # the table's parts, for code that reads them (tests, reports, a teacher's cell)
    human = property(lambda self: self.seat, doc="The seat the person at the screen plays.")
    game = property(lambda self: self.table.game, doc="The game now.")
    games = property(lambda self: self.table.games, doc="Every game played in this app.")
    bots = property(lambda self: self.table.bots, doc="Seat -> bot.")
    clock = property(lambda self: self.table.clock, doc="The table's clock.")
    pace = property(lambda self: self.table.pace, doc="The table's pace.")
    reveal_s = property(lambda self: self.table.reveal_s, doc="Seconds a result stays.")

    def autoplay(self, skill: str = "medium") -> Game:
        """Let bots finish the game at once, a bot standing in for the human.

        Used by the notebook's last cell (so nbval can run a game to the end)
        and by a teacher who wants to see how a game ends. Returns the game.
        """
        return self.table.autoplay(skill)

    def report(self) -> pd.DataFrame:
        """How each question went in every game of this app so far (one row per
        question); save it for the question bank's author with ``.to_csv(...)``."""
        return report_table(self.games)

    def full_report(self) -> Report:
        """Everything this app's games tell the teacher: ``.players``,
        ``.answers`` and ``.questions`` tables, ``.score_chart()``,
        ``.hardest_chart()``, and ``.export("lesson")`` for xlsx and CSV
        in one call (no cell a spreadsheet would run)."""
        return Report(self.games)

    def asked_ids(self) -> frozenset[str]:
        """Ids of the questions asked in every game of this app so far."""
        return self.table.asked_ids()
