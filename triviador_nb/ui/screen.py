"""The game screen: the widgets that render one seat's view and send its intents.

There is one screen. It reads only a :class:`~triviador_nb.engine.view.View`
and sends intents, through a :class:`ScreenSource`: the single-screen game's
source is the game table in the same kernel (:class:`TableSource`); a
student's source is the room client, fed by views the room host sends
(``triviador_nb.rooms.client``); the teacher's projector reads a room's table
from the host's thread. Every callback is guarded: an error is shown in the
message line, and the game in progress is kept.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Callable, Mapping, Protocol

import ipywidgets as w

from .. import words
from ..classroom import Ack, Clock, Table, Timer
from ..engine import Action, ChoiceAnswer, GuessAnswer, Pick, Rebuild
from ..engine import Attack as AttackAction
from ..engine.view import View
from ..i18n import MAP, RULE_SET, TERRITORY, _, pgettext, speaking
from ..maps import GameMap
from ..resources import data_dir
from . import panels
from .answered import ANSWERED_CSS, AnsweredCount
from .cells import close_widgets
from .event_log import EventLog
from .get_ready import GetReady
from .lesson_styles import WATCH_CSS
from .map_view import MapView
from .palette import seat_colour
from .place import PLACE_CSS, PlaceLine
from .podium import PODIUM_CSS, Podium
from .question_panel import QuestionPanel
from .scoreboard import Scoreboard
from .sound import Cues, Sound
from .spliced_html import SplicedHTML
from .styles import CSS

TICK_S = 0.25  # countdown refresh, seconds
LETTERS = "ABCD"


class ScreenSource(Protocol):
    """Where a screen's views come from and its intents go.

    Attributes:
        started, paused, held, stopped: play has begun; a result is on screen
            or the teacher holds the game; the teacher holds it; the game is
            closed for good.
        state_id: the moment intents answer now (the view's).
        can_restart: "Play again" is offered when the game ends.
    """

    started: bool
    paused: bool
    held: bool
    stopped: bool
    state_id: str
    can_restart: bool

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see now."""

    def submit(self, seat: int, intent: Action, state_id: str | None = None) -> Ack:
        """Send ``seat``'s intent, answering the moment ``state_id`` (the
        prompt the screen showed); the answer says what became of it."""

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` on the screen's own loop after every change."""

    def time_left(self) -> float:
        """Seconds left on the open prompt's timer."""

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` on the screen's loop (the countdown's ticks)."""

    def roles(self) -> dict[int, str]:
        """Seat -> who plays it (``"bot · medium"``, a team's members)."""

    def title_note(self) -> str:
        """A note after the title (the game number on the single screen)."""

    def report_html(self) -> str:
        """How the questions went, once the game is over ("" for none)."""

    def take_fault(self) -> str:
        """The last unexpected error behind the screen, once ("" for none)."""

    def start(self) -> None: ...
    def recover(self) -> None: ...
    def restart(self) -> None: ...
    def stop(self) -> None: ...


class TableSource:
    """A game table as a screen's source.

    Args:
        table: the table.
        screen_clock: the loop the screen's widgets live on; None when it is
            the table's own (the single-screen game). When they differ (the
            projector of a room, whose table runs on the host's thread), every
            change is handed to the screen's loop, so a slow screen never holds
            the table up and the table never touches widgets from its thread.
        roles: gives seat -> who plays it; by default the table's bots' skills.
        report: makes the after-game question report's HTML (None: none).
        note: the note after the title.
    """

    def __init__(self, table: Table, screen_clock: Clock | None = None, roles: Callable[[], dict[int, str]] | None = None,
                 report: Callable[[], str] | None = None, note: str | None = None):
        self.table = table
        self.clock = screen_clock or table.clock
        self._handed = screen_clock is not None and screen_clock is not table.clock
        self._roles = roles
        self._report = report
        self._note = note

    started = property(lambda self: self.table.started)
    paused = property(lambda self: self.table.paused or self.table.held)
    held = property(lambda self: self.table.held)
    stopped = property(lambda self: self.table.stopped)
    state_id = property(lambda self: self.table.state_id)
    can_restart = property(lambda self: self.table.new_game is not None and not self._handed)

    def view(self, seat: int | None) -> View:
        return self.table.view(seat)

    def submit(self, seat: int, intent: Action, state_id: str | None = None) -> Ack:
        return self.table.submit(seat, intent)  # the single screen is never behind its own table

    def on_change(self, listener: Callable[[], None]) -> None:
        if self._handed:
            self.table.on_change(lambda _events: self.clock.call_soon_threadsafe(listener))
        else:
            self.table.on_change(lambda _events: listener())

    def time_left(self) -> float:
        return self.table.time_left()

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> Timer:
        return self.clock.call_later(delay_s, callback)

    def roles(self) -> dict[int, str]:
        if self._roles is not None:
            return dict(self._roles())
        return {s: _("bot · {skill}").format(skill=words.skill_label(b.skill.name))
                for s, b in self.table.bots.items()}

    def title_note(self) -> str:
        if self._note is not None:
            return self._note
        number = self.table.game.seed  # None: a game with a secret has no number to replay it by
        return _("game {number}").format(number=number) if number is not None else ""

    def report_html(self) -> str:
        return self._report() if self._report is not None else ""

    def take_fault(self) -> str:
        fault, self.table.fault = self.table.fault, ""
        return fault

    def start(self) -> None:
        self.table.start()

    def recover(self) -> None:
        self.table.recover()

    def restart(self) -> None:
        self.table.restart()

    def stop(self) -> None:
        if not self._handed:  # a projector closing does not close the room's table
            self.table.stop()


def map_credit(game_map: GameMap) -> str:
    """The line under the map: Natural Earth for the built maps (made from
    it, see maps/NOTICE), the file's name for a teacher's own."""
    source = game_map.source_path
    if source is None or Path(source).parent.resolve() == data_dir("maps").resolve():
        return _("Map: Made with Natural Earth")
    return _("Map: {file}").format(file=Path(source).name)


def _is_bot(role: object) -> bool:
    """A seat's role (as :meth:`ScreenSource.roles` gives it) says a bot plays it."""
    if isinstance(role, Mapping):
        return role.get("kind") == "bot"
    return isinstance(role, str) and role.startswith("bot")


def _sentence(clause: str) -> str:
    """A refusal's clause (:func:`triviador_nb.words.refusal`) as a sentence
    of its own: capitalised, with one full stop."""
    return clause[:1].upper() + clause[1:].rstrip(".") + "." if clause else clause


class GameScreen:
    """One seat's game screen.

    Args:
        source: where views come from and intents go.
        game_map: the map the game is played on (its geometry is drawn).
        seat: the seat the person at the screen plays, or None to watch.
        start_button: show "Start the game" before play (the single screen;
            a room starts from its lobby).
        language: the language code of the screen's words (``"hu"``; None:
            the kernel's, :func:`triviador_nb.i18n.set_language`).
        teams: seat -> team name for teams sharing this screen (issue 12):
            the screen then shows what every seat sees (no team's answer
            before the reveal; the teacher enters answers with
            :class:`~.controls.TeacherControls`), and a click on the map
            acts for the team whose turn it is.

    Attributes:
        source: the source; seat: the screen's seat now (with teams: the team
            choosing a territory now, else None).
        widget: the root widget (the screen also displays itself).
        map_view, panel: the map and the question panel (tests click them).
    """

    def __init__(self, source: ScreenSource, game_map: GameMap, seat: int | None, start_button: bool = True,
                 teams: dict[int, str] | None = None, language: str | None = None):
        with speaking(language) as self.language:
            self._setup(source, game_map, seat, start_button, teams)

    def _setup(self, source: ScreenSource, game_map: GameMap, seat: int | None, start_button: bool,
               teams: dict[int, str] | None) -> None:
        self.source = source
        self.game_map = game_map
        self.teams = dict(teams or {})
        self._seat = None if self.teams else seat
        self._start_shown = start_button
        self._stopped = False
        self._recovering = False
        self._shown = ""  # the state id whose prompt the panel shows
        self._shown_reveal: int | None = None  # the event index of the result shown
        self._answer_noted = ""  # the state id whose answer (maybe a team-mate's) the panel shows
        self._timed = ""  # the state id of the prompt whose countdown the panel shows
        self._bot_plays = False  # the teacher handed this screen's seat to a bot (a room), and the screen said so
        self._pause_said = ""  # what the message line says of a pause: cleared when play goes on
        self._ticking = ""  # the state id the countdown ticks for now ("" while it stands: paused, or none)
        self._tick_run = 0  # which run of ticks is the live one (an older run stops at its next tick)
        self._build_widgets()
        source.on_change(lambda: self._guarded(self._refresh))
        self._refresh()

    @property
    def seat(self) -> int | None:
        """The seat this screen plays now: its own, or with teams the team
        whose turn it is to choose a territory (None while a question is open:
        then every seat's view is the same)."""
        if not self.teams:
            return self._seat
        v = self.source.view(None)
        if v.started and not v.paused and v.stage in ("base", "pick", "attack") and v.acting \
                and v.acting[0] in self.teams:
            return v.acting[0]
        return None

    @property
    def view(self) -> View:
        """What the screen's seat may see now (the only thing the screen shows)."""
        return self.source.view(self.seat)

    def start(self) -> None:
        """Begin play: the first question appears and its timer starts."""
        if not self.source.started:
            self._say("")
        self._guarded(self.source.start)

    # ------------------------------------------------------------------ layout

    def _build_widgets(self) -> None:
        self.map_view = MapView(self.game_map, note=map_credit(self.game_map), language=self.language)
        v = self.view
        self.map_view.preload_labels([seat_colour(p.colour) for p in v.players], v.point_values,
                                     v.base_value, v.base_towers)
        self.map_view.on_territory_click(lambda t: self._guarded(self._territory_clicked, t))
        self.panel = QuestionPanel(language=self.language)
        self.panel.on_choice(lambda i: self._guarded(self._choice, i))
        self.panel.on_guess(lambda v: self._guarded(self._guess, v))
        self.title = w.HTML(layout={"min_width": "0", "flex": "1 1 auto"})  # it gives way to the place line
        self.title.add_class("tnb-title-box")  # and its content too (styles.py), or it runs under the place line
        self.status = SplicedHTML()
        self.message = SplicedHTML(layout={"min_height": "1.6em"})
        self.scoreboard = Scoreboard()
        self.place, self.get_ready, self.answered, self.podium = PlaceLine(), GetReady(), AnsweredCount(), Podium()
        self.sound = Sound()
        self.cues = Cues(self.sound)
        self.reveal = SplicedHTML()
        self.log = EventLog()
        self.ranking = w.HTML()
        self.report_view = w.HTML()
        self.report_box = w.Accordion(children=(self.report_view,), titles=(_("How did the questions go?"),),
                                      selected_index=None, layout={"display": "none"})
        self.play_again = self._big_button(_("Play again"), "success",
                                           lambda: self.restart() if self.view.is_over else None)
        self.wings = w.ToggleButton(description=_("Use Magic Wings"), icon="", value=False,
                                    tooltip=_("Attack one territory or castle that does not border you (once a game)"),
                                    layout={"width": "49%", "height": "48px", "display": "none"},
                                    style={"font_weight": "bold"})
        self.wings.observe(lambda _: self._guarded(self._refresh), "value")
        self.rebuild_button = w.Button(description=_("Rebuild castle"), button_style="warning",
                                       tooltip=_("Answer one question right and every tower stands again"),
                                       layout={"width": "49%", "height": "48px", "display": "none"},
                                       style={"font_weight": "bold"})
        self.rebuild_button.on_click(lambda _: self._guarded(self._rebuild_clicked))
        turn_controls = w.HBox([self.wings, self.rebuild_button],
                               layout={"width": "100%", "justify_content": "space-between"})
        # the keyboard's way to a territory (issue 12: every action without the mouse): type a name, Enter
        self.by_name = w.Combobox(placeholder=_("or type a territory's name, then Enter"), ensure_option=True,
                                  continuous_update=False, description=_("Territory"),
                                  layout={"width": "100%", "height": "40px", "visibility": "hidden"})
        self.by_name.observe(lambda change: self._guarded(self._named, change["new"]), "value")
        self.start_button = self._big_button(_("Start the game"), "primary", self.start)
        # the question panel first beside the map, right under the status line, and the scoreboard under the
        # map: a question's options are in view as it opens, without scrolling, at 1280x720 and 1366x900
        # (they were below the fold under the scoreboard: issue 24)
        self.side = side = w.VBox([self.start_button, self.get_ready, self.message, self.panel.widget,
                                   self.answered.widget, turn_controls, self.by_name, self.ranking, self.play_again,
                                   self.report_box, self.reveal, self.log],
                      layout={"flex": "1 1 0", "min_width": "300px", "padding": "0 0 0 12px",
                              "overflow": "visible"})
        if self._seat is None:  # a projector or the class's shared screen: the question for the room to read
            self.panel.widget.add_class("tnb-watch")
        board = self.map_view.widget  # its width (the map's shape, a share of the row) becomes the column's
        column = w.VBox([board, self.scoreboard.widget], layout={"width": board.layout.width, "flex": "0 0 auto"})
        board.layout.width = "100%"
        # the place and the sound switch beside the title: no line of their own to push the question down
        title_row = w.HBox([self.title, self.place.widget, self.sound],
                           layout={"width": "100%", "align_items": "center"})
        self.widget = w.VBox([w.HTML(CSS + WATCH_CSS + PLACE_CSS + ANSWERED_CSS + PODIUM_CSS), title_row, self.status,
                              self.podium.widget,
                              w.HBox([column, side], layout={"align_items": "flex-start", "width": "100%"})],
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
        source = self.source
        fault = source.take_fault()
        if fault:
            self._say(_("Something went wrong ({fault}). The game goes on.").format(fault=fault), warn=True)
            source.recover()
            return
        v = self.view
        if self._pause_said and not v.paused:  # "the teacher has paused the game" no longer holds (issue 24 bug 3)
            if escape(self._pause_said) in self.panel.feedback.value:
                self.panel.feedback.value = ""
            self._say("")
        self._render(v)
        self.cues.follow(v, held=source.held)
        if not v.started:
            self.panel.clear(_("Press Start when the class is ready: the players choose their bases then.")
                             if v.stage == "base" else
                             _("Press Start when the class is ready: the bases are drawn; the first question's "
                               "timer starts then."))
        elif v.is_over:
            self._shown = v.state_id
            self.panel.clear(_("The game is over."))
        elif v.get_ready_s > 0:  # the 3-2-1 (get_ready.py): the first prompt is shown when it is over
            self.panel.clear(_("The game begins in a moment…"))
        elif v.paused and not source.held and v.reveal is not None and v.reveal.index != self._shown_reveal:
            self._shown_reveal, self._shown = v.reveal.index, ""
            self.panel.result(words.outcome_lines(v) or [_("See the result below.")])
        elif not v.paused and v.state_id != self._shown:
            self._show_prompt(v)
        elif (not v.paused and v.question is not None and v.question.my_answer is not None
              and self._answer_noted != v.state_id):
            self._note_answer(v)  # a team-mate's answer (or ours, seen again after a rejoin)
        if not v.paused and not v.is_over and v.state_id == self._timed and self._ticking != v.state_id:
            self._start_ticking(v.state_id)  # the teacher's Resume: the same prompt, its countdown going again
        elif v.paused and v.state_id == self._timed:  # paused: the browser's count stands from now on
            self.panel.set_time_left(source.time_left(), running=False)

    def _show_prompt(self, v: View) -> None:
        self._shown = v.state_id
        kind = v.prompt.kind
        if v.question is not None:
            q = v.question
            if self.teams:  # the teams answer aloud or on paper; the teacher types each one, hidden, below
                self.panel.ask(words.question_title(v), q.text, q.options, False, q.time_limit_s,
                               watching=_("Each team tells the teacher its answer."))
                if not q.options:
                    self.panel.controls.children = ()  # no number box on the projector
            elif self._seat is None:  # a projector: the question, large, and no control it cannot use (bug 7)
                self.panel.ask(words.question_title(v), q.text, q.options, False, q.time_limit_s, watching="")
                if not q.options:
                    self.panel.controls.children = ()
            elif self._bot_plays:
                self.panel.ask(words.question_title(v), q.text, q.options, False, q.time_limit_s,
                               watching=_("A bot is playing your seat; the teacher can hand it back."))
            else:
                self.panel.ask(words.question_title(v), q.text, q.options, kind == "answer", q.time_limit_s)
            if q.my_answer is not None:
                self._note_answer(v)
            self._start_ticking(v.state_id)
        elif kind in ("base", "pick", "claim", "attack"):
            self.wings.value = False
            seat = self.seat
            self.panel.prompt(_("{team}: your turn").format(team=self.teams[seat]) if seat in self.teams
                              else _("Your turn"),
                              words.turn_text(v), v.prompt.time_limit_s)
            self._start_ticking(v.state_id)
        else:
            name = v.players[v.acting[0]].name
            waiting = {"base": _("{player} is choosing a base…"), "pick": _("{player} is choosing a territory…")}
            self.panel.clear(waiting.get(v.stage, _("{player} is choosing whom to attack…")).format(player=name))

    def _note_answer(self, v: View) -> None:
        """The seat's answer is in (typed here or by a team-mate): say which."""
        self._answer_noted = v.state_id
        q = v.question
        given = str(q.my_answer) if q.kind == "guess" else LETTERS[q.my_answer]
        self.panel.stop(_("Answer in: {answer}. Waiting for the others…").format(answer=given))

    def _start_ticking(self, state_id: str) -> None:
        """Count the prompt ``state_id`` down (when it opens, and again when
        the teacher's Resume lets its timer run on: issue 24 bug 1)."""
        self._timed = state_id
        self._tick_run += 1
        self._tick(state_id, self._tick_run)

    def _tick(self, state_id: str, run: int) -> None:
        """Keep the panel's countdown in step with the source's deadline while
        the prompt ``state_id`` is open and not paused; a pause stops the run
        (the next refresh after Resume starts another)."""
        if run != self._tick_run:
            return  # a newer run counts this prompt down
        source = self.source
        if self._stopped or source.stopped or source.state_id != state_id or source.paused:
            if not (self._stopped or source.stopped) and source.state_id == state_id:  # paused: the count stands
                self.panel.set_time_left(source.time_left(), running=False)
            self._ticking = ""
            return
        self._ticking = state_id
        left = source.time_left()
        self.panel.set_time_left(left)
        self.cues.tick(state_id, left)
        source.call_later(TICK_S, lambda: self._guarded(self._tick, state_id, run))

    # ------------------------------------------------------------------ input

    def _choice(self, option: int) -> None:
        if self.seat is not None:
            self._answered(self.source.submit(self.seat, ChoiceAnswer(self.seat, option), self._shown or None), LETTERS[option])

    def _guess(self, value: int) -> None:
        if self.seat is not None:
            self._answered(self.source.submit(self.seat, GuessAnswer(self.seat, value), self._shown or None), str(value))

    def _answered(self, ack: Ack, given: str) -> None:
        """Say what became of the answer, unless its result is on screen already."""
        v = self.view
        still_open = not v.paused and v.question is not None
        if ack.status == "accepted" and still_open:
            self._answer_noted = v.state_id
            self.panel.stop(_("Answer sent: {answer} in {time}. Waiting for the others…").format(
                answer=given, time=words.seconds_text(ack.ms)))
        elif ack.status == "late" and still_open:
            self.panel.warn(_("Too late: the timer had run out, so this counts as no answer."))
        elif ack.status == "duplicate" and still_open:
            self._note_answer(v)
        elif ack.status == "rejected":
            text = _sentence(words.refusal(ack.code, ack.reason))
            self._say(text, warn=True)
            if ack.code in ("held", "paused"):  # refused only for the pause: the question is asked again after it
                self._pause_said, self._shown = text, ""

    def _territory_clicked(self, territory: str) -> None:
        v = self.view
        name = pgettext(TERRITORY, next((t.name for t in v.territories if t.id == territory), territory))
        if self.seat is None:
            return self._say(_("{territory}: you are watching this game.").format(territory=name))
        if not v.started:
            return self._say(_("Press Start to begin the game.") if self._start_shown
                             else _("The game has not started yet."), in_panel=True)
        if v.paused:
            text = (_("One moment: the teacher has paused the game.") if self.source.held
                    else _("One moment: the result is still on screen."))
            self._say(text)
            self._pause_said = text
            return None
        chosen = self._chosen_now(v)
        if v.prompt.kind not in ("base", "pick", "claim", "attack"):
            if chosen is not None:  # a team-mate (or this screen, a moment ago) chose already
                return self._say(self._chosen_text(chosen))
            return self._say(_("{territory}: it is not your turn to choose a territory.").format(territory=name))
        wings = v.prompt.kind == "attack" and self.wings.value and territory in v.prompt.wings_choices
        action = AttackAction(self.seat, territory, wings=wings) if v.prompt.kind == "attack" \
            else Pick(self.seat, territory)
        ack = self.source.submit(self.seat, action, self._shown or None)
        chosen = self._chosen_now(self.view) if not ack.accepted else None
        if chosen is not None and chosen != territory:  # the team chose while this click was on its way
            self._say(self._chosen_text(chosen))
        elif ack.status == "rejected":
            text = _("You cannot choose {territory}: {reason}.").format(
                territory=name, reason=words.refusal(ack.code, ack.reason))
            self._say(text, warn=True, in_panel=True)
            self._pause_said = text if ack.code in ("held", "paused") else ""
        elif ack.accepted:
            self._say("")

    def _chosen_now(self, v: View) -> str | None:
        """The territory this screen's seat chose since the last result (a
        base, a pick, a claim or an attack), or None."""
        since = v.reveal.index if v.reveal is not None else -1
        for event in reversed(v.log):
            if event.index <= since:
                break
            if (event.kind in ("pick", "claim", "attack") or event.code == "bases.chosen") \
                    and event.data.get("seat") == self.seat and event.data.get("territory"):
                return event.data["territory"]
        return None

    def _chosen_text(self, territory: str) -> str:
        """"Your team chose Heves." (or "You chose Heves." for a seat of one)."""
        name = pgettext(TERRITORY, next((t.name for t in self.view.territories if t.id == territory), territory))
        role = self.source.roles().get(self.seat)
        team = isinstance(role, Mapping) and role.get("kind") == "team"
        return (_("Your team chose {territory}.") if team else _("You chose {territory}.")).format(territory=name)

    def _named(self, name: str) -> None:
        """A territory chosen by typing its name (the keyboard's click)."""
        if not name:
            return
        territory = next((t.id for t in self.view.territories if pgettext(TERRITORY, t.name) == name), None)
        self.by_name.value = ""
        if territory is not None:
            self._territory_clicked(territory)

    def _rebuild_clicked(self) -> None:
        if self.seat is not None and self.view.prompt.can_rebuild:
            ack = self.source.submit(self.seat, Rebuild(self.seat), self._shown or None)
            if ack.status == "rejected":
                self._say(_sentence(words.refusal(ack.code, ack.reason)), warn=True)

    # ------------------------------------------------------------------ display

    def _render(self, v: View) -> None:
        source = self.source
        given = source.roles()
        roles = {seat: words.role_label(role) for seat, role in given.items()}
        bot_plays = self.seat is not None and not self.teams and _is_bot(given.get(self.seat))
        if self.teams:
            roles.update({s: _("team") for s in self.teams})
        elif bot_plays:
            roles[self.seat] = _("you: a bot plays for you")
        elif self.seat is not None:
            roles[self.seat] = _("you")
        if bot_plays != self._bot_plays:
            self._bot_plays = bot_plays
            self._say(_("A bot is playing your seat; the teacher can hand it back.") if bot_plays
                      else _("The teacher handed your seat back to you: play on.") if v.started and not v.is_over
                      else "", warn=bot_plays)
        note = source.title_note()
        note_html = f'<span class="tnb-note" style="font-size:14px"> · {escape(note)}</span>' if note else ""
        rules_title, map_title = pgettext(RULE_SET, v.rules_title), pgettext(MAP, self.game_map.title)
        self.title.value = f'<div class="tnb-title">{escape(rules_title)} · {escape(map_title)}{note_html}</div>'
        paused, why = escape(_("Paused")), escape(_("the teacher has paused the game: every timer has stopped"))
        self.status.value = panels.status_html(v) if not (source.held and v.started and not v.is_over) else (
            f'<div class="tnb-status tnb-yourturn" role="status"><span class="tnb-phase">{paused}</span> · {why}</div>')
        self.scoreboard.show(v, roles)
        self.place.show(v, None if self.teams else self.seat)
        self.get_ready.show(v)
        self.answered.show(v)
        self.podium.show(v)
        self.reveal.value = panels.reveal_html(v)
        self.log.show(panels.log_lines(v))
        over = v.is_over
        self.ranking.value = panels.ranking_html(v) if over else ""
        report = source.report_html() if over else ""
        self.report_box.layout.display = None if report else "none"
        self.report_view.value = report
        self.play_again.layout.display = None if over and source.can_restart else "none"
        self.start_button.layout.display = "none" if v.started or not self._start_shown else None
        self.panel.widget.layout.display = "none" if over else "flex"
        prompt = v.prompt
        mine = v.started and not v.paused and prompt.kind in ("base", "pick", "claim", "attack")
        my_attack = mine and prompt.kind == "attack"
        choosable = list(prompt.choices) if mine else []
        if my_attack and self.wings.value:
            choosable += list(prompt.wings_choices)
        names = {t.id: t.name for t in v.territories}
        options = tuple(sorted(pgettext(TERRITORY, names[t]) for t in choosable))
        if choosable and self.by_name.options != options:  # hidden, it keeps the last ones unsent
            self.by_name.options = options
        # hidden, not removed: a box that came and went on "your turn" would move the page under the click
        self.by_name.layout.visibility = "visible" if choosable else "hidden"
        self.wings.layout.display = None if my_attack and prompt.wings_choices else "none"
        self.rebuild_button.layout.display = None if my_attack and prompt.can_rebuild else "none"
        colours = [seat_colour(p.colour) for p in v.players]
        self.map_view.show(
            owners={t.id: None if t.owner is None else colours[t.owner] for t in v.territories},
            values={t.id: t.value for t in v.territories},
            towers={t.id: (t.towers if t.base_of is not None else None) for t in v.territories},
            total_towers=v.base_towers, choosable=choosable,
            contested=v.attack.territory if v.attack is not None else None,
            marks={t.id: str(t.owner + 1) for t in v.territories if t.owner is not None})

    def _say(self, text: str, warn: bool = False, in_panel: bool = False) -> None:
        """Show a message beside the map (and in the question panel, where the
        player is looking, when ``in_panel``)."""
        self._pause_said = ""
        css = "tnb-warn" if warn else "tnb-note"
        role = "alert" if warn else "status"  # a screen reader says it as it appears
        self.message.value = (f'<div class="tnb-message" role="{role}"><span class="{css}">{escape(text)}</span></div>'
                              if text else "")
        if in_panel:
            self.panel.warn(text)

    # ------------------------------------------------------------------ control

    def _guarded(self, callback: Callable[..., object], *args: object) -> None:
        """Run a UI callback; on an unexpected error, show it and carry on from
        the game as it stands (the engine never keeps a half-applied action)."""
        if self._stopped:
            return
        with speaking(self.language):
            self._run_guarded(callback, *args)

    def _run_guarded(self, callback: Callable[..., object], *args: object) -> None:
        try:
            callback(*args)
        except Exception as error:  # noqa: BLE001 - the game must survive any UI fault
            if self._recovering:  # the screen failed again while recovering: say so once, and stop trying
                raise
            self._say(_("Something went wrong ({fault}). The game goes on.").format(
                fault=f"{type(error).__name__}: {error}"), warn=True)
            self._recovering = True
            try:
                if self.source.started:
                    self.source.recover()
            except Exception as again:  # noqa: BLE001
                self._say(_("Something went wrong twice ({fault}). The game is kept; "
                            "run .resume() to try again.").format(fault=again), warn=True)
            finally:
                self._recovering = False

    def resume(self) -> None:
        """Re-arrange timers and bots from the current state (after an error),
        keeping the time left on the open prompt; starts the game if Start
        was not pressed yet."""
        if not self._stopped:
            self._shown = ""
            self.source.recover()

    def stop(self) -> None:
        """Stop this screen for good (and the game, when the screen owns it)."""
        self._stopped = True
        self.source.stop()

    def close(self) -> None:
        """Stop the screen (:meth:`stop`) and close all its widgets, in the
        kernel and in the browser."""
        self.stop()
        self.map_view.close()
        self.panel.close()
        close_widgets(self.widget)

    def restart(self) -> None:
        """Start a new game with the same settings ("Play again"): the next
        game number, or a fresh secret after a game with one.

        Raises:
            RuntimeError: the source cannot start a new game.
        """
        if self._stopped:
            return
        self._shown, self._shown_reveal, self._answer_noted, self._timed = "", None, "", ""
        self._say("")
        self.source.restart()
