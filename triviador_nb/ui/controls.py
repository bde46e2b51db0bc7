"""The teacher's controls: pause and resume, skip the question, undo, end the
game now, and each team's answer entered without the class seeing it
(issue 12 parts 1 and 2).

The controls work on a :class:`ControlTarget`: a
:class:`~triviador_nb.classroom.Table` in this kernel (the single screen's,
:class:`TableTarget`), or a room on a room host reached through the
teacher's connection (:class:`RoomTarget`, :mod:`triviador_nb.rooms.teacher_client`);
every control is the table's, so it is in the game's record and the journal. A team's answer is typed into a
password box (dots on the projector), read on Enter or with its button, and
the row then says only "answer in"; guesses take digits, multiple-choice
questions 1-4 or A-D.
"""

from __future__ import annotations

import time
from html import escape
from pathlib import Path
import base64
from typing import Any, Callable, Mapping, Protocol

import ipywidgets as w

from ..classroom import Ack, Table
from ..engine.actions import Draw
from ..reports import Report
from ..words import refusal
from ..i18n import _, speaking
from .cells import close_widgets
from .question_panel import parse_guess

LETTERS = "ABCD"


def parse_entry(text: str, guess: bool) -> int | None:
    """A typed team answer: a guess (digits, D1) or an option (``1``-``4``,
    ``A``-``D`` in either case) as its index 0-3; None when it is neither."""
    text = text.strip()
    if guess:
        return parse_guess(text)
    if len(text) == 1 and text.upper() in LETTERS:
        return LETTERS.index(text.upper())
    if text in ("1", "2", "3", "4"):
        return int(text) - 1
    return None


class ControlTarget(Protocol):
    """What the teacher's controls act on and read (a table here, or a room
    on a host): the table's own commands, and its state as the controls
    show it."""

    held: bool
    started: bool
    asking: bool  # a question is open and the game is not paused
    is_over: bool
    can_undo: bool
    state_id: str

    def question_seats(self) -> tuple[tuple[int, ...], tuple[int, ...], bool] | None:
        """The open question's (seats asked, seats still to answer, is a guess), or None."""

    def hold(self) -> None: ...
    def release(self) -> None: ...
    def skip(self) -> Ack: ...
    def undo(self) -> Ack: ...
    def end_now(self) -> Ack: ...
    def enter_answer(self, seat: int, given: int | None, timed: bool = True) -> Ack: ...

    def report(self, base: Path) -> list[Path]:
        """Write the report of every game at the table as ``base.xlsx`` and CSV files."""


class TableTarget:
    """A table in this kernel as the controls' target; ``run`` runs a
    command where the table lives (at once by default)."""

    def __init__(self, table: Table, run: Callable[[Callable[[], Any]], Any] | None = None):
        self.table, self._run = table, run or (lambda work: work())

    held = property(lambda self: self.table.held)
    started = property(lambda self: self.table.started)
    asking = property(lambda self: self.table.started and self.table.game.question is not None
                      and not self.table.paused and not self.table.getting_ready)
    is_over = property(lambda self: self.table.game.is_over)
    can_undo = property(lambda self: any(not isinstance(e, Draw) for e in self.table.game.record))
    state_id = property(lambda self: self.table.state_id)

    def question_seats(self) -> tuple[tuple[int, ...], tuple[int, ...], bool] | None:
        question = self.table.game.question
        if question is None:
            return None
        return tuple(question.players), tuple(question.waiting_for), question.is_guess

    def hold(self) -> None:
        self._run(self.table.hold)

    def release(self) -> None:
        self._run(self.table.release)

    def skip(self) -> Ack:
        return self._run(self.table.skip)

    def undo(self) -> Ack:
        return self._run(self.table.undo)

    def end_now(self) -> Ack:
        return self._run(self.table.end_now)

    def enter_answer(self, seat: int, given: int | None, timed: bool = True) -> Ack:
        return self._run(lambda: self.table.enter_answer(seat, given, timed=timed))

    def report(self, base: Path) -> list[Path]:
        return self._run(lambda: Report(list(self.table.games))).export(base)


