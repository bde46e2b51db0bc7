"""Taking a student out of a room, on the teacher's screen: asked twice,
and undone with one press (issue 24 bug 3).

The lobby's seat list offers "remove from the room"; choosing it only asks
(:func:`confirm_row`); the student is taken out when the teacher presses
"Take out" there. Everyone taken out stays listed (:func:`removed_row`) with
a button that lets them back in, in the seat they had, with their own key
(they run their join cell again). The widgets only send the teacher's
intent; the room keeps the record (:meth:`triviador_nb.rooms.room.Room.let_back`).
"""

from __future__ import annotations

from html import escape
from typing import Callable, Sequence

import ipywidgets as w

from ..i18n import _


def confirm_row(name: str, take_out: Callable[[], None], cancel: Callable[[], None]) -> w.HBox:
    """"Take Anna out of the room? ..." with Take out and Cancel (the
    teacher's second click: a pick in a list is too easy to make by mistake)."""
    question = w.HTML('<span class="tnb-warn" style="font-size:18px">{}</span>'.format(escape(
        _("Take {name} out of the room? Their screen closes; you can let them back in later.").format(name=name))))
    yes = w.Button(description=_("Take out"), button_style="danger", layout={"width": "140px", "height": "40px"})
    no = w.Button(description=_("Cancel"), layout={"width": "140px", "height": "40px"})
    yes.on_click(lambda _b: take_out())
    no.on_click(lambda _b: cancel())
    row = w.HBox([question, yes, no], layout={"align_items": "center", "flex_flow": "row wrap"})
    row.add_class("tnb-confirm-remove")
    return row


def removed_row(names: Sequence[str], let_back: Callable[[str], None]) -> w.HBox:
    """Who was taken out of the room, each with a "Let back in" button."""
    parts: list[w.Widget] = [w.HTML('<span class="tnb-note" style="font-size:16px">{}</span>'.format(
        escape(_("Taken out of the room:"))))]
    for name in names:
        button = w.Button(description=_("Let {name} back in").format(name=name)[:40], icon="undo",
                          layout={"width": "auto", "height": "36px"},
                          tooltip=_("{name} joins again with the same name and seat").format(name=name))
        button.on_click(lambda _b, n=name: let_back(n))
        parts.append(button)
    return w.HBox(parts, layout={"align_items": "center", "flex_flow": "row wrap"})
