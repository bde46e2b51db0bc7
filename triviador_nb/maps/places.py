"""Where a teacher's map lies, and the territories that lie far from it.

A mistyped coordinate passes every other check: a longitude typed 180
degrees off on one point of a Swiss canton makes a valid, bordering
territory whose outline reaches 188°E, and the map is drawn half the world
wide. :func:`far_features` names each territory that reaches beyond the box
of all the others by more than :data:`FAR_FACTOR` times that box's size
(an overseas region is named too: the warning says so).

A map with latitude and longitude swapped lies elsewhere on Earth but
looks like any other map to a program when both numbers are within +-90
(the Swiss cantons then lie in Somalia); :func:`where` says where the map
lies, and where it would lie read the other way round, so that a teacher
can tell at a glance.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import shapely

FAR_FACTOR = 3.0  # reaching beyond the others' box by more than this many times its size is "far"
KM_PER_DEGREE = 111.32


def far_features(shapes: Mapping[int, shapely.Geometry]) -> dict[int, str]:
    """Feature index -> what a warning says of each territory far from all the others (see the module
    docstring), e.g. ``part of its outline reaches 172.4°W 47.0°N, 13,500 km beyond all the other
    territories: ...``. Shapes in degrees, as drawn (antimeridian handled); needs 3 or more."""
    keys = list(shapes)
    if len(keys) < 3:
        return {}
    bounds = shapely.bounds(np.array([shapes[k] for k in keys], dtype=object))  # west, south, east, north
    others = _others_boxes(bounds)
    found = {}
    for row, key in enumerate(keys):
        west, south, east, north = others[row]
        scale = math.cos(math.radians(max(-89.0, min(89.0, (south + north) / 2))))
        size = max((east - west) * scale, north - south, 1e-6)  # in degrees of latitude
        xy = shapely.get_coordinates(shapes[key])
        beyond_x = np.maximum(np.maximum(west - xy[:, 0], xy[:, 0] - east), 0) * scale
        beyond_y = np.maximum(np.maximum(south - xy[:, 1], xy[:, 1] - north), 0)
        beyond = np.hypot(beyond_x, beyond_y)
        far = int(np.argmax(beyond))
        if beyond[far] <= FAR_FACTOR * size:
            continue
        if (beyond == 0).any():  # partly among the others: a point of it reaches out
            km = beyond[far] * KM_PER_DEGREE
            found[key] = (f"part of its outline reaches {place(xy[far, 1], xy[far, 0])}, {km:,.0f} km beyond all "
                          "the other territories, and the map is drawn that wide: a mistyped coordinate? (a "
                          "longitude 180 or 360 degrees off, or a sign left out); fix it in the file")
        else:  # all of it away from the others: how far its nearest point is
            km = float(beyond.min()) * KM_PER_DEGREE
            lon, lat = shapely.get_coordinates(shapes[key].representative_point())[0]
            found[key] = (f"lies {km:,.0f} km beyond all the other territories (at {place(lat, lon)}): right for "
                          "an overseas region, else a mistyped coordinate; look at the map")
    return found


def where(bounds: tuple[tuple[float, float], tuple[float, float]]) -> str:
    """Where a map with these ``((south, west), (north, east))`` bounds lies, e.g. ``the map lies around
    47.1°N 7.5°E``; when its numbers read the other way round are latitude/longitude too, with ``(if it
    belongs around 7.5°N 47.1°E, its latitudes and longitudes are swapped: fix the file)``."""
    (south, west), (north, east) = bounds
    lon, lat = (west + east) / 2, (south + north) / 2
    text = f"the map lies around {place(lat, lon)}"
    if -90 <= west and east <= 90:
        text += f" (if it belongs around {place(lon, lat)}, its latitudes and longitudes are swapped: fix the file)"
    return text


def _others_boxes(bounds: np.ndarray) -> np.ndarray:
    """For each row of ``bounds`` (west, south, east, north), the box of all the other rows."""
    out = np.empty_like(bounds)
    for column, pick in ((0, np.min), (1, np.min), (2, np.max), (3, np.max)):
        values = bounds[:, column]
        order = np.argsort(values if pick is np.min else -values, kind="stable")
        best, second = values[order[0]], values[order[1]]
        out[:, column] = best
        out[order[0], column] = second
    return out


def place(lat: float, lon: float) -> str:
    """E.g. ``46.8°N 8.2°E``; longitudes beyond 180 (a map drawn across the antimeridian) as drawn."""
    lon = (lon + 180) % 360 - 180 if abs(lon) > 180 else lon
    return f"{abs(lat):.1f}°{'N' if lat >= 0 else 'S'} {abs(lon):.1f}°{'E' if lon >= 0 else 'W'}"
