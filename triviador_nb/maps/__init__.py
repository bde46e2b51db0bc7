"""Game maps: a board plus what the UI needs to draw it, read from GeoJSON.

Two kinds of file load:

* **Built maps** (``maps/<name>.geojson``, written by ``tools/build_maps.py``):
  a GeoJSON FeatureCollection with one extra top-level member ``"triviador"``.
  Everything the game needs is in the file, so loading is pure Python
  (geometry is passed through to the UI as loaded, never computed)::

    {"type": "FeatureCollection",
     "triviador": {"name": "hungary", "title": "Hungary",
                   "center": [lat, lon], "zoom": 7,
                   "bounds": [[south, west], [north, east]],
                   "territory_count": 19,                  # optional
                   "links": [["ID-A", "ID-B", "note"], ...], # optional sea links
                   ...},                                     # other keys ignored
     "features": [
        {"type": "Feature", "id": "HU-PE",
         "properties": {"id": "HU-PE", "name": "Pest", "name_en": "Pest",
                        "neighbours": ["HU-BK", ...], "label": [lat, lon]},
         "geometry": {"type": "Polygon" | "MultiPolygon", "coordinates": ...}},
        ...]}

  ``links`` are crossings between territories that share no land border
  (e.g. across a strait); both ends already list each other in
  ``neighbours``.

* **Teachers' own maps**: any plain GeoJSON FeatureCollection of Polygon and
  MultiPolygon features in longitude/latitude degrees, without the
  ``"triviador"`` member. Names come from a property, ids are derived from
  the names, and adjacency, label points and the view are computed with
  shapely (see :mod:`triviador_nb.maps.teachers`).

All positions are in degrees: ``[lat, lon]`` pairs in ``triviador`` and
``label`` (Leaflet's order), ``[lon, lat]`` in geometry coordinates (GeoJSON's).
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable, Iterable, Sequence
from numbers import Real
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from triviador_nb.engine.board import Board
from triviador_nb.resources import data_dir

from .model import (  # noqa: F401 - the package's public names
    GEOMETRY_TYPES,
    HINT_LINK,
    HINT_MERGE,
    HINT_NAME_PROPERTY,
    MAP_SUFFIX,
    MERGE_LABEL,
    RULE_SET_TERRITORY_COUNTS,
    DrawSize,
    GameMap,
    LatLon,
    Link,
    MapCheck,
    MapError,
    MapWarning,
    TerritoryLookup,
    add_links,
    draw_size,
    normal_name,
    resolve_links,
)


INTERNAL_ERROR = ("this map could not be checked (a fault in triviador_nb, not in the file: please report it "
                  "with the file)")


def builtin_map_names() -> list[str]:
    """Sorted names of the maps shipped with the game, e.g. ``["hungary"]``."""
    return sorted(p.name.removesuffix(MAP_SUFFIX) for p in data_dir("maps").glob(f"*{MAP_SUFFIX}"))


def builtin_map_titles() -> dict[str, str]:
    """Each shipped map's title by name, e.g. ``{"hungary": "Hungary", ...}``, read without
    loading and checking the maps."""
    titles = {}
    for name in builtin_map_names():
        data = json.loads(builtin_map_path(name).read_text(encoding="utf-8"))
        titles[name] = data["triviador"]["title"]
    return titles


def builtin_map_path(name: str) -> Path:
    """The file of the shipped map ``name``.

    Raises:
        MapError: no such built-in map (the message lists the known names).
    """
    known = builtin_map_names()
    if name not in known:
        raise MapError(f"unknown built-in map {name!r}; known maps: {', '.join(known) or '(none)'}")
    return data_dir("maps") / f"{name}{MAP_SUFFIX}"


def builtin_map_dir() -> Path:
    """The folder of the shipped maps."""
    return data_dir("maps")


def is_builtin_map(game_map: GameMap) -> bool:
    """Whether ``game_map`` is one of the shipped maps (made from Natural
    Earth, see maps/NOTICE: its attribution says so), not a teacher's own
    file; a map made in code with no file counts as shipped."""
    source = game_map.source_path
    return source is None or Path(source).parent.resolve() == builtin_map_dir().resolve()


def load_builtin_map(name: str) -> GameMap:
    """Load the shipped map ``name`` (e.g. ``"hungary"``).

    Raises:
        MapError: no such built-in map (the message lists the known names), or
            the file is invalid (see :func:`load_map`).
    """
    return replace(load_map(builtin_map_path(name)), loaded_with={"name": name})


def resolve_map(
    game_map: str | Path | GameMap | dict,
    players: int = 3,
    *,
    name_property: str | None = None,
    links: Iterable[Sequence[str]] | None = None,
    merge_by_name: bool = False,
    progress: Callable[[str], None] | None = None,
) -> GameMap:
    """A map from a built-in name (e.g. ``"hungary"``), a GeoJSON path, a
    map, or a map's :attr:`~.model.GameMap.loaded_with`.

    Args:
        players: the rule set's player count; a teacher's own map must hold
            that many non-adjacent bases (D15).
        name_property, links, merge_by_name, progress: as :func:`load_map`
            (``links`` also apply to a built-in map; a map given as a
            GameMap is returned as it is).

    Raises:
        MapError: the file breaks the format or the rules (every problem
            listed), or an unknown built-in name (the known ones are listed).
        OSError: the file cannot be read.
    """
    if isinstance(game_map, GameMap):
        return game_map
    if isinstance(game_map, dict):  # a map's loaded_with, from a journal
        if "name" in game_map:
            return load_builtin_map(str(game_map["name"]))
        return load_map(str(game_map["path"]), players=players, name_property=game_map.get("name_property"),
                        links=[tuple(link) for link in game_map.get("links") or ()],
                        merge_by_name=bool(game_map.get("merge_by_name")))
    options = {"name_property": name_property, "links": links, "merge_by_name": merge_by_name,
               "progress": progress}
    text = str(game_map)
    if text.endswith((".geojson", ".json")) or Path(text).exists():
        return load_map(game_map, players=players, **options)
    if links:
        return load_map(builtin_map_path(text), players=players, **options)
    return load_builtin_map(text)


def load_map(
    path: str | Path,
    name_property: str | None = None,
    links: Iterable[Sequence[str]] | None = None,
    players: int = 3,
    merge_by_name: bool = False,
    progress: Callable[[str], None] | None = None,
) -> GameMap:
    """Read and validate a map file: a built map or a teacher's own GeoJSON.

    Args:
        path: a ``.geojson`` file (format in the module docstring).
        name_property: for a teacher's own map, the feature property holding
            the territory names; by default the first of ``"name"``,
            ``"NAME"``, ``"name_en"`` that the features have. Ignored for
            built maps (they name territories in ``properties.name``).
        links: extra connections between territories that share no border,
            e.g. an island and the coast: pairs (or ``(a, b, note)`` triples)
            of territory names or ids. Both ends border each other in the game.
        players: for a teacher's own map, how many players need bases that
            do not border each other (D15); 2 for Duel, 3 for the other rule
            sets. Built maps are checked for this by the test suite.
        merge_by_name: for a teacher's own map, make the features that share
            a name one territory (their geometry united), as for a map drawn
            one feature per island. Without it a repeated name is an error.
        progress: told a sentence (English) at each step of a teacher's map
            while it is checked (as :func:`check_map`), e.g. the setup form's
            status line during a long check.

    Coordinates: GeoJSON's longitude/latitude degrees (WGS 84); a file in a
    projected CRS is converted when its ``"crs"`` member names the CRS, or
    when its coordinates are plainly Web Mercator metres, a Highcharts map
    is turned back with its ``"hc-transform"``, and swapped
    latitude/longitude pairs are swapped back, each with a warning (see
    :mod:`triviador_nb.maps.coordinates`). A file over :data:`MAX_MAP_MB` MB
    is refused unread (a MapError saying how to simplify it).

    Returns:
        The map. Warnings (e.g. a territory count other than 15 or 19, D15)
        are in ``GameMap.warnings`` and also issued as :class:`MapWarning`.

    Raises:
        OSError: the file cannot be read.
        MapError: anything else: the file is not UTF-8 JSON, not a GeoJSON
            FeatureCollection, or breaks the format or the rules; the message
            and ``problems`` list every problem at once, naming features by
            index (from 0) and name (e.g. ``features[3] "Pest": ...``).
        ValueError: ``players`` is less than 1.
    """
    check = check_map(path, name_property=name_property, links=links, players=players,
                      merge_by_name=merge_by_name, progress=progress)
    if len(check.errors) == 1:
        raise MapError(f"{check.path}: {check.errors[0]}", list(check.errors))
    if check.errors:
        raise MapError(
            f"{check.path}: {len(check.errors)} problems:\n  " + "\n  ".join(check.errors), list(check.errors)
        )
    for message in check.warnings:
        warnings.warn(f"{check.path}: {message}", MapWarning, stacklevel=2)
    assert check.game_map is not None
    again = {"path": str(Path(path).resolve()), "name_property": name_property, "merge_by_name": merge_by_name,
             "links": [[str(part) for part in link] for link in links or ()]}
    return replace(check.game_map, loaded_with=again)


def check_map(
    path: str | Path,
    *,
    name_property: str | None = None,
    links: Iterable[Sequence[str]] | None = None,
    players: int = 3,
    merge_by_name: bool = False,
    progress: Callable[[str], None] | None = None,
) -> MapCheck:
    """Check a map file and load it when it has no errors (arguments as :func:`load_map`).

    Unlike :func:`load_map` this returns the problems instead of raising and
    issues no Python warnings; ``triviador-nb maps check`` prints them, and
    what ``progress`` is told (a sentence at each step of a teacher's map)
    when the check takes a while. A file over :data:`MAX_MAP_MB` MB is
    refused unread, with how to simplify it.

    Raises:
        OSError: the file cannot be read.
        ValueError: ``players`` is less than 1.
    """
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        raise ValueError(f"players must be a whole number of at least 1, not {players!r}")
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_MAP_MB * 1_000_000:
        return MapCheck(path, (too_big(size),), (), None)
    if progress is not None:
        progress(f"reading {size / 1_000_000:,.1f} MB")
    raw = path.read_bytes()
    try:
        data = json.loads(raw.decode("utf-16" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as error:  # JSONDecodeError and over-long numbers are ValueErrors
        return MapCheck(path, (f"not a UTF-8 JSON file ({error}){_what_it_is(raw)}",), (), None)
    except RecursionError:
        return MapCheck(path, ("not a map: JSON nested too deeply",), (), None)
    problem = _not_a_collection(data)
    if problem:
        return MapCheck(path, (problem,), (), None)
    if "triviador" not in data:
        from .teachers import check_plain_collection  # needs shapely

        try:
            game_map, errors, notes = check_plain_collection(
                data, path, name_property, links, players, merge_by_name=merge_by_name, progress=progress)
        except (MemoryError, RecursionError):
            return MapCheck(path, ("not a map this computer can check: too big or nested too deeply",), (), None)
        except Exception as error:  # a safety net: a teacher gets a message, never a traceback
            return MapCheck(path, (f"{INTERNAL_ERROR}: {type(error).__name__}: {error}",), (), None, computed=True)
        return MapCheck(path, tuple(errors), tuple(notes), game_map, computed=True)
    problems = _collection_problems(data)
    if problems:
        return MapCheck(path, tuple(problems), (), None)
    return _built_map_check(data, path, links)


MAX_MAP_MB = 50  # bigger files are refused unread: a game draws at most about 40,000 points (under 1 MB)


def too_big(size: int) -> str:
    """The message for a map file of ``size`` bytes, over :data:`MAX_MAP_MB`."""
    return (f"the file is {size / 1_000_000:,.0f} MB, and maps up to {MAX_MAP_MB} MB are checked (a game draws at "
            "most about 40,000 points, under 1 MB of outlines): simplify it first, e.g. on mapshaper.org (Import, "
            "Simplify to 10% or less, Export as GeoJSON) or with mapshaper's command line: mapshaper "
            "map.geojson -simplify 10% keep-shapes -o simplified.geojson; or keep only the region you play on")


# The first bytes of files that teachers take for maps, and what to do with them.
_OTHER_FORMATS = (
    (b"PK\x03\x04", "a ZIP archive (a zipped shapefile?): unzip it and convert the map to GeoJSON"),
    (b"\x00\x00\x27\x0a", "an Esri shapefile (.shp): convert it to GeoJSON"),
    (b"SQLite format 3\x00", "a GeoPackage or SQLite database: export the layer as GeoJSON"),
    (b"\x1f\x8b", "gzip-compressed: uncompress it first (gunzip)"),
    (b"<?xml", "XML (KML or GML?): convert it to GeoJSON"),
    (b"<kml", "KML: convert it to GeoJSON"),
)


def _what_it_is(raw: bytes) -> str:
    """``"; it is ..."`` with advice when the bytes are a known non-GeoJSON format, else ``""``."""
    head = raw[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    for magic, advice in _OTHER_FORMATS:
        if head.startswith(magic):
            return f"; the file is {advice}, e.g. with QGIS or mapshaper.org"
    return ""


def _not_a_collection(data: Any) -> str | None:
    """What is wrong at the top level, if this is not a FeatureCollection with features."""
    kind = data.get("type") if isinstance(data, dict) else None
    if kind == "FeatureCollection":
        features = data.get("features")
        if not isinstance(features, list):
            return ('"features" must be a non-empty list of the territories\' Features '
                    f"(it is {_json_kind(features)})")
        if not features:
            return ('"features" must be a non-empty list: the FeatureCollection has no features, '
                    "and a map needs one Polygon or MultiPolygon feature per territory")
        return None
    needs = 'top level needs "type": "FeatureCollection"'
    if kind == "Topology":
        return (f"not a GeoJSON FeatureCollection but TopoJSON ({needs}); convert it to GeoJSON, "
                "e.g. on mapshaper.org (Export, GeoJSON) or with topojson's topo2geo")
    if kind == "Feature":
        return (f"not a GeoJSON FeatureCollection but a single Feature ({needs}); a map needs a "
                "FeatureCollection with one feature per territory")
    if kind in ("Polygon", "MultiPolygon", "GeometryCollection", "Point", "MultiPoint", "LineString",
                "MultiLineString"):
        return (f"not a GeoJSON FeatureCollection but a bare {kind} geometry ({needs}); a map needs a "
                "FeatureCollection with one named feature per territory")
    if isinstance(data, dict) and ("spatialReference" in data or "geometryType" in data):
        return (f"not a GeoJSON FeatureCollection but Esri JSON ({needs}); export the layer as GeoJSON, "
                "e.g. in QGIS or ArcGIS (Features To JSON, with the GeoJSON option)")
    if isinstance(data, dict) and isinstance(data.get("features"), list):
        return f'not a GeoJSON FeatureCollection ({needs}; the file has "type": {_json_kind(kind)})'
    return f"not a GeoJSON FeatureCollection ({needs}; the file holds {_json_kind(data)})"


def _json_kind(value: Any) -> str:
    """How a JSON value is named in messages: ``a list``, ``the string "x"``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'the string "{value[:40]}"'
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    return "an object without a GeoJSON type" if "type" not in value else "an object"


def _built_map_check(data: dict, path: Path, extra_links: Iterable[Any] | None) -> MapCheck:
    """Build the GameMap from an already validated built map, adding ``extra_links``."""
    meta = data["triviador"]
    features = {f["id"]: f for f in data["features"]}
    names = {t: f["properties"]["name"] for t, f in features.items()}
    adjacency = {t: set(f["properties"]["neighbours"]) for t, f in features.items()}
    stored = tuple((a, b, note) for a, b, note in _stored_links(meta))
    lookup = TerritoryLookup([(t, names[t]) for t in features])
    pairs, errors, notes = resolve_links(extra_links, lookup)
    if errors:
        return MapCheck(path, tuple(errors), tuple(notes), None)
    ids = list(features)
    added, already = add_links(((ids[a], ids[b], note, who) for a, b, note, who in pairs), adjacency, names)
    notes += already
    (south, west), (north, east) = meta["bounds"]
    game_map = GameMap(
        board=Board(meta["name"], names, adjacency),
        title=meta["title"],
        center=_lat_lon(meta["center"]),
        zoom=float(meta["zoom"]),
        bounds=((float(south), float(west)), (float(north), float(east))),
        labels=MappingProxyType({t: _lat_lon(f["properties"]["label"]) for t, f in features.items()}),
        features=MappingProxyType(features),
        source_path=path,
        links=stored + tuple(added),
        warnings=tuple(notes),
    )
    return MapCheck(path, (), tuple(notes), game_map)


def _stored_links(meta: dict) -> list[Link]:
    """``triviador.links`` of a validated built map as ``(a, b, note)`` triples."""
    return [(item[0], item[1], item[2] if len(item) > 2 else "") for item in meta.get("links") or ()]


def _lat_lon(value: list) -> LatLon:
    return (float(value[0]), float(value[1]))


# --- links: shared by built maps and teachers' own maps ----------------------


def _collection_problems(data: dict) -> list[str]:
    """A built map's problems (``check_map`` has checked it is a FeatureCollection with features)."""
    features = data["features"]
    problems = _metadata_problems(data.get("triviador"), len(features))
    for index, feature in enumerate(features):
        problems += _feature_problems(index, feature)
    problems += _adjacency_problems(features)
    if not problems:  # links name ids, so check them once the ids are sound
        problems += _stored_link_problems(data["triviador"].get("links"), features)
    return problems


def _stored_link_problems(links: Any, features: list) -> list[str]:
    """``triviador.links``: absent, or ``[[id_a, id_b, note], ...]`` listed in both neighbour lists."""
    if links is None:
        return []
    if not isinstance(links, list):
        return ['"triviador.links" must be a list of [id_a, id_b, note]']
    neighbours = {f["id"]: set(f["properties"]["neighbours"]) for f in features}
    problems = []
    for k, link in enumerate(links):
        where = f'"triviador.links[{k}]"'
        if not (isinstance(link, list) and len(link) in (2, 3) and all(isinstance(v, str) for v in link)):
            problems.append(f"{where} must be [id_a, id_b, note], not {link!r}")
            continue
        a, b = link[0], link[1]
        unknown = [t for t in (a, b) if t not in neighbours]
        if unknown:
            problems += [f"{where}: {t!r} is not a territory id" for t in unknown]
        elif a == b:
            problems.append(f"{where}: links {a!r} to itself")
        elif b not in neighbours[a] or a not in neighbours[b]:
            problems.append(f"{where}: {a!r} and {b!r} must list each other in properties.neighbours")
    return problems


def _metadata_problems(meta: Any, feature_count: int) -> list[str]:
    if not isinstance(meta, dict):
        return ['missing top-level "triviador" object with name, title, center, zoom, bounds']
    problems = [
        f'"triviador.{key}" must be a non-empty string'
        for key in ("name", "title")
        if not _is_text(meta.get(key))
    ]
    if not _is_lat_lon(meta.get("center")):
        problems.append('"triviador.center" must be [lat, lon] in degrees')
    if not _is_number(meta.get("zoom")):
        problems.append('"triviador.zoom" must be a number')
    bounds = meta.get("bounds")
    if not (isinstance(bounds, list) and len(bounds) == 2 and all(_is_lat_lon(c) for c in bounds)):
        problems.append('"triviador.bounds" must be [[south, west], [north, east]] in degrees')
    count = meta.get("territory_count", feature_count)
    if count != feature_count:
        problems.append(f'"triviador.territory_count" is {count!r} but there are {feature_count} features')
    return problems


def _feature_problems(index: int, feature: Any) -> list[str]:
    who = _describe(index, feature)
    if not isinstance(feature, dict) or feature.get("type") != "Feature":
        return [f'{who}: not a GeoJSON Feature (needs "type": "Feature")']
    props = feature.get("properties")
    if not isinstance(props, dict):
        return [f"{who}: has no properties object"]
    problems = []
    if not _is_text(feature.get("id")):
        problems.append(f'{who}: missing "id" (a non-empty string)')
    elif any(c.isspace() for c in feature["id"]):
        problems.append(f"{who}: id {feature['id']!r} contains a space (ids appear in actions like 'pick p1 ID')")
    elif props.get("id", feature["id"]) != feature["id"]:
        problems.append(f"{who}: properties.id {props['id']!r} differs from id {feature['id']!r}")
    if not _is_text(props.get("name")):
        problems.append(f"{who}: missing properties.name (a non-empty string)")
    geometry = feature.get("geometry")
    geometry_type = geometry.get("type") if isinstance(geometry, dict) else None
    if geometry_type not in GEOMETRY_TYPES:
        problems.append(f"{who}: geometry must be a Polygon or MultiPolygon, not {geometry_type}")
    elif not _is_polygonal(geometry_type, geometry.get("coordinates")):
        problems.append(f"{who}: malformed {geometry_type} coordinates")
    neighbours = props.get("neighbours")
    if not (isinstance(neighbours, list) and all(isinstance(n, str) for n in neighbours)):
        problems.append(f"{who}: properties.neighbours missing or not a list of territory ids")
    if not _is_lat_lon(props.get("label")):
        problems.append(f"{who}: properties.label missing or not [lat, lon] in degrees")
    return problems


def _adjacency_problems(features: list) -> list[str]:
    """Duplicate ids, unknown or self neighbours, one-sided borders.

    Features without a usable id or neighbour list are skipped here; they are
    reported by :func:`_feature_problems`.
    """
    ids = {index: _field(f, "id") for index, f in enumerate(features)}
    neighbours = {index: _neighbours(f) for index, f in enumerate(features)}
    problems = []
    first_index: dict[str, int] = {}
    for index, territory in ids.items():
        if not _is_text(territory):
            continue
        if territory in first_index:
            problems.append(
                f"{_describe(index, features[index])}: duplicate id {territory!r} "
                f"(also {_describe(first_index[territory], features[first_index[territory]])})"
            )
        else:
            first_index[territory] = index
    for index, territory in ids.items():
        if not _is_text(territory):
            continue
        who = _describe(index, features[index])
        for neighbour in neighbours[index]:
            other = first_index.get(neighbour)
            if neighbour == territory:
                problems.append(f"{who}: lists itself as a neighbour")
            elif other is None:
                problems.append(f"{who}: neighbour {neighbour!r} is not a territory id")
            elif territory not in neighbours[other]:
                problems.append(
                    f"{who}: borders {neighbour!r} but {_describe(other, features[other])} "
                    f"does not list {territory!r}"
                )
    return problems


def _field(feature: Any, key: str) -> Any:
    """``feature[key]``, or None when ``feature`` is not a dict."""
    return feature.get(key) if isinstance(feature, dict) else None


def _neighbours(feature: Any) -> list[str]:
    """The feature's neighbour ids that are strings; [] when there is no such list."""
    props = _field(feature, "properties")
    listed = props.get("neighbours") if isinstance(props, dict) else None
    return [n for n in listed if isinstance(n, str)] if isinstance(listed, list) else []


def _describe(index: int, feature: Any) -> str:
    """``features[3] "Pest"``, or ``features[3] (no name)``; the index counts from 0."""
    props = _field(feature, "properties")
    name = props.get("name") if isinstance(props, dict) else None
    return f'features[{index}] "{name}"' if _is_text(name) else f"features[{index}] (no name)"


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _is_number(value: Any) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)


def _is_lat_lon(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(_is_number(v) for v in value)
        and -90 <= value[0] <= 90
        and -180 <= value[1] <= 180
    )


def _is_polygonal(geometry_type: str, coordinates: Any) -> bool:
    """Shallow GeoJSON shape check: rings of >= 4 ``[lon, lat]`` positions."""

    def is_ring(ring: Any) -> bool:
        return (
            isinstance(ring, list)
            and len(ring) >= 4
            and all(
                isinstance(p, list) and len(p) >= 2 and _is_number(p[0]) and _is_number(p[1]) for p in ring
            )
        )

    def is_polygon(polygon: Any) -> bool:
        return isinstance(polygon, list) and bool(polygon) and all(is_ring(r) for r in polygon)

    if geometry_type == "Polygon":
        return is_polygon(coordinates)
    return isinstance(coordinates, list) and bool(coordinates) and all(is_polygon(p) for p in coordinates)
