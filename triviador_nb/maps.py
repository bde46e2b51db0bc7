"""Game maps: a board plus what the UI needs to draw it, read from GeoJSON.

Pure Python; geometry is passed through to the UI as loaded, never computed.
A map file (``maps/<name>.geojson``, written by ``tools/build_maps.py``) is a
GeoJSON FeatureCollection with one extra top-level member::

    {"type": "FeatureCollection",
     "triviador": {"name": "hungary", "title": "Hungary",
                   "center": [lat, lon], "zoom": 7,
                   "bounds": [[south, west], [north, east]], ...},
     "features": [
        {"type": "Feature", "id": "HU-PE",
         "properties": {"id": "HU-PE", "name": "Pest", "name_en": "Pest",
                        "neighbours": ["HU-BK", ...], "label": [lat, lon]},
         "geometry": {"type": "Polygon" | "MultiPolygon", "coordinates": ...}},
        ...]}

All positions are in degrees: ``[lat, lon]`` pairs in ``triviador`` and
``label`` (Leaflet's order), ``[lon, lat]`` in geometry coordinates (GeoJSON's).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Real
from pathlib import Path
from types import MappingProxyType
from typing import Any

from triviador_nb.engine.board import Board
from triviador_nb.resources import data_dir

LatLon = tuple[float, float]
MAP_SUFFIX = ".geojson"
GEOMETRY_TYPES = ("Polygon", "MultiPolygon")


class MapError(ValueError):
    """A map cannot be loaded. ``problems`` lists every problem found, one per item."""

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = problems or [message]


@dataclass(frozen=True)
class GameMap:
    """A loaded map.

    Attributes:
        board: territory ids (in file order), display names and adjacency.
        title: human-readable map title, e.g. ``"Hungary"``.
        center: ``(lat, lon)`` in degrees where the map view starts.
        zoom: Leaflet zoom level that frames the whole map in a ~900x600 px view.
        bounds: ``((south, west), (north, east))`` in degrees.
        labels: territory id -> ``(lat, lon)`` in degrees, a point inside the
            territory for its castle icon and value text.
        features: territory id -> the GeoJSON Feature dict as loaded.
        source_path: the file the map was read from.
    """

    board: Board
    title: str
    center: LatLon
    zoom: float
    bounds: tuple[LatLon, LatLon]
    labels: Mapping[str, LatLon]
    features: Mapping[str, dict]
    source_path: Path


def builtin_map_names() -> list[str]:
    """Sorted names of the maps shipped with the game, e.g. ``["hungary"]``."""
    return sorted(p.name.removesuffix(MAP_SUFFIX) for p in data_dir("maps").glob(f"*{MAP_SUFFIX}"))


def load_builtin_map(name: str) -> GameMap:
    """Load the shipped map ``name`` (e.g. ``"hungary"``).

    Raises:
        MapError: no such built-in map (the message lists the known names), or
            the file is invalid (see :func:`load_map`).
    """
    known = builtin_map_names()
    if name not in known:
        raise MapError(f"unknown built-in map {name!r}; known maps: {', '.join(known) or '(none)'}")
    return load_map(data_dir("maps") / f"{name}{MAP_SUFFIX}")


def load_map(path: str | Path) -> GameMap:
    """Read and validate a map file (format in the module docstring).

    Raises:
        OSError: the file cannot be read.
        MapError: the file is not UTF-8 JSON, or breaks the format; the message
            and ``problems`` list every problem at once, naming features by
            index (from 0) and name (e.g. ``features[3] "Pest": ...``).
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as error:  # JSONDecodeError and over-long numbers are ValueErrors
        raise MapError(f"{path}: not a UTF-8 JSON file ({error})") from error
    except RecursionError as error:
        raise MapError(f"{path}: not a map: JSON nested too deeply") from error
    problems = _collection_problems(data)
    if problems:
        raise MapError(f"{path}: {len(problems)} problem(s):\n  " + "\n  ".join(problems), problems)
    return _game_map(data, path)


def _game_map(data: dict, path: Path) -> GameMap:
    """Build the GameMap from an already validated collection."""
    meta = data["triviador"]
    features = {f["id"]: f for f in data["features"]}
    names = {t: f["properties"]["name"] for t, f in features.items()}
    adjacency = {t: f["properties"]["neighbours"] for t, f in features.items()}
    (south, west), (north, east) = meta["bounds"]
    return GameMap(
        board=Board(meta["name"], names, adjacency),
        title=meta["title"],
        center=_lat_lon(meta["center"]),
        zoom=float(meta["zoom"]),
        bounds=((float(south), float(west)), (float(north), float(east))),
        labels=MappingProxyType({t: _lat_lon(f["properties"]["label"]) for t, f in features.items()}),
        features=MappingProxyType(features),
        source_path=path,
    )


def _lat_lon(value: list) -> LatLon:
    return (float(value[0]), float(value[1]))


# --- validation: each function returns a list of problems, empty when fine ---


def _collection_problems(data: Any) -> list[str]:
    if not isinstance(data, dict) or data.get("type") != "FeatureCollection":
        return ['not a GeoJSON FeatureCollection (top level needs "type": "FeatureCollection")']
    features = data.get("features")
    if not isinstance(features, list) or not features:
        return ['"features" must be a non-empty list']
    problems = _metadata_problems(data.get("triviador"), len(features))
    for index, feature in enumerate(features):
        problems += _feature_problems(index, feature)
    return problems + _adjacency_problems(features)


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
