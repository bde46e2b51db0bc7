"""The built-in 15-territory Hungary map (maps/hungary15.geojson).

Hungary's 19 counties with four pairs of small neighbouring counties merged
(tools/map_build/hungary15.json), for rule sets with a 15-territory table
(Duel). Checked against the 19-county map wherever the two must agree.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest
from fixture_data import synthetic_bank

from triviador_nb.engine import CONQUIZTADOR, Game
from triviador_nb.engine.rules import DUEL
from triviador_nb.maps import builtin_map_names, load_builtin_map

REPO = Path(__file__).resolve().parents[1]
MAP_FILE = REPO / "maps" / "hungary15.geojson"
TABLES = REPO / "tools" / "map_build"

MERGED = {
    "HU-KE-FE": ("Komárom-Esztergom – Fejér", ("HU-KE", "HU-FE")),
    "HU-NO-HE": ("Nógrád – Heves", ("HU-NO", "HU-HE")),
    "HU-TO-BA": ("Tolna – Baranya", ("HU-TO", "HU-BA")),
    "HU-VA-ZA": ("Vas – Zala", ("HU-VA", "HU-ZA")),
}
UNMERGED = {
    "HU-BE": "Békés",
    "HU-BK": "Bács-Kiskun",
    "HU-BZ": "Borsod-Abaúj-Zemplén",
    "HU-CS": "Csongrád-Csanád",
    "HU-GS": "Győr-Moson-Sopron",
    "HU-HB": "Hajdú-Bihar",
    "HU-JN": "Jász-Nagykun-Szolnok",
    "HU-PE": "Pest",
    "HU-SO": "Somogy",
    "HU-SZ": "Szabolcs-Szatmár-Bereg",
    "HU-VE": "Veszprém",
}
NAMES = {**UNMERGED, **{t: name for t, (name, _) in MERGED.items()}}
PART_OF = {county: t for t, (_, counties) in MERGED.items() for county in counties}


@pytest.fixture(scope="module")
def hungary15():
    return load_builtin_map("hungary15")


@pytest.fixture(scope="module")
def hungary19():
    return load_builtin_map("hungary")


@pytest.fixture(scope="module")
def shapes(hungary15):
    """Territory id -> shapely geometry (shapely is a build/test dependency only)."""
    geometry = pytest.importorskip("shapely.geometry")
    return {t: geometry.shape(f["geometry"]) for t, f in hungary15.features.items()}


def read_table(name: str) -> dict:
    return json.loads((TABLES / f"{name}.json").read_text(encoding="utf-8"))


# --- names and metadata --------------------------------------------------------


def test_builtin_names_list_both_hungary_maps():
    names = builtin_map_names()
    assert "hungary" in names
    assert "hungary15" in names


def test_fifteen_territories_with_exact_names(hungary15):
    assert len(hungary15.board) == 15
    assert dict(hungary15.board.names) == NAMES
    assert hungary15.board.name == "hungary15"
    assert hungary15.title == "Hungary (15 regions)"


def test_english_names_match_hungarian(hungary15):
    assert {t: f["properties"]["name_en"] for t, f in hungary15.features.items()} == NAMES


def test_merged_names_join_county_names_with_en_dash(hungary19):
    for territory, (name, counties) in MERGED.items():
        assert name == " – ".join(hungary19.board.names[c] for c in counties)
        assert territory == "HU-" + "-".join(c.removeprefix("HU-") for c in counties)


def test_unmerged_territories_keep_county_ids_and_names(hungary15, hungary19):
    for territory, name in UNMERGED.items():
        assert hungary15.board.names[territory] == hungary19.board.names[territory] == name


def test_metadata(hungary15, hungary19):
    meta = json.loads(MAP_FILE.read_text(encoding="utf-8"))["triviador"]
    assert meta["name"] == "hungary15"
    assert meta["territory_count"] == 15
    assert hungary15.bounds == hungary19.bounds
    assert hungary15.center == hungary19.center
    assert hungary15.zoom == hungary19.zoom == 7


# --- the grouping table ----------------------------------------------------------


def test_table_merges_the_units_of_the_19_county_table():
    """Same source units and source names as hungary.json; a merged territory has its counties' units."""
    units19 = {t: spec["units"] for t, spec in read_table("hungary")["territories"].items()}
    units15 = {t: spec["units"] for t, spec in read_table("hungary15")["territories"].items()}
    for territory in UNMERGED:
        assert units15[territory] == units19[territory], territory
    for territory, (_, counties) in MERGED.items():
        assert units15[territory] == {u: n for c in counties for u, n in units19[c].items()}, territory
    assert set(units15) == set(NAMES)


# --- geometry ------------------------------------------------------------------------


def test_geometries_valid_and_each_territory_one_piece(shapes):
    for territory, shape in shapes.items():
        assert shape.geom_type == "Polygon", territory  # merged counties form one connected area
        assert shape.is_valid, territory


