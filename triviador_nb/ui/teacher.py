"""The teacher's side of rooms: codes, the lobby, the overview and the projector.

:func:`host` starts a :class:`~triviador_nb.rooms.RoomHost` (its own thread)
with one or more rooms and shows, for the teacher's projector: each room's
code in large type and where to join; the lobby (who joined, which seat they
have - several people in one seat are a team - and a bot for each empty
seat); Start; and, once a game runs, the projector view of the game (the
one game screen with no seat: the whole map, scores, the question, who has
answered but never what, the reveal). With several rooms, an overview shows
every room's state and score, and any room opens full-size.

The host's thread never touches widgets: every change is handed to the
kernel's loop, and the lobby is redrawn only when who sits where changed.
"""

from __future__ import annotations

import socket
from html import escape
from pathlib import Path
from typing import Any, Sequence

import ipywidgets as w

from ..banks import resolve_bank
from ..classroom import Clock, JournalError, LoopClock, read_journal
from ..classroom.journal import needed as _given, new_journal_path
from .. import words
from ..engine import find_rule_set
from ..i18n import N_, LanguageError, _, languages, ngettext, set_language, speaking, translation
from ..maps import resolve_map
from ..rooms import Room, RoomHost, codes
from .cells import close_widgets, shown_by_cell
from .controls import TeacherControls
from .screen import GameScreen, TableSource
from .styles import CSS

WATCH = "watch"
REMOVE = "remove"
#: A bot's skill (its identifier) -> its name on screen.
SKILL_NAMES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def language_here(code: object) -> str | None:
    """``code`` when this kernel has that language (a room's, a journal's),
    else None (the screen then speaks the kernel's language)."""
    if not isinstance(code, str) or code not in languages():
        return None
    try:
        translation(code)
    except LanguageError:  # a .po file here that cannot be read: the kernel's language instead
        return None
    return code


def skill_name(skill: str) -> str:
    """A bot's skill as the screen names it, in the language in use (an
    unknown one as it is)."""
    return _(SKILL_NAMES[skill]) if skill in SKILL_NAMES else skill


