"""``join()``: a student's way into a room, and back into the seat first (issue 24).

"Target, from the moment the student's kernel is ready: in the seat within
1 s, nothing typed." After a kernel restart the join cell (``from
triviador_nb.ui import join``; ``join()``) loads only the room connection
here: it reads the last join (:mod:`.rejoin`), takes the seat back with the
seat's kept key, and shows the room line at once, as plain HTML ("Room
K7-PQ45 · Anna · seat 2 · back in your seat"). Only then are the widgets
imported and the student's screen built (:class:`~.student.StudentScreen`),
which takes the line's place when the cell shows it; the map (ipyleaflet)
is drawn after the cell. After a reload of the page the kernel's screen is
still in its room and is shown again as it is.
"""

from __future__ import annotations

import os
import time
from html import escape
from typing import TYPE_CHECKING, Any

from ..i18n import set_language, speaking
from ..rooms.client import JoinError, RoomClient
from ..rooms.codes import CodeError
from .naming import language_here
from .rejoin import live, recall
from .room_line import message_html, open_client, room_line

if TYPE_CHECKING:
    from .student import StudentScreen

#: The room line on its own, before any widget (the student's screen's CSS is not on the page yet).
LINE = ('<div class="tnb-root" style="font-family: \'DejaVu Sans\', \'Segoe UI\', Arial, sans-serif; '
        'color: #1B1B1B; font-size: 16px">{}</div>')


def join(code: str | None = None, name: str | None = None, address: str | None = None,
         language: str | None = None) -> StudentScreen:
    """Join the teacher's room and play your seat.

    Args:
        code: the room code on the teacher's screen (``"K7-PQ45"``); None
            shows a form to type it in.
        name: your name (or your team's), 1-40 characters.
        address: where the teacher's computer is, when it is not this
            machine: the address on the teacher's screen (``"192.168.1.20"``).
        language: the language of your screen (``"cs"``), made this
            kernel's language (:func:`triviador_nb.i18n.set_language`); None:
            the teacher's (the room's), or this kernel's when it does not have
            the teacher's; before joining, the kernel's, or its environment's
            (``LANG``) when the kernel was never told one.

    Returns:
        The :class:`~.student.StudentScreen` (the cell's value). Run the cell
        again to rejoin: after a reload of the page this kernel's screen,
        still in its room, is shown again at once (when ``code``, ``name``
        and ``address`` are None or its own); after a kernel restart, with no
        arguments, the form is filled from the last join and, within
        :data:`~.rejoin.REJOIN_WITHIN_S` of it while the student was still in
        the room, the seat is taken again (its key finds it) and the room
        line says so before the screen is built.

    Raises:
        LanguageError: no catalogue for ``language`` (the message lists the
            languages there are).
    """
    if language is not None:
        language = set_language(language)
    screen = live()
    if screen is not None and screen.same_room(code, name, address):  # a reload: the same screen, still in its room
        _shown(screen)
        return screen
    last = recall() if code is None and name is None and address is None else None
    client: RoomClient | None = None
    refused: Exception | None = None
    line: Any = None
    seated_at = None
    if last is not None and last.fresh() and "code=" not in os.environ.get("QUERY_STRING", ""):
        # (a Voila page opened by a join link: the link's code may be another room; the form decides)
        try:
            client = open_client(last.code, last.name, last.address or None)
        except (JoinError, CodeError, ValueError) as error:
            refused = error
        else:
            seated_at = time.monotonic()
            line = _show_line(client, language)
    from .student import StudentScreen  # the widgets: after the seat is taken and the line is on screen

    if last is not None:
        screen = StudentScreen(last.code, last.name, last.address or None, language=language,
                               join_now=last.fresh() and client is None and refused is None, client=client,
                               refused=refused)
    else:
        screen = StudentScreen(code, name, address, language=language)
    if seated_at is not None:
        screen.seated_at = seated_at
    screen.shown_line = line
    _shown(screen)
    return screen


def _shown(screen: StudentScreen) -> None:
    from .cells import shown_by_cell  # (the widgets are loaded: a screen is here)

    shown_by_cell(screen)


def _show_line(client: RoomClient, language: str | None) -> Any:
    """Show the room line now, in the room's language (or ``language``), as
    plain HTML in the running cell's output; its display (to be replaced by
    the screen), or None outside a kernel (a script, a test)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipykernel
        return None
    if getattr(get_ipython(), "kernel", None) is None:
        return None
    from IPython.display import HTML, display

    return display(HTML(line_html(client, language)), display_id=True)


def line_html(client: RoomClient, language: str | None = None) -> str:
    """The room line of ``client``, back in its seat, on its own (:data:`LINE`), in the room's language (or
    ``language``, or the kernel's when it has no catalogue for the room's)."""
    with speaking(language or language_here(client.language)):
        text = room_line(client, game_shown=False)
    return LINE.format(message_html(escape(text)))
