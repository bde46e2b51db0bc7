"""Teachers' own maps: plain GeoJSON without the "triviador" member (triviador_nb.maps.teachers).

Most tests use a 3x3 grid of ~50 km squares around 47N 19E::

    A1 A2 A3      (north)
    B1 B2 B3
    C1 C2 C3      (south)

Squares share whole edges with the squares left, right, above and below;
diagonal squares touch at a single point, which is not a border.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from shapely.geometry import Point, shape

from triviador_nb.cli import main
from triviador_nb.maps.teachers import slug, unique_ids
from triviador_nb.maps import MapError, MapWarning, check_map, load_builtin_map, load_map

WEST, NORTH = 18.5, 47.7
DLON, DLAT = 0.65, 0.45  # about 49 km x 50 km at 47N
ROWS, COLS = "ABC", (1, 2, 3)
GRID = [f"{r}{c}" for r in ROWS for c in COLS]
DUPLICATE_A1 = (
    'duplicate name: "A1" (features[0], features[8]); to make the features that share a name one territory '
    "(a map drawn one feature per island, say), merge them (merge_by_name=True, --merge-by-name); "
    "otherwise give each territory its own name"
)
NINE_WARNING = (
    "9 territories; the built-in rule sets are made for 15 or 19 (D15), other counts play but rounds may run uneven"
)


def box(west: float, south: float, east: float, north: float) -> list:
    """A Polygon's coordinates, counter-clockwise, 5 decimals (as GeoJSON files store them)."""
    w, s, e, n = (round(v, 5) for v in (west, south, east, north))
    return [[[w, s], [e, s], [e, n], [w, n], [w, s]]]


def cell(row: int, col: int) -> tuple[float, float, float, float]:
    """(west, south, east, north) of the grid cell in row ``row`` (0 = north) and column ``col`` (0 = west)."""
    return (WEST + col * DLON, NORTH - (row + 1) * DLAT, WEST + (col + 1) * DLON, NORTH - row * DLAT)


def polygon(coordinates: list) -> dict:
    return {"type": "Polygon", "coordinates": coordinates}


def feature(name: str | None, geometry: dict | None, key: str = "name", **props) -> dict:
    properties = {} if name is None else {key: name}
    return {"type": "Feature", "properties": {**properties, **props}, "geometry": geometry}


def grid_features(key: str = "name") -> list[dict]:
    return [
        feature(f"{r}{c}", polygon(box(*cell(ri, ci))), key)
        for ri, r in enumerate(ROWS)
        for ci, c in enumerate(COLS)
    ]


def write(tmp_path: Path, features: list, name: str = "grid.geojson", **members) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"type": "FeatureCollection", **members, "features": features}), encoding="utf-8")
    return path


def load_quietly(path: Path, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MapWarning)
        return load_map(path, **kwargs)


def problems(path: Path, **kwargs) -> list[str]:
    with pytest.raises(MapError) as caught:
        load_quietly(path, **kwargs)
    return caught.value.problems


_w, _s, _e, _n = cell(1, 5)
ISLAND = feature("Island", polygon(box(_w, _s + 0.1, _e, _n - 0.1)))  # two columns east of B3, ~99 km of sea


# --- a good map ----------------------------------------------------------------


def test_grid_adjacency_is_the_edges_only(tmp_path):
    game_map = load_quietly(write(tmp_path, grid_features()))
    assert dict(game_map.board.adjacency) == {
        "A1": {"A2", "B1"},
        "A2": {"A1", "A3", "B2"},
        "A3": {"A2", "B3"},
        "B1": {"A1", "B2", "C1"},
        "B2": {"A2", "B1", "B3", "C2"},
        "B3": {"A3", "B2", "C3"},
        "C1": {"B1", "C2"},
        "C2": {"B2", "C1", "C3"},
        "C3": {"B3", "C2"},
    }