class RoomTarget:
    """A room on a room host, reached through the teacher's connection
    (:class:`~triviador_nb.rooms.teacher_client.TeacherClient`): commands
    go over the wire; the state is the latest ``room`` message and projector
    view the host sent."""

    def __init__(self, client: Any, code: str):
        self.client, self.code = client, code

    def _state(self) -> dict:
        return self.client.states.get(self.code, {})

    def _view(self):
        return self.client.views.get(self.code)

    held = property(lambda self: bool(self._state().get("held")))
    started = property(lambda self: bool(self._state().get("started")))
    is_over = property(lambda self: bool(self._state().get("over")))
    can_undo = property(lambda self: bool(self._state().get("can_undo")))
    state_id = property(lambda self: self._view().state_id if self._view() is not None else "")

    @property
    def asking(self) -> bool:
        # a view's ``paused`` is also the teacher's hold, and a held question still takes oral answers
        # (as TableTarget's); in the result's pause and the get-ready the view carries no question
        v = self._view()
        return v is not None and v.started and v.question is not None and not v.is_over

    def question_seats(self) -> tuple[tuple[int, ...], tuple[int, ...], bool] | None:
        v = self._view()
        if v is None or v.question is None:
            return None
        waiting = tuple(s for s in v.question.players if s not in v.question.answered)
        return tuple(v.question.players), waiting, v.question.kind == "guess"

    def _ack(self, op: str, **args: Any) -> Ack:
        from ..rooms.teacher_client import RoomRefused

        try:
            result = self.client.command(op, self.code, **args)
        except RoomRefused as refused:
            return Ack("rejected", refused.code, str(refused))
        if not isinstance(result, dict):
            return Ack("accepted", "", "")
        return Ack(result["status"], result.get("code", ""), result.get("reason", ""), result.get("ms"))

    def hold(self) -> None:
        self.client.command("hold", self.code)

    def release(self) -> None:
        self.client.command("release", self.code)

    def skip(self) -> Ack:
        return self._ack("skip")

    def undo(self) -> Ack:
        return self._ack("undo")

    def end_now(self) -> Ack:
        return self._ack("end")

    def enter_answer(self, seat: int, given: int | None, timed: bool = True) -> Ack:
        return self._ack("enter_answer", seat=seat, given=given, timed=timed)

    def report(self, base: Path) -> list[Path]:
        files = self.client.command("report", self.code)["files"]
        written = []
        for name, data in sorted(files.items(), key=lambda item: not item[0].endswith(".xlsx")):
            path = base.with_name(base.name + name[len("report"):])  # report.xlsx -> <base>.xlsx
            path.write_bytes(base64.b64decode(data))
            written.append(path)
        return written


