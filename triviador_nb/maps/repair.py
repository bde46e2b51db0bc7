"""Repairing a teacher's outlines before they are measured: parts that
collapsed to a point or a line, invalid shapes, and very detailed ones.

* **Collapsed parts.** Files made by quantizing (TopoJSON, then ``topo2geo``:
  us-atlas's counties) carry tiny islands whose ring collapsed to one point
  or to a line. Such a part has no area, and GEOS's ``make_valid`` raises
  "Overlay input is mixed-dimension" on some of them together with the
  rest of the shape. They are dropped when the shape keeps at least one
  part with an area (:func:`without_collapsed`), and the caller warns with
  the feature's name; holes that collapsed are dropped with them. A
  territory that collapsed whole (us-atlas's Falls Church, 5 km²) is left
  out of the map with a warning (:func:`collapsed_whole`).
* **Invalid shapes** (crossings, slivers) are repaired with shapely's
  ``make_valid`` (:func:`repaired`); when GEOS still refuses, each part is
  repaired on its own and the polygonal results united.
* **Very detailed shapes** (a 168 MB world file: 53 s in ``make_valid`` for
  Brazil alone) are simplified first, when that is safe: only invalid
  shapes of more than :data:`REPAIR_SIMPLIFY_POINTS` points, and only by
  :data:`REPAIR_SIMPLIFY_KM` (10 m), a tenth of the distance within which
  borders drawn separately still count as shared
  (``teachers.SNAP_KM``), so no border is gained or lost.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import shapely

GEOMETRY_TYPES = ("Polygon", "MultiPolygon")
REPAIR_SIMPLIFY_POINTS = 20_000  # an invalid shape with more points is simplified before make_valid
REPAIR_SIMPLIFY_KM = 0.01  # by this much (10 m)
KM_PER_DEGREE = 111.32  # along a meridian, near enough for a tolerance


def without_collapsed(shape: shapely.Geometry) -> tuple[shapely.Geometry, list[tuple[float, float]]]:
    """``(shape without its collapsed parts, where each dropped part lay)``.

    A part (or a hole) has collapsed when its points are one point or lie on
    one line (their convex hull has no area). The places are each dropped
    ring's first point, in the file's coordinates. The shape is returned as
    it is when nothing collapsed, or when every part did (then it has no
    area at all, which the caller reports as an error).
    """
    parts = shapely.get_parts(shape)
    spans = _spans(parts)
    holes = shapely.get_num_interior_rings(parts)
    if (spans > 0).all() and not holes.any():
        return shape, []
    if not (spans > 0).any():
        return shape, []
    kept, dropped = [], []
    for part, span, hole_count in zip(parts.tolist(), spans.tolist(), holes.tolist(), strict=True):
        if span <= 0:
            dropped.append(_first_point(part.exterior))
            continue
        if hole_count:
            rings = list(part.interiors)
            open_holes = [r for r in rings if _spans(r) > 0]
            dropped += [_first_point(r) for r in rings if _spans(r) <= 0]
            if len(open_holes) < len(rings):
                part = shapely.Polygon(part.exterior, open_holes)
        kept.append(part)
    if not dropped:
        return shape, []
    return (kept[0] if len(kept) == 1 else shapely.MultiPolygon(kept)), dropped


def collapsed_note(dropped: list[tuple[float, float]]) -> str:
    """What a warning says of the parts :func:`without_collapsed` dropped."""
    x, y = dropped[0]
    if len(dropped) == 1:
        return (f"a part of its outline collapsed to a point or a line (at {x:g} {y:g}) and was left out: "
                "it has no area")
    return (f"{len(dropped)} parts of its outline collapsed to a point or a line (the first at {x:g} {y:g}) and "
            "were left out: they have no area")


def collapsed_whole(shape: shapely.Geometry, geometry: Mapping[str, Any]) -> bool:
    """True when every part of ``shape`` collapsed (no area) though each ring of its GeoJSON
    ``geometry`` has the 4 positions GeoJSON asks for: a territory too small for the file's precision
    (us-atlas's Falls Church), not a malformed ring (3 positions; shapely pads it), which stays an error."""
    if (_spans(shapely.get_parts(shape)) > 0).any():
        return False
    coordinates = geometry.get("coordinates")
    polygons = coordinates if geometry.get("type") == "MultiPolygon" else [coordinates]
    return all(len(ring) >= 4 for polygon in polygons for ring in polygon)


def collapsed_whole_note(shape: shapely.Geometry) -> str:
    """What a warning says of a shape that :func:`collapsed_whole`."""
    x, y = shapely.get_coordinates(shape)[0]
    return (f"its whole outline collapsed to a point or a line (at {x:g} {y:g}; too small for the file's "
            "precision?): left out of the map")


def repaired(shape: shapely.Geometry, mid_lat: float) -> shapely.Geometry | None:
    """An invalid shape (in degrees) made valid; its polygonal part, or None when nothing polygonal is left.

    Simplified first when it is big (see the module docstring); GEOS errors
    on the whole shape are retried part by part.
    """
    if shapely.get_num_coordinates(shape) > REPAIR_SIMPLIFY_POINTS:
        scale = max(math.cos(math.radians(mid_lat)), 0.01)
        shape = shapely.simplify(shape, REPAIR_SIMPLIFY_KM / (KM_PER_DEGREE * scale), preserve_topology=False)
    try:
        return polygonal(shapely.make_valid(shape))
    except shapely.errors.GEOSException:  # e.g. "Overlay input is mixed-dimension"
        pieces = []
        for part in shapely.get_parts(shape):
            try:
                piece = polygonal(shapely.make_valid(part))
            except shapely.errors.GEOSException:
                continue
            if piece is not None:
                pieces.append(piece)
        if not pieces:
            return None
        try:
            return polygonal(shapely.unary_union(pieces))
        except shapely.errors.GEOSException:
            return pieces[0] if len(pieces) == 1 else polygonal(shapely.MultiPolygon(
                [p for piece in pieces for p in shapely.get_parts(piece)]))


def polygonal(geometry: shapely.Geometry) -> shapely.Geometry | None:
    """The polygons of ``geometry`` with an area, as one shape, or None."""
    parts = [p for p in shapely.get_parts(geometry) if p.geom_type in GEOMETRY_TYPES and p.area > 0]
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else shapely.unary_union(parts)


def _spans(geometry: Any) -> Any:
    """The area the points of each geometry span (their convex hull's): 0 for a ring collapsed to a
    point or a line, more for any other, one that crosses itself included (a bow tie's own area is 0)."""
    geometries = np.atleast_1d(np.asarray(geometry, dtype=object))
    spans = np.abs(shapely.area(geometries))  # an area is a span: the hull is needed only where there is none
    none = spans <= 0
    if none.any():
        spans[none] = shapely.area(shapely.convex_hull(geometries[none]))
    return spans if np.ndim(geometry) else spans[0]


def _first_point(ring: shapely.Geometry) -> tuple[float, float]:
    xy = shapely.get_coordinates(ring)
    return (float(xy[0, 0]), float(xy[0, 1])) if len(xy) else (math.nan, math.nan)