def test_grid_names_ids_view_and_labels(tmp_path):
    game_map = load_quietly(write(tmp_path, grid_features(), name="my_grid.geojson"))
    assert game_map.board.territories == tuple(GRID)
    assert dict(game_map.board.names) == {t: t for t in GRID}
    assert game_map.board.name == "my_grid" and game_map.title == "My grid"
    assert game_map.bounds == ((46.35, 18.5), (47.7, 20.45))
    assert game_map.center == (47.025, 19.475)
    assert game_map.zoom == 8.0
    for ri, r in enumerate(ROWS):
        for ci, c in enumerate(COLS):
            west, south, east, north = cell(ri, ci)
            lat, lon = game_map.labels[f"{r}{c}"]
            assert west < lon < east and south < lat < north
            assert abs(lat - (south + north) / 2) < 0.01 and abs(lon - (west + east) / 2) < 0.01
    props = game_map.features["B2"]["properties"]
    assert props["id"] == "B2" and props["name"] == "B2" and props["neighbours"] == ["A2", "B1", "B3", "C2"]
    assert props["label"] == list(game_map.labels["B2"]) and game_map.links == ()


def test_a_count_other_than_15_or_19_is_a_warning(tmp_path):
    path = write(tmp_path, grid_features())
    with pytest.warns(MapWarning, match=r"9 territories; the built-in rule sets are made for 15 or 19 \(D15\)"):
        game_map = load_map(path)
    assert game_map.warnings == (NINE_WARNING,)


