"""The teacher's side of rooms: codes, the lobby, the overview and the projector.

The teacher's screen is a client of a room host like a student's: it talks
to the host only through the teacher's connection
(:class:`~triviador_nb.rooms.teacher_client.TeacherClient`), whether the host
runs in this kernel (:func:`host`) or in another process, a JupyterHub
service among them (:func:`teach`). It shows, for the teacher's projector:
each room's code in large type and where to join (with several rooms, each
labelled Room 1, Room 2... with its own ``join(...)`` line; where JupyterLab
is served, a link and a QR code that open ``join.ipynb`` with the code filled
in: :mod:`.join_link`); the lobby (the names in large type as they join, and
how many seats are taken; who joined,
which seat they have - several people in one seat are a team - and a bot for
each empty seat); Start; and, once a game runs, the projector view of the
game (the one game screen with no seat: the whole map, scores, the question,
who has answered but never what, the reveal) with the teacher's controls.
With several rooms, an overview shows every room's state and score, and any
room opens full-size.

No widget reads a host object, and nothing crosses threads but messages:
the connection's thread hands every change to the kernel's loop, and the
lobby is redrawn only when who sits where changed.
"""

from __future__ import annotations

import socket
from html import escape
from pathlib import Path
from typing import Any, Sequence

import ipywidgets as w

from ..banks import DEFAULT_BANK, language_bank, resolve_bank
from ..classroom import Clock, JournalError, LoopClock, read_journal
from ..classroom.journal import needed as _given, new_journal_path
from .. import words
from ..engine import find_rule_set
from ..i18n import _, current_language, ngettext, set_language, speaking
from ..maps import resolve_map
from ..rooms import RoomHost, codes
from ..rooms.teacher_client import RoomRefused, TeacherClient
from .cells import close_widgets, shown_by_cell
from .controls import RoomTarget, TeacherControls
from .screen import GameScreen
from .hub import hub_token_for
from .join_link import PageInfo, join_link, qr_svg
from .naming import SKILL_NAMES, language_here, skill_name  # noqa: F401 - named here before issue 24
from .removal import confirm_row, removed_row
from .sources import ProjectorSource
from .styles import CSS

WATCH = "watch"
REMOVE = "remove"


def _times(times: object) -> str:
    """`` (×12)`` after a refusal a person had many times (the log shows a flood as one line)."""
    return f" (×{times})" if isinstance(times, int) and times > 1 else ""


