"""The playable game in a notebook: map, panels, timers, bots and a human seat.

:class:`GameApp` renders a :class:`~triviador_nb.engine.Game` and turns clicks
into actions. Bots act after a short, realistic delay and countdowns run on
the kernel's asyncio loop (:mod:`.scheduler`), so the kernel never blocks.
Every callback is guarded: an error is shown in the message line, and the
game in progress is kept.
"""

from __future__ import annotations

from html import escape
from typing import Callable, Mapping

import ipywidgets as w
import pandas as pd

from ..bots import Bot
from ..engine import (
    AnswerTooLateError,
    ClaimExpansion,
    Rebuild,
    ChoiceAnswer,
    Event,
    Game,
    GuessAnswer,
    IllegalActionError,
    Pick,
    Timeout,
)
from ..engine import Attack as AttackAction
from ..engine.state import Purpose
from ..maps import GameMap
from ..reports import question_reports, report_table
from . import panels
from .cells import close_widgets, shown_by_cell
from .map_view import MapView
from .palette import seat_colour
from .question_panel import QuestionPanel
from .scheduler import LoopScheduler, Scheduler
from .styles import CSS

TICK_S = 0.25  # countdown refresh, seconds


class GameApp:
    """One game on screen.

    Args:
        game: a new game.
        game_map: the map the game's board comes from.
        human: the seat the person at the screen plays, or None to watch bots.
        bots: seat -> bot for every other seat.
        scheduler: the clock (default: the kernel's asyncio loop).
        pace: multiplies every bot delay and the pause after a result
            (1.0 = realistic, 0 = instant).
        reveal_s: seconds the result of a question stays before play goes on.
        think_s: seconds a bot takes to choose a territory.
        new_game: makes the next game for "Play again": ``new_game(seed,
            asked_before)`` -> (game, bots), where ``asked_before`` holds the
            ids of every question asked in this app so far (D4: they come
            after every unasked one).

    Attributes:
        widget: the root widget (the app also displays itself).
        map_view, panel: the map and the question panel (tests click them).
    """

    def __init__(self, game: Game, game_map: GameMap, human: int | None, bots: Mapping[int, Bot],
                 scheduler: Scheduler | None = None, pace: float = 1.0, reveal_s: float = 3.0,
                 think_s: float = 1.2,
                 new_game: Callable[[int, frozenset[str]], tuple[Game, Mapping[int, Bot]]] | None = None):
        self.game = game
        self.games = [game]  # every game played in this app, for reports
        self.game_map = game_map
        self.human = human
        self.bots = dict(bots)
        self.scheduler = scheduler or LoopScheduler()
        self.pace, self.reveal_s, self.think_s = pace, reveal_s, think_s
        self._new_game = new_game
        self._epoch = 0  # bumped to invalidate every pending callback
        self._asked = None  # the AskedQuestion on screen
        self._asked_at = 0.0
        self._turn_started = 0.0
        self._paused = False  # showing a result before play goes on
        self._stopped = False  # replaced by another game: nothing acts any more
        self._started = False  # the teacher has pressed Start
        self._last_reveal: Event | None = None
        self._outcome: list[str] = []
        self._build_widgets()
        self._render()
        first = ("the players choose their bases then" if self.game.stage == "base"
                 else "the bases are drawn; the first question's timer starts then")
        self.panel.clear(f"Press Start when the class is ready: {first}.")
        shown_by_cell(self)  # a re-run of the cell that made this app closes the app it made before

    def start(self) -> None:
        """Begin play: the first question appears and its timer starts."""
        if not self._started:
            self._started = True
            self._say("")
            self._step()

    # ------------------------------------------------------------------ layout

    def _build_widgets(self) -> None:
        self.map_view = MapView(self.game_map, note="Map: Made with Natural Earth")
        rules = self.game.rules
        values = {phase.value for phase in rules.expansion} | {rules.capture_value, rules.ruin_taken_value}
        self.map_view.preload_labels([seat_colour(c) for c in self.game.colours], sorted(values),
                                     rules.base_value, rules.base_towers)
        self.map_view.on_territory_click(lambda t: self._guarded(self._territory_clicked, t))
        self.panel = QuestionPanel()
        self.panel.on_choice(lambda i: self._guarded(self._human_choice, i))
        self.panel.on_guess(lambda v: self._guarded(self._human_guess, v))
        self.title = w.HTML()
        self.status = w.HTML()
        self.message = w.HTML(layout={"min_height": "1.6em"})
        self.scoreboard = w.HTML()
        self.reveal = w.HTML()
        self.log = w.HTML()
        self.ranking = w.HTML()
        self.report_view = w.HTML()
        self.report_box = w.Accordion(children=(self.report_view,), titles=("How did the questions go?",),
                                      selected_index=None, layout={"display": "none"})
        self.play_again = self._big_button("Play again", "success",
                                           lambda: self.restart() if self.game.is_over else None)
        self.wings = w.ToggleButton(description="Use Magic Wings", icon="", value=False,
                                    tooltip="Attack one territory or castle that does not border you (once a game)",
                                    layout={"width": "49%", "height": "48px", "display": "none"},
                                    style={"font_weight": "bold"})
        self.wings.observe(lambda _: self._guarded(self._render), "value")
        self.rebuild_button = w.Button(description="Rebuild castle", button_style="warning",
                                       tooltip="Answer one question right and every tower stands again",
                                       layout={"width": "49%", "height": "48px", "display": "none"},
                                       style={"font_weight": "bold"})
        self.rebuild_button.on_click(lambda _: self._guarded(self._rebuild_clicked))
        turn_controls = w.HBox([self.wings, self.rebuild_button],
                               layout={"width": "100%", "justify_content": "space-between"})
        self.start_button = self._big_button("Start the game", "primary", self.start)
        side = w.VBox([self.scoreboard, self.start_button, self.message, self.panel.widget, turn_controls,
                       self.ranking, self.play_again, self.report_box, self.reveal, self.log],
                      layout={"flex": "1 1 0", "min_width": "300px", "padding": "0 0 0 12px",
                              "overflow": "visible"})
        self.widget = w.VBox([w.HTML(CSS), self.title, self.status,
                              w.HBox([self.map_view.widget, side], layout={"align_items": "flex-start",
                                                                          "width": "100%"})],
                             layout={"width": "100%"})
        self.widget.add_class("tnb-root")

    def _big_button(self, label: str, style: str, action: Callable[[], None]) -> w.Button:
        button = w.Button(description=label, button_style=style, layout={"width": "100%", "height": "56px"},
                          style={"font_size": "22px", "font_weight": "bold"})
        button.on_click(lambda _: self._guarded(action))
        return button

    def _repr_mimebundle_(self, **kwargs: object) -> dict:
        return self.widget._repr_mimebundle_(**kwargs)

    # ------------------------------------------------------------------ flow

    def _step(self) -> None:
        """Render, then arrange what happens next: a prompt, a countdown, a bot."""
        self._paused = False
        self._render()
        game = self.game
        if game.is_over:
            self.panel.clear("The game is over.")
            return
        if game.stage == "answer":
            self._start_question()
        else:
            self._start_turn()

    def _start_question(self) -> None:
        asked = self.game.question
        if asked is self._asked:
            return  # already on screen; countdown and bots are running
        self._asked, self._asked_at = asked, self.scheduler.now()
        limit = self.game.time_limit_s()
        can_answer = self.human in asked.waiting_for
        self.panel.ask(self._question_title(asked), asked.question.text, asked.options, can_answer, limit)
        for seat in asked.waiting_for:
            if seat in self.bots:
                action = self.bots[seat].act(self.game)
                delay = (action.ms if action.ms is not None else limit * 1000) / 1000 * self.pace
                self._later(delay, self._bot_answer(asked, action))
        self._countdown(limit, self._asked_at, lambda: self.game.question is asked, self._answer_timed_out)

    def _question_title(self, asked) -> str:
        kind = "Guess question" if asked.is_guess else "Multiple-choice question"
        names = " vs ".join(self.game.players[s].name for s in asked.players)
        if asked.purpose is Purpose.EXPANSION:
            return f"{kind} · everyone answers · closest wins"
        if asked.purpose is Purpose.BATTLE_GUESS:
            return f"{kind} · both were right · closest wins · {names}"
        if asked.purpose is Purpose.CLAIM:
            seat, territory = self.game.claim
            return f"{kind} · {names} · right = {self.game.board.names[territory]} is yours"
        if asked.purpose is Purpose.REBUILD:
            return f"{kind} · {names} · right = the castle stands again"
        return f"{kind} · {names}"

    def _start_turn(self) -> None:
        game = self.game
        seat = game.current_players()[0]
        self._asked = None
        self._turn_started = self.scheduler.now()
        count = len(game.actions)
        if seat == self.human:
            limit = game.time_limit_s()
            self.wings.value = False
            self.panel.prompt("Your turn", self._turn_text(), limit)
            self._countdown(limit, self._turn_started, lambda: len(self.game.actions) == count,
                            lambda: self._apply(Timeout(seat)))
        else:
            name = game.players[seat].name
            self.panel.clear({"base": f"{name} is choosing a base…", "pick": f"{name} is choosing a territory…"}
                             .get(game.stage, f"{name} is choosing whom to attack…"))
            self._later(self.think_s * self.pace, self._bot_turn(seat, count))

    def _turn_text(self) -> str:
        game = self.game
        if game.stage == "base":
            return "Click a territory (outlined) for your base and castle."
        if game.stage == "pick" and isinstance(game.expansion_phase, ClaimExpansion):
            return "Click a free territory next to yours, then answer a question to keep it."
        if game.stage == "pick":
            return "Click a free territory next to yours on the map."
        extra = []
        if game.wings_targets(self.human):
            extra.append("Magic Wings (button below) reach one far territory or castle.")
        if game.can_rebuild(self.human):
            extra.append("Or rebuild your castle (button below).")
        return " ".join(["Click a territory to attack (outlined on the map).", *extra])

    def _bot_answer(self, asked, action) -> Callable[[], None]:
        def run() -> None:
            if self.game.question is asked and action.player in asked.waiting_for:
                self._apply(action)
        return run

    def _bot_turn(self, seat: int, count: int) -> Callable[[], None]:
        def run() -> None:
            if len(self.game.actions) == count and not self.game.is_over:
                self._apply(self.bots[seat].act(self.game))
        return run

    def _countdown(self, limit: float, started: float, still: Callable[[], bool], expire: Callable[[], None]) -> None:
        """Tick the panel's timer until ``limit`` seconds after ``started``; then
        call ``expire`` - unless ``still()`` turned False (the moment passed)."""
        def tick() -> None:
            if not still():
                return
            left = limit - (self.scheduler.now() - started)
            self.panel.set_time_left(left)
            if left <= 0.001:  # within a millisecond: expired (a float remainder must not tick forever)
                expire()
            else:
                self._later(min(TICK_S, left), tick)
        self._later(TICK_S, tick)

    def _answer_timed_out(self) -> None:
        asked = self.game.question
        if self.human in asked.waiting_for:
            self.panel.stop("Time is up: no answer.")
            self._apply(self._no_answer(asked))

    def _no_answer(self, asked) -> GuessAnswer | ChoiceAnswer:
        return GuessAnswer(self.human, None) if asked.is_guess else ChoiceAnswer(self.human, None)

    # ------------------------------------------------------------------ input

    def _elapsed_ms(self) -> int:
        return round((self.scheduler.now() - self._asked_at) * 1000)

    def _human_choice(self, option: int) -> None:
        ms = self._elapsed_ms()
        self.panel.stop(f"Answer sent: {'ABCD'[option]} in {ms / 1000:.1f} s. Waiting for the others…")
        self._apply(ChoiceAnswer(self.human, option, ms))

    def _human_guess(self, value: int) -> None:
        ms = self._elapsed_ms()
        self.panel.stop(f"Answer sent: {value} in {ms / 1000:.1f} s. Waiting for the others…")
        self._apply(GuessAnswer(self.human, value, ms))

    def _territory_clicked(self, territory: str) -> None:
        game = self.game
        name = game.board.names.get(territory, territory)
        if self.human is None:
            return self._say(f"{name}: you are watching this game.")
        if not self._started:
            return self._say("Press Start to begin the game.", in_panel=True)
        if self._paused:
            return self._say("One moment: the result is still on screen.")
        if game.stage not in ("base", "pick", "attack") or self.human not in game.current_players():
            return self._say(f"{name}: it is not your turn to choose a territory.")
        wings = game.stage == "attack" and self.wings.value and territory in game.wings_targets(self.human)
        reason = game.why_illegal(self.human, territory, wings=wings)
        if reason:
            return self._say(f"You cannot choose {name}: {reason}.", warn=True, in_panel=True)
        if game.stage == "attack":
            self._apply(AttackAction(self.human, territory, wings=wings))
        else:
            self._apply(Pick(self.human, territory))

    def _rebuild_clicked(self) -> None:
        if self.game.stage == "attack" and self.human in self.game.current_players():
            self._apply(Rebuild(self.human))

    def _apply(self, action) -> None:
        """Apply an action; show an illegal one's reason and keep the game as it was."""
        try:
            events = self.game.apply(action)
        except AnswerTooLateError:
            self.panel.warn("Too late: the timer had run out, so this counts as no answer.")
            asked = self.game.question
            if asked is not None and action.player in asked.waiting_for:
                self._apply(self._no_answer(asked))
            return
        except IllegalActionError as error:
            self._say(error.reason[0].upper() + error.reason[1:] + ".", warn=True)
            return
        self._say("")
        reveals = [e for e in events if e.kind == "answers"]
        if reveals:
            self._last_reveal = reveals[-1]
            self._outcome = panels.outcome_lines(self.game, events)
            self._paused = True
            self._render()
            self.panel.result(self._outcome or ["See the result below."])
            epoch = self._epoch
            self._later(self.reveal_s * self.pace, lambda: self._step() if epoch == self._epoch else None)
        else:
            self._step()

    # ------------------------------------------------------------------ display

    def _render(self) -> None:
        game = self.game
        roles = {s: ("you" if s == self.human else f"bot · {b.skill.name}") for s, b in self.bots.items()}
        if self.human is not None:
            roles[self.human] = "you"
        self.title.value = (f'<div class="tnb-title">{escape(game.rules.title)} · {escape(self.game_map.title)}'
                            f'<span class="tnb-note" style="font-size:14px"> · game {game.seed}</span></div>')
        self.status.value = panels.status_html(game, self.human, paused=self._paused, started=self._started)
        self.scoreboard.value = panels.scoreboard_html(game, roles)
        self.reveal.value = panels.reveal_html(game, self._last_reveal)
        self.log.value = panels.log_html(game.events)
        over = game.is_over
        self.ranking.value = panels.ranking_html(game) if over else ""
        self.report_box.layout.display = None if over else "none"
        if over:
            self.report_view.value = panels.report_html(question_reports([game]))
        self.play_again.layout.display = None if over and self._new_game else "none"
        self.start_button.layout.display = "none" if self._started else None
        self.panel.widget.layout.display = "none" if over else "flex"
        choosable: list[str] = []
        my_attack = not self._paused and game.stage == "attack" and self.human in game.current_players()
        if not self._paused and self.human in game.current_players():
            if game.stage in ("base", "pick"):
                choosable = game.legal_picks(self.human)
            elif game.stage == "attack":
                choosable = game.legal_targets(self.human) + (game.wings_targets(self.human) if self.wings.value else [])
        self.wings.layout.display = None if my_attack and game.wings_targets(self.human) else "none"
        self.rebuild_button.layout.display = None if my_attack and game.can_rebuild(self.human) else "none"
        self.map_view.show(
            owners={t: None if s.owner is None else seat_colour(game.colours[s.owner])
                    for t, s in game.territories.items()},
            values={t: s.value for t, s in game.territories.items()},
            towers={t: (s.towers if s.is_base else None) for t, s in game.territories.items()},
            total_towers=game.rules.base_towers, choosable=choosable,
            contested=game.attack.territory if game.attack is not None else None)

    def _say(self, text: str, warn: bool = False, in_panel: bool = False) -> None:
        """Show a message beside the map (and in the question panel, where the
        player is looking, when ``in_panel``)."""
        css = "tnb-warn" if warn else "tnb-note"
        self.message.value = f'<div class="tnb-message"><span class="{css}">{escape(text)}</span></div>' if text else ""
        if in_panel:
            self.panel.warn(text)

    # ------------------------------------------------------------------ control

    def _later(self, delay_s: float, callback: Callable[[], None]) -> None:
        epoch = self._epoch

        def run() -> None:
            if epoch == self._epoch:
                self._guarded(callback)
        self.scheduler.call_later(delay_s, run)

    def _guarded(self, callback: Callable[..., object], *args: object) -> None:
        """Run a UI callback; on an unexpected error, show it and carry on from
        the game as it stands (the engine never keeps a half-applied action)."""
        if self._stopped:
            return
        try:
            callback(*args)
        except Exception as error:  # noqa: BLE001 - the game must survive any UI fault
            self._say(f"Something went wrong ({type(error).__name__}: {error}). The game goes on.", warn=True)
            try:
                if self._started:
                    self.resume()
            except Exception as again:  # noqa: BLE001
                self._say(f"Something went wrong twice ({again}). The game is kept in app.game; "
                          "run app.resume() to try again.", warn=True)

    def resume(self) -> None:
        """Re-arrange timers and bots from the current state (after an error);
        starts the game if Start was not pressed yet."""
        if self._stopped:
            return
        self._epoch += 1
        self._started = True
        self._asked = None
        self._step()

    def autoplay(self, skill: str = "medium") -> Game:
        """Let bots finish the game at once, a bot standing in for the human.

        Used by the notebook's last cell (so nbval can run a game to the end)
        and by a teacher who wants to see how a game ends. Returns the game.
        """
        self._epoch += 1
        self._started = True
        stand_in = Bot(self.human, skill, self.game.seed + 1) if self.human is not None else None
        while not self.game.is_over:
            seat = self.game.current_players()[0]
            bot = self.bots.get(seat, stand_in)
            self.game.apply(bot.act(self.game))
        self._paused = False
        self._render()
        self.panel.clear("The game is over.")
        return self.game

    def report(self) -> pd.DataFrame:
        """How each question went in every game of this app so far (one row per
        question); save it for the question bank's author with ``.to_csv(...)``."""
        return report_table(self.games)

    def stop(self) -> None:
        """Stop every timer, bot and click of this game for good (another game
        replaces it); ``resume()`` and ``restart()`` do nothing after this."""
        self._epoch += 1
        self._stopped = True

    def close(self) -> None:
        """Stop the game (:meth:`stop`) and close all its widgets, in the
        kernel and in the browser; the game itself stays in ``app.game``."""
        self.stop()
        self.map_view.close()
        self.panel.close()
        close_widgets(self.widget)

    def asked_ids(self) -> frozenset[str]:
        """Ids of the questions asked in every game of this app so far."""
        return frozenset(e.data["question"] for g in self.games for e in g.events if e.kind == "answers")

    def restart(self) -> None:
        """Start a new game with the same settings and the next seed ("Play again").

        Raises:
            RuntimeError: the app was made without a way to start a new game.
        """
        if self._stopped:
            return
        if self._new_game is None:
            raise RuntimeError("this app was made without a way to start a new game")
        self._epoch += 1
        self.game, bots = self._new_game(self.game.seed + 1, self.asked_ids())
        self.games.append(self.game)
        self.bots = dict(bots)
        self._asked, self._last_reveal, self._outcome = None, None, []
        self._say("")
        self._step()
