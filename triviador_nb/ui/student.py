"""A student's screen in a room: join with the code, then the game screen.

:func:`join` connects to the teacher's room (``triviador_nb.rooms``) and shows
the lobby until the teacher presses Start, then the one game screen
(:class:`~.screen.GameScreen`) for the student's seat, fed by the views the
room sends. Without a code it shows a small form. A refused join (a wrong
code, a name in use) is a message on screen, never a traceback.
"""

from __future__ import annotations

from html import escape

import ipywidgets as w

from ..classroom import Clock, LoopClock
from ..rooms import CodeError, JoinError, RemoteSource, RoomClient
from .cells import close_widgets, shown_by_cell
from .screen import GameScreen
from .styles import CSS

class StudentScreen:
    """The join form, the lobby and then the game screen of one student.

    Args:
        code, name, address: as for :func:`join`; with no code, the form waits.
        clock: the loop the widgets live on (the kernel's by default).

    Attributes:
        client: the room connection once joined (None before).
        screen: the game screen once the game is under way (None before).
        widget: the root widget.
    """

    def __init__(self, code: str | None = None, name: str | None = None, address: str | None = None,
                 clock: Clock | None = None):
        self.clock = clock or LoopClock()
        self.client: RoomClient | None = None
        self.screen: GameScreen | None = None
        self._closed = False
        self.header = w.HTML()
        self.code_box = w.Text(value=code or "", placeholder="K7-PQ45", description="Room code",
                               layout={"width": "260px"}, style={"description_width": "90px"})
        self.name_box = w.Text(value=name or "", placeholder="your name", description="Your name",
                               continuous_update=False, layout={"width": "320px"}, style={"description_width": "90px"})
        self.join_button = w.Button(description="Join", button_style="primary", layout={"width": "120px",
                                                                                         "height": "40px"})
        self.join_button.on_click(lambda _: self.connect(self.code_box.value, self.name_box.value, address))
        self.name_box.observe(lambda _: self.connect(self.code_box.value, self.name_box.value, address)
                              if self.code_box.value.strip() and self.name_box.value.strip() else None, "value")
        self.form = w.HBox([self.code_box, self.name_box, self.join_button], layout={"align_items": "center"})
        self.lobby = w.HTML()
        self.body = w.VBox(layout={"width": "100%"})
        self.widget = w.VBox([w.HTML(CSS), self.header, self.form, self.lobby, self.body], layout={"width": "100%"})
        self.widget.add_class("tnb-root")
        self._say("Type the room code from the teacher's screen and your name, then press Join.")
        if code and name:
            self.connect(code, name, address)

    def _repr_mimebundle_(self, **kwargs: object) -> dict:
        return self.widget._repr_mimebundle_(**kwargs)

    def connect(self, code: str, name: str, address: str | None = None) -> bool:
        """Join room ``code`` as ``name``; True when the room let us in (else
        the reason is on screen)."""
        if self.client is not None:
            return True
        self._say(f"Joining room {escape(code.strip())}…")
        try:
            client = RoomClient(code, name, address)
        except (JoinError, CodeError, ValueError) as refused:
            self._say(escape(str(refused)), warn=True)
            return False
        self.client = client
        self.form.layout.display = "none"
        client.on_change(lambda: self.clock.call_soon_threadsafe(self._guarded_refresh))
        self._refresh()
        return True

    def _guarded_refresh(self) -> None:
        try:
            self._refresh()
        except Exception as error:  # noqa: BLE001 - the student's screen must survive any fault
            self._say(f"Something went wrong ({type(error).__name__}: {escape(str(error))}); the room goes on.",
                      warn=True)

    def _refresh(self) -> None:
        client = self.client
        if client is None or self._closed:
            return
        seat = client.seat
        seats = client.lobby.get("seats", [])
        where = "watching" if seat is None else f"seat {seat + 1}"
        if seat is not None and client.view is not None:
            where += f" ({client.view.players[seat].colour})"
        state = {"joined": "connected", "reconnecting": "connection lost: reconnecting…",
                 "closed": "the room is closed", "refused": "disconnected"}.get(client.status, client.status)
        warn = client.status != "joined"
        line = f"Room {escape(client.code)} · {escape(client.name)} · {where} · {escape(state)}"
        if client.message:
            line += f"<br>{escape(client.message)}"
        self._say(line, warn=warn)
        if client.view is None:
            rows = "".join(
                f'<tr><td><b>Seat {s["seat"] + 1}</b></td>'
                f'<td>{escape(", ".join(s["members"]) or ("bot · " + s["bot"] if s["bot"] else "free"))}</td></tr>'
                for s in seats)
            waiting = client.lobby.get("waiting", [])
            extra = f'<p class="tnb-note">Waiting for a seat: {escape(", ".join(waiting))}</p>' if waiting else ""
            self.lobby.value = (f'<div class="tnb-lobby"><p style="font-size:20px">Waiting for the teacher to '
                                f'press Start…</p><table class="tnb-scores">{rows}</table>{extra}</div>')
            return
        self.lobby.value = ""
        if client.game_map is not None and (self.screen is None or self.screen.seat != seat):
            if self.screen is not None:
                self.screen.close()
            self.screen = GameScreen(RemoteSource(client, self.clock), client.game_map, seat, start_button=False)
            self.body.children = [self.screen.widget]

    def _say(self, html: str, warn: bool = False) -> None:
        css = "tnb-warn" if warn else "tnb-note"
        # two lines always: a message from the room appearing on the second line must not move the map
        # under a student's click
        self.header.value = (f'<div class="tnb-message" style="font-size:18px;min-height:2.8em">'
                             f'<span class="{css}">{html}</span></div>')

    def close(self) -> None:
        """Leave the room and close the widgets."""
        self._closed = True
        if self.client is not None:
            self.client.close()
        if self.screen is not None:
            self.screen.close()
        close_widgets(self.widget)


def join(code: str | None = None, name: str | None = None, address: str | None = None) -> StudentScreen:
    """Join the teacher's room and play your seat.

    Args:
        code: the room code on the teacher's screen (``"K7-PQ45"``); None
            shows a form to type it in.
        name: your name (or your team's), 1-40 characters.
        address: where the teacher's computer is, when it is not this
            machine: the address on the teacher's screen (``"192.168.1.20"``).

    Returns:
        The :class:`StudentScreen` (the cell's value). Run the cell again with
        the same code and name to rejoin (after a kernel restart too).
    """
    screen = StudentScreen(code, name, address)
    shown_by_cell(screen)
    return screen
