"""Where each territory's name goes, so that names do not cover each other.

A name is drawn under its label point, centred, wrapped at 8 em; the value
and castle stand above the point. On crowded maps (the UK's English regions,
central Europe, Europe and the Middle East on the World maps) names drawn
that way overlap and some are illegible. :func:`place_names` keeps the value
and castle labels where they are and moves names, one at a time, the most crowded
first, to the nearby position (a shift of at most 2.6 em, or a narrower or
wider wrap) that overlaps least what is already placed.

Sizes are estimated, not measured (the kernel has no fonts): a DejaVu Sans
character is taken as 0.6 em wide on average, and a line as 1 em high, so
the layout errs on the side of room. Everything here is in pixels of the map
as the browser reports it, and pure: the same points and size give the same
layout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Collection, Mapping

CHAR_EM = 0.6  # average width of a character, in em
WRAP_EM = 8.0  # the CSS max-width of a name (styles.MAP_CSS is written from these two)
NAME_FONT = (11.0, 1.25, 5.0, 21.0)  # CSS clamp(min px, a cqw + b px, max px) of a name's font
POINTS_EM = (2.6, 1.6)  # width, height of a value label above the point, in em of the name font
CASTLE_EM = (3.6, 3.2)  # of a castle with its value (a base)
# (dx, dy) shifts in em, and wrap widths in em, tried for each name; the first is where CSS puts it.
SHIFTS = ((0.0, 0.0), (0.0, 0.7), (-1.6, 0.3), (1.6, 0.3), (0.0, 1.4), (-2.6, 0.0), (2.6, 0.0),
          (-1.6, 1.2), (1.6, 1.2), (0.0, -2.8), (-2.6, 1.0), (2.6, 1.0))
WRAPS = (WRAP_EM, 5.5, 11.0)


def name_font_px(map_width_px: float) -> float:
    """The name font size for a map this wide (:data:`NAME_FONT`, a ``cqw``
    being a hundredth of the map's width)."""
    low, per_cqw, plus, high = NAME_FONT
    return min(high, max(low, per_cqw * map_width_px / 100 + plus))


def name_font_css() -> str:
    """:data:`NAME_FONT` as the CSS ``clamp()`` the browser uses."""
    low, per_cqw, plus, high = NAME_FONT
    return f"clamp({low:g}px, {per_cqw:g}cqw + {plus:g}px, {high:g}px)"


def wrapped_lines(name: str, wrap_em: float) -> list[str]:
    """``name`` broken into lines as a browser would at ``wrap_em``: at spaces,
    and after a hyphen ("Komárom-" / "Esztergom"); a part longer than the
    line stands alone."""
    lines: list[str] = []
    for word in name.split():
        parts = [part + "-" for part in word.split("-")]
        parts[-1] = parts[-1][:-1]
        for i, part in enumerate(p for p in parts if p):
            glue = "" if i else " "
            if lines and (len(lines[-1]) + len(glue) + len(part)) * CHAR_EM <= wrap_em:
                lines[-1] += glue + part
            else:
                lines.append(part)
    return lines or [""]


@dataclass(frozen=True)
class Placement:
    """A name's place: shifted ``dx``, ``dy`` em from where CSS puts it, and
    wrapped at ``wrap`` em."""

    dx: float = 0.0
    dy: float = 0.0
    wrap: float = WRAP_EM

    @property
    def moved(self) -> bool:
        return (self.dx, self.dy, self.wrap) != (0.0, 0.0, WRAP_EM)


Box = tuple[float, float, float, float]  # left, top, right, bottom in pixels


def _name_box(x: float, y: float, name: str, place: Placement, em: float) -> Box:
    lines = wrapped_lines(name, place.wrap)
    width = min(place.wrap, max(len(line) for line in lines) * CHAR_EM) * em
    left = x + place.dx * em - width / 2
    top = y + 1 + place.dy * em
    return left, top, left + width, top + len(lines) * em


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _points_box(x: float, y: float, base: bool, em: float) -> Box:
    w, h = (CASTLE_EM if base else POINTS_EM)
    return x - w * em / 2, y - h * em, x + w * em / 2, y


def place_names(points: Mapping[str, tuple[float, float]], names: Mapping[str, str],
                map_width_px: float, bases: Collection[str] = ()) -> dict[str, Placement]:
    """Places for the names of the territories at ``points`` (territory id ->
    (x, y) pixels of its label point) on a map ``map_width_px`` wide, where
    the territories in ``bases`` carry a castle above their point.

    Returns territory id -> :class:`Placement`; a name that overlaps nothing
    where CSS draws it keeps ``Placement()``.
    """
    em = name_font_px(map_width_px)
    fixed = [_points_box(x, y, tid in bases, em) for tid, (x, y) in points.items()]  # values and castles

    def crowding(tid: str) -> float:
        x, y = points[tid]
        return -sum(1 / (1 + math.hypot(x - ox, y - oy)) for other, (ox, oy) in points.items() if other != tid)

    placed: dict[str, Box] = {}
    result: dict[str, Placement] = {}
    default = {tid: _name_box(*points[tid], names[tid], Placement(), em) for tid in points}
    for tid in sorted(points, key=lambda t: (crowding(t), t)):
        x, y = points[tid]
        others = [*fixed, *placed.values(), *(box for t, box in default.items() if t not in placed and t != tid)]
        best: tuple[float, int, Placement, Box] | None = None
        for rank, place in enumerate(Placement(dx, dy, wrap) for wrap in WRAPS for dx, dy in SHIFTS):
            box = _name_box(x, y, names[tid], place, em)
            cost = sum(_overlap(box, other) for other in others)
            if best is None or (cost, rank) < (best[0], best[1]):
                best = (cost, rank, place, box)
            if cost == 0:
                break
        assert best is not None
        result[tid], placed[tid] = best[2], best[3]
    return result


def total_overlap(points: Mapping[str, tuple[float, float]], names: Mapping[str, str], map_width_px: float,
                  places: Mapping[str, Placement], bases: Collection[str] = ()) -> float:
    """Pixels² where names overlap each other or a value label (0 = none):
    the measure :func:`place_names` lowers."""
    em = name_font_px(map_width_px)
    boxes = [_name_box(*points[t], names[t], places.get(t, Placement()), em) for t in points]
    values = [_points_box(x, y, tid in bases, em) for tid, (x, y) in points.items()]
    names_overlap = sum(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    return names_overlap + sum(_overlap(a, b) for a in boxes for b in values)