class TeacherControls:
    """The teacher's buttons and the teams' hidden answer entry for one table.

    Args:
        table: what they control: a :class:`~triviador_nb.classroom.Table`
            in this kernel, or any :class:`ControlTarget` (a room on a host:
            :class:`RoomTarget`).
        teams: seat -> team name for the seats whose answers the teacher
            enters (empty: only the buttons).
        run: with a table: how a control reaches it (called with a function
            of no arguments; by default at once).
        language: the language code of the controls (``"hu"``; None: the
            kernel's); the screen they are on passes its own.
        folded: the controls sit folded at the bottom of the screen (a
            student playing alone: issue 24, no teacher's box in the way).
        entries_folded: the answer rows are folded (a room's projector:
            students answer on their own screens; the teacher opens the rows
            only for one whose computer failed).

    Attributes:
        widget: the box to display; pause_button, skip_button, undo_button,
        end_button, report_button (writes the report into report_folder, the
        files in last_report), timed (answers timed when entered), entries (seat ->
        password box), enter_buttons, entry_status (seat -> HTML), message,
        saved (where the journal is), language (its code).
    """

    def __init__(self, table: "Table | ControlTarget", teams: Mapping[int, str] | None = None,
                 run: Callable[[Callable[[], object]], object] | None = None, language: str | None = None,
                 folded: bool = False, entries_folded: bool = False):
        self.folded = folded
        with speaking(language) as self.language:
            self._build(table, teams, run, entries_folded)

    def _build(self, table: "Table | ControlTarget", teams: Mapping[int, str] | None,
               run: Callable[[Callable[[], object]], object] | None, entries_folded: bool) -> None:
        self.target: ControlTarget = TableTarget(table, run) if isinstance(table, Table) else table
        self.teams = dict(teams or {})
        self.report_folder = Path.cwd()  # the notebook's folder in JupyterLab and Voilà
        self.last_report: list[Path] = []
        self._asked = ""  # the state id the entry rows were laid out for
        self.pause_button = self._button(_("Pause"), "warning", "pause", self._pause_clicked,
                                         _("Stop every timer; Resume gives back the time that was left"))
        self.skip_button = self._button(_("Skip question"), "", "forward", self._skip_clicked,
                                        _("Put another question of the same type (this one is not counted)"))
        self.undo_button = self._button(_("Undo"), "", "undo", self._undo_clicked,
                                        _("Take back the last move or answer"))
        self.end_button = self._button(_("End game"), "danger", "flag-checkered", self._end_clicked,
                                       _("End the game now with the current ranking"))
        self.report_button = self._button(_("Save report"), "info", "table", self._report_clicked,
                                          _("Write what the class answered, as a spreadsheet (xlsx) and CSV "
                                            "files, into the notebook's folder"))
        self.timed = w.Checkbox(value=True, description=_("Time team answers when I enter them"), indent=False,
                                layout={"width": "auto", "height": "auto"})
        self.timed.add_class("tnb-wrap-check")  # the Hungarian and Czech sentences are longer: wrapped, never cut
        self.message = w.HTML()
        self._while_playing = False  # the message is Pause/Resume's, gone at the end
        self.saved = w.HTML()
        self.entries: dict[int, w.Password] = {}
        self.entry_box: w.VBox | None = None  # the answer rows (with teams), gone after the end
        self.enter_buttons: dict[int, w.Button] = {}
        self.entry_status: dict[int, w.HTML] = {}
        rows = []
        for seat, name in self.teams.items():
            box = w.Password(placeholder=_("type, then Enter"), continuous_update=False,
                             layout={"width": "40%", "height": "40px"})
            box.description = name
            box.style = {"description_width": "initial"}
            box.observe(lambda change, s=seat: self._speaking(self._entered, s) if change["new"] else None, "value")
            button = w.Button(description=_("Enter"), layout={"width": "18%", "min_width": "110px", "height": "40px"},
                              tooltip=_("Enter {team}'s answer").format(team=name))
            button.on_click(lambda _b, s=seat: self._speaking(self._entered, s))
            status = w.HTML(layout={"width": "40%"})
            self.entries[seat], self.enter_buttons[seat], self.entry_status[seat] = box, button, status
            rows.append(w.HBox([box, button, status], layout={"width": "100%", "align_items": "center"}))
        self.entry_rows = w.VBox(rows, layout={"width": "100%"})
        buttons = w.HBox([self.pause_button, self.skip_button, self.undo_button, self.end_button, self.report_button],
                         layout={"width": "100%", "flex_flow": "row wrap"})
        parts = [w.HTML('<div class="tnb-controls-title" style="font-size:18px;font-weight:bold">'
                        f'{escape(_("Teacher"))}</div>'), buttons]
        if self.teams:
            entry = [w.HTML('<div style="font-size:15px">{}</div>'.format(escape(
                _("Teams' answers (hidden until the reveal): digits for a guess, 1-4 or A-D for multiple choice.")))),
                self.entry_rows, self.timed]
            if entries_folded:
                entry = [w.Accordion(children=(w.VBox(entry, layout={"width": "100%"}),),
                                     titles=(_("Enter a student's answer (a computer that fails)"),),
                                     selected_index=None, layout={"width": "100%"})]
            self.entry_box = w.VBox(entry, layout={"width": "100%"})
            parts.append(self.entry_box)
        box = w.VBox([*parts, self.message, self.saved],
                     layout={"width": "100%", "padding": "8px", "border": "2px dashed #888",
                             "margin": "8px 0 0 0" if not self.folded else "0"})
        box.add_class("tnb-teacher")
        self.box = box
        if self.folded:
            self.widget = w.Accordion(children=(box,), titles=(_("Teacher's controls (Pause, Undo, End, report)"),),
                                      selected_index=None, layout={"width": "100%", "margin": "12px 0 0 0"})
            self.widget.add_class("tnb-teacher-folded")
        else:
            self.widget = box
        self.refresh()

    def _button(self, label: str, style: str, icon: str, action: Callable[[], None], tip: str) -> w.Button:
        button = w.Button(description=label, button_style=style, tooltip=tip,
                          layout={"width": "auto", "height": "44px", "margin": "2px"},
                          style={"font_size": "17px", "font_weight": "bold"})
        button.on_click(lambda _b: self._guarded(action))
        return button

    # ------------------------------------------------------------------ what the table says

    def refresh(self) -> None:
        """Lay the controls out for the table as it stands (call after every change)."""
        with speaking(self.language):
            self._refresh()

    def _refresh(self) -> None:
        target = self.target
        self.pause_button.description = _("Resume") if target.held else _("Pause")
        self.pause_button.icon = "play" if target.held else "pause"
        over = target.is_over
        if over and self._while_playing:  # "The game goes on." under the podium would say the opposite
            self._say("")
        self.pause_button.disabled = not target.started or over
        asking = target.asking
        self.skip_button.disabled = not asking
        self.end_button.disabled = over
        self.undo_button.disabled = not target.can_undo or over
        for button in (self.pause_button, self.skip_button, self.undo_button, self.end_button):
            button.layout.display = "none" if over else None  # after the end: Save report (and Play again)
        if self.entry_box is not None:
            self.entry_box.layout.display = "none" if over else None
        sid = target.state_id
        seats = target.question_seats() if asking else None
        for seat, box in self.entries.items():
            asked = seats is not None and seat in seats[0]
            waiting = asked and seat in seats[1]
            box.disabled = self.enter_buttons[seat].disabled = not asked
            if sid != self._asked and box.value:
                box.value = ""
            if not asked:
                text = ""
            elif waiting:
                text = _("waiting…")
            else:
                text = _("✓ answer in (type again to correct it)")
            self.entry_status[seat].value = f'<span style="font-size:16px">{escape(text)}</span>'
        self._asked = sid

    # ------------------------------------------------------------------ the buttons

    def _pause_clicked(self) -> None:
        held = self.target.held
        self.target.release() if held else self.target.hold()
        self._say(_("The game goes on.") if held else _("Paused: every timer has stopped."), while_playing=True)
        self.refresh()

    def _skip_clicked(self) -> None:
        self._acked(self.target.skip(), _("Skipped: here is another question."))

    def _undo_clicked(self) -> None:
        self._acked(self.target.undo(), _("The last move was taken back."))

    def _end_clicked(self) -> None:
        self._acked(self.target.end_now(), _("The game was ended: the ranking stands."))

    def _report_clicked(self) -> None:
        """Write the report of every game at this table (issue 12 part 4) as
        ``report-<date-time>.xlsx`` and CSV files in :attr:`report_folder`."""
        base = self.report_folder / time.strftime("report-%Y-%m-%d-%H%M%S")
        try:
            written = self.target.report(base)
        except (OSError, ValueError) as error:  # (a room's host may refuse too: nothing was written)
            return self._say(_("The report could not be saved: {error}").format(
                error=getattr(error, "strerror", None) or error), warn=True)
        self.last_report = written
        self._say(_("Report saved: {xlsx} and {n} CSV files in {folder}").format(
            xlsx=written[0].name, n=len(written) - 1, folder=written[0].parent.resolve()))

    def _entered(self, seat: int) -> None:
        box = self.entries[seat]
        text, seats = box.value, self.target.question_seats()
        if not text.strip() or seats is None:
            return
        is_guess = seats[2]
        given = parse_entry(text, is_guess)
        name = self.teams[seat]
        if given is None:
            box.value = ""
            text = (_("{team}: that is not a whole number; type it again.") if is_guess
                    else _("{team}: that is not 1-4 or A-D; type it again."))
            return self._say(text.format(team=name), warn=True)
        box.value = ""
        ack = self.target.enter_answer(seat, given, timed=self.timed.value)
        self._acked(ack, _("{team}'s answer is in.").format(team=name))

    def _acked(self, ack: Ack | None, done: str) -> None:
        if ack is None or ack.accepted or ack.status == "late":
            self._say(done if ack is None or ack.accepted else _("Too late: it counts as no answer."))
        else:
            clause = refusal(ack.code, ack.reason)
            self._say(clause[:1].upper() + clause[1:].rstrip(".") + ".", warn=True)
        self.refresh()

    def _say(self, text: str, warn: bool = False, while_playing: bool = False) -> None:
        """Show ``text`` under the buttons; ``while_playing``: only until the game is over (Pause/Resume's note)."""
        self._while_playing = while_playing
        colour = "#CC3311" if warn else "#1B1B1B"
        self.message.value = f'<span style="font-size:16px;color:{colour}">{escape(text)}</span>' if text else ""

    def _speaking(self, action: Callable[..., object], *args: object) -> None:
        """Run a widget's handler in the controls' language."""
        with speaking(self.language):
            action(*args)

    def _guarded(self, action: Callable[[], None]) -> None:
        with speaking(self.language):
            try:
                action()
            except Exception as error:  # noqa: BLE001 - a control must never take the game down
                self._say(_("That did not work ({error}); the game is kept.")
                          .format(error=f"{type(error).__name__}: {error}"), warn=True)

    def show_journal(self, path: str) -> None:
        """Say where the game is saved, and how to bring it back."""
        with speaking(self.language):
            text = escape(_("Saved as it is played: {path} · after a kernel restart run {command}")).format(
                path=f"<code>{escape(path)}</code>",
                command=f"<code>triviador_nb.resume(r&quot;{escape(path)}&quot;)</code>")
            summary = escape(_("Saved as it is played (where, and how to bring it back)"))
        # folded: a file path and Python on the class's screen are noise (issue 24), one click away for the teacher
        self.saved.value = (f'<details style="font-size:13px;color:#555"><summary>{summary}</summary>{text}'
                            "</details>")

    def attach(self, screen, top: bool = False) -> None:
        """Put the controls on ``screen`` (a :class:`~.screen.GameScreen`),
        under its question panel and turn buttons, where the teacher looks;
        ``top``: above everything beside the map (a room's projector, issue
        24 bug 7); folded controls go at the bottom, out of a student's way."""
        children = list(screen.side.children)
        if self.folded:
            children.append(self.widget)
        else:
            children.insert(0 if top else children.index(screen.panel.widget) + 2, self.widget)
        screen.side.children = tuple(children)

    def close(self) -> None:
        """Close every widget the controls made (the entry rows and the
        checkbox too, which are in the box only with teams)."""
        close_widgets(self.widget, self.box, self.entry_rows, self.timed)
