"""Highcharts' map collection: coordinates in chart units, with the way back
to longitude/latitude in the file's ``"hc-transform"`` member.

A map of Highcharts' collection (``countries/gr/gr-all.geo.json``...) is a
GeoJSON FeatureCollection whose coordinates are neither degrees nor metres
but small whole numbers: the map projected (its ``crs``, a PROJ string),
then scaled and moved to fit a chart about 10,000 units wide. How is in::

    "hc-transform": {"default": {"crs": "+proj=tmerc ...", "scale": 0.000101,
                                 "jsonres": 15.5, "jsonmarginX": -999, "jsonmarginY": 9851.0,
                                 "xoffset": 95203.5, "yoffset": 4626101.8, "rotation": 0.0},
                     "fr-all-wallis": {..., "hitZone": {"type": "Polygon", ...}}}

(Highcharts' API reference, ``Highcharts.GeoJSONTranslation``; insets such
as overseas regions have their own entry, used for the points within its
``hitZone``, given in chart units). Highcharts' own ``transformToLatLon``
reads a point ``(x, y)`` back as::

    x' = ((x - jsonmarginX) / jsonres - xpan) / scale + xoffset
    y' = ((y - jsonmarginY) / jsonres + ypan) / scale + yoffset
    (x', y') turned by ``rotation`` (radians), then from ``crs`` to WGS 84

and so does :func:`to_lon_lat` (with pyproj), with the same defaults (0 for
the margins, offsets and pans, 1 for ``jsonres`` and ``scale``). Each
feature is read with the entry whose ``hitZone`` holds a point of it, else
with ``default`` (or the one entry without a ``hitZone``). The file's
``"crs"`` member names the projection before the scaling, so it is not
used.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry import shape as to_shape

MEMBER = "hc-transform"
NUMBERS = {"jsonmarginX": 0.0, "jsonmarginY": 0.0, "jsonres": 1.0, "scale": 1.0, "xoffset": 0.0, "yoffset": 0.0,
           "xpan": 0.0, "ypan": 0.0, "rotation": 0.0}
CONVERT_ADVICE = ("convert the map to GeoJSON in longitude/latitude (WGS 84) first, e.g. with Highcharts' "
                  "transformToLatLon, or take the map from a source that gives longitude/latitude")


@dataclass
class Converted:
    """What :func:`to_lon_lat` made of a Highcharts map.

    Attributes:
        shapes: feature index -> its shape in longitude/latitude degrees.
        errors: problems of the whole transform (then ``shapes`` is empty).
        feature_errors: feature index -> why it could not be converted.
        note: the warning that says what was done.
    """

    shapes: dict[int, shapely.Geometry] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    feature_errors: dict[int, str] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class _Transform:
    name: str
    crs: str
    numbers: Mapping[str, float]
    zone: shapely.Geometry | None


def to_lon_lat(shapes: Mapping[int, shapely.Geometry], member: Any) -> Converted:
    """The shapes of a Highcharts map (chart units) in longitude/latitude (see the module docstring).

    Args:
        shapes: feature index -> shape as read.
        member: the file's ``"hc-transform"`` member.
    """
    result = Converted()
    transforms, problem = _read(member)
    if problem:
        result.errors.append(f'the file is a Highcharts map (its coordinates are chart units, and its "{MEMBER}" '
                             f"member says how to turn them into longitude/latitude), but {problem}; "
                             f"{CONVERT_ADVICE}")
        return result
    default = next((t for t in transforms if t.name == "default"), None) or next(
        (t for t in transforms if t.zone is None), None)
    zoned = [t for t in transforms if t.zone is not None]
    used: dict[str, int] = {}
    for index, shape in shapes.items():
        point = shape.representative_point()
        transform = next((t for t in zoned if t.zone.covers(point)), default)
        if transform is None:
            result.feature_errors[index] = (f'lies in none of the "{MEMBER}" zones of this Highcharts map, and '
                                            'it has no "default" to read it with')
            continue
        try:
            converted = _apply(shape, transform)
        except Exception as error:  # pyproj's own errors on a PROJ string it cannot read
            result.errors.append(f'the file is a Highcharts map, but its "{MEMBER}" entry "{transform.name}" '
                                 f"names a projection pyproj cannot use ({_short(str(error))}); {CONVERT_ADVICE}")
            result.shapes.clear()
            return result
        if not np.isfinite(shapely.get_coordinates(converted)).all():
            result.feature_errors[index] = (f'cannot be read back to longitude/latitude with the "{MEMBER}" '
                                            f'entry "{transform.name}" (some points lie outside its projection)')
            continue
        result.shapes[index] = converted
        used[transform.name] = used.get(transform.name, 0) + 1
    parts = ", ".join(f'"{name}" for {count} feature{"s" if count != 1 else ""}' for name, count in used.items())
    first = default or transforms[0]
    result.note = (f'a Highcharts map: its chart coordinates were turned into longitude/latitude with its "{MEMBER}" '
                   f"({parts}; projection {_short(first.crs)}), as Highcharts' transformToLatLon does")
    return result


def _read(member: Any) -> tuple[list[_Transform], str]:
    """``(transforms, problem)``: the entries of an ``"hc-transform"`` member, or what is wrong with it."""
    if not isinstance(member, Mapping) or not member:
        return [], f'its "{MEMBER}" member is not an object of named transforms'
    transforms = []
    for name, entry in member.items():
        where = f'its "{MEMBER}" entry "{name}"'
        if not isinstance(entry, Mapping):
            return [], f"{where} is not an object"
        crs = entry.get("crs")
        if not isinstance(crs, str) or not crs.strip():
            return [], f'{where} has no "crs" (the projection, a PROJ string)'
        numbers = {}
        for key, fallback in NUMBERS.items():
            value = entry.get(key, fallback)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                return [], f'{where} has "{key}": {_short(repr(value))}, not a number'
            numbers[key] = float(value)
        if numbers["scale"] == 0 or numbers["jsonres"] == 0:
            return [], f'{where} has a "scale" or "jsonres" of 0'
        zone = None
        if entry.get("hitZone") is not None:
            try:
                zone = shapely.make_valid(to_shape(entry["hitZone"]))
            except Exception:  # shapely raises several kinds on a malformed geometry
                return [], f'{where} has a "hitZone" that is not a GeoJSON Polygon'
        transforms.append(_Transform(str(name), crs, numbers, zone))
    if not any(t.zone is None for t in transforms) and not any(t.name == "default" for t in transforms):
        return [], f'its "{MEMBER}" member has no "default" entry'
    return transforms, ""


@functools.lru_cache(maxsize=16)
def _to_wgs84(crs: str) -> Any:
    """pyproj's Transformer from a PROJ string to WGS 84 longitude/latitude, made once per string."""
    from pyproj import CRS, Transformer

    return Transformer.from_crs(CRS.from_user_input(crs), "EPSG:4326", always_xy=True)


def _apply(shape: shapely.Geometry, transform: _Transform) -> shapely.Geometry:
    n = transform.numbers
    to_wgs84 = _to_wgs84(transform.crs)
    cos, sin = math.cos(n["rotation"]), math.sin(n["rotation"])

    def convert(xy: np.ndarray) -> np.ndarray:
        x = ((xy[:, 0] - n["jsonmarginX"]) / n["jsonres"] - n["xpan"]) / n["scale"] + n["xoffset"]
        y = ((xy[:, 1] - n["jsonmarginY"]) / n["jsonres"] + n["ypan"]) / n["scale"] + n["yoffset"]
        if n["rotation"]:
            x, y = x * cos - y * sin, x * sin + y * cos
        lon, lat = to_wgs84.transform(x, y, errcheck=False)
        return np.column_stack([lon, lat])

    return shapely.transform(shape, convert)


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."
