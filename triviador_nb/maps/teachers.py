"""Teachers' own maps: any GeoJSON FeatureCollection of (Multi)Polygons.

:func:`triviador_nb.maps.load_map` comes here for a FeatureCollection without
the ``"triviador"`` member of built maps. Everything a built map stores is
computed, the way ``tools/build_maps.py`` computes it:

* coordinates in WGS 84 degrees: converted, swapped back or cut at the
  antimeridian as :mod:`triviador_nb.maps.coordinates` says;
* outlines repaired as :mod:`triviador_nb.maps.repair` says (parts collapsed
  to a point left out, invalid ones made valid), each with a warning; a
  feature with an empty geometry (allowed by RFC 7946) or an outline that
  collapsed whole is no territory, with a warning; a territory far beyond
  all the others is a warning (:mod:`triviador_nb.maps.places`);
* names from one feature property (``name_property``, by default the first
  of ``"name"``, ``"NAME"``, ``"Name"``, ``"name_en"`` the features have, else
  any other spelling of ``name`` such as ``"nAmE"``); ids are the
  names as slugs (``"Bács-Kiskun"`` -> ``"Bacs-Kiskun"``), made unique; with
  ``merge_by_name`` the features sharing a name are one territory (their
  shapes united), without it repeated names are one error that says so;
* adjacency: two territories border each other when they share at least
  :data:`MIN_SHARED_BORDER_KM` of border, measured in an equirectangular
  km projection centred on the map, so corners touching at a point do not
  count. Borders drawn separately rarely match exactly, so when the
  territories do not form a clean coverage and the exact shared border is
  shorter, the length of each boundary lying within :data:`SNAP_KM` of the
  other territory counts instead (the shorter of the two); plus the
  ``links`` given (names matched as :class:`~triviador_nb.maps.model.TerritoryLookup` says);
* room for the rule set's bases that do not border each other (D15), found
  in linear time on any real map (:func:`_independent_set`);
* a label point per territory: its pole of inaccessibility (the centre of the
  largest inscribed circle), always inside it (and inside the outline drawn);
* bounds, centre and the zoom that fits a 900x600 px view;
* the outlines drawn: simplified for the screen (:mod:`triviador_nb.maps.display`).

Every problem is reported at once (:func:`check_plain_collection`), naming
features by index from 0 and name, as ``features[3] "Pest": message``;
problems of the whole file (no names, no outlines, coordinates in an unknown
CRS, repeated names) come first, each as one message.
Needs shapely (a runtime dependency); built maps never import this module.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import shapely
from shapely.geometry import shape

from triviador_nb.engine.board import Board
from .coordinates import compact_longitudes, to_degrees
from .display import display_shapes, geojson_geometry
from .places import far_features
from .repair import collapsed_note, collapsed_whole, collapsed_whole_note, polygonal, repaired, without_collapsed
from .model import (
    GEOMETRY_TYPES,
    HINT_LINK,
    HINT_MERGE,
    HINT_NAME_PROPERTY,
    RULE_SET_TERRITORY_COUNTS,
    GameMap,
    TerritoryLookup,
    add_links,
    collision_warning,
    resolve_links,
)

NAME_PROPERTIES = ("name", "NAME", "Name", "name_en")
MIN_SHARED_BORDER_KM = 1.0
SNAP_KM = 0.1
LABEL_TOLERANCE_KM = 0.5
DECIMALS = 5
KM_PER_DEGREE_LAT = 110.574
KM_PER_DEGREE_LON_AT_EQUATOR = 111.320
VIEW_SIZE_PX = (900, 600)  # the Leaflet map the zoom level is chosen for
TILE_SIZE_PX = 256
MAX_ZOOM = 18


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


def is_coverage(shapes: Sequence[shapely.Geometry]) -> bool:
    """True when the shapes form a clean coverage: no overlaps, shared edges identical."""
    if len(shapes) < 2:
        return True
    array = np.empty(len(shapes), dtype=object)
    array[:] = list(shapes)
    return bool(shapely.coverage_is_valid(array))


def adjacency_pairs(shapes_km: Sequence[shapely.Geometry], coverage: bool | None = None) -> set[tuple[int, int]]:
    """``(i, j)`` with ``i < j`` for every two shapes sharing >= :data:`MIN_SHARED_BORDER_KM` of border.

    Shapes forming a clean coverage (no overlaps, shared edges identical, as
    built maps and most published boundary files) are measured exactly, like
    ``tools/build_maps.py`` does; others with ``snap`` (see :func:`shared_border_km`).
    ``coverage``: whether they do (:func:`is_coverage`), when already known.
    """
    shapes = list(shapes_km)
    if len(shapes) < 2:
        return set()
    snap = not (is_coverage(shapes) if coverage is None else coverage)
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
    """The first of :data:`NAME_PROPERTIES` any feature has as text, else the first property spelt
    ``name`` in other letter cases that one has, else None."""
    for key in NAME_PROPERTIES:
        if any(_name_text(_properties(f).get(key)) for f in features):
            return key
    for feature in features:
        for key, value in _properties(feature).items():
            if isinstance(key, str) and key.casefold() == "name" and _name_text(value):
                return key
    return None


# --- the check ------------------------------------------------------------------

HIGHCHARTS_LINES = {"__separator_lines__": "lines between the map's insets",  # features' "hc-group"
                    "__border_lines__": "border lines drawn over the map"}
SHOWN_DUPLICATES = 3  # repeated names a message lists by name
SHOWN_LONE = 10  # territories without a neighbour named one by one; the rest in one message


def check_plain_collection(
    data: dict,
    path: Path,
    name_property: str | None,
    links: Iterable[Any] | None,
    players: int,
    merge_by_name: bool = False,
    progress: Callable[[str], None] | None = None,
) -> tuple[GameMap | None, list[str], list[str]]:
    """Check a plain GeoJSON FeatureCollection and build its map.

    ``data`` is a FeatureCollection with a non-empty ``features`` list (the
    caller checked that); ``progress`` is told what the check is doing, a
    sentence at each step and at every tenth of the long ones (e.g.
    ``"outlines checked: 1,200 of 3,231"``); other arguments as
    :func:`triviador_nb.maps.load_map`.

    Returns:
        ``(game_map, errors, warnings)``; ``game_map`` is None when there are errors.
        Problems of the whole file come first, then those naming a feature, in
        feature order, then the links' and the map's as a whole.
    """
    features: list = data["features"]
    head: list[str] = []  # problems of the whole file
    errors: list[str] = []
    notes: list[str] = []
    key = name_property if name_property is not None else _choose_name_property(features)
    if key is None:
        found = sorted({str(k) for f in features for k in _properties(f)})
        shown = ", ".join(found[:20]) + (f" and {len(found) - 20} more" if len(found) > 20 else "")
        head.append(
            f"no territory names: no feature has a {', '.join(f'{k!r}' for k in NAME_PROPERTIES)} property; "
            f"say which property names the territories ({HINT_NAME_PROPERTY}); "
            f"properties found: {shown or '(none)'}"
        )
    names: list[str | None] = [_name_text(_properties(f).get(key)) if key else None for f in features]

    def who(index: int) -> str:
        return f'features[{index}] "{names[index]}"' if names[index] is not None else f"features[{index}] (no name)"

    # geometry and names, feature by feature
    raw: dict[int, shapely.Geometry] = {}  # index -> polygonal geometry as read (any CRS)
    problems: dict[int, str] = {}
    kinds: Counter[str] = Counter()
    skipped: set[int] = set()  # features with no outline to draw (empty, or collapsed whole): not territories
    for index, feature in enumerate(features):
        if not isinstance(feature, dict) or feature.get("type") != "Feature":
            errors.append(f'{who(index)}: not a GeoJSON Feature (needs "type": "Feature")')
            kinds["not a Feature"] += 1
            continue
        geometry, problem, kind = _read_geometry(feature.get("geometry"))
        kinds[kind] += 1
        drawing = _properties(feature).get("hc-group")
        if drawing in HIGHCHARTS_LINES and kind in ("LineString", "MultiLineString"):
            skipped.add(index)
            notes.append(f"{who(index)}: Highcharts' {HIGHCHARTS_LINES[drawing]} (a {kind}, not a territory): "
                         "left out of the map")
            continue
        if kind.startswith("empty "):
            skipped.add(index)
            notes.append(f"{who(index)}: {kind} (no outline, as GeoJSON allows): left out of the map")
            continue
        if geometry is not None:
            geometry, dropped = without_collapsed(geometry)
            if dropped:
                notes.append(f"{who(index)}: {collapsed_note(dropped)}")
            elif collapsed_whole(geometry, feature["geometry"]):
                skipped.add(index)
                notes.append(f"{who(index)}: {collapsed_whole_note(geometry)}")
                continue
            raw[index] = geometry
        if key is not None and names[index] is None:
            errors.append(f"{who(index)}: missing properties.{key} (the territory's name)")
        if problem:
            problems[index] = problem
    if not raw and not any(k in GEOMETRY_TYPES for k in kinds):
        head.append(_no_outlines(kinds))
        return None, head + _in_feature_order([e for e in errors if "not a GeoJSON Feature" not in e]), notes

    # coordinates: WGS 84 degrees within range (coordinates.py), then each shape valid
    tell = progress or (lambda _message: None)
    tell(f"{len(raw):,} outlines read; converting coordinates")
    degrees = to_degrees(raw, data, features)
    notes += degrees.notes
    if degrees.errors:
        return None, head + degrees.errors + _in_feature_order(errors), notes
    problems.update(degrees.feature_errors)
    shapes: dict[int, shapely.Geometry] = {}  # index -> polygonal shape in degrees (repaired if invalid)
    step = max(1, len(degrees.shapes) // 10)
    for done, (index, shape_deg) in enumerate(sorted(degrees.shapes.items()), start=1):
        if done % step == 0:
            tell(f"outlines checked: {done:,} of {len(degrees.shapes):,}")
        fixed, problem = _valid_polygon(shape_deg)
        if problem and fixed is not None and problem.startswith("invalid geometry"):
            # published files often have a crossing or a sliver a teacher cannot fix: shapely's make_valid can
            notes.append(f"{who(index)}: {problem}; repaired with shapely's make_valid (look at the map to see "
                         "that it is right)")
        elif problem:
            problems[index] = problem
        if fixed is not None:
            shapes[index] = fixed
    errors += [f"{who(i)}: {problem}" for i, problem in problems.items()]
    shapes, _moved = compact_longitudes(shapes)
    notes += [f"{who(index)}: {text}" for index, text in far_features(shapes).items()]

    # territories: a feature each, or with merge_by_name the features sharing a name
    groups: dict[str, list[int]] = {}
    for index, name in enumerate(names):
        if name is not None and index not in skipped:
            groups.setdefault(name, []).append(index)
    repeated = {name: members for name, members in groups.items() if len(members) > 1}
    if merge_by_name:
        dropped = {i for members in repeated.values() for i in members[1:]}
        for name, members in repeated.items():
            parts = [shapes.pop(i) for i in members if i in shapes]  # repaired ones too: their problem is listed
            if parts:
                shapes[members[0]] = polygonal(shapely.unary_union(parts)) or parts[0]
        territories = [i for i in range(len(features)) if i not in dropped and i not in skipped]
        if repeated:
            merged = sum(len(m) for m in repeated.values())
            count = len(repeated)
            notes.append(f"{merged} features sharing {count} name{'s' if count > 1 else ''} were merged into "
                         f"{count} {'territories' if count > 1 else 'territory'}")
    else:
        territories = [i for i in range(len(features)) if i not in skipped]
        if repeated:
            head.append(_duplicates_message(repeated))
    first = {members[0] for members in groups.values()}
    ids_of = unique_ids([names[i] if i in first else None for i in territories])
    ids: dict[int, str | None] = dict(zip(territories, ids_of, strict=True))

    # adjacency over every territory with a polygon, so one bad feature does not hide the others' borders
    tell("measuring the borders")
    indices = [i for i in territories if i in shapes]
    if indices:
        west, south, east, north = shapely.total_bounds([shapes[i] for i in indices]).tolist()
    else:
        west = south = east = north = 0.0
    mid_lat = (south + north) / 2
    shapes_km = {i: to_km(shapes[i], mid_lat) for i in indices}
    coverage = is_coverage([shapes_km[i] for i in indices])
    neighbours: dict[int, set[int]] = {i: set() for i in indices}
    for a, b in adjacency_pairs([shapes_km[i] for i in indices], coverage):
        neighbours[indices[a]].add(indices[b])
        neighbours[indices[b]].add(indices[a])

    # links by name or id (model.TerritoryLookup)
    lookup = TerritoryLookup([(ids[i], names[i]) for i in territories])
    collisions = collision_warning(lookup.collisions())
    if collisions:
        notes.append(collisions)
    left_out = {names[i]: f"features[{i}] has no outline to draw (see its warning)" for i in sorted(skipped)
                if names[i] is not None}
    pairs, link_errors, link_notes = resolve_links(links, lookup, left_out)
    errors += link_errors
    notes += link_notes
    usable = [(territories[a], territories[b], note, description) for a, b, note, description in pairs
              if territories[a] in shapes and territories[b] in shapes]  # others: reported above
    linked, already = add_links(usable, neighbours, dict(enumerate(names)))
    notes += already

    # territories nothing reaches (not the pieces of a repeated name: merging may join them)
    pieces = set() if merge_by_name else {i for members in repeated.values() for i in members}
    lone = [i for i in indices if not neighbours[i] and i not in pieces]
    for index, nearest in zip(lone[:SHOWN_LONE], _nearest(lone[:SHOWN_LONE], shapes_km, names), strict=True):
        errors.append(f"{who(index)}: borders no other territory and has no link{nearest}")
    if len(lone) > SHOWN_LONE:
        rest = [f'"{names[i]}"' if names[i] else f"features[{i}]" for i in lone[SHOWN_LONE:]]
        errors.append(f"{len(rest)} more territories border no other territory and have no link "
                      f"({', '.join(rest[:5])}{' and more' if len(rest) > 5 else ''}); link each to a neighbour "
                      f"({HINT_LINK})")
    complete = len(indices) == len(territories)  # with a feature missing, a gap may be its fault
    if complete and len(indices) > 1:
        groups_apart = _components(neighbours)
        if sum(len(g) > 1 for g in groups_apart) > 1:  # lone territories are reported above
            listed = "; ".join(
                ", ".join(f'"{names[i]}"' if names[i] else f"features[{i}]" for i in group[:4])
                + (f" and {len(group) - 4} more" if len(group) > 4 else "")
                for group in groups_apart[:5]
            ) + (f"; and {len(groups_apart) - 5} more groups" if len(groups_apart) > 5 else "")
            errors.append(
                f"the territories fall apart into {len(groups_apart)} groups that neither border nor link each "
                f"other ({listed}); link the groups ({HINT_LINK}){_suggested_links(groups_apart, shapes_km, names)}"
            )
    if complete and not head:  # with names repeated the territories are not known yet
        found, certain = _independent_set(neighbours, players)
        if found is None:
            errors.append(
                f"too few territories for {players} players: there are no {players} mutually non-adjacent "
                f"territories, and bases must not border each other (D15)"
            )
        elif not certain:
            notes.append(f"could not confirm within the time allowed that {players} bases fit without "
                         "bordering each other (D15); the game checks again when it starts")

    count = len(territories)
    if count not in RULE_SET_TERRITORY_COUNTS:
        notes.append(
            f"{count} {'territory' if count == 1 else 'territories'}; the built-in rule sets are made for "
            f"{' or '.join(map(str, RULE_SET_TERRITORY_COUNTS))} (D15), other counts play but rounds may run uneven"
        )
    if head or errors:
        return None, head + _in_feature_order(errors), notes

    bounds = [round(v, DECIMALS) for v in (south, west, north, east)]
    territory_ids = [ids[i] for i in territories]
    board = Board(
        _board_name(path),
        {ids[i]: names[i] for i in territories},
        {ids[i]: sorted(ids[n] for n in neighbours[i]) for i in territories},
    )
    tell("simplifying the outlines for drawing and placing the labels")
    drawn, drawing_note = display_shapes([shapes[i] for i in territories], coverage)
    if drawing_note:
        notes.append(drawing_note)
    labels = {}
    out_features = {}
    for i, territory, shown in zip(territories, territory_ids, drawn, strict=True):
        label = label_point(shapes[i], shapes_km[i], mid_lat)
        if not shown.contains(shapely.Point(label[1], label[0])):  # simplified away from under it: rare
            x, y = shapely.get_coordinates(shown.point_on_surface())[0]
            label = [float(y), float(x)]
        labels[territory] = label
        props = {**_properties(features[i]), "id": territory, "name": names[i],
                 "neighbours": sorted(board.adjacency[territory]), "label": label}
        out_features[territory] = {"type": "Feature", "id": territory, "properties": props,
                                   "geometry": geojson_geometry(shown)}
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
    return game_map, [], notes


def _duplicates_message(repeated: dict[str, list[int]]) -> str:
    """One message for every repeated name: a few named with their counts, and what to do."""
    ranked = sorted(repeated.items(), key=lambda item: (-len(item[1]), item[1][0]))
    if len(repeated) <= SHOWN_DUPLICATES and all(len(m) <= 3 for m in repeated.values()):
        listed = "; ".join(f'"{name}" (features[{"], features[".join(map(str, members))}])'
                           for name, members in ranked)
        what = f"duplicate name{'s' if len(repeated) > 1 else ''}: {listed}"
    else:
        shown = ", ".join(f'"{name}" ({len(members)} features)' for name, members in ranked[:SHOWN_DUPLICATES])
        more = f" and {len(repeated) - SHOWN_DUPLICATES} more" if len(repeated) > SHOWN_DUPLICATES else ""
        total = sum(len(m) for m in repeated.values())
        what = (f"duplicate names: {len(repeated)} names are each used by several features ({total} features "
                f"in all), e.g. {shown}{more}")
    return (f"{what}; to make the features that share a name one territory (a map drawn one feature per "
            f"island, say), merge them ({HINT_MERGE}); otherwise give each territory its own name")


def _no_outlines(kinds: Counter[str]) -> str:
    """The message for a file in which no feature has a polygon."""
    found = ", ".join(f"{count} {kind}" for kind, count in kinds.most_common())
    advice = "a map needs each territory's outline as a Polygon or MultiPolygon"
    if set(kinds) <= {"null", "empty Polygon", "empty MultiPolygon"}:
        advice = ("the file has the territories' data but not their outlines; " + advice +
                  ": export the map again with its geometry")
    elif set(kinds) <= {"Point", "MultiPoint", "null"}:
        advice = ("points (towns, capitals, centres) cannot show borders; " + advice +
                  ", e.g. from an administrative boundaries file")
    elif set(kinds) <= {"LineString", "MultiLineString", "null"}:
        advice = ("lines (borders, roads, rivers) do not enclose territories; " + advice +
                  " (in QGIS: Vector, Geometry Tools, Lines to Polygons)")
    return f"no feature has a Polygon or MultiPolygon geometry (found: {found}); {advice}"


def _in_feature_order(problems: list[str]) -> list[str]:
    """Problems naming a feature in index order, then the rest (stable)."""

    def key(problem: str) -> int:
        match = re.match(r"features\[(\d+)\]", problem)
        return int(match.group(1)) if match else len(problems) + 1_000_000

    return sorted(problems, key=key)


def _read_geometry(geometry: Any) -> tuple[shapely.Geometry | None, str | None, str]:
    """``(shape, problem, kind)``: a feature's polygonal shape as read (coordinates not yet judged),
    what is wrong with it, and its GeoJSON type (``"null"`` for none)."""
    geometry_type = geometry.get("type") if isinstance(geometry, dict) else None
    kind = "null" if geometry is None else str(geometry_type) if isinstance(geometry_type, str) else "unknown"
    if geometry_type not in GEOMETRY_TYPES:
        return None, f"geometry must be a Polygon or MultiPolygon, not {geometry_type}", kind
    try:
        with np.errstate(invalid="ignore"):  # NaN coordinates: reported below, not warned about
            result = shape(geometry)
        finite = bool(np.isfinite(shapely.get_coordinates(result)).all())
    except Exception as error:  # shapely raises several kinds on malformed coordinates
        problem = f"malformed {geometry_type} coordinates ({_short_error(error)}); {RING_HELP[geometry_type]}"
        return None, problem, kind
    if result.is_empty:
        return None, None, f"empty {geometry_type}"
    if not finite:
        return None, f"{geometry_type} coordinates must be finite numbers (the file has NaN or Infinity)", kind
    return result, None, kind


RING_HELP = {
    "Polygon": "a Polygon's coordinates are rings, each a list of at least 4 [longitude, latitude] positions "
               "whose last repeats the first",
    "MultiPolygon": "a MultiPolygon's coordinates are Polygons, each a list of rings of at least 4 [longitude, "
                    "latitude] positions whose last repeats the first",
}


def _short_error(error: Exception) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def _valid_polygon(result: shapely.Geometry) -> tuple[shapely.Geometry | None, str | None]:
    """``(shape, problem)``: the shape (repaired when invalid, for measuring: :func:`.repair.repaired`)
    and what is wrong."""
    if not result.is_valid:
        reason = shapely.is_valid_reason(result)
        _, south, _, north = result.bounds
        return repaired(result, (south + north) / 2), f"invalid geometry: {reason}"
    shape_ = polygonal(result)
    if shape_ is None or result.area == 0:
        return None, f"{result.geom_type} has no area"
    return shape_, None


def _nearest(lone: list[int], shapes_km: dict[int, shapely.Geometry], names: list[str | None]) -> list[str]:
    """For each lone territory, `` (nearest: "B3", 99 km away)`` (the lowest index among equals), or ``""``."""
    keys = list(shapes_km)
    if len(keys) < 2 or not lone:
        return [""] * len(lone)
    tree = shapely.STRtree([shapes_km[k] for k in keys])
    found = []
    for index in lone:
        hits, distances = tree.query_nearest(shapes_km[index], exclusive=True, return_distance=True,
                                             all_matches=True)
        candidates = [(float(d), keys[h]) for h, d in zip(hits.tolist(), distances.tolist(), strict=True)
                      if keys[h] != index]
        if not candidates:
            found.append("")
            continue
        distance, nearest = min(candidates)
        label = f'"{names[nearest]}"' if names[nearest] else f"features[{nearest}]"
        found.append(f" (nearest: {label}, {distance_text(distance)})")
    return found


SUGGESTED_LINKS = 5  # groups apart for which the nearest pair to link is named


def _suggested_links(groups: list[list[int]], shapes_km: dict[int, shapely.Geometry],
                     names: list[str | None]) -> str:
    """``; the nearest pairs: "A" and "B" (38 km), ...``: for each group but the largest (up to
    :data:`SUGGESTED_LINKS`), its territory nearest to the largest group and that group's territory
    nearest to it (an island group and the mainland, say); ``""`` when none can be measured."""
    main = [i for i in groups[0] if i in shapes_km]
    if not main:
        return ""
    tree = shapely.STRtree([shapes_km[i] for i in main])
    pairs = []
    for group in groups[1:SUGGESTED_LINKS + 1]:
        members = [i for i in group if i in shapes_km]
        if not members:
            continue
        hits, distances = tree.query_nearest([shapes_km[i] for i in members], return_distance=True)
        k = int(np.argmin(distances))
        a, b = members[int(hits[0][k])], main[int(hits[1][k])]
        label_a = f'"{names[a]}"' if names[a] else f"features[{a}]"
        label_b = f'"{names[b]}"' if names[b] else f"features[{b}]"
        pairs.append(f"{label_a} and {label_b} ({distance_text(float(distances[k])).removesuffix(' away')})")
    more = " and more" if len(groups) > SUGGESTED_LINKS + 1 else ""
    return f"; the nearest pairs to link: {'; '.join(pairs)}{more}" if pairs else ""


def distance_text(km: float) -> str:
    """How far apart two territories are, never "0 km" for ones that do not touch:
    ``"touches it, but they share less than 1 km of border"`` (0), ``"less than 1 m away"``,
    ``"263 m away"`` (under 1 km), ``"58 km away"``."""
    if km <= 0:
        return f"touches it, but they share less than {MIN_SHARED_BORDER_KM:g} km of border"
    if km < 0.0005:
        return "less than 1 m away"
    if km < 1:
        return f"{km * 1000:.0f} m away"
    return f"{km:,.0f} km away"


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


SEARCH_BUDGET = 200_000  # steps of the exact search for non-adjacent bases before giving up


def _independent_set(neighbours: dict[int, set[int]], size: int) -> tuple[list[int] | None, bool]:
    """``(size mutually non-adjacent indices or None, certain)``.

    Greedy first, least-connected first (linear; finds them on any map a
    teacher draws). When that fails: None if the territories can be covered
    by fewer than ``size`` groups that all border each other (then no such
    set exists), else an exact search over bitsets, given up after
    :data:`SEARCH_BUDGET` steps (``certain`` False, the set taken as found).
    """
    order = sorted(neighbours, key=lambda i: (len(neighbours[i]), i))
    chosen: list[int] = []
    blocked: set[int] = set()
    for candidate in order:
        if candidate not in blocked:
            chosen.append(candidate)
            if len(chosen) == size:
                return chosen, True
            blocked |= neighbours[candidate]
    if len(order) < size:
        return None, True
    cliques: list[set[int]] = []  # a greedy clique cover: size > its count needs a set that is not there
    for vertex in order:
        home = next((c for c in cliques if c <= neighbours[vertex]), None)
        if home is None:
            cliques.append({vertex})
        else:
            home.add(vertex)
    if len(cliques) < size:
        return None, True
    position = {v: k for k, v in enumerate(order)}
    closed = [sum(1 << position[n] for n in neighbours[v]) | (1 << k) for k, v in enumerate(order)]
    steps = 0

    def search(candidates: int, need: int) -> list[int] | None:
        nonlocal steps
        while candidates and candidates.bit_count() >= need:
            steps += 1
            if steps > SEARCH_BUDGET:
                raise TimeoutError
            low = candidates & -candidates
            k = low.bit_length() - 1
            if need == 1:
                return [k]
            rest = search(candidates & ~closed[k], need - 1)
            if rest is not None:
                return [k, *rest]
            candidates &= ~low
        return None

    try:
        found = search((1 << len(order)) - 1, size)
    except TimeoutError:
        return [], False
    return (None if found is None else [order[k] for k in found]), True


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