class HostScreen:
    """The teacher's screen of a room host.

    Args:
        room_host: the host; rooms: its rooms (shown in this order).
        clock: the kernel's loop (the widgets' own).
        language: the language code of the teacher's screen, its projector
            screens and controls (``"hu"``; None: the kernel's).

    Attributes:
        host, rooms: the host and its rooms; shown: the room shown full-size.
        language: the code of the screen's language.
        screens: room code -> its projector screen (once started).
        controls: room code -> the teacher's controls on it (pause, skip,
            undo, end; a seat's answer entered for it).
        widget: the root widget.
    """

    def __init__(self, room_host: RoomHost, rooms: list[Room], clock: Clock | None = None,
                 language: str | None = None):
        with speaking(language) as self.language:
            self._build(room_host, rooms, clock)

    def _build(self, room_host: RoomHost, rooms: list[Room], clock: Clock | None) -> None:
        self.host, self.rooms = room_host, rooms
        self.clock = clock or LoopClock()
        self.shown = rooms[0]
        self.screens: dict[str, GameScreen] = {}
        self.controls: dict[str, TeacherControls] = {}
        self._lobby_key: Any = None
        self._closed = False
        self.codes = w.HTML()
        self.message = w.HTML()
        self.overview = w.HTML()
        self.choose = w.ToggleButtons(options=[r.code for r in rooms], value=rooms[0].code,
                                      layout={"display": "none" if len(rooms) == 1 else None})
        self.choose.observe(lambda change: self._guarded(self._show_room, change["new"]), "value")
        self.lobby = w.VBox()
        self.start_button = w.Button(description=_("Start"), button_style="primary",
                                     layout={"width": "320px", "height": "56px"},
                                     style={"font_size": "22px", "font_weight": "bold"})
        self.start_button.on_click(lambda _: self._guarded(self._start, self.shown))
        self.start_all = w.Button(description=_("Start every room"), button_style="primary",
                                  layout={"width": "320px", "height": "56px",
                                          "display": "none" if len(rooms) == 1 else None},
                                  style={"font_size": "22px", "font_weight": "bold"})
        self.start_all.on_click(lambda _: self._guarded(self._start_every_room))
        self.refused = w.HTML()
        self.game = w.VBox(layout={"width": "100%"})
        self.widget = w.VBox([w.HTML(CSS), self.codes, self.message, self.overview, self.choose, self.lobby,
                              w.HBox([self.start_button, self.start_all]), self.game, self.refused],
                             layout={"width": "100%"})
        self.widget.add_class("tnb-root")
        self._refresh_due = False
        for room in rooms:
            room.on_change(self._changed)
        self._refresh()

    def _changed(self) -> None:
        """A room changed (on the host's thread): one refresh on the kernel's
        loop, however many changes come before it runs."""
        if not self._refresh_due:
            self._refresh_due = True
            self.clock.call_soon_threadsafe(lambda: self._guarded(self._refresh))

    def _repr_mimebundle_(self, **kwargs: object) -> dict:
        return self.widget._repr_mimebundle_(**kwargs)

    # ------------------------------------------------------------------ drawing

    def _refresh(self) -> None:
        self._refresh_due = False
        if self._closed:
            return
        self.codes.value = self._codes_html()
        self.overview.value = self._overview_html() if len(self.rooms) > 1 else ""
        room = self.shown
        key = (room.code, room.started, tuple((m.name, m.seat, room.connected(m.name)) for m in room.members()),
               tuple(sorted(room.record.bots.items())))
        if key != self._lobby_key:
            self._lobby_key = key
            old = self.lobby.children
            self.lobby.children = self._lobby_widgets(room)
            for widget in old:
                close_widgets(widget)
        self.start_button.description = (_("Start room {code}").format(code=room.code) if len(self.rooms) > 1
                                         else _("Start the game"))
        self.start_button.layout.display = "none" if room.started else None
        self.start_all.layout.display = None if len(self.rooms) > 1 and not all(r.started for r in self.rooms) \
            else "none"
        if room.started and room.code not in self.screens:
            screen = self.screens[room.code] = GameScreen(
                TableSource(room.table, screen_clock=self.clock, roles=room.roles,
                            note=_("room {code}").format(code=room.code)),
                room.game_map, None, start_button=False, language=self.language)
            game = room.table.game
            controls = self.controls[room.code] = TeacherControls(
                room.table, {p.seat: p.name for p in game.players if p.seat not in room.table.bots}, run=room.run,
                language=self.language)
            controls.attach(screen)
            if room.journal is not None:
                controls.show_journal(str(room.journal.path.resolve()))
            room.table.on_change(lambda _events, c=controls: self.clock.call_soon_threadsafe(
                lambda: self._guarded(c.refresh)))  # the table's thread hands the redraw to the kernel's loop
        screen = self.screens.get(room.code)
        self.game.children = [screen.widget] if screen is not None else []
        entries = list(self.host.log)[-8:]
        self.refused.value = "" if not self.host.refused else (
            f'<details class="tnb-note"><summary>{escape(_("Refused messages: {n}").format(n=self.host.refused))}'
            "</summary>"
            + "".join(f"<div>{escape(e.room)} · {escape(e.who)}: {escape(e.text)}</div>" for e in entries)
            + "</details>")

    def _codes_html(self) -> str:
        address = self.host.address
        local, own_port = address in ("127.0.0.1", "::1", "localhost"), self.host.host_part is None
        if local and own_port:
            how = _("Open {notebook} on this computer's JupyterLab, port {port}, type the code and your name "
                    "(or run {command}).")
        elif local:
            how = _("Open {notebook} on this computer's JupyterLab, type the code and your name (or run {command}).")
        elif own_port:
            how = _("Open {notebook} address {address}, port {port}, type the code and your name (or run {command}).")
        else:
            how = _("Open {notebook} address {address}, type the code and your name (or run {command}).")
        codes = " ".join(f'<span class="tnb-code">{escape(r.code)}</span>' for r in self.rooms)
        example = (f'join("{self.rooms[0].code}", name="…")' if local and not own_port
                   else f'join("{self.rooms[0].code}", name="…", address="{_shown_address(address)}'
                        f'{"" if self.host.host_part else ":" + str(self.host.port)}")')
        how = escape(how).format(notebook="<b>join.ipynb</b>", address=escape(_shown_address(address)),
                                 port=self.host.port, command=f"<code>{escape(example)}</code>")
        return (f'<div class="tnb-title">{escape(_("Join the game: {codes}")).format(codes=codes)}</div>'
                f'<div style="font-size:20px">{how}</div>')

    def _overview_html(self) -> str:
        rows = []
        for room in self.rooms:
            v = room.view(None)
            if v is None:
                people = sum(1 for m in room.members() if m.seat is not None)
                state, scores = ngettext("lobby · {n} seated", "lobby · {n} seated", people).format(n=people), ""
            else:
                state = _("over") if v.is_over else words.phase_label(v.phase_name)
                scores = " · ".join(f"{escape(p.name)} {p.score}" for p in v.players)
            rows.append(f"<tr><td><b>{escape(room.code)}</b></td><td>{escape(state)}</td><td>{scores}</td></tr>")
        return f'<table class="tnb-scores" style="font-size:18px">{"".join(rows)}</table>'

    def _lobby_widgets(self, room: Room) -> list[w.Widget]:
        options = [(_("watch"), WATCH)] + [(_("seat {n}").format(n=s + 1), s) for s in range(room.record.seats)] + \
            [(_("remove from the room"), REMOVE)]
        rows: list[w.Widget] = []
        for seat in range(room.record.seats):
            members = [m for m in room.members() if m.seat == seat]
            bot = room.record.bots.get(seat)
            who = ", ".join(m.name if room.connected(m.name) else _("{name} (offline)").format(name=m.name)
                            for m in members)
            if who and bot:
                text = _("{seat}: {who} · bot plays now ({skill})")
            elif who:
                text = _("{seat}: {who}")
            elif bot:
                text = _("{seat}: bot · {skill}")
            else:
                text = _("{seat}: free: a bot plays it")
            text = escape(text).format(seat=f"<b>{escape(_('Seat {n}').format(n=seat + 1))}</b>", who=escape(who),
                                       skill=escape(skill_name(bot)) if bot else "")
            label = w.HTML(f'<span style="font-size:18px">{text}</span>', layout={"width": "520px"})
            controls: list[w.Widget] = [label]
            if not room.started and not members:
                skill = w.Dropdown(options=[(_("medium bot"), "medium"), (_("easy bot"), "easy"),
                                            (_("hard bot"), "hard")],
                                   value=bot or "medium", layout={"width": "140px"})
                skill.observe(lambda change, s=seat: self._guarded(room.set_bot, s, change["new"]), "value")
                controls.append(skill)
            elif room.started and members:
                if bot:
                    back = w.Button(description=_("Hand back"), layout={"width": "140px"})
                    back.on_click(lambda _, s=seat: self._guarded(room.hand_back, s))
                    controls.append(back)
                else:
                    hand = w.Button(description=_("Bot plays it"), layout={"width": "140px"},
                                    tooltip=_("A silent seat: a medium bot plays it until you hand it back"))
                    hand.on_click(lambda _, s=seat: self._guarded(room.hand_to_bot, s, "medium"))
                    controls.append(hand)
            rows.append(w.HBox(controls, layout={"align_items": "center"}))
        members = room.members()
        if members:
            chooser_rows = []
            for m in members:
                pick = w.Dropdown(options=options, value=WATCH if m.seat is None else m.seat,
                                  description=m.name[:20], layout={"width": "260px"},
                                  style={"description_width": "120px"})
                pick.observe(lambda change, name=m.name: self._guarded(self._seat_chosen, room, name, change["new"]),
                             "value")
                chooser_rows.append(pick)
            rows.append(w.HTML('<div class="tnb-note">{}</div>'.format(escape(
                _('Move a student to another seat (two in one seat play it as a team), or to "watch":')))))
            rows.append(w.HBox(chooser_rows, layout={"flex_flow": "row wrap"}))
        else:
            rows.append(w.HTML(f'<div class="tnb-note" style="font-size:18px">{escape(_("Nobody has joined yet."))}'
                               "</div>"))
        return rows

    # ------------------------------------------------------------------ actions

    def _seat_chosen(self, room: Room, name: str, choice: object) -> None:
        if choice == REMOVE:
            room.remove(name)
        else:
            room.assign(name, None if choice == WATCH else choice)

    def _show_room(self, code: str) -> None:
        self.shown = next(r for r in self.rooms if r.code == code)
        self._lobby_key = None
        self._refresh()

    def _start(self, room: Room) -> None:
        try:
            room.start()
        except ValueError as refused:
            self._say(str(refused), warn=True)
            return
        self._say("")
        self._lobby_key = None
        self._refresh()

    def _start_every_room(self) -> None:
        for room in self.rooms:
            if not room.started and any(m.seat is not None for m in room.members()):
                room.start()
        self._lobby_key = None
        self._refresh()

    def _say(self, text: str, warn: bool = False) -> None:
        css = "tnb-warn" if warn else "tnb-note"
        self.message.value = f'<div class="tnb-message" style="font-size:18px"><span class="{css}">' \
                             f'{escape(text)}</span></div>' if text else ""

    def _guarded(self, fn: Any, *args: Any) -> None:
        if self._closed:
            return
        with speaking(self.language):
            self._run_guarded(fn, *args)

    def _run_guarded(self, fn: Any, *args: Any) -> None:
        try:
            fn(*args)
        except (ValueError, KeyError) as refused:
            self._say(str(refused).strip("'\""), warn=True)
        except Exception as error:  # noqa: BLE001 - the teacher's screen must survive any fault
            self._say(_("Something went wrong ({error}). The rooms go on.")
                      .format(error=f"{type(error).__name__}: {error}"), warn=True)

    def close(self) -> None:
        """Close every room (students are told), the host and the widgets."""
        self._closed = True
        for screen in self.screens.values():
            screen.close()
        for controls in self.controls.values():
            controls.close()
        self.host.close()
        close_widgets(self.widget)


