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


EXACT_CROWDING = 300  # up to this many territories crowding is summed as first written (built maps)


def _crowding(points: Mapping[str, tuple[float, float]]) -> dict[str, float]:
    """Territory id -> minus the sum of ``1 / (1 + distance)`` to every other label point
    (the more crowded, the lower). Above :data:`EXACT_CROWDING` points, summed by numpy
    (the same values to rounding, in n² / 2 multiplications without Python's loop)."""
    if len(points) <= EXACT_CROWDING:
        return {tid: -sum(1 / (1 + math.hypot(x - ox, y - oy)) for other, (ox, oy) in points.items() if other != tid)
                for tid, (x, y) in points.items()}
    import numpy as np

    xy = np.array(list(points.values()), dtype=float)
    total = np.empty(len(xy))
    for start in range(0, len(xy), 256):
        block = xy[start:start + 256]
        distance = np.hypot(block[:, None, 0] - xy[None, :, 0], block[:, None, 1] - xy[None, :, 1])
        total[start:start + 256] = (1 / (1 + distance)).sum(axis=1) - 1  # less the point itself (1 / (1 + 0))
    return dict(zip(points, (-total).tolist(), strict=True))


class _BoxIndex:
    """Boxes by grid cell, so that a box is only measured against those near it.

    Keys sort in the order the boxes were first listed (the sum of overlaps
    is then the same float as over the whole list: a box that does not
    overlap adds exactly 0).
    """

    def __init__(self, cell: float):
        self.cell = cell
        self.boxes: dict[tuple[int, int], Box] = {}
        self.cells: dict[tuple[int, int], set[tuple[int, int]]] = {}

    def _cells(self, box: Box) -> list[tuple[int, int]]:
        c = self.cell
        return [(i, j) for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1)
                for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1)]

    def add(self, key: tuple[int, int], box: Box) -> None:
        self.boxes[key] = box
        for cell in self._cells(box):
            self.cells.setdefault(cell, set()).add(key)

    def remove(self, key: tuple[int, int]) -> None:
        for cell in self._cells(self.boxes.pop(key)):
            self.cells[cell].discard(key)

    def cost(self, box: Box, skip: tuple[int, int]) -> float:
        """Pixels² of ``box`` over every box but ``skip``'s, summed in key order."""
        near: set[tuple[int, int]] = set()
        for cell in self._cells(box):
            near |= self.cells.get(cell, set())
        near.discard(skip)
        return sum(_overlap(box, self.boxes[key]) for key in sorted(near))


def place_names(points: Mapping[str, tuple[float, float]], names: Mapping[str, str],
                map_width_px: float, bases: Collection[str] = ()) -> dict[str, Placement]:
    """Places for the names of the territories at ``points`` (territory id ->
    (x, y) pixels of its label point) on a map ``map_width_px`` wide, where
    the territories in ``bases`` carry a castle above their point.

    Returns territory id -> :class:`Placement`; a name that overlaps nothing
    where CSS draws it keeps ``Placement()``.

    Each name is measured against the boxes near it only (a grid index), so
    the work grows with the territories and how crowded they are, not with
    their square.
    """
    em = name_font_px(map_width_px)
    crowding = _crowding(points)
    index = _BoxIndex(4 * em)
    # the order of the first version's list of others: value labels, names placed, names still at their default
    for k, (tid, (x, y)) in enumerate(points.items()):
        index.add((0, k), _points_box(x, y, tid in bases, em))
        index.add((2, k), _name_box(x, y, names[tid], Placement(), em))
    position = {tid: k for k, tid in enumerate(points)}
    result: dict[str, Placement] = {}
    for rank, tid in enumerate(sorted(points, key=lambda t: (crowding[t], t))):
        x, y = points[tid]
        own_default = (2, position[tid])
        best: tuple[float, int, Placement, Box] | None = None
        for place_rank, place in enumerate(Placement(dx, dy, wrap) for wrap in WRAPS for dx, dy in SHIFTS):
            box = _name_box(x, y, names[tid], place, em)
            cost = index.cost(box, own_default)
            if best is None or (cost, place_rank) < (best[0], best[1]):
                best = (cost, place_rank, place, box)
            if cost == 0:
                break
        assert best is not None
        index.remove(own_default)
        index.add((1, rank), best[3])
        result[tid] = best[2]
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