def test_fifteen_territories_load_without_warnings(tmp_path):
    features = [feature(f"R{r}C{c}", polygon(box(*cell(r, c)))) for r in range(3) for c in range(5)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        game_map = load_map(write(tmp_path, features))
    assert len(game_map.board) == 15 and game_map.warnings == ()


def test_a_multipolygon_territory_with_an_island_part(tmp_path):
    features = grid_features()
    features[5]["geometry"] = {"type": "MultiPolygon",
                               "coordinates": [box(*cell(1, 2)), box(*cell(1, 4))]}  # B3 plus an island
    game_map = load_quietly(write(tmp_path, features))
    assert game_map.board.adjacency["B3"] == {"A3", "B2", "C3"}
    lat, lon = game_map.labels["B3"]
    assert shape(game_map.features["B3"]["geometry"]).contains(Point(lon, lat))


def test_names_from_NAME_or_a_chosen_property(tmp_path):
    assert load_quietly(write(tmp_path, grid_features("NAME"))).board.territories == tuple(GRID)
    assert load_quietly(write(tmp_path, grid_features("nom")), name_property="nom").board.territories == tuple(GRID)


def test_ids_are_unique_slugs_of_the_names():
    assert slug("Bács-Kiskun") == "Bacs-Kiskun"
    assert slug("Île de France") == "Ile-de-France"
    assert slug("  Łódź ") == "Łodz"
    assert slug("St. John's") == "St-John-s" and slug("north_east") == "north_east"
    assert unique_ids(["A B", "A-B", "a b", None, "!!!"]) == ["A-B", "A-B-2", "a-b-3", None, "T5"]


def test_ids_from_accented_names_and_links_by_either(tmp_path):
    features = grid_features()
    features[0]["properties"]["name"] = "Győr-Moson-Sopron"
    features[4]["properties"]["name"] = "Île de France"
    game_map = load_quietly(write(tmp_path, features + [ISLAND]), links=[("Gyor-Moson-Sopron", "island")])
    assert game_map.board.territories[0] == "Gyor-Moson-Sopron" and game_map.board.territories[4] == "Ile-de-France"
    assert game_map.board.names["Ile-de-France"] == "Île de France"
    assert game_map.board.borders("Island", "Gyor-Moson-Sopron")


def test_three_d_coordinates_come_out_two_d(tmp_path):
    features = grid_features()
    for f in features:
        f["geometry"]["coordinates"] = [[[x, y, 100.0] for x, y in ring] for ring in f["geometry"]["coordinates"]]
    game_map = load_quietly(write(tmp_path, features))
    assert all(len(p) == 2 for p in game_map.features["A1"]["geometry"]["coordinates"][0])


def test_hungary_without_its_metadata_computes_the_built_borders_labels_and_view(tmp_path):
    built = load_builtin_map("hungary")
    raw = json.loads(built.source_path.read_text(encoding="utf-8"))
    del raw["triviador"]
    plain = load_quietly(write(tmp_path, raw["features"], name="hungary.geojson"))

    def by_name(game_map):
        names = game_map.board.names
        return {names[t]: {names[n] for n in game_map.board.adjacency[t]} for t in game_map.board.territories}

    assert by_name(plain) == by_name(built)
    assert plain.board.adjacency["Pest"] == {"Nograd", "Heves", "Jasz-Nagykun-Szolnok", "Bacs-Kiskun", "Fejer",
                                             "Komarom-Esztergom"}
    assert sorted(plain.labels.values()) == sorted(built.labels.values())
    assert (plain.bounds, plain.center, plain.zoom) == (built.bounds, built.center, built.zoom)


def test_borders_drawn_separately_still_count(tmp_path):
    """A 50 m gap between two squares drawn by hand is still a border; a 1 km gap is sea."""
    features = grid_features()
    features[1]["geometry"] = polygon(box(WEST + DLON + 0.0007, NORTH - DLAT, WEST + 2 * DLON, NORTH))  # A2, 50 m gap
    features[2]["geometry"] = polygon(box(WEST + 2 * DLON + 0.014, NORTH - DLAT, WEST + 3 * DLON, NORTH))  # A3, 1 km
    game_map = load_quietly(write(tmp_path, features))
    assert game_map.board.borders("A1", "A2") and not game_map.board.borders("A2", "A3")


# --- problems, each with its feature's index and name ---------------------------


def test_a_lone_island_is_an_error_naming_the_nearest_territory(tmp_path):
    assert problems(write(tmp_path, grid_features() + [ISLAND])) == [
        'features[9] "Island": borders no other territory and has no link (nearest: "B3", 99 km away)'
    ]


@pytest.mark.parametrize("link", [("Island", "B3"), ["B3", "Island", "ferry"], ("island", "b3")])
def test_a_link_makes_an_island_legal(tmp_path, link):
    game_map = load_quietly(write(tmp_path, grid_features() + [ISLAND]), links=[link])
    assert game_map.board.adjacency["Island"] == {"B3"}
    assert "Island" in game_map.board.adjacency["B3"]
    assert {frozenset(game_map.links[0][:2])} == {frozenset({"Island", "B3"})}


def test_a_point_contact_is_not_a_border(tmp_path):
    bow_tie = feature("Corner", polygon(box(*cell(3, 3))))  # touches C3 at its south-east corner only
    assert problems(write(tmp_path, grid_features() + [bow_tie])) == [
        'features[9] "Corner": borders no other territory and has no link (nearest: "C3", touches it, but they share less than 1 km of border)'
    ]


def test_a_self_intersecting_polygon_is_repaired_and_says_where(tmp_path):
    """Published files (us-atlas's states, say) have crossings a teacher cannot
    fix: shapely's make_valid repairs them, with a warning that says where."""
    features = grid_features()
    west, south, east, north = cell(1, 1)
    features[4]["geometry"] = polygon([[[west, south], [east, north], [east, south], [west, north], [west, south]]])
    with pytest.warns(MapWarning) as caught:
        game_map = load_map(write(tmp_path, features))
    assert f'{tmp_path / "grid.geojson"}: features[4] "B2": invalid geometry: Self-intersection[19.475 47.025]; ' \
           "repaired with shapely's make_valid (look at the map to see that it is right)" \
           in [str(w.message) for w in caught]
    assert "B2" in game_map.board.names.values()


def test_duplicate_and_missing_names(tmp_path):
    features = grid_features()
    features[8]["properties"]["name"] = "A1"
    features[3]["properties"] = {"name": "  "}
    features[5]["properties"] = None
    assert problems(write(tmp_path, features)) == [
        DUPLICATE_A1,
        "features[3] (no name): missing properties.name (the territory's name)",
        "features[5] (no name): missing properties.name (the territory's name)",
    ]


def test_no_name_property_at_all_lists_the_properties_found(tmp_path):
    features = [feature(f"{r}{c}", polygon(box(*cell(ri, ci))), "NAME_1", ISO="HU")
                for ri, r in enumerate(ROWS) for ci, c in enumerate(COLS)]
    assert problems(write(tmp_path, features)) == [
        "no territory names: no feature has a 'name', 'NAME', 'Name', 'name_en' property; say which property names the "
        "territories (name_property=..., --name-property); properties found: ISO, NAME_1"
    ]
    assert len(load_quietly(write(tmp_path, features), name_property="NAME_1").board) == 9


def test_a_line_a_point_and_a_missing_geometry(tmp_path):
    features = grid_features() + [
        feature("Road", {"type": "LineString", "coordinates": [[19.0, 47.0], [19.5, 47.5]]}),
        feature("Town", {"type": "Point", "coordinates": [19.0, 47.0]}),
        feature("Nothing", None),
        {"type": "Banana"},
    ]
    assert problems(write(tmp_path, features)) == [
        'features[9] "Road": geometry must be a Polygon or MultiPolygon, not LineString',
        'features[10] "Town": geometry must be a Polygon or MultiPolygon, not Point',
        'features[11] "Nothing": geometry must be a Polygon or MultiPolygon, not None',
        'features[12] (no name): not a GeoJSON Feature (needs "type": "Feature")',
    ]


def test_projected_coordinates_are_an_error(tmp_path):
    features = grid_features()
    features[0]["geometry"] = polygon(box(2_100_000, 5_900_000, 2_150_000, 5_950_000))
    assert problems(write(tmp_path, features)) == [
        'features[0] "A1": coordinates are not longitude/latitude degrees (bounds 2.1e+06, 5.9e+06, 2.15e+06, '
        "5.95e+06); save the map in WGS 84 (EPSG:4326)"
    ]


def test_links_naming_unknown_territories(tmp_path):
    path = write(tmp_path, grid_features() + [ISLAND])
    assert problems(path, links=[("Island", "Atlantis"), ("B3", "B3"), ("Island",), "B3-Island"]) == [
        'features[9] "Island": borders no other territory and has no link (nearest: "B3", 99 km away)',
        'links[0] ("Island", "Atlantis"): unknown territory "Atlantis" (not a territory name or id)',
        'links[1] ("B3", "B3"): links a territory to itself',
        "links[2]: a link is a pair of territory names or ids (optionally with a note), not ('Island',)",
        "links[3]: a link is a pair of territory names or ids (optionally with a note), not 'B3-Island'",
    ]


def test_a_link_between_neighbours_is_a_warning(tmp_path):
    game_map = load_quietly(write(tmp_path, grid_features()), links=[("A1", "A2")])
    assert game_map.warnings == ('links[0] ("A1", "A2"): "A1" and "A2" already border each other', NINE_WARNING)
    assert game_map.links == ()


def test_two_islands_bordering_each_other_but_nothing_else(tmp_path):
    pair = [feature("East", polygon(box(*cell(1, 5)))), feature("Far East", polygon(box(*cell(1, 6))))]
    assert problems(write(tmp_path, grid_features() + pair)) == [
        'the territories fall apart into 2 groups that neither border nor link each other ("A1", "A2", "A3", '
        '"B1" and 5 more; "East", "Far East"); link the groups (links=..., --link A=B); the nearest pairs to '
        'link: "East" and "C3" (99 km)'
    ]


def test_too_few_territories_for_non_adjacent_bases(tmp_path):
    row = [feature(c, polygon(box(*cell(0, i)))) for i, c in enumerate("XYZ")]
    path = write(tmp_path, row)
    assert problems(path) == [
        "too few territories for 3 players: there are no 3 mutually non-adjacent territories, "
        "and bases must not border each other (D15)"
    ]
    assert load_quietly(path, players=2).board.independent_sets(2) == [("X", "Z")]


def test_every_problem_at_once(tmp_path):
    features = grid_features()
    west, south, east, north = cell(1, 1)
    features[4]["geometry"] = polygon([[[west, south], [east, north], [east, south], [west, north], [west, south]]])
    features[8]["properties"]["name"] = "A1"
    features[3]["properties"] = {}
    features += [ISLAND, feature("Road", {"type": "LineString", "coordinates": [[19.0, 47.0], [19.5, 47.5]]})]
    found = problems(write(tmp_path, features), links=[("Road", "Atlantis")])
    assert found == [
        DUPLICATE_A1,
        "features[3] (no name): missing properties.name (the territory's name)",
        'features[9] "Island": borders no other territory and has no link (nearest: "B3", 99 km away)',
        'features[10] "Road": geometry must be a Polygon or MultiPolygon, not LineString',
        'links[0] ("Road", "Atlantis"): unknown territory "Atlantis" (not a territory name or id)',
    ]
    with pytest.raises(MapError, match=r"grid\.geojson: 5 problems:\n  duplicate name: \"A1\""):
        load_quietly(write(tmp_path, features), links=[("Road", "Atlantis")])


@pytest.mark.parametrize("data, message", [
    ({"type": "Feature"}, "not a GeoJSON FeatureCollection"),
    ({"type": "FeatureCollection", "features": []}, '"features" must be a non-empty list'),
    ([1, 2], "not a GeoJSON FeatureCollection"),
])
def test_not_a_collection(tmp_path, data, message):
    path = tmp_path / "x.geojson"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(MapError, match=message):
        load_map(path)


def test_players_must_be_positive(tmp_path):
    with pytest.raises(ValueError, match="players must be a whole number of at least 1"):
        load_map(write(tmp_path, grid_features()), players=0)


def test_check_map_returns_problems_without_raising_or_warning(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check = check_map(write(tmp_path, grid_features() + [ISLAND]))
    assert not check.ok and check.game_map is None and check.computed
    assert check.errors[0].startswith('features[9] "Island"')
    assert check.warnings == ("10 territories; the built-in rule sets are made for 15 or 19 (D15), "
                              "other counts play but rounds may run uneven",)


# --- built maps: sea links and extra links ------------------------------------------


def hungary_raw() -> dict:
    return json.loads(load_builtin_map("hungary").source_path.read_text(encoding="utf-8"))


def index_of(data: dict, territory: str) -> int:
    return next(i for i, f in enumerate(data["features"]) if f["id"] == territory)


def add_neighbours(data: dict, a: str, b: str) -> None:
    data["features"][index_of(data, a)]["properties"]["neighbours"].append(b)
    data["features"][index_of(data, b)]["properties"]["neighbours"].append(a)


def test_a_built_map_with_stored_links_loads_them(tmp_path):
    data = hungary_raw()
    add_neighbours(data, "HU-ZA", "HU-BA")
    data["triviador"]["links"] = [["HU-BA", "HU-ZA", "ferry over the Drava"]]
    data["triviador"]["anything_else"] = {"ignored": True}
    game_map = load_map(write(tmp_path, data["features"], name="h.geojson", triviador=data["triviador"]))
    assert game_map.links == (("HU-BA", "HU-ZA", "ferry over the Drava"),)
    assert game_map.board.borders("HU-ZA", "HU-BA")


def test_stored_links_are_checked(tmp_path):
    data = hungary_raw()
    data["triviador"]["links"] = [["HU-BA", "HU-ZA", "not in neighbours"], ["HU-XX", "HU-BA"], "HU-BA"]
    with pytest.raises(MapError) as caught:
        load_map(write(tmp_path, data["features"], name="h.geojson", triviador=data["triviador"]))
    assert caught.value.problems == [
        "\"triviador.links[0]\": 'HU-BA' and 'HU-ZA' must list each other in properties.neighbours",
        "\"triviador.links[1]\": 'HU-XX' is not a territory id",
        "\"triviador.links[2]\" must be [id_a, id_b, note], not 'HU-BA'",
    ]


def test_extra_links_on_a_built_map_by_name_or_id(tmp_path):
    path = load_builtin_map("hungary").source_path
    game_map = load_map(path, links=[("Zala", "HU-BA", "bridge")])
    assert game_map.board.borders("HU-BA", "HU-ZA") and game_map.links == (("HU-ZA", "HU-BA", "bridge"),)
    with pytest.raises(MapError, match=r'links\[0\] \("Zala", "Atlantis"\): unknown territory "Atlantis"'):
        load_map(path, links=[("Zala", "Atlantis")])


def test_built_maps_load_without_shapely_work(monkeypatch):
    """The fast path: a built map never reaches the shapely code."""
    import triviador_nb.maps.teachers as custom

    def boom(*args, **kwargs):
        raise AssertionError("shapely path used for a built map")

    monkeypatch.setattr(custom, "check_plain_collection", boom)
    assert len(load_builtin_map("hungary").board) == 19


# --- the command line ------------------------------------------------------------


def test_cli_check_a_good_map_prints_warnings_and_ok(tmp_path, capsys):
    path = write(tmp_path, grid_features() + [ISLAND])
    assert main(["maps", "check", str(path), "--link", "Island=B3"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: warning: 10 territories; the built-in rule sets are made for 15 or 19 (D15), "
        "other counts play but rounds may run uneven",
        f"{path}: OK, 10 territories, 12 borders, 1 link, 1 warning",
        f"{path}: the map lies around 47.0°N 20.4°E (if it belongs around 20.4°N 47.0°E, its latitudes and "
        "longitudes are swapped: fix the file)",
        f"{path}: to draw: 10 territories, 50 points, 1 KB of outlines (simplified)",
    ]
    assert main(["maps", "check", str(path), "--link", "Island", "B3"]) == 0  # the two names: as before


def test_cli_check_prints_one_problem_a_line_and_exits_1(tmp_path, capsys):
    features = grid_features()
    features[8]["properties"]["name"] = "A1"
    path = write(tmp_path, features + [ISLAND])
    assert main(["maps", "check", str(path), "--players", "2"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: {DUPLICATE_A1}",
        f'{path}: features[9] "Island": borders no other territory and has no link (nearest: "B3", 99 km away)',
        f"{path}: warning: 10 territories; the built-in rule sets are made for 15 or 19 (D15), "
        "other counts play but rounds may run uneven",
        f"{path}: 2 errors, 1 warning",
    ]


def test_cli_check_name_property_and_players(tmp_path, capsys):
    row = [feature(c, polygon(box(*cell(0, i))), "nom") for i, c in enumerate("XYZ")]
    path = write(tmp_path, row)
    assert main(["maps", "check", str(path), "--name-property", "nom", "--players", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[-3] == f"{path}: OK, 3 territories, 2 borders, 0 links, 1 warning"
    assert main(["maps", "check", str(path), "--name-property", "nom"]) == 1
    assert "too few territories for 3 players" in capsys.readouterr().out


def test_cli_check_a_built_map(capsys):
    path = str(load_builtin_map("hungary").source_path)
    assert main(["maps", "check", path]) == 0
    assert capsys.readouterr().out == (f"{path}: OK, 19 territories, 40 borders, 0 links\n"
                                       f"{path}: to draw: 19 territories, 2,298 points, 44 KB of outlines\n")


def test_cli_check_a_broken_json_file_exits_1(tmp_path, capsys):
    path = tmp_path / "x.geojson"
    path.write_text("{nope", encoding="utf-8")
    assert main(["maps", "check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{path}: not a UTF-8 JSON file (") and out[1] == f"{path}: 1 error, 0 warnings"


@pytest.mark.parametrize("args", [
    ["maps", "check"],
    ["maps", "check", "x.geojson", "--players", "0"],
    ["maps", "check", "x.geojson", "--link", "A"],
    ["maps"],
])
def test_cli_usage_errors_exit_2(args, capsys):
    assert main(args) == 2
    assert "usage:" in capsys.readouterr().err


def test_cli_missing_file_exits_2(tmp_path, capsys):
    missing = tmp_path / "nope.geojson"
    assert main(["maps", "check", str(missing)]) == 2
    assert capsys.readouterr().err == f"triviador-nb: error: cannot read {missing}: No such file or directory\n"


def test_cli_list_shows_every_builtin_map(capsys):
    assert main(["maps", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["NAME", "TITLE", "TERRITORIES", "SIZE"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert rows["hungary"].split() == ["hungary", "Hungary", "19", rows["hungary"].split()[-2], "KB"]
    size = load_builtin_map("hungary").source_path.stat().st_size / 1024
    assert rows["hungary"].endswith(f"{size:.1f} KB")
    assert len(rows) == len(lines) - 1 >= 2
