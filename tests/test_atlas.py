"""Every built-in map in maps/ (one test per map and property), and its reproducible build.

The maps are listed when the tests are collected, so a new map file is
checked without touching this file. Geometry checks use shapely.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest
import shapely
from shapely.geometry import Point, shape

from triviador_nb.maps.teachers import MIN_SHARED_BORDER_KM, to_km
from triviador_nb.maps import builtin_map_names, builtin_map_path, check_map, load_builtin_map

REPO = Path(__file__).resolve().parents[1]
TABLES = REPO / "tools" / "map_build"
CACHE = TABLES / ".cache"
MAX_BYTES = 120 * 1024
MAP_NAMES = builtin_map_names()
TABLE_NAMES = sorted(p.stem for p in TABLES.glob("*.json"))


@pytest.fixture(scope="module", params=MAP_NAMES)
def name(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def game_map(name):
    return load_builtin_map(name)


@pytest.fixture(scope="module")
def raw(name) -> dict:
    return json.loads(builtin_map_path(name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def shapes(game_map) -> dict:
    return {t: shape(f["geometry"]) for t, f in game_map.features.items()}


def test_there_are_built_in_maps():
    assert "hungary" in MAP_NAMES


def test_every_built_in_map_has_a_build_table_and_every_table_a_map():
    assert {"maps without a table": sorted(set(MAP_NAMES) - set(TABLE_NAMES)),
            "tables without a map": sorted(set(TABLE_NAMES) - set(MAP_NAMES))} == {
        "maps without a table": [], "tables without a map": []}


def test_geometry_is_valid_polygons(shapes):
    problems = {t: shapely.is_valid_reason(g) for t, g in shapes.items() if not g.is_valid}
    assert problems == {}
    assert {g.geom_type for g in shapes.values()} <= {"Polygon", "MultiPolygon"}


def test_territories_do_not_overlap(shapes):
    assert shapely.coverage_is_valid(list(shapes.values()))


def test_territory_count_is_declared_and_15_or_19(raw, game_map):
    assert raw["triviador"]["territory_count"] == len(raw["features"]) == len(game_map.board)
    assert len(game_map.board) in (15, 19)


def test_adjacency_lists_are_symmetric(raw):
    neighbours = {f["id"]: f["properties"]["neighbours"] for f in raw["features"]}
    one_sided = [(t, n) for t, ns in neighbours.items() for n in ns if t not in neighbours.get(n, ())]
    assert one_sided == []
    assert all(ns == sorted(ns) and len(set(ns)) == len(ns) for ns in neighbours.values())


@pytest.fixture(scope="module")
def land_borders(game_map, shapes) -> dict[str, set[str]]:
    """Territory id -> ids sharing >= 1 km of border, measured as tools/build_maps.py does."""
    (south, _), (north, _) = game_map.bounds
    shapes_km = {t: to_km(g, (south + north) / 2) for t, g in shapes.items()}
    land: dict[str, set[str]] = {t: set() for t in shapes}
    ids = list(shapes)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if shapes_km[a].boundary.intersection(shapes_km[b].boundary).length >= MIN_SHARED_BORDER_KM:
                land[a].add(b)
                land[b].add(a)
    return land


def test_neighbours_are_the_land_borders_plus_the_links(game_map, land_borders):
    """The stored neighbours agree with the geometry: >= 1 km of shared border, or a declared link."""
    expected = {t: set(ns) for t, ns in land_borders.items()}
    for a, b, _ in game_map.links:
        expected[a].add(b)
        expected[b].add(a)
    assert {t: set(ns) for t, ns in game_map.board.adjacency.items()} == expected


def test_loaded_as_a_teachers_map_it_computes_the_same_board_labels_and_view(game_map, raw, tmp_path_factory):
    """Without its "triviador" member (links passed by name) the file loads as a teacher's own map;
    triviador_nb.maps.teachers must compute what tools/build_maps.py stored."""
    names = game_map.board.names
    plain = {"type": "FeatureCollection", "features": raw["features"]}
    path = tmp_path_factory.mktemp("plain") / f"{game_map.board.name}.geojson"
    path.write_text(json.dumps(plain, ensure_ascii=False), encoding="utf-8")
    check = check_map(path, links=[(names[a], names[b]) for a, b, _ in game_map.links])
    assert check.errors == ()
    computed = check.game_map

    def by_name(m):
        return {m.board.names[t]: ({m.board.names[n] for n in m.board.adjacency[t]}, m.labels[t])
                for t in m.board.territories}

    assert by_name(computed) == by_name(game_map)
    assert (computed.bounds, computed.center, computed.zoom) == (game_map.bounds, game_map.center, game_map.zoom)


def test_connected_with_links(game_map):
    adjacency = game_map.board.adjacency
    start = game_map.board.territories[0]
    seen, queue = {start}, deque([start])
    while queue:
        for neighbour in adjacency[queue.popleft()] - seen:
            seen.add(neighbour)
            queue.append(neighbour)
    assert seen == set(game_map.board.territories)


def test_room_for_three_bases_that_do_not_border(game_map):
    assert game_map.board.independent_sets(3)


def test_file_is_at_most_120_kb(name):
    assert builtin_map_path(name).stat().st_size <= MAX_BYTES


def test_every_label_is_inside_its_territory(game_map, shapes):
    outside = [t for t, (lat, lon) in game_map.labels.items() if not shapes[t].contains(Point(lon, lat))]
    assert outside == []


def test_names_are_non_empty_and_unique(raw):
    for key in ("name", "name_en"):
        names = [f["properties"][key] for f in raw["features"]]
        assert all(isinstance(n, str) and n.strip() == n and n for n in names), key
        assert len(set(names)) == len(names), key


def test_view_frames_the_territories(game_map, shapes):
    west, south, east, north = shapely.total_bounds(list(shapes.values()))
    assert game_map.bounds == ((round(south, 5), round(west, 5)), (round(north, 5), round(east, 5)))
    (s, w), (n, e) = game_map.bounds
    assert s < game_map.center[0] < n and w < game_map.center[1] < e
    assert 0 <= game_map.zoom <= 12


# --- reproducible build ---------------------------------------------------------


def cached_tarball(table_name: str) -> Path:
    source = json.loads((TABLES / f"{table_name}.json").read_text(encoding="utf-8"))["source"]
    return CACHE / f"{source['package']}-{source['version']}.tgz"


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory) -> Path:
    """All maps whose source tarball is cached, built into a temporary folder (once)."""
    if not CACHE.is_dir():
        pytest.skip("no npm cache at tools/map_build/.cache; run `python tools/build_maps.py` once to enable")
    pytest.importorskip("topojson", reason="build dependency topojson not installed")
    names = [n for n in TABLE_NAMES if cached_tarball(n).is_file()]
    out = tmp_path_factory.mktemp("rebuilt_maps")
    if names:
        subprocess.run(
            [sys.executable, str(REPO / "tools" / "build_maps.py"), *names, "--out", str(out)],
            check=True,
            capture_output=True,
            timeout=1800,
        )
    return out


@pytest.mark.parametrize("table", TABLE_NAMES)
def test_rebuild_gives_identical_bytes(rebuilt, table):
    if not cached_tarball(table).is_file():
        pytest.skip(f"source tarball {cached_tarball(table).name} not in tools/map_build/.cache")
    assert (rebuilt / f"{table}.geojson").read_bytes() == builtin_map_path(table).read_bytes()