def test_merged_territories_cover_their_counties(hungary19, shapes):
    """Each territory is (up to simplification) the union of its counties on the 19-county map."""
    shapely = pytest.importorskip("shapely")
    from shapely.geometry import shape

    for territory, geometry in shapes.items():
        counties = MERGED[territory][1] if territory in MERGED else (territory,)
        union = shapely.unary_union([shape(hungary19.features[c]["geometry"]) for c in counties])
        assert geometry.symmetric_difference(union).area < 1e-3 * geometry.area, territory


# --- adjacency -------------------------------------------------------------------------


def test_neighbour_lists_sorted_in_file(hungary15):
    for feature in hungary15.features.values():
        assert feature["properties"]["neighbours"] == sorted(feature["properties"]["neighbours"])


@pytest.mark.parametrize(
    ("territory", "expected"),
    [
        # Komárom-Esztergom {FE, GS, PE, VE} + Fejér {BK, KE, PE, SO, TO, VE}, Tolna merged into HU-TO-BA
        ("HU-KE-FE", {"HU-BK", "HU-GS", "HU-PE", "HU-SO", "HU-TO-BA", "HU-VE"}),
        # Nógrád {BZ, HE, PE} + Heves {BZ, JN, NO, PE}
        ("HU-NO-HE", {"HU-BZ", "HU-JN", "HU-PE"}),
        # Tolna {BA, BK, FE, SO} + Baranya {BK, SO, TO}, Fejér merged into HU-KE-FE
        ("HU-TO-BA", {"HU-BK", "HU-KE-FE", "HU-SO"}),
        # Vas {GS, VE, ZA} + Zala {SO, VA, VE}
        ("HU-VA-ZA", {"HU-GS", "HU-SO", "HU-VE"}),
        # unmerged counties see the merged territories in place of their parts
        ("HU-PE", {"HU-BK", "HU-JN", "HU-KE-FE", "HU-NO-HE"}),
        ("HU-SO", {"HU-KE-FE", "HU-TO-BA", "HU-VA-ZA", "HU-VE"}),
        ("HU-CS", {"HU-BE", "HU-BK", "HU-JN"}),
        ("HU-SZ", {"HU-BZ", "HU-HB"}),
    ],
)
def test_known_borders(hungary15, territory, expected):
    assert hungary15.board.adjacency[territory] == expected


def test_adjacency_is_the_19_county_adjacency_with_counties_merged(hungary15, hungary19):
    """A territory borders exactly the union of its parts' neighbours, minus its own parts."""
    for territory in NAMES:
        parts = MERGED[territory][1] if territory in MERGED else (territory,)
        neighbours = set().union(*(hungary19.board.adjacency[p] for p in parts)) - set(parts)
        assert hungary15.board.adjacency[territory] == {PART_OF.get(n, n) for n in neighbours}, territory


# --- bases ---------------------------------------------------------------------------------


def test_three_mutually_non_adjacent_territories_exist(hungary15):
    board = hungary15.board
    independent = board.independent_sets(3)
    assert len(independent) >= 10
    for triple in independent:
        assert not any(board.borders(a, b) for a, b in combinations(triple, 2)), triple


@pytest.mark.parametrize(
    "bases",
    [
        ("HU-SZ", "HU-VA-ZA", "HU-TO-BA"),  # north-east, west, south
        ("HU-GS", "HU-CS", "HU-NO-HE"),  # merged and unmerged mixed
        ("HU-BE", "HU-PE", "HU-SO"),  # all unmerged
    ],
)
def test_hand_picked_separate_bases(hungary15, bases):
    board = hungary15.board
    assert not any(board.borders(a, b) for a, b in combinations(bases, 2))
    game = Game(CONQUIZTADOR, board, synthetic_bank(), seed=0, bases=bases)
    assert [t for t, s in game.territories.items() if s.is_base] == sorted(bases, key=board.territories.index)


@pytest.mark.parametrize("rules", [DUEL, CONQUIZTADOR], ids=lambda r: r.name)
def test_games_draw_separate_bases(hungary15, rules):
    for seed in range(20):
        game = Game(rules, hungary15.board, synthetic_bank(), seed=seed)
        bases = [t for t, s in game.territories.items() if s.is_base]
        assert len(bases) == rules.players
        assert not any(hungary15.board.borders(a, b) for a, b in combinations(bases, 2))


def test_duel_uses_its_15_territory_pick_table(hungary15):
    expansion = DUEL.expansion[0]
    picks = [len(expansion.sequence(r, len(hungary15.board))) for r in range(3)]
    assert picks == [len(s) for s in expansion.by_territories[15]]
    assert sum(picks) + DUEL.players == 15  # the table fills the map exactly


# --- reproducible build -------------------------------------------------------------------


