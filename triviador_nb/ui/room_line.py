"""A student's room line and the connection it speaks of (issue 24).

The line at the top of a student's screen says where they are: "Room
K7-PQ45 · Anna · seat 2 (blue) · connected". :func:`room_line` words it and
:func:`message_html` is its markup; :func:`open_client` opens the connection
(through a hub's room service and with the kernel's hub token when there is
one). Light on purpose: a restarted kernel shows this line, back in its
seat, before it loads any widget (:mod:`.joining`).
"""

from __future__ import annotations

import os

from ..i18n import _
from ..rooms import codes
from ..rooms.client import RoomClient, room_url
from ..rooms.codes import CodeError
from .hub import hub_service_address, hub_token_for


def open_client(code: str, name: str, address: str | None = None) -> RoomClient:
    """Join room ``code`` as ``name`` (on a hub with no name: the hub user)
    through ``address`` (None: the hub's room service, or this machine).

    Raises:
        JoinError: the room refused or cannot be reached.
        CodeError: not a room code. ValueError: a name that cannot be used.
    """
    address = address or hub_service_address()
    return RoomClient(code, name or os.environ.get("JUPYTERHUB_USER", ""), address,
                      hub_token=hub_token_for(room_url(code, address) if is_code(code) else ""))


def is_code(code: str) -> bool:
    """Whether ``code`` reads as a room code."""
    try:
        codes.normalise(code)
        return True
    except CodeError:
        return False


def room_line(client: RoomClient, colour: str | None = None, game_shown: bool = True) -> str:
    """The room line, in the language in use (plain text).

    Args:
        client: the connection (its code, name, seat and status).
        colour: the seat's colour as shown (``"blue"``), or None (not known yet).
        game_shown: the seat's game screen is drawn; until it is, a kernel
            that came back to a seat it had says "back in your seat".

    Returns:
        ``"Room K7-PQ45 · Anna · seat 2 (blue) · connected"``; the state is one
        of connected, back in your seat, reconnecting, the room is closed,
        disconnected.
    """
    seat = client.seat
    if seat is None:
        where = _("watching")
    elif colour is not None:
        where = _("seat {n} ({colour})").format(n=seat + 1, colour=colour)
    else:
        where = _("seat {n}").format(n=seat + 1)
    state = {"joined": _("back in your seat") if client.came_back and seat is not None and not game_shown
             else _("connected"), "reconnecting": _("connection lost: reconnecting…"),
             "closed": _("the room is closed"), "refused": _("disconnected")}.get(client.status, client.status)
    return _("Room {code} · {name} · {where} · {state}").format(code=client.code, name=client.name, where=where,
                                                              state=state)


def message_html(html: str, warn: bool = False) -> str:
    """The markup of the screen's message line around ``html`` (escaped
    already): two lines high always, so a message from the room appearing on
    the second line never moves the map under a student's click."""
    css = "tnb-warn" if warn else "tnb-note"
    return (f'<div class="tnb-message" style="font-size:18px;min-height:2.8em">'
            f'<span class="{css}">{html}</span></div>')
