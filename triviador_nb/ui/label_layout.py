"""Where each territory's name goes, so that names do not cover each other.

A name is drawn under its label point, centred, wrapped at 8 em; the value
and castle stand above the point. On crowded maps (the UK's English regions,
central Europe, Europe and the Middle East on the World maps) names drawn
that way overlap and some are illegible. :func:`place_names` keeps the value
and castle labels where they are and moves names, one at a time, the most crowded
first, to the nearby position (a shift of at most 2.6 em, or a narrower or
wider wrap) that overlaps least what is already placed.

Sizes are estimated, not measured (the kernel has no fonts): a DejaVu Sans
character is taken as 0.62 em wide on average, and a line as 1 em high, so
the layout errs on the side of room; the kernel breaks the names into lines
and the browser draws exactly those (``map_view.name_html``). Everything here
is in pixels of the map as the browser reports it, and pure: the same points
and size give the same layout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Collection, Mapping

import numpy as np
import shapely

CHAR_EM = 0.62  # average width of a character, in em ("Zemplén" is 4.44 em: 0.6 drew it 2 px over a value)
WRAP_EM = 8.0  # the widest line of a name, in em, where nothing moves it
NAME_FONT = (11.0, 1.25, 5.0, 21.0)  # CSS clamp(min px, a cqw + b px, max px) of a name's font
POINTS_FONT = (15.0, 1.3, 7.0, 26.0)  # of a score label (a value with its seat mark, a castle's towers above)
# A score label in em of its own font, as Chromium draws it (tests/browser/map_driver.py, battle_labels: a
# "2 200" 3.40-3.47 em wide, a "1 1000" 4.09-4.17, 1.05-1.16 high; a castle of 3 towers 2.78 x 1.55): the
# seat mark (its box, border and margin) and bold digits, a value line, a castle. (Before, a value was taken
# as 4 x 1.6 and a base as 3.6 x 3.2 em of the name's smaller font: a "1 1000" 30 % narrower than drawn.)
MARK_EM = 1.40
DIGIT_EM = 0.70
VALUE_LINE_EM = 1.16
CASTLE_LINE_EM = 1.55  # the castle drawing's height (map_styles.MAP_CSS); it is narrower than a base's value
VALUE_DIGITS = (3, 4)  # the widest value of a territory (200, 400) and of a base (1000)
# (dx, dy) shifts in em, and wrap widths in em, tried for each name; the first is where CSS puts it.
SHIFTS = ((0.0, 0.0), (0.0, 0.7), (-1.6, 0.3), (1.6, 0.3), (0.0, 1.4), (-2.6, 0.0), (2.6, 0.0),
          (-1.6, 1.2), (1.6, 1.2), (0.0, -2.8), (-2.6, 1.0), (2.6, 1.0))
WRAPS = (WRAP_EM, 5.5, 11.0)


def name_font_px(map_width_px: float) -> float:
    """The name font size for a map this wide (:data:`NAME_FONT`, a ``cqw``
    being a hundredth of the map's width)."""
    low, per_cqw, plus, high = NAME_FONT
    return min(high, max(low, per_cqw * map_width_px / 100 + plus))


def points_font_px(map_width_px: float) -> float:
    """The score labels' font size for a map this wide (:data:`POINTS_FONT`)."""
    low, per_cqw, plus, high = POINTS_FONT
    return min(high, max(low, per_cqw * map_width_px / 100 + plus))


def name_font_css() -> str:
    """:data:`NAME_FONT` as the CSS ``clamp()`` the browser uses."""
    return _clamp_css(NAME_FONT)


def points_font_css() -> str:
    """:data:`POINTS_FONT` as the CSS ``clamp()`` the browser uses."""
    return _clamp_css(POINTS_FONT)


def _clamp_css(font: tuple[float, float, float, float]) -> str:
    low, per_cqw, plus, high = font
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
    scale: float = 1.0  # of the name font (a name squeezed between castles); ``dx``, ``dy``, ``wrap`` are in its em

    @property
    def moved(self) -> bool:
        return (self.dx, self.dy, self.wrap, self.scale) != (0.0, 0.0, WRAP_EM, 1.0)


Box = tuple[float, float, float, float]  # left, top, right, bottom in pixels


def _name_box(x: float, y: float, name: str, place: Placement, em: float) -> Box:
    em *= place.scale
    lines = wrapped_lines(name, place.wrap)
    width = max(len(line) for line in lines) * CHAR_EM * em  # a part longer than the wrap is drawn whole
    left = x + place.dx * em - width / 2
    top = y + 1 + place.dy * em
    return left, top, left + width, top + len(lines) * em


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _points_box(x: float, y: float, base: bool, map_width_px: float) -> Box:
    """The score label above the point ``x``, ``y``: the widest value with its seat mark, under a castle
    for a ``base`` (its font :func:`points_font_px`, not the name's)."""
    em = points_font_px(map_width_px)
    w = MARK_EM + VALUE_DIGITS[base] * DIGIT_EM
    h = VALUE_LINE_EM + (CASTLE_LINE_EM if base else 0.0)
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


def _index_labels(points: Mapping[str, tuple[float, float]], names: Mapping[str, str], map_width_px: float,
                  bases: Collection[str], name_kind: int) -> _BoxIndex:
    """Every score label (key ``(0, k)``) and every name where CSS draws it (``(name_kind, k)``), ``k``
    the territory's position in ``points``, in a grid index of cells 4 name em wide."""
    em = name_font_px(map_width_px)
    index = _BoxIndex(4 * em)
    for k, (tid, (x, y)) in enumerate(points.items()):
        index.add((0, k), _points_box(x, y, tid in bases, map_width_px))
        index.add((name_kind, k), _name_box(x, y, names[tid], Placement(), em))
    return index


def place_names(points: Mapping[str, tuple[float, float]], names: Mapping[str, str],
                map_width_px: float, bases: Collection[str] = (),
                areas: Mapping[str, shapely.Geometry] | None = None) -> dict[str, Placement]:
    """Places for the names of the territories at ``points`` (territory id ->
    (x, y) pixels of its label point) on a map ``map_width_px`` wide, where
    the territories in ``bases`` carry a castle above their point.

    Returns territory id -> :class:`Placement`; a name that overlaps nothing
    where CSS draws it keeps ``Placement()``.

    With ``areas`` (territory id -> its shape in the same pixels) on a map
    of at most :data:`AREA_LIMIT` territories, a name
    also stays on its own territory (:func:`_place_on_areas`): it is tried
    in more places and wraps, its box always touches its territory, and its
    middle lies on it (within :data:`TOUCHING_PX`) unless only a place off it
    covers no other label.

    Each name is measured against the boxes near it only (a grid index), so
    the work grows with the territories and how crowded they are, not with
    their square.
    """
    if areas is not None and len(points) <= AREA_LIMIT:
        return _place_on_areas(points, names, map_width_px, bases, areas)
    em = name_font_px(map_width_px)
    crowding = _crowding(points)
    # the order of the first version's list of others: value labels, names placed, names still at their default
    index = _index_labels(points, names, map_width_px, bases, 2)
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
    values = [_points_box(x, y, tid in bases, map_width_px) for tid, (x, y) in points.items()]
    names_overlap = sum(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    return names_overlap + sum(_overlap(a, b) for a in boxes for b in values)


# On a map whose shapes are known, names are tried at these shifts (em) and wraps, nearest first.
AREA_DX = (0.0, -0.6, 0.6, -1.2, 1.2, -2.0, 2.0, -2.8, 2.8, -3.6, 3.6, -4.6, 4.6)
AREA_DY = (0.0, 0.5, 1.0, -2.8, 1.5, -3.4, -4.4, 2.1, -1.4, 2.8, -0.6, 3.5, -5.2)  # below the value, or above the value or castle
AREA_WRAPS = (WRAP_EM, 5.5, 11.0, 4.0)
TOUCHING_PX = 2.0  # a name's middle this near its territory counts as on it
OFF_COST = 500.0  # a name whose middle is off its territory (its box still touches it): worse than a box
# half off it, better than half a px² over another label (each px² costs 1000)
SMALL_COST = 1500.0  # a smaller name: worse than a middle off its territory, better than 2 px² over a label
NEIGHBOUR_COST = 4000.0  # and more when that middle lies on a neighbour rather than the sea
SAMPLES = (1 / 6, 1 / 2, 5 / 6)  # a name's box is on its territory where these 3 x 3 points of it are


SMALL = 0.8  # a name that fits nowhere at full size is tried this much smaller, wrapped narrow


def _area_places() -> list[Placement]:
    places = [Placement(dx, dy, wrap, scale) for wrap, scale in ((w, 1.0) for w in AREA_WRAPS)
              for dx in AREA_DX for dy in AREA_DY]
    places += [Placement(dx, dy, wrap, SMALL) for wrap in (5.5, 4.0) for dx in AREA_DX for dy in AREA_DY]
    return sorted(places, key=lambda p: (p.scale != 1.0, abs(p.dx) + abs(p.dy) + abs(p.wrap - WRAP_EM) / 4,
                                         AREA_WRAPS.index(p.wrap)))


AREA_PLACES = _area_places()
AREA_KINDS = sorted({(p.wrap, p.scale) for p in AREA_PLACES})  # the wraps and sizes among them
AREA_LIMIT = 60  # up to this many territories names are laid out on their shapes; above, as without them
# (benchmarks/big_maps.py: 434 territories took 63 s on their shapes, 0.5 s without)


def _area_costs(boxes: np.ndarray, overlaps: np.ndarray, area: shapely.Geometry,
                land: shapely.Geometry) -> tuple[np.ndarray, np.ndarray]:
    """How bad each of ``boxes`` (n x 4: left, top, right, bottom) is for a name of ``area``
    that overlaps others by ``overlaps`` px²: overlap first, then a middle off the territory,
    then the share of the box off it; and which leave nothing to improve (no overlap, the
    whole box on the territory)."""
    f = np.array(SAMPLES)
    width, height = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    xs = boxes[:, 0, None, None] + width[:, None, None] * f[:, None]  # n x 3 x 1
    ys = boxes[:, 1, None, None] + height[:, None, None] * f[None, :]  # n x 1 x 3
    xs, ys = np.broadcast_arrays(xs, ys)
    inside = shapely.contains_xy(area, xs.reshape(-1), ys.reshape(-1)).reshape(len(boxes), 9)
    on = inside.sum(axis=1)
    perfect = (overlaps == 0) & (on == 9)
    if perfect.any():  # the caller takes the nearest of these: the rest need not be measured
        return np.where(perfect, 0.0, np.inf), perfect
    cost = overlaps * 1000 + (9 - on) / 9 * width * height
    off = np.zeros(len(boxes))
    middle_off = ~inside[:, 4]
    if middle_off.any():
        off[middle_off] = shapely.distance(area, shapely.points(xs.reshape(-1, 9)[middle_off, 4],
                                                                ys.reshape(-1, 9)[middle_off, 4]))
    if middle_off.any():
        apart = np.zeros(len(boxes), dtype=bool)
        apart[middle_off] = ~shapely.intersects(area, shapely.box(*boxes[middle_off].T))
        cost += np.where(apart, 2e6, 0.0)  # a name always touches its territory
    cost += np.where(off > TOUCHING_PX, OFF_COST, 0.0) + off * 50
    if middle_off.any():  # a middle over a neighbour (not the sea) is what students misread
        over = np.zeros(len(boxes), dtype=bool)
        over[middle_off] = shapely.contains_xy(land, xs.reshape(-1, 9)[middle_off, 4], ys.reshape(-1, 9)[middle_off, 4])
        cost += np.where(over & (off > TOUCHING_PX), NEIGHBOUR_COST, 0.0)
    return cost, perfect


def _place_on_areas(points: Mapping[str, tuple[float, float]], names: Mapping[str, str], map_width_px: float,
                    bases: Collection[str], areas: Mapping[str, shapely.Geometry]) -> dict[str, Placement]:
    """:func:`place_names` on known shapes: the most crowded name first, each at the nearest
    place that overlaps nothing and lies wholly on its territory, or else the least bad
    (:func:`_area_costs`); then each name that still overlaps another is placed once more."""
    em = name_font_px(map_width_px)
    areas = {t: shapely.simplify(areas[t], 0.5) for t in points}  # half a pixel: nothing a name can tell
    land = shapely.union_all(list(areas.values()))
    for area in (*areas.values(), land):
        shapely.prepare(area)
    crowding = _crowding(points)
    index = _index_labels(points, names, map_width_px, bases, 1)
    position = {tid: k for k, tid in enumerate(points)}
    result: dict[str, Placement] = {}
    order = sorted(points, key=lambda t: (crowding[t], t))
    shifts = np.array([(p.dx * p.scale, p.dy * p.scale) for p in AREA_PLACES]) * em
    smaller = np.array([p.scale != 1.0 for p in AREA_PLACES]) * SMALL_COST
    for round_ in range(3):
        for tid in order:
            key = (1, position[tid])
            x, y = points[tid]
            if round_ and index.cost(index.boxes[key], key) == 0:
                continue
            sizes = {kind: _name_box(x, y, names[tid], Placement(wrap=kind[0], scale=kind[1]), em)
                     for kind in AREA_KINDS}
            boxes = np.array([sizes[p.wrap, p.scale] for p in AREA_PLACES]) + np.hstack([shifts, shifts])
            overlaps = _overlaps(boxes, index, key)
            cost, perfect = _area_costs(boxes, overlaps, areas[tid], land)
            cost = cost + smaller
            best = int(np.argmax(perfect)) if perfect.any() else int(np.argmin(cost))  # the nearest perfect place
            index.remove(key)
            index.add(key, tuple(boxes[best].tolist()))
            result[tid] = AREA_PLACES[best]
    return result


def _overlaps(boxes: np.ndarray, index: _BoxIndex, skip: tuple[int, int]) -> np.ndarray:
    """Pixels² of each of ``boxes`` (n x 4) over the boxes in ``index`` but ``skip``'s."""
    reach = (boxes[:, 0].min(), boxes[:, 1].min(), boxes[:, 2].max(), boxes[:, 3].max())
    near: set[tuple[int, int]] = set()
    for cell in index._cells(reach):
        near |= index.cells.get(cell, set())
    near.discard(skip)
    if not near:
        return np.zeros(len(boxes))
    others = np.array([index.boxes[k] for k in sorted(near)])
    w = np.minimum(boxes[:, None, 2], others[None, :, 2]) - np.maximum(boxes[:, None, 0], others[None, :, 0])
    h = np.minimum(boxes[:, None, 3], others[None, :, 3]) - np.maximum(boxes[:, None, 1], others[None, :, 1])
    return (np.clip(w, 0, None) * np.clip(h, 0, None)).sum(axis=1)


def name_boxes(points: Mapping[str, tuple[float, float]], names: Mapping[str, str], map_width_px: float,
               places: Mapping[str, Placement]) -> dict[str, Box]:
    """Territory id -> the box (left, top, right, bottom pixels) its name is drawn in, as estimated here."""
    em = name_font_px(map_width_px)
    return {t: _name_box(*points[t], names[t], places.get(t, Placement()), em) for t in points}


def value_boxes(points: Mapping[str, tuple[float, float]], map_width_px: float,
                bases: Collection[str] = ()) -> dict[str, Box]:
    """Territory id -> the box of its value label (a castle with it for ``bases``)."""
    return {t: _points_box(x, y, t in bases, map_width_px) for t, (x, y) in points.items()}
