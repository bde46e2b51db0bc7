"""A student's screen in a room: the join form, the lobby, then the game screen.

:class:`StudentScreen` connects to the teacher's room (``triviador_nb.rooms``)
and shows the lobby until the teacher presses Start, then the one game screen
(:class:`~.screen.GameScreen`) for the student's seat, fed by the views the
room sends. Without a code it shows a small form (the address of another
computer folded under it). A refused join (a wrong code, a name in use) is a
message on screen, never a traceback. :func:`~.joining.join` makes it (and
finds it again after a reload of the page, or fills it from the last join
after a kernel restart: :mod:`.rejoin`); a join link (:mod:`.join_link`)
fills in the code and address.

Back in the seat first, the map after (issue 24: "in the seat within 1 s"
of a restarted kernel): the room line ("Room K7-PQ45 · Anna · seat 2 · back
in your seat") is on screen when the join cell has run; the game screen
(:mod:`.screen`, with ipyleaflet and the map's layout) is imported and drawn
after the cell, on the kernel's loop.
"""

from __future__ import annotations

import os
import time
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..classroom import Clock, LoopClock
from .. import words
from ..i18n import SOURCE, _, current_language, environment_language, speaking
from ..rooms import codes
from ..rooms.client import JoinError, RoomClient, room_url
from ..rooms.codes import CodeError
from .hub import hub_service_address
from .sources import RemoteSource, notice_text, refusal_text
from .cells import close_widgets
from .join_link import PageInfo, link_query
from .rejoin import LastJoin, live, remember, set_live
from .room_line import is_code, message_html, open_client, room_line
from .styles import CSS
from .naming import language_here, skill_name

if TYPE_CHECKING:
    from .screen import GameScreen