def _shown_address(address: str) -> str:
    """The address students type: this machine's network address for ``0.0.0.0``."""
    if address in ("0.0.0.0", "::", ""):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect(("192.0.2.1", 9))  # TEST-NET: no packet is sent by a UDP connect
                return s.getsockname()[0]
        except OSError:
            return socket.gethostname()
    return address


def host(rules: str = "conquiztador", map: Any = "hungary", bank: Any = "general_knowledge_en", rooms: int = 1,
         address: str = "127.0.0.1", port: int | None = None, seed: int | None = None,
         pace: float = 1.0, journal: bool = True, language: str | None = None) -> HostScreen:
    """Open game rooms for students on their own kernels; show codes, lobby and projector.

    Args:
        rules, map, bank: as for :func:`play`.
        rooms: how many rooms (a class of 30 in ten 3-player games: 10).
        address: ``"127.0.0.1"`` when students use this machine (JupyterHub);
            ``"0.0.0.0"`` for laptops on the classroom network.
        port: by default a free one named by the room codes.
        seed: the first room's game number (the next rooms count on from it).
        pace: as for :func:`play`.
        journal: journal each room's games from Start under
            ``$TRIVIADOR_NB_HOME/journals`` (default ``~/.triviador_nb``), so
            :func:`triviador_nb.resume` brings the rooms back after a kernel
            restart; False for none.
        language: the language of the teacher's screen and of the rooms
            (``"hu"``), made the kernel's language
            (:func:`triviador_nb.i18n.set_language`); the students' screens
            speak it unless a student chose another. None: the kernel's.

    Returns:
        The :class:`HostScreen` (the cell's value); ``.rooms`` holds the rooms.

    Raises:
        ValueError: fewer than 1 or more than 50 rooms; unknown rules.
        LanguageError: no catalogue for ``language`` (the message lists the
            languages there are).
        OSError: the port cannot be had.
    """
    if type(rooms) is not int or not 1 <= rooms <= 50:
        raise ValueError(f"rooms is a number of rooms from 1 to 50, not {rooms!r}")
    if language is not None:
        set_language(language)  # before the port is taken: a wrong code leaves nothing open
    room_host = RoomHost(address, port)
    try:
        opened = [room_host.open_room(rules, map, bank, seed=None if seed is None else seed + i, pace=pace)
                  for i in range(rooms)]
        for room in opened:
            room.journal_path = new_journal_path(f"room-{room.code}") if journal else None
    except BaseException:
        room_host.close()
        raise
    screen = HostScreen(room_host, opened, language=opened[0].language)
    shown_by_cell(screen)
    return screen