class HostScreen:
    """The teacher's screen of a room host.

    Args:
        connection: the teacher's connection to the host
            (:class:`~triviador_nb.rooms.teacher_client.TeacherClient`), or a
            :class:`~triviador_nb.rooms.RoomHost` running in this kernel (the
            screen then connects to it with its teacher key and closes it
            with the screen).
        rooms: the rooms to show, in this order (codes, or rooms of the
            host); None: every room of the teacher's.
        clock: the kernel's loop (the widgets' own).
        language: the language code of the teacher's screen, its projector
            screens and controls (``"hu"``; None: the kernel's).

    Attributes:
        client: the teacher's connection; room_codes: the rooms shown;
        shown: the code of the room shown full-size; rooms: as given.
        language: the code of the screen's language.
        screens: room code -> its projector screen (once started).
        controls: room code -> the teacher's controls on it (pause, skip,
            undo, end; a seat's answer entered for it).
        widget: the root widget.

    Raises:
        RoomRefused: the host cannot be reached or does not take the key.
    """

    def __init__(self, connection: "TeacherClient | RoomHost", rooms: Sequence[Any] | None = None,
                 clock: Clock | None = None, language: str | None = None):
        with speaking(language) as self.language:
            self._build(connection, rooms, clock)

    def _build(self, connection: "TeacherClient | RoomHost", rooms: Sequence[Any] | None,
               clock: Clock | None) -> None:
        self._own_host = connection if isinstance(connection, RoomHost) else None
        self.client = (TeacherClient(connection.url(), key=connection.teacher_key) if self._own_host is not None
                       else connection)
        self.rooms = list(rooms) if rooms is not None else list(self.client.codes)
        self.room_codes = [r if isinstance(r, str) else r.code for r in self.rooms]
        self.client.settled(self.room_codes)  # the first drawing shows every room whole
        self.clock = clock or LoopClock()
        self.shown = self.room_codes[0] if self.room_codes else ""
        self.screens: dict[str, GameScreen] = {}
        self.controls: dict[str, TeacherControls] = {}
        self._lobby_key: Any = None
        self._removing: tuple[str, str] | None = None  # (room, name) the teacher chose to take out, not yet confirmed
        self._closed = False
        self.codes = w.HTML()
        self.page = PageInfo()  # where this page is served: the join link's server
        self.page.observe(lambda _c: self._changed(), "origin")
        self.message = w.HTML()
        self.overview = w.HTML()
        self.choose = w.ToggleButtons(options=self.room_codes, value=self.shown or None,
                                      layout={"display": "none" if len(self.room_codes) <= 1 else None})
        self.choose.observe(lambda change: self._guarded(self._show_room, change["new"]), "value")
        self.joined = w.HTML()  # the names in large type as they come in, and the seats taken
        self.lobby = w.VBox()
        self.start_button = w.Button(description=_("Start"), button_style="primary",
                                     layout={"width": "320px", "height": "56px"},
                                     style={"font_size": "22px", "font_weight": "bold"})
        self.start_button.on_click(lambda _: self._guarded(self._start, self.shown))
        self.start_all = w.Button(description=_("Start every room"), button_style="primary",
                                  layout={"width": "320px", "height": "56px",
                                          "display": "none" if len(self.room_codes) <= 1 else None},
                                  style={"font_size": "22px", "font_weight": "bold"})
        self.start_all.on_click(lambda _: self._guarded(self._start_every_room))
        self.again_button = w.Button(description=_("Play again"), button_style="primary", icon="repeat",
                                     layout={"width": "320px", "height": "56px", "display": "none"},
                                     style={"font_size": "22px", "font_weight": "bold"})
        self.again_button.on_click(lambda _: self._guarded(self._command, "play_again", self.shown))
        self.refused = w.HTML()
        self.game = w.VBox(layout={"width": "100%"})
        # once the game runs, the seats fold away above the projector (issue 24 bug 7: the map began 740 px down)
        self.seats_toggle = w.ToggleButton(description=_("Seats and students"), icon="users", value=False,
                                           layout={"width": "auto", "display": "none"},
                                           tooltip=_("Who plays which seat: hand a seat to a bot or back, "
                                                     "move or take out a student"))
        self.seats_toggle.observe(lambda _c: self._guarded(self._refresh), "value")
        self.widget = w.VBox([w.HTML(CSS), self.page, self.codes, self.message, self.overview, self.choose,
                              self.joined, self.seats_toggle, self.lobby,
                              w.HBox([self.start_button, self.start_all, self.again_button]), self.game,
                              self.refused],
                             layout={"width": "100%"})
        self.widget.add_class("tnb-root")
        self._refresh_due = False
        self.client.on_change(lambda _code: self._changed())
        self._refresh()

    def _changed(self) -> None:
        """Something changed (on the connection's thread): one refresh on the
        kernel's loop, however many changes come before it runs."""
        if not self._refresh_due:
            self._refresh_due = True
            self.clock.call_soon_threadsafe(lambda: self._guarded(self._refresh))

    def _repr_mimebundle_(self, **kwargs: object) -> dict:
        return self.widget._repr_mimebundle_(**kwargs)

    def _state(self, code: str) -> dict:
        return self.client.states.get(code, {})

    def _people(self, code: str) -> list[dict]:
        return list(self._state(code).get("people", []))

    # ------------------------------------------------------------------ drawing

    def _refresh(self) -> None:
        self._refresh_due = False
        if self._closed:
            return
        self.codes.value = self._codes_html()
        self.overview.value = self._overview_html() if len(self.room_codes) > 1 else ""
        code = self.shown
        state = self._state(code)
        started = bool(state.get("started"))
        key = (code, started, tuple((p["name"], p["seat"], p["connected"]) for p in self._people(code)),
               tuple((s["seat"], s["bot"]) for s in state.get("seats", [])), tuple(state.get("removed", [])),
               self._removing)
        if key != self._lobby_key:
            self._lobby_key = key
            old = self.lobby.children
            self.lobby.children = self._lobby_widgets(code)
            self.joined.value = "" if started else joined_html(self._people(code), int(state.get("seats_count", 0)))
            for widget in old:
                close_widgets(widget)
        self.start_button.description = (_("Start room {code}").format(code=code) if len(self.room_codes) > 1
                                         else _("Start the game"))
        self.start_button.layout.display = "none" if started or not state else None
        self.seats_toggle.layout.display = None if started else "none"
        self.lobby.layout.display = None if not started or self.seats_toggle.value else "none"
        self.again_button.layout.display = None if state.get("over") else "none"  # the same room, code and seats
        self.start_all.layout.display = None if len(self.room_codes) > 1 and not all(
            self._state(c).get("started") for c in self.room_codes) else "none"
        if started and code not in self.screens and self.client.views.get(code) is not None \
                and code in self.client.maps:
            self._open_projector(code, state)
        screen = self.screens.get(code)
        self.game.children = [screen.widget] if screen is not None else []
        if code in self.controls:
            self.controls[code].refresh()
        refused = state.get("refused", 0)
        self.refused.value = "" if not refused else (
            f'<details class="tnb-note"><summary>{escape(_("Refused messages: {n}").format(n=refused))}'
            "</summary>"
            + "".join(f"<div>{escape(code)} · {escape(str(e['who']))}: {escape(str(e['text']))}"
                      f"{_times(e.get('times'))}</div>" for e in state.get("log", []))
            + "</details>")

    def _open_projector(self, code: str, state: dict) -> None:
        screen = self.screens[code] = GameScreen(ProjectorSource(self.client, code, self.clock),
                                                 self.client.maps[code], None, start_button=False,
                                                 language=self.language)
        names = {p.seat: p.name for p in self.client.views[code].players}
        controls = self.controls[code] = TeacherControls(
            RoomTarget(self.client, code), {s: names[s] for s in state.get("humans", []) if s in names},
            language=self.language, entries_folded=True)
        controls.attach(screen, top=True)  # the teacher's buttons beside the top of the map (issue 24 bug 7)
        if state.get("journal"):
            controls.show_journal(state["journal"])
        self.client.on_change(lambda changed, c=controls: self.clock.call_soon_threadsafe(
            lambda: self._guarded(c.refresh)) if changed == code else None)

    def _codes_html(self) -> str:
        state = self._state(self.room_codes[0]) if self.room_codes else {}
        address, port = state.get("address", "127.0.0.1"), state.get("port", 0)
        local, own_port = address in ("127.0.0.1", "::1", "localhost"), bool(state.get("own_port"))
        if state.get("hub"):  # behind the hub's proxy: the address the teacher came by; the hub knows the names
            how = _("Open {notebook} in your JupyterLab, type the code and press Join (or run {command}).")
        elif local and own_port:
            how = _("Open {notebook} on this computer's JupyterLab, port {port}, type the code and your name "
                    "(or run {command}).")
        elif local:
            how = _("Open {notebook} on this computer's JupyterLab, type the code and your name (or run {command}).")
        elif own_port:
            how = _("Open {notebook} address {address}, port {port}, type the code and your name (or run {command}).")
        else:
            how = _("Open {notebook} address {address}, type the code and your name (or run {command}).")
        if state.get("hub"):
            join_address: str | None = self.client.url
        elif local and not own_port:
            join_address = None
        else:
            join_address = f'{_shown_address(address)}{":" + str(port) if own_port else ""}'

        def example(code: str) -> str:
            given = f', address="{join_address}"' if join_address else ""
            return f'join("{code}"{given})' if state.get("hub") else f'join("{code}", name="…"{given})'

        several = len(self.room_codes) > 1
        command = (escape(_("the line beside your room's code")) if several
                   else f"<code>{escape(example(self.room_codes[0] if self.room_codes else '…'))}</code>")
        how = escape(how).format(notebook="<b>join.ipynb</b>", address=escape(_shown_address(address)),
                                 port=port, command=command)
        if several:
            room_codes = "".join(
                f'<div class="tnb-room-row"><span class="tnb-room-label">'
                f'{escape(_("Room {n}").format(n=i + 1))}</span><span class="tnb-code">{escape(c)}</span>'
                f"<code>{escape(example(c))}</code></div>" for i, c in enumerate(self.room_codes))
        else:
            room_codes = " ".join(f'<span class="tnb-code">{escape(c)}</span>' for c in self.room_codes)
        room_language = self.client.states.get(self.shown, {}).get("language") if self.shown else None
        link = join_link(self.page, self.shown, join_address, room_language or self.language) if self.shown else None
        shared = ""
        if link is not None:
            label = (_("Room {n}").format(n=self.room_codes.index(self.shown) + 1) + ": ") if several else ""
            shared = (f'<div class="tnb-join-link">{qr_svg(link)}<div>{escape(label)}'
                      f'{escape(_("Scan the code, or open this link:"))}<br>'
                      f'<a href="{escape(link)}" target="_blank" rel="noopener">{escape(link)}</a></div></div>')
        return (f'<div class="tnb-title">{escape(_("Join the game: {codes}")).format(codes=room_codes)}</div>'
                f'<div style="font-size:20px">{how}</div>{shared}')

    def _overview_html(self) -> str:
        rows = []
        taken = seats = 0
        for i, code in enumerate(self.room_codes):
            state, v = self._state(code), self.client.views.get(code)
            if v is None or not state.get("started"):
                people = sum(1 for p in self._people(code) if p["seat"] is not None)
                state_text, scores = ngettext("lobby · {n} seated", "lobby · {n} seated", people).format(n=people), ""
            else:
                state_text = _("over") if v.is_over else words.phase_label(v.phase_name)
                scores = " · ".join(f"{escape(p.name)} {p.score}" for p in v.players)
            taken += seats_taken(self._people(code))
            seats += int(state.get("seats_count", 0))
            rows.append(f'<tr><td><b>{escape(_("Room {n}").format(n=i + 1))}</b> {escape(code)}</td>'
                        f"<td>{escape(state_text)}</td><td>{scores}</td></tr>")
        return (f'<div class="tnb-joined">{seats_count_html(taken, seats)}</div>'
                f'<table class="tnb-scores" style="font-size:18px">{"".join(rows)}</table>')

    def _lobby_widgets(self, code: str) -> list[w.Widget]:
        state = self._state(code)
        seats_count, started = int(state.get("seats_count", 0)), bool(state.get("started"))
        options = [(_("watch"), WATCH)] + [(_("seat {n}").format(n=s + 1), s) for s in range(seats_count)] + \
            [(_("remove from the room"), REMOVE)]
        rows: list[w.Widget] = []
        people = self._people(code)
        for seat_state in state.get("seats", []):
            seat, bot = seat_state["seat"], seat_state["bot"]
            members = [p for p in people if p["seat"] == seat]
            who = ", ".join(p["name"] if p["connected"] else _("{name} (offline)").format(name=p["name"])
                            for p in members)
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
            if not started and not members:
                skill = w.Dropdown(options=[(_("medium bot"), "medium"), (_("easy bot"), "easy"),
                                            (_("hard bot"), "hard")],
                                   value=bot or "medium", layout={"width": "140px"})
                skill.observe(lambda change, s=seat: self._guarded(self._command, "set_bot", code, seat=s,
                                                                   skill=change["new"]), "value")
                controls.append(skill)
            elif started and members:
                if bot:
                    back = w.Button(description=_("Hand back"), layout={"width": "140px"})
                    back.on_click(lambda _, s=seat: self._guarded(self._command, "hand_back", code, seat=s))
                    controls.append(back)
                else:
                    hand = w.Button(description=_("Bot plays it"), layout={"width": "140px"},
                                    tooltip=_("A silent seat: a medium bot plays it until you hand it back"))
                    hand.on_click(lambda _, s=seat: self._guarded(self._command, "hand_to_bot", code, seat=s,
                                                                  skill="medium"))
                    controls.append(hand)
            rows.append(w.HBox(controls, layout={"align_items": "center"}))
        if people:
            chooser_rows = []
            for p in people:
                pick = w.Dropdown(options=options, value=WATCH if p["seat"] is None else p["seat"],
                                  description=p["name"][:20], layout={"width": "260px"},
                                  style={"description_width": "120px"})
                pick.observe(lambda change, name=p["name"]: self._guarded(self._seat_chosen, code, name,
                                                                          change["new"]), "value")
                chooser_rows.append(pick)
            rows.append(w.HTML('<div class="tnb-note">{}</div>'.format(escape(
                _('Move a student to another seat (two in one seat play it as a team), or to "watch":')))))
            rows.append(w.HBox(chooser_rows, layout={"flex_flow": "row wrap"}))
        else:
            rows.append(w.HTML(f'<div class="tnb-note" style="font-size:18px">{escape(_("Nobody has joined yet."))}'
                               "</div>"))
        if self._removing is not None and self._removing[0] == code:
            name = self._removing[1]
            rows.append(confirm_row(name, lambda: self._guarded(self._take_out, code, name),
                                    lambda: self._guarded(self._cancel_removing)))
        if state.get("removed"):
            rows.append(removed_row(state["removed"], lambda name: self._guarded(self._command, "let_back", code,
                                                                                 name=name)))
        return rows

    # ------------------------------------------------------------------ actions

    def _command(self, op: str, code: str, **args: Any) -> Any:
        """A teacher's command on room ``code``; the screen follows at once."""
        result = self.client.command(op, code, **args)
        self._refresh()
        return result

    def _seat_chosen(self, code: str, name: str, choice: object) -> None:
        if choice == REMOVE:  # asked first (issue 24): the row under the list takes the teacher's second click
            self._removing, self._lobby_key = (code, name), None
            self._refresh()
        else:
            self._command("assign", code, name=name, seat=None if choice == WATCH else choice)

    def _take_out(self, code: str, name: str) -> None:
        self._removing, self._lobby_key = None, None
        self._command("remove", code, name=name)

    def _cancel_removing(self) -> None:
        self._removing, self._lobby_key = None, None  # the list is drawn again: the name's seat as it was
        self._refresh()

    def _show_room(self, code: str) -> None:
        self.shown = code
        self._lobby_key = None
        self._refresh()

    def _start(self, code: str) -> None:
        try:
            self.client.command("start", code)
        except RoomRefused as refused:
            self._say(str(refused), warn=True)
            return
        self._say("")
        self._lobby_key = None
        self._refresh()

    def _start_every_room(self) -> None:
        for code in self.room_codes:
            if not self._state(code).get("started") and any(p["seat"] is not None for p in self._people(code)):
                self.client.command("start", code)
        self._lobby_key = None
        self._refresh()

    def _say(self, text: str, warn: bool = False) -> None:
        css = "tnb-warn" if warn else "tnb-note"
        self.message.value = f'<div class="tnb-message" style="font-size:18px"><span class="{css}">' \
                             f'{escape(text)}</span></div>' if text else ""

    def _guarded(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        if self._closed:
            return
        with speaking(self.language):
            self._run_guarded(fn, *args, **kwargs)

    def _run_guarded(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        try:
            fn(*args, **kwargs)
        except (ValueError, KeyError, RoomRefused) as refused:
            self._say(str(refused).strip("'\""), warn=True)
        except Exception as error:  # noqa: BLE001 - the teacher's screen must survive any fault
            self._say(_("Something went wrong ({error}). The rooms go on.")
                      .format(error=f"{type(error).__name__}: {error}"), warn=True)

    def close(self) -> None:
        """Close the screen; a host running in this kernel closes with it
        (students are told); a host elsewhere keeps its rooms."""
        self._closed = True
        for screen in self.screens.values():
            screen.close()
        for controls in self.controls.values():
            controls.close()
        self.client.close()
        if self._own_host is not None:
            self._own_host.close()
        close_widgets(self.widget)


def seats_taken(people: Sequence[dict]) -> int:
    """How many seats have someone in them (a team's seat counts once)."""
    return len({p["seat"] for p in people if p["seat"] is not None})


def seats_count_html(taken: int, seats: int) -> str:
    """ "14 of 18 seats", large."""
    text = ngettext("{n} of {m} seat", "{n} of {m} seats", seats).format(n=taken, m=seats)
    return f'<div class="tnb-count">{escape(text)}</div>'


def joined_html(people: Sequence[dict], seats_count: int) -> str:
    """The lobby's count of seats taken ("2 of 3 seats") and every name that
    joined, in large type (offline ones faded), in the order they came."""
    names = "".join(f'<span class="tnb-joined-name{"" if p["connected"] else " tnb-offline"}">{escape(p["name"])}'
                    "</span>" for p in people)
    return f'<div class="tnb-joined">{seats_count_html(seats_taken(people), seats_count)}<div>{names}</div></div>'


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


def host(rules: str = "conquiztador", map: Any = "hungary", bank: Any = None, rooms: int = 1,
         address: str = "127.0.0.1", port: int | None = None, seed: int | None = None,
         pace: float = 1.0, journal: bool = True, language: str | None = None,
         names_per_person: int = 1) -> HostScreen:
    """Open game rooms for students on their own kernels; show codes, lobby and projector.

    Args:
        rules, map, bank: as for :func:`play`; ``bank`` None: the built-in
            questions in ``language`` (``hungarian_hu`` for ``"hu"``;
            ``general_knowledge_en`` for a language with none).
        rooms: how many rooms (a class of 30 in ten 3-player games: 10).
        address: ``"127.0.0.1"`` when students use this machine (JupyterHub);
            ``"0.0.0.0"`` for laptops on the classroom network.
        port: by default a free one named by the room codes.
        seed: the first room's game number (the next rooms count on from
            it): reproducible games, predictable by anyone who knows the
            number. None (the default): every game's chance comes from a
            secret the host never sends (issue 28).
        pace: as for :func:`play`.
        journal: journal each room's games from Start under
            ``$TRIVIADOR_NB_HOME/journals`` (default ``~/.triviador_nb``), so
            :func:`triviador_nb.resume` brings the rooms back after a kernel
            restart; False for none.
        language: the language of the teacher's screen and of the rooms
            (``"hu"``), made the kernel's language
            (:func:`triviador_nb.i18n.set_language`); the students' screens
            speak it unless a student chose another. None: the kernel's.
        names_per_person: names one student (a Unix user of this machine, a
            laptop's address) may hold in a room; more only when students
            share one account (your own account may always try several).

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
    if bank is None:
        bank = language_bank(DEFAULT_BANK, current_language()) or DEFAULT_BANK
    room_host = RoomHost(address, port, names_per_person=names_per_person)
    try:
        opened = [room_host.open_room(rules, map, bank, seed=None if seed is None else seed + i, pace=pace,
                                      language=current_language())
                  for i in range(rooms)]
        for room in opened:
            room.journal_path = new_journal_path(f"room-{room.code}") if journal else None
    except BaseException:
        room_host.close()
        raise
    try:
        screen = HostScreen(room_host, opened, language=opened[0].language)
    except BaseException:
        room_host.close()
        raise
    shown_by_cell(screen)
    return screen


def teach(url: str, key: str | None = None, rules: str = "conquiztador", map: Any = "hungary",
          bank: Any = None, rooms: int = 1, language: str | None = None,
          pace: float | None = None) -> HostScreen:
    """The teacher's screen of a room host running elsewhere: a
    ``triviador-nb host`` process, or a JupyterHub service. The same screen
    as :func:`host`; the rooms are opened on that host (a bank or map file
    of this kernel is sent to it, never to a student); the teacher's rooms
    already open there are shown too.

    Args:
        url: the host's address (``"ws://10.0.0.5:41532"``; under
            JupyterHub ``"wss://hub.example/services/triviador/"``).
        key: the host's teacher key (``triviador-nb host`` prints it); None
            under JupyterHub, where this kernel's hub token says who you are.
        rules, map, bank, language, pace: of the new rooms, as for :func:`host`.
        rooms: how many new rooms to open (0: only show the open ones).

    Raises:
        RoomRefused: the host cannot be reached, refuses the key or the hub
            identity, or refuses the rules, map or bank (the reason says
            which file, row and column).
        LanguageError: no catalogue for ``language``.
    """
    if type(rooms) is not int or not 0 <= rooms <= 50:
        raise ValueError(f"rooms is a number of rooms from 0 to 50, not {rooms!r}")
    if language is not None:
        set_language(language)
    if bank is None:
        bank = language_bank(DEFAULT_BANK, language or current_language()) or DEFAULT_BANK
    client = TeacherClient(url, key=key, hub_token=None if key is not None else hub_token_for(url))
    try:
        for _i in range(rooms):
            client.open_room(rules, map, bank, language=language or current_language(), pace=pace)
        screen = HostScreen(client, None, language=language)
    except BaseException:
        client.close()
        raise
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
    code_port = codes.port_of(first["code"])  # the port its own (journals before issue 28: the only one)
    own_port = first.get("port") if type(first.get("port")) is int else code_port
    room_host = RoomHost(first.get("address", "127.0.0.1"), own_port, code_port=code_port)
    rooms = []
    try:
        for path, content, setup in zip(paths, contents, setups):
            rule_set = find_rule_set(setup["rules"])
            game_map = resolve_map(map if map is not None else _given(setup["map"], "map"), players=rule_set.players)
            question_bank = resolve_bank(bank if bank is not None else _given(setup["bank"], "bank"))
            rooms.append(room_host.resume_room(content, path, game_map, question_bank, current_language()))
    except (KeyError, TypeError, AttributeError) as error:  # a damaged or forged setup
        room_host.close()
        raise JournalError(f"a room journal's setup is damaged ({type(error).__name__} {error})") from None
    except BaseException:
        room_host.close()
        raise
    try:
        screen = HostScreen(room_host, rooms, language=language_here(rooms[0].language))
    except BaseException:
        room_host.close()
        raise
    problems = [p for c in contents for p in c.problems]
    with speaking(screen.language):
        text = ngettext("Resumed {n} room: the games are paused. Students run their join cell again; press Resume "
                        "under the game when they are back.",
                        "Resumed {n} rooms: the games are paused. Students run their join cell again; press Resume "
                        "under the game when they are back.", len(rooms)).format(n=len(rooms))
        screen._say(text + (" " + " ".join(problems) if problems else ""), warn=bool(problems))
    shown_by_cell(screen)
    return screen
