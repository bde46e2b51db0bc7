"""The podium at the end of a game (issue 24): the first three places, big.

Made from the view alone (its final ``ranking`` and ``places``): each place
is a step in the colour of the player on it (a shared step in stripes of
each one's colour) (their seat number on the
swatch, as on the map), with the name and the score; the first place stands
in the middle and highest. Players who share a place (D13, D16) stand on one
step together, and the next place counts them all (two first places, then
a third). Sized to its box (CSS container units), so it is read from the
back of a classroom on a projector and still fits a student's side column.
"""

from __future__ import annotations

from html import escape

import ipywidgets as w

from ..engine.view import View
from ..i18n import _, ngettext
from .palette import seat_colour
from .panels import swatch
from .place import ordinal

PLACES_SHOWN = 3  #: places on the podium
STEP_HEIGHT = {1: "4.2em", 2: "3em", 3: "2.1em"}  #: in the podium's font size (40 px on a projector)
ORDER = {1: 2, 2: 1, 3: 3}  #: where each place stands, left to right (CSS order)

PODIUM_CSS = """
<style>
.tnb-podium { container-type: inline-size; width: 100%; margin-bottom: 12px; }
.tnb-podium-row { display: flex; align-items: flex-end; justify-content: center; gap: 2cqw; padding: 8px 0 0 0;
  font-size: clamp(16px, 2.6cqw, 40px); }
.tnb-podium-col { flex: 0 1 30%; display: flex; flex-direction: column; align-items: stretch; text-align: center;
  min-width: 0; }
.tnb-podium-who { font-weight: bold; line-height: 1.15; overflow-wrap: anywhere; }
.tnb-podium-who .tnb-swatch { width: 1.1em; height: 1.1em; line-height: 1.1em; font-size: 0.8em; }
.tnb-podium-1 .tnb-podium-who { font-size: 1.25em; }
.tnb-podium-score { font-size: 0.9em; margin: 0.1em 0 0.25em 0; color: #333; }
.tnb-podium-step { border-radius: 0.3em 0.3em 0 0; color: #fff; font-weight: bold;
  display: flex; align-items: flex-start; justify-content: center; padding-top: 0.1em; box-sizing: border-box;
  text-shadow: 0 0 3px #000, 0 0 2px #000; border: 2px solid #1B1B1B; border-bottom: none; }
.tnb-podium-step span { font-size: 1.5em; line-height: 1.1; }
</style>
"""


def podium_steps(view: View) -> list[tuple[int, tuple[int, ...]]]:
    """The podium's steps, best first: ``(place, seats on it)`` for the
    places 1-3 of the final ranking (a shared place is one step). Empty
    before the end."""
    if view.ranking is None:
        return []
    places = view.places or tuple(range(1, len(view.ranking) + 1))
    steps: dict[int, list[int]] = {}
    for seat, place in zip(view.ranking, places):
        if place <= PLACES_SHOWN:
            steps.setdefault(place, []).append(seat)
    return [(place, tuple(seats)) for place, seats in steps.items()]


def podium_html(view: View) -> str:
    """The podium as HTML ("" before the end)."""
    steps = podium_steps(view)
    if not steps:
        return ""
    columns = []
    for place, seats in steps:
        people = []
        for seat in seats:
            p = view.players[seat]
            colour = seat_colour(p.colour)
            points = ngettext("{points} point", "{points} points", p.score).format(points=p.score)
            people.append(f'<div class="tnb-podium-who">{swatch(colour, str(seat + 1))} '
                          f'<span class="tnb-podium-name">{escape(p.name)}</span></div>'
                          f'<div class="tnb-podium-score">{escape(points)}</div>')
        colours = [seat_colour(view.players[seat].colour) for seat in seats]
        colour = colours[0] if len(colours) == 1 else _stripes(colours)  # a shared step: each player's colour
        columns.append(
            f'<div class="tnb-podium-col tnb-podium-{place}" style="order:{ORDER[place]}">'
            f'{"".join(people)}'
            f'<div class="tnb-podium-step" style="background:{colour};height:{STEP_HEIGHT[place]}">'
            f'<span>{escape(ordinal(place))}</span></div></div>')
    heading = escape(_("Final ranking"))
    return (f'<div class="tnb-podium" role="status" aria-label="{heading}">'
            f'<div class="tnb-podium-row">{"".join(columns)}</div></div>')


def _stripes(colours: list[str]) -> str:
    """A CSS background of equal upright stripes, one per colour."""
    width = 100 / len(colours)
    stops = ", ".join(f"{c} {i * width:g}% {(i + 1) * width:g}%" for i, c in enumerate(colours))
    return f"linear-gradient(90deg, {stops})"


class Podium:
    """The podium widget: hidden until the game is over.

    Attributes:
        widget: the ``HTML`` widget (class ``tnb-podium-box``).
    """

    def __init__(self) -> None:
        self.widget = w.HTML(layout={"display": "none", "width": "100%"})
        self.widget.add_class("tnb-podium-box")

    def show(self, view: View) -> None:
        """Show the podium of ``view`` (hidden before the end)."""
        html = podium_html(view)
        self.widget.value = html
        self.widget.layout.display = None if html else "none"

    @property
    def value(self) -> str:
        """The podium's HTML (what tests read)."""
        return self.widget.value
