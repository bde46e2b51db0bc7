"""The playable game in a notebook: a game table and the widgets that show it.

:class:`GameApp` is a :class:`~triviador_nb.classroom.Table` (the game, its
bots, its clock and deadlines; it stamps every response time) plus the
widgets of one screen. The screen renders only the seat's view
(:func:`~triviador_nb.engine.view.view`, read through the table) and sends
intents; so a student's remote screen can be the same widgets fed by views
from elsewhere. Every callback is guarded: an error is shown in the message
line, and the game in progress is kept.
"""

from __future__ import annotations

from html import escape
from typing import Callable, Mapping

import ipywidgets as w
import pandas as pd

from .. import words
from ..bots import Bot
from ..classroom import Ack, Clock, Table
from ..engine import ChoiceAnswer, Game, GuessAnswer, Pick, Rebuild
from ..engine import Attack as AttackAction
from ..engine.view import View
from ..maps import GameMap
from ..reports import question_reports, report_table
from . import panels
from .cells import close_widgets, shown_by_cell
from .map_view import MapView
from .palette import seat_colour
from .question_panel import QuestionPanel
from .styles import CSS

TICK_S = 0.25  # countdown refresh, seconds
LETTERS = "ABCD"


class GameApp:
    """One game on screen.

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
            asked_before)`` -> (game, bots), where ``asked_before`` holds the
            ids of every question asked in this app so far (D4: they come
            after every unasked one).

    Attributes:
        table: the game table the screen shows.
        widget: the root widget (the app also displays itself).
        map_view, panel: the map and the question panel (tests click them).
    """

    def __init__(self, game: Game, game_map: GameMap, human: int | None, bots: Mapping[int, Bot],
                 clock: Clock | None = None, pace: float = 1.0, reveal_s: float = 3.0, think_s: float = 1.2,
                 new_game: Callable[[int, frozenset[str]], tuple[Game, Mapping[int, Bot]]] | None = None):
        self.table = Table(game, bots, clock, pace=pace, reveal_s=reveal_s, think_s=think_s, new_game=new_game)
        self.game_map = game_map
        self.human = human
        self._stopped = False
        self._recovering = False
        self._shown = ""  # the state id whose prompt the panel shows
        self._shown_reveal: int | None = None  # the event index of the result shown
        self._build_widgets()
        self.table.on_change(lambda _events: self._guarded(self._refresh))
        self._refresh()
        shown_by_cell(self)  # a re-run of the cell that made this app closes the app it made before

    # the table's parts, for code that reads them (tests, reports, a teacher's cell)
    game = property(lambda self: self.table.game, doc="The game now.")
    games = property(lambda self: self.table.games, doc="Every game played in this app.")
    bots = property(lambda self: self.table.bots, doc="Seat -> bot.")
    clock = property(lambda self: self.table.clock, doc="The table's clock.")
    pace = property(lambda self: self.table.pace, doc="The table's pace.")
    reveal_s = property(lambda self: self.table.reveal_s, doc="Seconds a result stays.")

    @property
    def view(self) -> View:
        """What the screen's seat may see now (the only thing the screen shows)."""
        return self.table.view(self.human)

    def start(self) -> None:
        """Begin play: the first question appears and its timer starts."""
        if not self.table.started:
            self._say("")
        self._guarded(self.table.start)

    # ------------------------------------------------------------------ layout

    def _build_widgets(self) -> None:
        self.map_view = MapView(self.game_map, note="Map: Made with Natural Earth")
        v = self.table.view(self.human)
        self.map_view.preload_labels([seat_colour(p.colour) for p in v.players], v.point_values,
                                     v.base_value, v.base_towers)
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
        self.wings.observe(lambda _: self._guarded(self._refresh), "value")
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

    def _refresh(self) -> None:
        """Show the seat's view: the panels, the map, and the question panel
        when the prompt or the result is new."""
        if self._stopped:
            return
        table = self.table
        if table.fault:
            fault, table.fault = table.fault, ""
            self._say(f"Something went wrong ({fault}). The game goes on.", warn=True)
            table.recover()
            return
        v = self.view
        self._render(v)
        if not v.started:
            first = ("the players choose their bases then" if v.stage == "base"
                     else "the bases are drawn; the first question's timer starts then")
            self.panel.clear(f"Press Start when the class is ready: {first}.")
        elif v.is_over:
            self._shown = v.state_id
            self.panel.clear("The game is over.")
        elif v.paused and not table.held and v.reveal is not None and v.reveal.index != self._shown_reveal:
            self._shown_reveal, self._shown = v.reveal.index, ""
            self.panel.result(words.outcome_lines(v) or ["See the result below."])
        elif not v.paused and v.state_id != self._shown:
            self._show_prompt(v)

    def _show_prompt(self, v: View) -> None:
        self._shown = v.state_id
        kind = v.prompt.kind
        if v.question is not None:
            q = v.question
            self.panel.ask(words.question_title(v), q.text, q.options, kind == "answer", q.time_limit_s)
            self._tick(v.state_id)
        elif kind in ("base", "pick", "claim", "attack"):
            self.wings.value = False
            self.panel.prompt("Your turn", words.turn_text(v), v.prompt.time_limit_s)
            self._tick(v.state_id)
        else:
            name = v.players[v.acting[0]].name
            self.panel.clear({"base": f"{name} is choosing a base…", "pick": f"{name} is choosing a territory…"}
                             .get(v.stage, f"{name} is choosing whom to attack…"))

    def _tick(self, state_id: str) -> None:
        """Keep the panel's countdown in step with the table's deadline while
        the prompt ``state_id`` is open."""
        table = self.table
        if self._stopped or table.stopped or table.state_id != state_id or table.paused:
            return
        self.panel.set_time_left(table.time_left())
        table.clock.call_later(TICK_S, lambda: self._guarded(self._tick, state_id))

    # ------------------------------------------------------------------ input

    def _human_choice(self, option: int) -> None:
        self._answered(self.table.submit(self.human, ChoiceAnswer(self.human, option)), LETTERS[option])

    def _human_guess(self, value: int) -> None:
        self._answered(self.table.submit(self.human, GuessAnswer(self.human, value)), str(value))

    def _answered(self, ack: Ack, given: str) -> None:
        """Say what became of the answer, unless its result is on screen already."""
        still_open = not self.table.paused and self.game.question is not None
        if ack.status == "accepted" and still_open:
            self.panel.stop(f"Answer sent: {given} in {ack.ms / 1000:.1f} s. Waiting for the others…")
        elif ack.status == "late" and still_open:
            self.panel.warn("Too late: the timer had run out, so this counts as no answer.")
        elif ack.status == "rejected":
            self._say(ack.reason[0].upper() + ack.reason[1:].rstrip(".") + ".", warn=True)

    def _territory_clicked(self, territory: str) -> None:
        v = self.view
        name = next((t.name for t in v.territories if t.id == territory), territory)
        if self.human is None:
            return self._say(f"{name}: you are watching this game.")
        if not v.started:
            return self._say("Press Start to begin the game.", in_panel=True)
        if v.paused:
            return self._say("One moment: the result is still on screen.")
        if v.prompt.kind not in ("base", "pick", "claim", "attack"):
            return self._say(f"{name}: it is not your turn to choose a territory.")
        wings = v.prompt.kind == "attack" and self.wings.value and territory in v.prompt.wings_choices
        action = AttackAction(self.human, territory, wings=wings) if v.prompt.kind == "attack" \
            else Pick(self.human, territory)
        ack = self.table.submit(self.human, action)
        if ack.status == "rejected":
            self._say(f"You cannot choose {name}: {ack.reason}.", warn=True, in_panel=True)
        elif ack.accepted:
            self._say("")

    def _rebuild_clicked(self) -> None:
        if self.view.prompt.can_rebuild:
            ack = self.table.submit(self.human, Rebuild(self.human))
            if ack.status == "rejected":
                self._say(ack.reason[0].upper() + ack.reason[1:] + ".", warn=True)

    # ------------------------------------------------------------------ display

    def _render(self, v: View) -> None:
        table = self.table
        roles = {s: f"bot · {b.skill.name}" for s, b in table.bots.items()}
        if self.human is not None:
            roles[self.human] = "you"
        self.title.value = (f'<div class="tnb-title">{escape(v.rules_title)} · {escape(self.game_map.title)}'
                            f'<span class="tnb-note" style="font-size:14px"> · game {table.game.seed}</span></div>')
        self.status.value = panels.status_html(v)
        self.scoreboard.value = panels.scoreboard_html(v, roles)
        self.reveal.value = panels.reveal_html(v)
        self.log.value = panels.log_html(v)
        over = v.is_over
        self.ranking.value = panels.ranking_html(v) if over else ""
        self.report_box.layout.display = None if over else "none"
        if over:
            self.report_view.value = panels.report_html(question_reports([table.game]))
        self.play_again.layout.display = None if over and table.new_game else "none"
        self.start_button.layout.display = "none" if v.started else None
        self.panel.widget.layout.display = "none" if over else "flex"
        prompt = v.prompt
        mine = v.started and not v.paused and prompt.kind in ("base", "pick", "claim", "attack")
        my_attack = mine and prompt.kind == "attack"
        choosable = list(prompt.choices) if mine else []
        if my_attack and self.wings.value:
            choosable += list(prompt.wings_choices)
        self.wings.layout.display = None if my_attack and prompt.wings_choices else "none"
        self.rebuild_button.layout.display = None if my_attack and prompt.can_rebuild else "none"
        colours = [seat_colour(p.colour) for p in v.players]
        self.map_view.show(
            owners={t.id: None if t.owner is None else colours[t.owner] for t in v.territories},
            values={t.id: t.value for t in v.territories},
            towers={t.id: (t.towers if t.base_of is not None else None) for t in v.territories},
            total_towers=v.base_towers, choosable=choosable,
            contested=v.attack.territory if v.attack is not None else None)

    def _say(self, text: str, warn: bool = False, in_panel: bool = False) -> None:
        """Show a message beside the map (and in the question panel, where the
        player is looking, when ``in_panel``)."""
        css = "tnb-warn" if warn else "tnb-note"
        self.message.value = f'<div class="tnb-message"><span class="{css}">{escape(text)}</span></div>' if text else ""
        if in_panel:
            self.panel.warn(text)

    # ------------------------------------------------------------------ control

    def _guarded(self, callback: Callable[..., object], *args: object) -> None:
        """Run a UI callback; on an unexpected error, show it and carry on from
        the game as it stands (the engine never keeps a half-applied action)."""
        if self._stopped:
            return
        try:
            callback(*args)
        except Exception as error:  # noqa: BLE001 - the game must survive any UI fault
            if self._recovering:  # the screen failed again while recovering: say so once, and stop trying
                raise
            self._say(f"Something went wrong ({type(error).__name__}: {error}). The game goes on.", warn=True)
            self._recovering = True
            try:
                if self.table.started:
                    self.table.recover()
            except Exception as again:  # noqa: BLE001
                self._say(f"Something went wrong twice ({again}). The game is kept in app.game; "
                          "run app.resume() to try again.", warn=True)
            finally:
                self._recovering = False

    def resume(self) -> None:
        """Re-arrange timers and bots from the current state (after an error),
        keeping the time left on the open prompt; starts the game if Start
        was not pressed yet."""
        if not self._stopped:
            self._shown = ""
            self.table.recover()

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

    def stop(self) -> None:
        """Stop every timer, bot and click of this game for good (another game
        replaces it); ``resume()`` and ``restart()`` do nothing after this."""
        self._stopped = True
        self.table.stop()

    def close(self) -> None:
        """Stop the game (:meth:`stop`) and close all its widgets, in the
        kernel and in the browser; the game itself stays in ``app.game``."""
        self.stop()
        self.map_view.close()
        self.panel.close()
        close_widgets(self.widget)

    def asked_ids(self) -> frozenset[str]:
        """Ids of the questions asked in every game of this app so far."""
        return self.table.asked_ids()

    def restart(self) -> None:
        """Start a new game with the same settings and the next seed ("Play again").

        Raises:
            RuntimeError: the app was made without a way to start a new game.
        """
        if self._stopped:
            return
        self._shown, self._shown_reveal = "", None
        self._say("")
        self.table.restart()
