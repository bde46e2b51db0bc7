"""Colours: Paul Tol's "vibrant" scheme, safe for colour-vision deficiencies.

Seats keep the rulebooks' colour names (red, blue, green); Tol's vibrant red,
blue and teal stay distinct for protanopia, deuteranopia and tritanopia and
still read as red, blue and green to everyone else. The names are shown to
players (the log's order of bases): they are marked for translation here and
translated where shown (:func:`triviador_nb.words.colour_label`).
"""

from ..i18n import N_

SEAT_COLOURS = {
    N_("red"): "#CC3311",
    N_("blue"): "#0077BB",
    N_("green"): "#009988",
    N_("orange"): "#EE7733",
    N_("cyan"): "#33BBEE",
    N_("magenta"): "#EE3377",
}
FREE = "#F4F1EA"  # a free territory: warm off-white
BORDER = "#3A3A3A"  # territory outlines
HIGHLIGHT = "#111111"  # outline of the territory under attack (dashed; choosable ones: a thick BORDER)
SEA = "#D6E6F0"  # the map background
TEXT = "#1B1B1B"


def seat_colour(colour_name: str) -> str:
    """The hex colour for a rule set's colour name, e.g. ``"red" -> "#CC3311"``."""
    return SEAT_COLOURS[colour_name]
