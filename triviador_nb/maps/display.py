"""What a teacher's map draws: its outlines simplified for the screen.

Every vertex of every territory travels to the browser (one ipyleaflet
``Polygon`` per territory, and a room's map to every student's kernel), so
a map of hundreds of detailed communes would send megabytes and draw
slowly. The outlines drawn are therefore simplified (borders, labels and the
view are worked out on the full outlines first):

* the tolerance follows the map's extent: :data:`PIXELS_ACROSS` steps across
  its longer side, under half a pixel of a 900 px board, so nothing visible
  changes; a map still above :data:`VERTEX_BUDGET` vertices is simplified
  again (the outlines just simplified) at twice the tolerance, up to
  :data:`MAX_DOUBLINGS` times;
* territories that form a clean coverage are simplified together (shapely's
  ``coverage_simplify``: shared borders stay shared, no gaps or slivers);
  others one by one (``simplify(preserve_topology=True)``: no ring collapses
  or crosses itself);
* coordinates are rounded to :data:`DECIMALS` places (about 1 m), as in the
  built maps.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
import shapely

PIXELS_ACROSS = 2000  # the first tolerance is the map's longer side / this
VERTEX_BUDGET = 40_000  # vertices to draw, about 0.8 MB of GeoJSON
MAX_DOUBLINGS = 4
DECIMALS = 5


def display_shapes(shapes: Sequence[shapely.Geometry], coverage: bool) -> tuple[list[shapely.Geometry], str | None]:
    """``(simplified shapes, warning or None)``: the shapes to draw, in order (see the module docstring).

    Args:
        shapes: the territories' full outlines, in degrees.
        coverage: whether they form a clean coverage (``teachers.is_coverage``).
    """
    shapes = list(shapes)
    if not shapes:
        return [], None
    west, south, east, north = shapely.total_bounds(shapes).tolist()
    tolerance = max(east - west, north - south) / PIXELS_ACROSS
    drawn = shapes
    for _ in range(MAX_DOUBLINGS + 1):
        drawn = _simplified(drawn, tolerance, coverage)  # each pass starts from the last: fewer points to read
        vertices = int(shapely.get_num_coordinates(np.array(drawn, dtype=object)).sum())
        if vertices <= VERTEX_BUDGET:
            return drawn, None
        tolerance *= 2
    return drawn, (f"{vertices:,} points to draw even simplified (at {tolerance / 2:.2g} degrees): the map may draw "
                   "slowly; simplify it further (e.g. on mapshaper.org) or merge small territories")


def _simplified(shapes: list[shapely.Geometry], tolerance: float, coverage: bool) -> list[shapely.Geometry]:
    array = np.empty(len(shapes), dtype=object)
    array[:] = shapes
    if coverage and len(shapes) > 1:
        try:
            result = shapely.coverage_simplify(array, tolerance)
        except shapely.errors.GEOSException:  # not a coverage after all: one by one
            result = shapely.simplify(array, tolerance, preserve_topology=True)
    else:
        result = shapely.simplify(array, tolerance, preserve_topology=True)
    rounded = shapely.transform(result, lambda xy: np.round(xy, DECIMALS))
    return [r if not r.is_empty and r.area > 0 else s for r, s in zip(rounded.tolist(), shapes, strict=True)]


def geojson_geometry(shape: shapely.Geometry) -> dict:
    """The 2-D GeoJSON geometry of a (simplified, rounded) shape, as a plain dict."""
    return json.loads(shapely.to_geojson(shapely.force_2d(shape)))