def resume_rooms(paths: Sequence[str | Path], map: Any = None, bank: Any = None) -> HostScreen:
    """Bring rooms back from their journals after the teacher's kernel
    restarted (:func:`triviador_nb.resume` calls this for room journals): the
    same codes on the same port, every seat's people and keys, the games where
    they stood, held until the teacher presses Resume; students run their
    join cell again and are back in their seats.

    Raises:
        JournalError: a journal of another version, map or bank, or of rooms
            of different hosts.
        OSError: the rooms' port is taken (another host still runs).
    """
    contents = [read_journal(p) for p in paths]
    setups = [c.header["setup"] for c in contents]
    try:
        ports = {codes.port_of(s["code"]) for s in setups}
    except (KeyError, TypeError, ValueError) as error:
        raise JournalError(f"a room journal's setup is damaged ({type(error).__name__} {error})") from None
    if len(ports) != 1:
        raise JournalError("these journals are of rooms of different hosts: resume each host's rooms together")
    first = setups[0]
    room_host = RoomHost(first.get("address", "127.0.0.1"), codes.port_of(first["code"]))
    rooms = []
    try:
        for path, content, setup in zip(paths, contents, setups):
            rule_set = find_rule_set(setup["rules"])
            game_map = resolve_map(map if map is not None else _given(setup["map"], "map"), players=rule_set.players)
            question_bank = resolve_bank(bank if bank is not None else _given(setup["bank"], "bank"))
            rooms.append(room_host.resume_room(content, path, game_map, question_bank))
    except (KeyError, TypeError, AttributeError) as error:  # a damaged or forged setup
        room_host.close()
        raise JournalError(f"a room journal's setup is damaged ({type(error).__name__} {error})") from None
    except BaseException:
        room_host.close()
        raise
    screen = HostScreen(room_host, rooms, language=language_here(rooms[0].language))
    problems = [p for c in contents for p in c.problems]
    with speaking(screen.language):
        text = ngettext("Resumed {n} room: the games are paused. Students run their join cell again; press Resume "
                        "under the game when they are back.",
                        "Resumed {n} rooms: the games are paused. Students run their join cell again; press Resume "
                        "under the game when they are back.", len(rooms)).format(n=len(rooms))
        screen._say(text + (" " + " ".join(problems) if problems else ""), warn=bool(problems))
    shown_by_cell(screen)
    return screen
