"""Colours: the Okabe-Ito palette, safe for the common colour-vision deficiencies.

Seats keep the rulebooks' colour names (red, blue, green); on screen they are
Okabe-Ito vermillion, blue and bluish green, which stay distinct for
protanopia, deuteranopia and tritanopia.
"""

SEAT_COLOURS = {
    "red": "#D55E00",
    "blue": "#0072B2",
    "green": "#009E73",
    "orange": "#E69F00",
    "purple": "#CC79A7",
    "sky": "#56B4E9",
}
FREE = "#F4F1EA"  # a free territory: warm off-white
BORDER = "#3A3A3A"  # territory outlines
HIGHLIGHT = "#111111"  # outline of territories the player may choose now
SEA = "#D6E6F0"  # the map background
TEXT = "#1B1B1B"


def seat_colour(colour_name: str) -> str:
    """The hex colour for a rule set's colour name, e.g. ``"red" -> "#D55E00"``."""
    return SEAT_COLOURS[colour_name]
