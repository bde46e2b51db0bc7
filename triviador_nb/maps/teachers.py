"""Teachers' own maps: any GeoJSON FeatureCollection of (Multi)Polygons.

:func:`triviador_nb.maps.load_map` comes here for a FeatureCollection without
the ``"triviador"`` member of built maps. Everything a built map stores is
computed, the way ``tools/build_maps.py`` computes it:

* names from one feature property (``name_property``, by default the first
  of ``"name"``, ``"NAME"``, ``"name_en"`` the features have); ids are the
  names as slugs (``"Bács-Kiskun"`` -> ``"Bacs-Kiskun"``), made unique;
* adjacency: two territories border each other when they share at least
  :data:`MIN_SHARED_BORDER_KM` of border, measured in an equirectangular
  km projection centred on the map, so corners touching at a point do not
  count. Borders drawn separately rarely match exactly, so when the
  territories do not form a clean coverage and the exact shared border is
  shorter, the length of each boundary lying within :data:`SNAP_KM` of the
  other territory counts instead (the shorter of the two); plus the
  ``links`` given;
* a label point per territory: its pole of inaccessibility (the centre of the
  largest inscribed circle), always inside it;
* bounds, centre and the zoom that fits a 900x600 px view.

Every problem is reported at once (:func:`check_plain_collection`), naming
features by index from 0 and name, as ``features[3] "Pest": message``.
Needs shapely (a runtime dependency); built maps never import this module.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import shapely
from shapely.geometry import shape

from triviador_nb.engine.board import Board
from .model import (
    GEOMETRY_TYPES,
    RULE_SET_TERRITORY_COUNTS,
    GameMap,
    add_links,
    resolve_links,
    territory_lookup,
)

NAME_PROPERTIES = ("name", "NAME", "name_en")
MIN_SHARED_BORDER_KM = 1.0
SNAP_KM = 0.1
LABEL_TOLERANCE_KM = 0.5
DECIMALS = 5
KM_PER_DEGREE_LAT = 110.574
KM_PER_DEGREE_LON_AT_EQUATOR = 111.320
VIEW_SIZE_PX = (900, 600)  # the Leaflet map the zoom level is chosen for
TILE_SIZE_PX = 256
MAX_ZOOM = 18
MANY_POINTS = 100_000  # more than this draws slowly in the browser


# --- geometry helpers (same method as tools/build_maps.py) --------------------


def km_per_degree(mid_lat: float) -> np.ndarray:
    """``[km per degree lon, km per degree lat]`` of an equirectangular plane at ``mid_lat``."""
    return np.array([KM_PER_DEGREE_LON_AT_EQUATOR * math.cos(math.radians(mid_lat)), KM_PER_DEGREE_LAT])


def to_km(geometry: shapely.Geometry, mid_lat: float) -> shapely.Geometry:
    """Project lon/lat degrees to km (see :func:`km_per_degree`)."""
    return shapely.transform(geometry, lambda xy: xy * km_per_degree(mid_lat))


def from_km(geometry: shapely.Geometry, mid_lat: float) -> shapely.Geometry:
    """Inverse of :func:`to_km`."""
    return shapely.transform(geometry, lambda xy: xy / km_per_degree(mid_lat))


def shared_border_km(a: shapely.Geometry, b: shapely.Geometry, snap: bool = False) -> float:
    """Length in km of the border two territories (in km) share.

    The exact shared boundary (as ``tools/build_maps.py`` measures it). With
    ``snap``, for borders that were drawn separately, when that is under
    :data:`MIN_SHARED_BORDER_KM`: the shorter of (a's boundary within
    :data:`SNAP_KM` of b, b's boundary within :data:`SNAP_KM` of a). A point
    contact stays far below the threshold either way.
    """
    exact = a.boundary.intersection(b.boundary).length
    if not snap or exact >= MIN_SHARED_BORDER_KM or a.distance(b) > SNAP_KM:
        return exact
    near = min(
        a.boundary.intersection(b.buffer(SNAP_KM)).length,
        b.boundary.intersection(a.buffer(SNAP_KM)).length,
    )
    return max(exact, near)


def adjacency_pairs(shapes_km: Sequence[shapely.Geometry]) -> set[tuple[int, int]]:
    """``(i, j)`` with ``i < j`` for every two shapes sharing >= :data:`MIN_SHARED_BORDER_KM` of border.

    Shapes forming a clean coverage (no overlaps, shared edges identical, as
    built maps and most published boundary files) are measured exactly, like
    ``tools/build_maps.py`` does; others with ``snap`` (see :func:`shared_border_km`).
    """
    shapes = list(shapes_km)
    snap = not bool(shapely.coverage_is_valid(np.array(shapes, dtype=object)))
    tree = shapely.STRtree(shapes)
    near = tree.query(shapes, predicate="dwithin", distance=SNAP_KM)
    pairs = set()
    for i, j in zip(*near.tolist(), strict=True):
        if i < j and shared_border_km(shapes[i], shapes[j], snap) >= MIN_SHARED_BORDER_KM:
            pairs.add((i, j))
    return pairs


def label_point(shape_deg: shapely.Geometry, shape_km: shapely.Geometry, mid_lat: float) -> list[float]:
    """``[lat, lon]`` of the territory's pole of inaccessibility (found in km), inside it.

    Rounded to :data:`DECIMALS` places when the rounded point is still inside;
    falls back to shapely's ``point_on_surface``.
    """
    xmin, ymin, xmax, ymax = shape_km.bounds
    tolerance = min(LABEL_TOLERANCE_KM, max(xmax - xmin, ymax - ymin) / 20) or None  # the build's, unless tiny
    centre_km = shapely.get_point(shapely.maximum_inscribed_circle(shape_km, tolerance), 0)
    lon, lat = shapely.get_coordinates(from_km(centre_km, mid_lat))[0]
    for x, y in ((round(lon, DECIMALS), round(lat, DECIMALS)), (lon, lat)):
        if shape_deg.contains(shapely.Point(x, y)):
            return [float(y), float(x)]
    x, y = shapely.get_coordinates(shape_deg.point_on_surface())[0]
    return [float(y), float(x)]


def fit_zoom(south: float, west: float, north: float, east: float) -> int:
    """The largest whole Leaflet zoom at which the bounds fit in ``VIEW_SIZE_PX`` (Web Mercator)."""

    def mercator_y(lat: float) -> float:
        lat = max(-85.0, min(85.0, lat))
        return math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))

    width_px, height_px = VIEW_SIZE_PX
    world_fraction_x = max((east - west) / 360, 1e-9)
    world_fraction_y = max((mercator_y(north) - mercator_y(south)) / (2 * math.pi), 1e-9)
    zoom_x = math.log2(width_px / (TILE_SIZE_PX * world_fraction_x))
    zoom_y = math.log2(height_px / (TILE_SIZE_PX * world_fraction_y))
    return max(0, min(MAX_ZOOM, math.floor(min(zoom_x, zoom_y))))


# --- names and ids --------------------------------------------------------------


def slug(name: str) -> str:
    """An id for a territory name: accents dropped, runs of other characters as ``-``.

    ``"Bács-Kiskun"`` -> ``"Bacs-Kiskun"``, ``"Île de France"`` ->
    ``"Ile-de-France"``; letters without an ASCII form stay (``"Łódź"`` ->
    ``"Łodz"``); underscores stay. Empty when the name has no letters or digits.
    """
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"\W+", "-", plain).strip("-")


def unique_ids(names: Sequence[str | None]) -> list[str | None]:
    """:func:`slug` of each name (None stays None), with ``-2``, ``-3``... added to repeats."""
    ids: list[str | None] = []
    taken: set[str] = set()
    for index, name in enumerate(names):
        if name is None:
            ids.append(None)
            continue
        base = slug(name) or f"T{index + 1}"
        candidate, n = base, 1
        while candidate.casefold() in taken:
            n += 1
            candidate = f"{base}-{n}"
        taken.add(candidate.casefold())
        ids.append(candidate)
    return ids


def _name_text(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return " ".join(value.split())
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _properties(feature: Any) -> dict:
    props = feature.get("properties") if isinstance(feature, dict) else None
    return props if isinstance(props, dict) else {}


def _choose_name_property(features: list) -> str | None:
    """The first of :data:`NAME_PROPERTIES` any feature has as text, else None."""
    for key in NAME_PROPERTIES:
        if any(_name_text(_properties(f).get(key)) for f in features):
            return key
    return None


# --- the check ------------------------------------------------------------------


def check_plain_collection(
    data: dict, path: Path, name_property: str | None, links: Iterable[Any] | None, players: int
) -> tuple[GameMap | None, list[str], list[str]]:
    """Check a plain GeoJSON FeatureCollection and build its map.

    ``data`` is a FeatureCollection with a non-empty ``features`` list (the
    caller checked that); other arguments as :func:`triviador_nb.maps.load_map`.

    Returns:
        ``(game_map, errors, warnings)``; ``game_map`` is None when there are errors.
    """
    features: list = data["features"]
    errors: list[str] = []
    notes: list[str] = []
    key = name_property if name_property is not None else _choose_name_property(features)
    if key is None:
        found = sorted({k for f in features for k in _properties(f)})
        errors.append(
            f"no territory names: no feature has a {', '.join(f'{k!r}' for k in NAME_PROPERTIES)} property; "
            f"say which property names the territories (name_property=..., --name-property); "
            f"properties found: {', '.join(found) or '(none)'}"
        )
    names: list[str | None] = [_name_text(_properties(f).get(key)) if key else None for f in features]

    def who(index: int) -> str:
        return f'features[{index}] "{names[index]}"' if names[index] is not None else f"features[{index}] (no name)"

    # geometry and names, feature by feature
    shapes: dict[int, shapely.Geometry] = {}  # index -> polygonal geometry in degrees (repaired if invalid)
    for index, feature in enumerate(features):
        if not isinstance(feature, dict) or feature.get("type") != "Feature":
            errors.append(f'{who(index)}: not a GeoJSON Feature (needs "type": "Feature")')
            continue
        if key is not None and names[index] is None:
            errors.append(f"{who(index)}: missing properties.{key} (the territory's name)")
        geometry, problem = _polygon(feature.get("geometry"))
        if problem:
            errors.append(f"{who(index)}: {problem}")
        if geometry is not None:
            shapes[index] = geometry

    # duplicate names: the first feature keeps the name
    first: dict[str, int] = {}
    for index, name in enumerate(names):
        if name is None:
            continue
        if name in first:
            errors.append(f'{who(index)}: duplicate name "{name}" (also {who(first[name])})')
        else:
            first[name] = index
    ids = unique_ids([n if n is not None and first.get(n) == i else None for i, n in enumerate(names)])

    # adjacency over every feature with a polygon, so one bad feature does not hide the others' borders
    indices = list(shapes)
    if indices:
        west, south, east, north = shapely.total_bounds(list(shapes.values())).tolist()
    else:
        west = south = east = north = 0.0
    mid_lat = (south + north) / 2
    shapes_km = {i: to_km(shapes[i], mid_lat) for i in indices}
    neighbours: dict[int, set[int]] = {i: set() for i in indices}
    for a, b in adjacency_pairs([shapes_km[i] for i in indices]):
        neighbours[indices[a]].add(indices[b])
        neighbours[indices[b]].add(indices[a])

    # links by name or id
    lookup = territory_lookup([(ids[i], names[i]) for i in range(len(features))])
    pairs, link_errors, link_notes = resolve_links(links, lookup)
    errors += link_errors
    notes += link_notes
    usable = [pair for pair in pairs if pair[0] in shapes and pair[1] in shapes]  # others: reported above
    linked, already = add_links(usable, neighbours, dict(enumerate(names)))
    notes += already

    # territories nothing reaches
    for index in indices:
        if not neighbours[index]:
            nearest = _nearest(index, shapes_km, names)
            errors.append(f"{who(index)}: borders no other territory and has no link{nearest}")
    complete = len(shapes) == len(features)  # with a feature missing, a gap may be its fault
    if complete and len(indices) > 1:
        groups = _components(neighbours)
        if sum(len(g) > 1 for g in groups) > 1:  # lone territories are reported above
            listed = "; ".join(
                ", ".join(f'"{names[i]}"' if names[i] else f"features[{i}]" for i in group[:4])
                + (f" and {len(group) - 4} more" if len(group) > 4 else "")
                for group in groups
            )
            errors.append(
                f"the territories fall apart into {len(groups)} groups that neither border nor link each other "
                f"({listed}); link the groups (links=..., --link A B)"
            )
    if complete and _independent_set(neighbours, players) is None:
        errors.append(
            f"too few territories for {players} players: there are no {players} mutually non-adjacent "
            f"territories, and bases must not border each other (D15)"
        )

    count = len(features)
    if count not in RULE_SET_TERRITORY_COUNTS:
        notes.append(
            f"{count} territories; the built-in rule sets are made for "
            f"{' or '.join(map(str, RULE_SET_TERRITORY_COUNTS))} (D15), other counts play but rounds may run uneven"
        )
    points = sum(int(shapely.get_num_coordinates(g)) for g in shapes.values())
    if points > MANY_POINTS:
        notes.append(f"{points} points in the borders may draw slowly; simplify the map (e.g. on mapshaper.org)")
    if errors:
        return None, _in_feature_order(errors), notes

    bounds = [round(v, DECIMALS) for v in (south, west, north, east)]
    territory_ids = [ids[i] for i in range(len(features))]
    board = Board(
        _board_name(path),
        {ids[i]: names[i] for i in range(len(features))},
        {ids[i]: sorted(ids[n] for n in neighbours[i]) for i in range(len(features))},
    )
    labels = {ids[i]: label_point(shapes[i], shapes_km[i], mid_lat) for i in range(len(features))}
    out_features = {}
    for i, territory in enumerate(territory_ids):
        props = {**_properties(features[i]), "id": territory, "name": names[i],
                 "neighbours": sorted(board.adjacency[territory]), "label": labels[territory]}
        out_features[territory] = {"type": "Feature", "id": territory, "properties": props,
                                   "geometry": json.loads(shapely.to_geojson(shapely.force_2d(shapes[i])))}
    game_map = GameMap(
        board=board,
        title=_title(data, path),
        center=(round((bounds[0] + bounds[2]) / 2, DECIMALS), round((bounds[1] + bounds[3]) / 2, DECIMALS)),
        zoom=float(fit_zoom(*bounds)),
        bounds=((bounds[0], bounds[1]), (bounds[2], bounds[3])),
        labels=MappingProxyType({t: (lat, lon) for t, (lat, lon) in labels.items()}),
        features=MappingProxyType(out_features),
        source_path=path,
        links=tuple((ids[a], ids[b], note) for a, b, note in linked),
        warnings=tuple(notes),
    )
    return game_map, errors, notes


def _in_feature_order(problems: list[str]) -> list[str]:
    """File-wide name problem first, then problems naming a feature in index order, then the rest (stable)."""

    def key(problem: str) -> int:
        if problem.startswith("no territory names"):
            return -1
        match = re.match(r"features\[(\d+)\]", problem)
        return int(match.group(1)) if match else len(problems) + 1_000_000

    return sorted(problems, key=key)


def _polygon(geometry: Any) -> tuple[shapely.Geometry | None, str | None]:
    """``(shape, problem)``: the polygonal shape (repaired when invalid, for measuring) and what is wrong."""
    geometry_type = geometry.get("type") if isinstance(geometry, dict) else None
    if geometry_type not in GEOMETRY_TYPES:
        return None, f"geometry must be a Polygon or MultiPolygon, not {geometry_type}"
    try:
        result = shape(geometry)
    except Exception as error:  # shapely raises several kinds on malformed coordinates
        return None, f"malformed {geometry_type} coordinates ({error})"
    if result.is_empty:
        return None, f"empty {geometry_type}"
    west, south, east, north = result.bounds
    if not (-180 <= west <= east <= 180 and -90 <= south <= north <= 90) or not all(
        math.isfinite(v) for v in result.bounds
    ):
        return None, (
            f"coordinates are not longitude/latitude degrees (bounds {west:g}, {south:g}, {east:g}, {north:g}); "
            "save the map in WGS 84 (EPSG:4326)"
        )
    if not result.is_valid:
        reason = shapely.is_valid_reason(result)
        repaired = _polygonal(shapely.make_valid(result))
        return repaired, f"invalid geometry: {reason}"
    if result.area == 0:
        return None, f"{geometry_type} has no area"
    return result, None


def _polygonal(geometry: shapely.Geometry) -> shapely.Geometry | None:
    parts = [p for p in shapely.get_parts(geometry) if p.geom_type in GEOMETRY_TYPES and p.area > 0]
    if not parts:
        return None
    return shapely.unary_union(parts)


def _nearest(index: int, shapes_km: dict[int, shapely.Geometry], names: list[str | None]) -> str:
    others = [(shapes_km[index].distance(g), i) for i, g in shapes_km.items() if i != index]
    if not others:
        return ""
    distance, nearest = min(others)
    label = f'"{names[nearest]}"' if names[nearest] else f"features[{nearest}]"
    return f" (nearest: {label}, {distance:.0f} km away)"


def _components(neighbours: dict[int, set[int]]) -> list[list[int]]:
    """Connected groups of indices, each in index order, largest group first."""
    seen: set[int] = set()
    groups = []
    for start in neighbours:
        if start in seen:
            continue
        group, stack = {start}, [start]
        while stack:
            for n in neighbours[stack.pop()] - group:
                group.add(n)
                stack.append(n)
        seen |= group
        groups.append(sorted(group))
    return sorted(groups, key=lambda g: (-len(g), g[0]))


def _independent_set(neighbours: dict[int, set[int]], size: int) -> list[int] | None:
    """``size`` mutually non-adjacent indices (least-connected first), or None when there are none."""
    order = sorted(neighbours, key=lambda i: (len(neighbours[i]), i))

    def extend(chosen: list[int], start: int) -> list[int] | None:
        if len(chosen) == size:
            return chosen
        for k in range(start, len(order)):
            candidate = order[k]
            if not any(candidate in neighbours[c] for c in chosen):
                found = extend([*chosen, candidate], k + 1)
                if found:
                    return found
        return None

    return extend([], 0)


def _board_name(path: Path) -> str:
    return slug(path.stem) or "map"


def _title(data: dict, path: Path) -> str:
    """The collection's ``name`` or ``title`` member (GDAL writes ``name``), else the file name."""
    for key in ("title", "name"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    stem = path.stem.replace("_", " ").replace("-", " ").strip()
    return stem[:1].upper() + stem[1:] if stem else "Map"
