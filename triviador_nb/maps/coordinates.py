"""Coordinates of a teacher's map: which reference system they are in, and
how they become WGS 84 longitude/latitude degrees the game can draw.

GeoJSON (RFC 7946) stores ``[longitude, latitude]`` in WGS 84 degrees, and
that is what the game works in. Files published elsewhere are often not:

* **A projected CRS that the file names.** GDAL and QGIS write the old
  GeoJSON (2008) ``"crs"`` member, e.g. ``{"type": "name", "properties":
  {"name": "urn:ogc:def:crs:EPSG::2056"}}`` for Swiss LV95. The CRS is read
  with pyproj and the coordinates converted, with a warning that names it.
  A ``"crs"`` that names a projected CRS while the coordinates are plainly
  degrees is ignored, with a warning.
* **Web Mercator metres without a "crs"** (EPSG:3857, the CRS of web maps):
  when no coordinate is degrees and all lie within +-20,037,508 m, the map is
  read as Web Mercator and converted, and the warning says where the map
  then lies, since a national grid without its ``"crs"`` (LV95's
  2,600,000 / 1,200,000, say) looks the same to a program: the teacher can
  tell at a glance.
* **Swapped latitude/longitude** (``[lat, lon]`` pairs): fixed, with a
  warning, when the signal is clear: every "longitude" within +-90 and some
  "latitude" beyond +-90, or the features carry a label or centre point in
  their properties (``lat``/``lon``, ``latitude``/``longitude``,
  ``INTPTLAT``/``INTPTLON``, Natural Earth's ``label_y``/``label_x``) that
  lies in the swapped outlines and not in the given ones.
* **The antimeridian**, the way ``tools/build_maps.py`` makes the built maps:
  a ring that jumps from 180 to -180 (world-atlas' Russia and Fiji; not
  along a pole, as Antarctica's rightly does) is made whole and cut at
  +-180; a polygon drawn on beyond 180 (or
  -180) is cut there and the part beyond is moved by 360 degrees. Then, so
  that a map lying across the antimeridian (US states with the Aleutians,
  Russia, Fiji, New Zealand with the Chathams) is drawn in one piece rather
  than at both ends of the world, the parts on the far side of the map's
  largest empty band of longitudes are moved by 360 degrees (Leaflet draws
  longitudes beyond +-180 east or west of the antimeridian); a map with no
  such band (a world map) stays within +-180.
* **Rounding at the edges**: coordinates up to :data:`DEGREE_TOLERANCE`
  beyond +-180 or +-90 (a world map's ``180.0000000000002``) are taken as
  the edge.

* **Highcharts' map collection** (``"hc-transform"``): chart units, turned
  into degrees with the file's own transform (:mod:`.highcharts`).

Everything else that is not degrees is reported: one message for the
whole file (in a CRS the file does not name), or one per feature (a feature
in metres in a map in degrees).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from . import highcharts
from .places import place
from .repair import repaired

DEGREE_TOLERANCE = 1e-6  # degrees (about 0.1 m) beyond +-180 / +-90 that count as the edge
WEB_MERCATOR_MAX = 20037508.342789244  # metres: +-180 degrees of longitude in EPSG:3857
WEB_MERCATOR_TOLERANCE = 1.0  # metres
SAVE_IN_WGS84 = "save the map in WGS 84 (EPSG:4326)"
LAT_KEYS = ("lat", "latitude", "intptlat", "label_y")
LON_KEYS = ("lon", "lng", "long", "longitude", "intptlon", "label_x")
COMPACT_ENOUGH = 0.75  # a map across the antimeridian is moved when that makes it at most this wide
SWAP_EVIDENCE = 0.8  # share of the features whose point must fit the swapped outline (and not the given)


@dataclass
class Degrees:
    """What :func:`to_degrees` made of a map's shapes.

    Attributes:
        shapes: feature index -> its shape in WGS 84 degrees, longitudes
            within +-180 (before :func:`compact_longitudes`).
        errors: problems of the whole file (nothing is drawn).
        feature_errors: feature index -> its problem; that feature is left out.
        notes: warnings, e.g. what the map was converted from.
    """

    shapes: dict[int, shapely.Geometry]
    errors: list[str] = field(default_factory=list)
    feature_errors: dict[int, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def to_degrees(shapes: Mapping[int, shapely.Geometry], data: Mapping[str, Any], features: list) -> Degrees:
    """The shapes in WGS 84 longitude/latitude degrees (see the module docstring).

    Args:
        shapes: feature index -> shape as read (finite coordinates, any CRS).
        data: the FeatureCollection (for its ``"crs"`` member).
        features: its features (for points in their properties).
    """
    result = Degrees(dict(shapes))
    if not shapes:
        return result
    declared, declared_problem = None, None
    if highcharts.MEMBER in data and all(_degree_like(g.bounds) for g in shapes.values()):
        result.notes.append(f'the file has a Highcharts "{highcharts.MEMBER}" member, but its coordinates are '
                            "longitude/latitude degrees already (converted before?): the transform was not applied")
    elif highcharts.MEMBER in data:  # Highcharts' chart units: its own transform, not the "crs" member, says how
        converted = highcharts.to_lon_lat(shapes, data[highcharts.MEMBER])
        result.errors += converted.errors
        result.feature_errors.update(converted.feature_errors)
        if converted.errors or not converted.shapes:
            return result
        result.shapes = converted.shapes
        result.notes.append(converted.note)
    else:
        declared, declared_problem = declared_crs(data.get("crs"))
    if declared_problem:
        result.notes.append(declared_problem)
    bounds = {i: g.bounds for i, g in result.shapes.items()}
    west, south, east, north = _total(bounds.values())
    degree_like = {i: _degree_like(b) for i, b in bounds.items()}
    if _swapped_by_range(west, south, east, north):
        result.shapes = {i: swap_axes(g) for i, g in result.shapes.items()}
        result.notes.append(
            "latitude and longitude are swapped: every \"longitude\" lies within +-90 and some \"latitudes\" "
            f"beyond it (y from {south:g} to {north:g}), so the pairs were read as [lat, lon] and swapped back; "
            "GeoJSON stores [longitude, latitude]: fix the file to silence this warning")
    elif declared is not None and not is_wgs84(declared):
        if all(degree_like.values()) and declared.is_projected:
            result.notes.append(
                f'the file\'s "crs" says {crs_label(declared)}, but its coordinates are longitude/latitude '
                "degrees; they were read as degrees (WGS 84)")
        else:
            _convert(result, declared, f"converted from {crs_label(declared)} to WGS 84 longitude/latitude, "
                                       "as the file's \"crs\" says")
            if result.errors:
                return result
    elif not any(degree_like.values()):
        if declared is not None:
            result.errors.append(
                f'the file\'s "crs" says {crs_label(declared)} (longitude/latitude degrees), but its coordinates '
                f"are not degrees (bounds {west:g}, {south:g}, {east:g}, {north:g}); {SAVE_IN_WGS84}, or name "
                'its real CRS in the "crs" member')
            return result
        if _web_mercator_like(west, south, east, north):
            from pyproj import CRS

            _convert(result, CRS.from_epsg(3857), "")
            if result.errors:
                return result
            lon, lat = _centre(result.shapes)
            fits = national_grids_fitting(west, south, east, north)
            also = f" (the numbers would also fit {'; '.join(fits)})" if fits else " (a national grid, say)"
            result.notes.append(
                "coordinates in metres and no \"crs\" member: read as Web Mercator (EPSG:3857), the CRS of web "
                f"maps, and converted to WGS 84; the map now lies around {place(lat, lon)}. If that is not where "
                f"it belongs, the file is in another projected CRS{also}: name it in the file's "
                '"crs" member (e.g. {"type": "name", "properties": {"name": "EPSG:2056"}}) or '
                f"{SAVE_IN_WGS84}")
        else:
            result.errors.append(
                f"coordinates are not longitude/latitude degrees (bounds {west:g}, {south:g}, {east:g}, {north:g}) "
                f"and the file does not say which CRS they are in (no \"crs\" member); {SAVE_IN_WGS84}, "
                "e.g. in QGIS (Export, Save Features As, CRS EPSG:4326) or on mapshaper.org (-proj wgs84)")
            return result
    elif all(degree_like.values()) and (evidence := _swapped_by_points(result.shapes, features)):
        result.shapes = {i: swap_axes(g) for i, g in result.shapes.items()}
        shown = ("the points in the features' properties (latitude/longitude) lie in" if evidence == "properties"
                 else 'the features\' "bbox" members ([west, south, east, north]) fit')
        result.notes.append(
            f"latitude and longitude are swapped: {shown} the outlines only when their pairs are read as [lat, "
            "lon], so they were swapped back; GeoJSON stores [longitude, latitude]: fix the file to silence this "
            "warning")
    for index in list(result.shapes):
        shape = result.shapes[index]
        w, s, e, n = shape.bounds
        if not _degree_like((w, s, e, n)):
            result.feature_errors[index] = (
                f"coordinates are not longitude/latitude degrees (bounds {w:g}, {s:g}, {e:g}, {n:g}); "
                f"{SAVE_IN_WGS84}")
            del result.shapes[index]
            continue
        result.shapes[index] = into_range(shape)
    return result


# --- the CRS a file names ---------------------------------------------------------


def declared_crs(member: Any) -> tuple[Any, str | None]:
    """``(pyproj CRS or None, warning or None)`` for a GeoJSON 2008 ``"crs"`` member.

    ``{"type": "name", "properties": {"name": "EPSG:2056"}}`` (or a URN such
    as ``urn:ogc:def:crs:EPSG::2056`` or ``urn:ogc:def:crs:OGC:1.3:CRS84``).
    A member that cannot be understood is a warning, and the coordinates are
    judged by their values.
    """
    if member is None:
        return None, None
    name = None
    if isinstance(member, Mapping):
        props = member.get("properties")
        if isinstance(props, Mapping):
            name = props.get("name") if isinstance(props.get("name"), str) else None
            if name is None and isinstance(props.get("code"), int):  # the old "EPSG" type
                name = f"EPSG:{props['code']}"
    if not name:
        return None, (f'the file\'s "crs" member ({_short(member)}) does not name a CRS; the coordinates were '
                      "judged by their values")
    try:
        from pyproj import CRS
        from pyproj.exceptions import CRSError
    except ImportError:  # pragma: no cover - pyproj is a dependency
        return None, f'the file\'s "crs" ({name}) cannot be read without pyproj (pip install pyproj)'
    try:
        crs = CRS.from_user_input(name)
        if not (crs.is_geographic or crs.is_projected):
            raise CRSError("not a horizontal CRS")
        return crs, None
    except Exception:  # CRSError, and whatever else PROJ says to a name it cannot read
        return None, (f'the file\'s "crs" names {_short(name)}, which is not a horizontal CRS pyproj knows; '
                      "the coordinates were judged by their values")


def is_wgs84(crs: Any) -> bool:
    """True for WGS 84 longitude/latitude (EPSG:4326, OGC:CRS84), whatever its axis order."""
    if not crs.is_geographic:
        return False
    try:
        return crs.to_epsg(min_confidence=70) == 4326 or (crs.to_authority() or ("", ""))[1] in ("CRS84", "4326")
    except Exception:  # pyproj cannot match it to an authority
        return False


def crs_label(crs: Any) -> str:
    """E.g. ``CH1903+ / LV95 (EPSG:2056)``."""
    try:
        authority = crs.to_authority(min_confidence=70)
    except Exception:  # pyproj cannot match it to an authority
        authority = None
    return f"{crs.name} ({authority[0]}:{authority[1]})" if authority else crs.name


# Projected CRSs that published boundary files often come in without saying so (national grids).
NATIONAL_GRIDS = (2056, 21781, 27700, 29903, 28992, 31370, 2154, 25832, 25833, 31287, 2180, 5514, 23700, 3006,
                  3067, 5070, 3978, 3577, 2193)


def national_grids_fitting(west: float, south: float, east: float, north: float, limit: int = 3) -> list[str]:
    """Labels of :data:`NATIONAL_GRIDS` in whose area of use these bounds (in that grid's metres) would
    lie, e.g. ``["CH1903+ / LV95 (EPSG:2056), for Liechtenstein; Switzerland"]``; at most ``limit``."""
    from pyproj import CRS, Transformer

    found = []
    for code in NATIONAL_GRIDS:
        try:
            crs = CRS.from_epsg(code)
            area = crs.area_of_use
            transformer = Transformer.from_crs(crs, "EPSG:4326", always_xy=True)
            lons, lats = transformer.transform([west, east, east, west], [south, south, north, north],
                                               errcheck=False)
        except Exception:  # a grid this pyproj does not have: not a candidate
            continue
        if area is None or not np.isfinite([*lons, *lats]).all():
            continue
        if all(area.west <= x <= area.east for x in lons) and all(area.south <= y <= area.north for y in lats):
            where = area.name.split(" - ")[0].rstrip(".")
            found.append(f"{crs_label(crs)}, for {where if len(where) <= 40 else where[:37] + '...'}")
            if len(found) == limit:
                break
    return found


def _convert(result: Degrees, crs: Any, note: str) -> None:
    """Convert every shape of ``result`` from ``crs`` to WGS 84 (x east, y north in and out)."""
    from pyproj import Transformer

    try:
        transformer = Transformer.from_crs(crs, "EPSG:4326", always_xy=True)
    except Exception as error:  # pyproj.exceptions.ProjError and kin: no way from that CRS to WGS 84
        result.errors.append(f"cannot convert from {crs_label(crs)} to WGS 84 ({error}); {SAVE_IN_WGS84}")
        return

    def transform(xy: np.ndarray) -> np.ndarray:
        lon, lat = transformer.transform(xy[:, 0], xy[:, 1], errcheck=False)
        return np.column_stack([lon, lat])

    for index in list(result.shapes):
        try:
            converted = shapely.transform(result.shapes[index], transform)
        except Exception as error:  # pyproj raises its own kinds on points it cannot convert
            converted, reason = None, str(error)
        else:
            reason = "" if np.isfinite(shapely.get_coordinates(converted)).all() else "some points lie outside it"
        if reason:
            result.feature_errors[index] = (f"cannot be converted from {crs_label(crs)} to WGS 84 ({reason}); "
                                            f"{SAVE_IN_WGS84}")
            del result.shapes[index]
        else:
            result.shapes[index] = converted
    if not result.shapes:
        result.errors.append(f"no feature can be converted from {crs_label(crs)} to WGS 84 longitude/latitude: "
                             f"are the coordinates really in that CRS? {SAVE_IN_WGS84}")
        result.feature_errors.clear()
    elif note:
        result.notes.append(note)


# --- judging the values -------------------------------------------------------------


def _total(bounds: Any) -> tuple[float, float, float, float]:
    b = np.array(list(bounds), dtype=float)
    return float(b[:, 0].min()), float(b[:, 1].min()), float(b[:, 2].max()), float(b[:, 3].max())


def _degree_like(bounds: tuple[float, float, float, float]) -> bool:
    """Within what longitude/latitude degrees can be, a polygon drawn on past the antimeridian included."""
    west, south, east, north = bounds
    limit = 90 + DEGREE_TOLERANCE
    return -limit <= south and north <= limit and -540 <= west and east <= 540 and east - west <= 360 + 1e-6


def _swapped_by_range(west: float, south: float, east: float, north: float) -> bool:
    """Every x within +-90 and some y beyond +-90, but within +-180: [lat, lon] pairs."""
    x_limit, y_limit = 90 + DEGREE_TOLERANCE, 180 + DEGREE_TOLERANCE
    return (-x_limit <= west and east <= x_limit and -y_limit <= south and north <= y_limit
            and (south < -x_limit or north > x_limit))


def _web_mercator_like(west: float, south: float, east: float, north: float) -> bool:
    limit = WEB_MERCATOR_MAX + WEB_MERCATOR_TOLERANCE
    return all(-limit <= v <= limit for v in (west, south, east, north))


def _point(props: Mapping[str, Any], keys: tuple[str, ...]) -> float | None:
    for key, value in props.items():
        if isinstance(key, str) and key.lower() in keys:
            try:
                number = float(value)
            except (TypeError, ValueError, OverflowError):
                return None
            return number if math.isfinite(number) else None
    return None


def _swapped_by_points(shapes: Mapping[int, shapely.Geometry], features: list) -> str | None:
    """What shows that the pairs are [lat, lon]: ``"properties"`` when the latitude/longitude points
    the features carry lie in the swapped outlines' boxes (for at least :data:`SWAP_EVIDENCE` of them,
    and at least 3) and in none of the given ones; ``"bbox"`` when the centres of the features' RFC 7946
    ``"bbox"`` members ([west, south, east, north], left as they were when the pairs were swapped) do
    so; else None."""
    for kind in ("properties", "bbox"):
        given = swapped = checked = 0
        for index, shape in shapes.items():
            lat, lon = _carried_point(features[index], kind)
            if lat is None or lon is None:
                continue
            west, south, east, north = shape.bounds
            checked += 1
            given += west <= lon <= east and south <= lat <= north
            swapped += south <= lon <= north and west <= lat <= east
        if checked >= 3 and given == 0 and swapped >= SWAP_EVIDENCE * checked:
            return kind
    return None


def _carried_point(feature: Any, kind: str) -> tuple[float | None, float | None]:
    """``(lat, lon)`` a feature carries in its properties, or at the centre of its ``"bbox"``."""
    if not isinstance(feature, Mapping):
        return None, None
    if kind == "properties":
        props = feature.get("properties")
        return (_point(props, LAT_KEYS), _point(props, LON_KEYS)) if isinstance(props, Mapping) else (None, None)
    box = feature.get("bbox")
    if not isinstance(box, list) or len(box) not in (4, 6) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in box):
        return None, None
    half = len(box) // 2  # [west, south, (low,) east, north, (high)]
    return (box[1] + box[half + 1]) / 2, (box[0] + box[half]) / 2


def swap_axes(geometry: shapely.Geometry) -> shapely.Geometry:
    """``geometry`` with x and y exchanged."""
    return shapely.transform(geometry, lambda xy: xy[:, ::-1].copy())


def _centre(shapes: Mapping[int, shapely.Geometry]) -> tuple[float, float]:
    west, south, east, north = _total(g.bounds for g in shapes.values())
    return (west + east) / 2, (south + north) / 2




def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --- longitudes within +-180, the antimeridian --------------------------------------


def into_range(geometry: shapely.Geometry) -> shapely.Geometry:
    """``geometry`` (degree-like: see ``_degree_like``) with every longitude within +-180.

    A ring that jumps across the antimeridian is made whole first (as
    ``tools/build_maps.py`` does for the invalid ones; a valid one drawn that
    way would span the world the wrong way round); parts beyond +-180 are cut off there and
    moved by 360 degrees; what lies within :data:`DEGREE_TOLERANCE` of an
    edge is put on it.
    """
    if _jumps(geometry):
        geometry = _unwrap(geometry)
    west, south, east, north = geometry.bounds
    if west < -180 - DEGREE_TOLERANCE or east > 180 + DEGREE_TOLERANCE:
        if not geometry.is_valid:  # a mistyped longitude makes an outline cross itself: cut a valid one
            geometry = repaired(geometry, (south + north) / 2) or geometry
        low, high = south - 1, north + 1
        pieces = [
            shapely.transform(shapely.clip_by_rect(geometry, left, low, right, high), lambda xy, d=shift: xy + [d, 0])
            for left, right, shift in ((-540, -180, 360), (-180, 180, 0), (180, 540, -360))
        ]
        geometry = shapely.unary_union([p for p in pieces if not p.is_empty])
    west, south, east, north = geometry.bounds
    if west < -180 or east > 180 or south < -90 or north > 90:
        geometry = shapely.transform(geometry, lambda xy: np.clip(xy, [-180, -90], [180, 90]))
    return geometry


def _jumps(geometry: shapely.Geometry) -> bool:
    """True when some ring has consecutive points more than 180 degrees of longitude apart,
    away from the poles (Antarctica's outline runs from -180 to 180 along latitude -90, rightly)."""
    for ring in _rings(geometry):
        xy = shapely.get_coordinates(ring)
        if len(xy) < 2:
            continue
        jump = np.abs(np.diff(xy[:, 0])) > 180
        at_pole = (np.abs(xy[:-1, 1]) >= 90 - DEGREE_TOLERANCE) & (np.abs(xy[1:, 1]) >= 90 - DEGREE_TOLERANCE)
        if (jump & ~at_pole).any():
            return True
    return False


def _rings(geometry: shapely.Geometry) -> list:
    rings = []
    for part in shapely.get_parts(geometry):
        if part.geom_type == "Polygon":
            rings.append(part.exterior)
            rings.extend(part.interiors)
    return rings


def _unwrap(geometry: shapely.Geometry) -> shapely.Geometry:
    """The build's ``unwrap_antimeridian``: each polygon whose rings jump is moved east
    (negative longitudes + 360), made valid and cut at 180, the part east of it moved back."""
    parts = []
    for part in shapely.get_parts(geometry):
        if part.geom_type != "Polygon" or not _jumps(part):
            parts.append(part)
            continue
        east = shapely.make_valid(shapely.transform(part, lambda xy: np.where(xy < 0, xy + [360, 0], xy)))
        parts.append(shapely.clip_by_rect(east, -180, -90, 180, 90))
        parts.append(shapely.transform(shapely.clip_by_rect(east, 180, -90, 540, 90), lambda xy: xy - [360, 0]))
    polygons = [p for part in parts for p in shapely.get_parts(part)
                if p.geom_type in ("Polygon", "MultiPolygon") and not p.is_empty]
    return shapely.unary_union(polygons) if polygons else shapely.Polygon()


def compact_longitudes(shapes: Mapping[int, shapely.Geometry]) -> tuple[dict[int, shapely.Geometry], bool]:
    """The shapes drawn in one piece when the map lies across the antimeridian.

    The polygons' longitude spans (all within +-180) leave empty bands; when
    the widest band is not the one around the antimeridian, and starting the
    map at its end makes the map at most :data:`COMPACT_ENOUGH` as wide (so
    not for a world map with a gap in mid-ocean), the polygons on the smaller
    side of that band are moved by 360 degrees; a territory whose parts then
    touch is made one shape. Returns ``(shapes, moved)``.
    """
    spans = []  # (west, east, shape index, part) per polygon
    for index, shape in shapes.items():
        for part in shapely.get_parts(shape):
            if not part.is_empty:
                west, _, east, _ = part.bounds
                spans.append((west, east, index, part))
    if len(spans) < 2:
        return dict(shapes), False
    spans.sort(key=lambda s: (s[0], s[1]))
    merged: list[list[float]] = []
    for west, east, _, _ in spans:
        if merged and west <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], east)
        else:
            merged.append([west, east])
    around_antimeridian = merged[0][0] + 360 - merged[-1][1]
    gaps = [(merged[k + 1][0] - merged[k][1], k) for k in range(len(merged) - 1)]
    if not gaps:
        return dict(shapes), False
    widest, k = max(gaps)
    width = merged[-1][1] - merged[0][0]
    if widest <= around_antimeridian or 360 - widest > COMPACT_ENOUGH * width:
        return dict(shapes), False
    gap_west, gap_east = merged[k][1], merged[k + 1][0]
    west_side = sum(e - w for w, e in merged[:k + 1])
    east_side = sum(e - w for w, e in merged[k + 1:])
    move_west_side = west_side < east_side  # the smaller side moves: +360 for the west side, -360 for the east

    def moved(west: float) -> bool:
        return west <= gap_west if move_west_side else west >= gap_east

    shift = 360.0 if move_west_side else -360.0
    parts_by_shape: dict[int, list] = {}
    changed: set[int] = set()
    for west, _, index, part in spans:
        if moved(west):
            part = shapely.transform(part, lambda xy: xy + [shift, 0])
            changed.add(index)
        parts_by_shape.setdefault(index, []).append(part)
    result = dict(shapes)
    for index in changed:
        result[index] = shapely.unary_union(parts_by_shape[index])
    return result, True