class StudentScreen:
    """The join form, the lobby and then the game screen of one student.

    Args:
        code, name, address: as for :func:`join`; with no code, the form waits.
        join_now: join at once when a code and a name are given (False: fill
            the form and wait for Join).
        client: a connection made already (:func:`~.joining.join`, back in
            the seat before this screen was built): the screen takes it.
        refused: why a join tried already was refused (JoinError,
            CodeError, ValueError): said on the screen, the form filled.
        clock: the loop the widgets live on (the kernel's by default).
        language: the student's choice of language (``"cs"``); None: the
            room's language once joined (the teacher's), or the kernel's
            before, or when this kernel has no catalogue for the room's; a
            kernel never told a language speaks its environment's
            (``LANG=hu_HU.UTF-8``: :func:`~triviador_nb.i18n.environment_language`).

    Attributes:
        language: the code of the language the screen speaks now.
        client: the room connection once joined (None before).
        screen: the game screen once the game is under way (None before).
        widget: the root widget.
        seated_at: ``time.monotonic()`` when the room took the seat and the
            room line could say so (None before).
        shown_line: the display of the room line shown before this screen
            was built (:func:`~.joining.join` in a kernel), which the screen
            takes the place of when the cell shows it; else None.
    """

    def __init__(self, code: str | None = None, name: str | None = None, address: str | None = None,
                 clock: Clock | None = None, language: str | None = None, join_now: bool = True,
                 client: RoomClient | None = None, refused: Exception | None = None):
        with speaking(language or _form_language()) as self.language:
            self._chosen = language is not None
            self._build(code, name, address, clock, join_now, client, refused)

    def _build(self, code: str | None, name: str | None, address: str | None, clock: Clock | None,
               join_now: bool, client: RoomClient | None, refused: Exception | None) -> None:
        self.clock = clock or LoopClock()
        self.client: RoomClient | None = None
        self.seated_at: float | None = None
        self.shown_line: Any = None
        self.screen: GameScreen | None = None
        self._closed = False
        self.header = w.HTML()
        label = {"description_width": "115px"}  # "Kód místnosti", "Tvoje jméno": never cut
        self.code_box = w.Text(value=code or "", placeholder="K7-PQ45", layout={"width": "285px"}, style=label)
        self.name_box = w.Text(value=name or "", continuous_update=False, layout={"width": "345px"}, style=label)
        self.join_button = w.Button(button_style="primary", layout={"width": "120px", "height": "40px"})
        self.address_box = w.Text(value=address or "", placeholder="192.168.1.20",
                                  layout={"width": "420px"}, style={"description_width": "90px"})
        self.address_box.add_class("tnb-address")
        self.address_note = w.HTML()
        self.elsewhere = w.Accordion(children=[w.VBox([self.address_note, self.address_box])],
                                     selected_index=0 if address else None, layout={"width": "560px"})
        if os.environ.get("JUPYTERHUB_USER") and hub_service_address() is not None:  # the hub says who you are
            self.name_box.value, self.name_box.disabled = os.environ["JUPYTERHUB_USER"], True
        self._word_form()
        self.join_button.on_click(lambda _b: self.connect(self.code_box.value, self.name_box.value, self._address()))
        self.name_box.observe(lambda _c: self.connect(self.code_box.value, self.name_box.value, self._address())
                              if self.code_box.value.strip() and self.name_box.value.strip() else None, "value")
        self.page = PageInfo()  # a join link's code and address, as the browser loaded them
        self.page.observe(lambda _c: self._link_given(), "loaded_from")
        self.form = w.VBox([w.HBox([self.code_box, self.name_box, self.join_button],
                                   layout={"align_items": "center"}), self.elsewhere])
        self.lobby = w.HTML()
        self.body = w.VBox(layout={"width": "100%"})
        self.widget = w.VBox([w.HTML(CSS), self.page, self.header, self.form, self.lobby, self.body],
                             layout={"width": "100%"})
        self.widget.add_class("tnb-root")
        self.widget.add_class("tnb-view-whole")  # brought into view whole, the room line above the game included
        self._say_how()
        self._link_given()  # Voila's $QUERY_STRING is there already
        if client is not None:
            self._adopt(client, address)
        elif refused is not None:
            self._refused(refused)
        elif code and name and join_now and self.code_box.value == code:  # (a join link's other code waits)
            self.connect(code, name, address)

    def _word_form(self) -> None:
        """The join form's words, in the screen's language."""
        self.code_box.description, self.name_box.description = _("Room code"), _("Your name")
        self.name_box.placeholder, self.join_button.description = _("your name"), _("Join")
        self.address_box.description = _("Address")
        self.address_note.value = '<span class="tnb-note">{}</span>'.format(escape(
            _("When the room is on another computer: the address on the teacher's screen.")))
        self.elsewhere.titles = (_("Another computer?"),)

    def _say_how(self) -> None:
        self._say(escape(_("Type the room code from the teacher's screen, then press Join: the hub knows your name.")
                         if self.name_box.disabled else
                         _("Type the room code from the teacher's screen and your name, then press Join.")))

    def _address(self) -> str | None:
        return self.address_box.value.strip() or None

    def _link_given(self) -> None:
        """A join link's code (and address) fill the form, before a join only."""
        given = link_query(self.page)
        if self.client is not None or not given.get("code"):
            return
        self.code_box.value = given["code"]
        if given.get("address"):
            self.address_box.value, self.elsewhere.selected_index = given["address"], 0
        room_language = language_here(given.get("lang")) if given.get("lang") else None
        if room_language is not None and not self._chosen and room_language != self.language:
            self.language = room_language  # the link's room speaks it: the form does too, before the join
            with speaking(self.language):
                self._word_form()
                self._say_how()

    def same_room(self, code: str | None, name: str | None, address: str | None) -> bool:
        """In room ``code`` as ``name`` through ``address`` now, or reconnecting
        to it (None: whichever); False once the room closed or refused us."""
        client = self.client
        if client is None or self._closed or client.status in ("closed", "refused"):
            return False
        if code is not None and (not is_code(code) or codes.normalise(code) != codes.normalise(client.code)):
            return False
        if name is not None and " ".join(name.split()).casefold() != client.name.casefold():
            return False
        return address is None or room_url(client.code, address) == client.url

    def _repr_mimebundle_(self, **kwargs: object) -> dict:
        return self.widget._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        """Shown by a cell: in the place of the room line shown before the
        screen was built (one output, the line then the screen), else anew."""
        from IPython.display import display

        line, self.shown_line = self.shown_line, None
        if line is not None:
            line.update(self.widget)
        else:
            display(self.widget)

    def connect(self, code: str, name: str, address: str | None = None) -> bool:
        """Join room ``code`` as ``name``; True when the room let us in (else
        the reason is on screen)."""
        with speaking(self.language):
            return self._connect(code, name, address)

    def _connect(self, code: str, name: str, address: str | None) -> bool:
        if self.client is not None:
            return True
        self._say(escape(_("Joining room {code}…").format(code=code.strip())))
        try:
            client = open_client(code, name, address)
        except (JoinError, CodeError, ValueError) as refused:
            self._refused(refused)
            return False
        self._adopt(client, address)
        return True

    def _refused(self, refused: Exception) -> None:
        """Say why the room refused the join (or the code or name could not be used)."""
        if isinstance(refused, JoinError):
            self._say(escape(refusal_text(refused.code, refused.data, str(refused))), warn=True)
        else:
            self._say(escape(str(refused)), warn=True)

    def _adopt(self, client: RoomClient, address_given: str | None) -> None:
        """Take ``client``, in its room now: remember the join, speak the
        room's language, show the room line (the game screen after the cell)."""
        self.client = client
        if self.seated_at is None:
            self.seated_at = time.monotonic()
        remember(LastJoin(client.code, client.name, address_given or "", time.time()))
        set_live(self)
        room_language = None if self._chosen else language_here(client.language)
        if room_language is not None:
            self.language = room_language  # the teacher's language, when this kernel has it
        self.form.layout.display = "none"
        client.on_change(lambda: self.clock.call_soon_threadsafe(self._guarded_refresh))
        with speaking(self.language):
            self._refresh(draw=False)  # the room line now; the game screen once the cell has shown it
        self.clock.call_soon_threadsafe(self._guarded_refresh)

    def _guarded_refresh(self) -> None:
        with speaking(self.language):
            try:
                self._refresh()
            except Exception as error:  # noqa: BLE001 - the student's screen must survive any fault
                self._say(escape(_("Something went wrong ({error}); the room goes on.")
                                 .format(error=f"{type(error).__name__}: {error}")), warn=True)

    def _refresh(self, draw: bool = True) -> None:
        """Show the room line, the lobby or the game; ``draw`` False leaves
        the game screen to a later refresh (the join cell's own: the student
        sees the room line before the map is imported and built)."""
        client = self.client
        if client is None or self._closed:
            return
        seats = client.lobby.get("seats", [])
        if client.status in ("closed", "refused") and live() is self:  # out of the room: no rejoin by itself
            set_live(None)
            remember(LastJoin(client.code, client.name, self._address() or "", time.time(), in_room=False))
        self._say_room_line(client)
        if client.view is None and not client.started:
            rows = ""
            for s in seats:
                who = ", ".join(s["members"]) or (_("bot · {skill}").format(skill=skill_name(s["bot"])) if s["bot"]
                                                  else _("free"))
                rows += (f'<tr><td><b>{escape(_("Seat {n}").format(n=s["seat"] + 1))}</b></td>'
                         f"<td>{escape(who)}</td></tr>")
            waiting = client.lobby.get("waiting", [])
            extra = (f'<p class="tnb-note">{escape(_("Waiting for a seat: {names}").format(names=", ".join(waiting)))}'
                     "</p>" if waiting else "")
            self.lobby.value = (f'<div class="tnb-lobby"><p style="font-size:20px">'
                                f'{escape(_("Waiting for the teacher to press Start…"))}</p>'
                                f'<table class="tnb-scores">{rows}</table>{extra}</div>')
            return
        seat = client.seat
        if draw and client.view is not None and client.game_map is not None and (self.screen is None
                                                                                  or self.screen.seat != seat):
            from .screen import GameScreen  # ipyleaflet, the map's layout: after the room line is on screen

            if self.screen is not None:
                self.screen.close()
            self.screen = GameScreen(RemoteSource(client, self.clock), client.game_map, seat, start_button=False,
                                     language=self.language)
            self.body.children = [self.screen.widget]
            self._say_room_line(client)  # "back in your seat" has done its work: the game is on screen
        # back in a game under way, the map not drawn yet: say it is coming (not "waiting for Start")
        self.lobby.value = "" if self.screen is not None else (
            f'<div class="tnb-lobby"><p style="font-size:20px">'
            f'{escape(_("The game is under way: your map is on its way…"))}</p></div>')

    def _say_room_line(self, client: RoomClient) -> None:
        """The room line (:func:`~.room_line.room_line`) and the room's latest notice under it."""
        seat = client.seat
        colour = (words.colour_label(client.view.players[seat].colour) if seat is not None and client.view is not None
                  else None)
        line = escape(room_line(client, colour, game_shown=self.screen is not None))
        message = notice_text(client)
        if message:
            line += f"<br>{escape(message)}"
        self._say(line, warn=client.status != "joined")

    def _say(self, html: str, warn: bool = False) -> None:
        self.header.value = message_html(html, warn)

    def close(self) -> None:
        """Leave the room and close the widgets."""
        self._closed = True
        if live() is self:
            set_live(None)
        if self.client is not None:
            self.client.close()
        if self.screen is not None:
            self.screen.close()
        close_widgets(self.widget)


def _form_language() -> str | None:
    """The join form's language before a room is joined, when no language
    was chosen: the kernel's once it was set (``set_language``), else the
    one the kernel's environment asks for (a hub sets ``LANG`` per user),
    else None (the kernel's: English)."""
    return environment_language() if current_language() == SOURCE else None
