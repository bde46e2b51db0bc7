"""A player's place, on their own screen: "You are 2nd of 3" (issue 24).

Nothing is said until a place means something (the first reveal, or the
first points that change hands: :func:`placed`). During the game the place
is the standing by score now: players still in
the game by score, equal scores sharing a place (``1, 1, 3``), then the
players out of the game; at the end it is the final place of the view
(``View.places``: shared as D13 and D16 say). Ordinals are made per language
from Babel's CLDR ordinal categories (English: one -> "1st", two -> "2nd",
few -> "3rd", other -> "4th"), each category a gettext message, so Hungarian
and Czech write "2." and a teacher's language writes its own.
"""

from __future__ import annotations

from html import escape

from babel import Locale

from ..engine.view import View
from ..i18n import _, babel_locale, pgettext
from .spliced_html import SplicedHTML


PLACE_CSS = """
<style>
.tnb-place { margin: 0 8px 0 auto; }  /* beside the title, on the right */
.tnb-place-line { font-size: 20px; font-weight: bold; padding: 2px 10px; border-radius: 8px; white-space: nowrap;
  background: #EAF3FA; border: 2px solid #0077BB; }
</style>
"""


def ordinal(n: int) -> str:
    """``n`` (>= 1) as an ordinal in the language in use: ``"2nd"``; ``"2."`` in Hungarian and Czech."""
    category = Locale.parse(babel_locale()).ordinal_form(n)
    if category == "one":
        form = pgettext("ordinal", "{n}st")
    elif category == "two":
        form = pgettext("ordinal", "{n}nd")
    elif category == "few":
        form = pgettext("ordinal", "{n}rd")
    else:  # other (and zero/many, which en, hu and cs do not use)
        form = pgettext("ordinal", "{n}th")
    return form.format(n=n)


def standing(view: View) -> dict[int, int]:
    """Seat -> 1-based place now: the final places once the game is over,
    else players in the game by score (equal scores share a place, and the
    next place counts them all: ``1, 1, 3``), then the players out of it,
    by score."""
    if view.ranking is not None:
        places = view.places or tuple(range(1, len(view.ranking) + 1))
        return dict(zip(view.ranking, places))
    result: dict[int, int] = {}
    ahead = 0
    for in_game in (True, False):
        group = [p for p in view.players if p.in_game == in_game]
        for p in group:
            result[p.seat] = ahead + 1 + sum(1 for q in group if q.score > p.score)
        ahead += len(group)
    return result


def placed(view: View) -> bool:
    """Whether a place means anything yet: the game is over, a question has
    been revealed, or the scores are no longer all equal. Before that (Start,
    the bases, the first question) everyone would be "1st of 3 (a shared
    place)", which tells a player nothing (issue 24)."""
    return (view.ranking is not None or view.reveal is not None
            or len({p.score for p in view.players}) > 1)


def place_text(view: View, seat: int | None) -> str:
    """``"You are 2nd of 3"`` for ``seat`` (``"... (a shared place)"`` when
    another seat has the same place); "" for no seat, before Start, and
    until the first reveal or the first points (:func:`placed`)."""
    if seat is None or not view.started or not placed(view):
        return ""
    places = standing(view)
    place = places[seat]
    shared = sum(1 for p in places.values() if p == place) > 1
    text = (_("You are {place} of {count} (a shared place)") if shared else _("You are {place} of {count}"))
    return text.format(place=ordinal(place), count=len(places))


class PlaceLine:
    """The place line on a player's screen (class ``tnb-place``).

    Attributes:
        widget: the ``HTML`` widget; its value is "" when there is nothing to say.
    """

    def __init__(self) -> None:
        self.widget = SplicedHTML()
        self.widget.add_class("tnb-place")

    def show(self, view: View, seat: int | None) -> None:
        """Show ``seat``'s place in ``view`` (sent only when it changes)."""
        text = place_text(view, seat)
        value = f'<div class="tnb-place-line" role="status">{escape(text)}</div>' if text else ""
        if self.widget.value != value:
            self.widget.value = value
