"""The built-in Hungary map (maps/hungary.geojson) and the map loader."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from triviador_nb.maps import MapError, builtin_map_names, load_builtin_map, load_map

REPO = Path(__file__).resolve().parents[1]
MAP_FILE = REPO / "maps" / "hungary.geojson"

COUNTIES = {
    "HU-BA": "Baranya",
    "HU-BE": "Békés",
    "HU-BK": "Bács-Kiskun",
    "HU-BZ": "Borsod-Abaúj-Zemplén",
    "HU-CS": "Csongrád-Csanád",
    "HU-FE": "Fejér",
    "HU-GS": "Győr-Moson-Sopron",
    "HU-HB": "Hajdú-Bihar",
    "HU-HE": "Heves",
    "HU-JN": "Jász-Nagykun-Szolnok",
    "HU-KE": "Komárom-Esztergom",
    "HU-NO": "Nógrád",
    "HU-PE": "Pest",
    "HU-SO": "Somogy",
    "HU-SZ": "Szabolcs-Szatmár-Bereg",
    "HU-TO": "Tolna",
    "HU-VA": "Vas",
    "HU-VE": "Veszprém",
    "HU-ZA": "Zala",
}


@pytest.fixture(scope="module")
def hungary():
    return load_builtin_map("hungary")


@pytest.fixture
def raw():
    """A fresh, mutable copy of the Hungary map file's JSON."""
    return json.loads(MAP_FILE.read_text(encoding="utf-8"))


def write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "broken.geojson"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def feature_index(data: dict, territory: str) -> int:
    return next(i for i, f in enumerate(data["features"]) if f["id"] == territory)


# --- the shipped map ---------------------------------------------------------


def test_builtin_names_include_hungary():
    assert "hungary" in builtin_map_names()


def test_nineteen_counties_with_exact_names(hungary):
    assert dict(hungary.board.names) == COUNTIES
    assert hungary.board.name == "hungary"
    assert hungary.title == "Hungary"


def test_english_names_match_hungarian(hungary):
    assert {t: f["properties"]["name_en"] for t, f in hungary.features.items()} == COUNTIES


def test_view_metadata(hungary):
    (south, west), (north, east) = hungary.bounds
    assert 45.7 < south < 45.8 and 48.5 < north < 48.6
    assert 16.0 < west < 16.2 and 22.8 < east < 22.95
    assert south < hungary.center[0] < north and west < hungary.center[1] < east
    assert hungary.zoom == 7


def test_neighbour_lists_sorted_in_file(hungary):
    for feature in hungary.features.values():
        assert feature["properties"]["neighbours"] == sorted(feature["properties"]["neighbours"])


def test_pest_neighbours(hungary):
    assert hungary.board.adjacency["HU-PE"] == {"HU-NO", "HU-HE", "HU-JN", "HU-BK", "HU-FE", "HU-KE"}
    assert not hungary.board.borders("HU-PE", "HU-BA")


@pytest.mark.parametrize(
    ("territory", "expected"),
    [
        ("HU-ZA", {"HU-VA", "HU-VE", "HU-SO"}),
        ("HU-BA", {"HU-SO", "HU-TO", "HU-BK"}),
        ("HU-SZ", {"HU-BZ", "HU-HB"}),
        ("HU-CS", {"HU-BK", "HU-JN", "HU-BE"}),
        ("HU-GS", {"HU-VA", "HU-VE", "HU-KE"}),
        ("HU-BE", {"HU-CS", "HU-JN", "HU-HB"}),
    ],
)
def test_known_borders(hungary, territory, expected):
    assert hungary.board.adjacency[territory] == expected


@pytest.mark.parametrize(
    ("a", "b"), [("HU-VA", "HU-SO"), ("HU-HE", "HU-HB"), ("HU-TO", "HU-VE"), ("HU-SZ", "HU-JN")]
)
def test_known_non_borders(hungary, a, b):
    assert not hungary.board.borders(a, b)


# --- loader errors -----------------------------------------------------------


def test_unknown_builtin_lists_known_names():
    with pytest.raises(MapError, match=r"unknown built-in map 'atlantis'; known maps: .*hungary"):
        load_builtin_map("atlantis")


def test_not_a_feature_collection(tmp_path):
    with pytest.raises(MapError, match="not a GeoJSON FeatureCollection"):
        load_map(write(tmp_path, {"type": "Feature"}))


def test_not_json(tmp_path):
    path = tmp_path / "x.geojson"
    path.write_text("{nope", encoding="utf-8")
    with pytest.raises(MapError, match="not a UTF-8 JSON file"):
        load_map(path)


def test_reports_every_problem_with_index_and_name(tmp_path, raw):
    pest, nograd, vas = (feature_index(raw, t) for t in ("HU-PE", "HU-NO", "HU-VA"))
    zala, somogy, heves = (feature_index(raw, t) for t in ("HU-ZA", "HU-SO", "HU-HE"))
    del raw["features"][pest]["properties"]["label"]
    raw["features"][nograd]["properties"]["neighbours"].append("HU-XX")
    raw["features"][vas]["geometry"] = {"type": "Point", "coordinates": [16.8, 47.2]}
    raw["features"][zala]["properties"]["neighbours"].remove("HU-SO")  # Somogy still lists Zala
    raw["features"][heves]["properties"]["name"] = ""
    with pytest.raises(MapError) as caught:
        load_map(write(tmp_path, raw))
    assert sorted(caught.value.problems) == sorted(
        [
            f'features[{pest}] "Pest": properties.label missing or not [lat, lon] in degrees',
            f"features[{nograd}] \"Nógrád\": neighbour 'HU-XX' is not a territory id",
            f'features[{vas}] "Vas": geometry must be a Polygon or MultiPolygon, not Point',
            f"features[{somogy}] \"Somogy\": borders 'HU-ZA' "
            f"but features[{zala}] \"Zala\" does not list 'HU-SO'",
            f"features[{heves}] (no name): missing properties.name (a non-empty string)",
        ]
    )
    assert f'features[{pest}] "Pest"' in str(caught.value)


def test_missing_id(tmp_path, raw):
    baranya = feature_index(raw, "HU-BA")
    del raw["features"][baranya]["id"]
    with pytest.raises(MapError) as caught:
        load_map(write(tmp_path, raw))
    assert f'features[{baranya}] "Baranya": missing "id" (a non-empty string)' in caught.value.problems


def test_duplicate_id(tmp_path, raw):
    copied = copy.deepcopy(raw["features"][feature_index(raw, "HU-PE")])
    copied["properties"]["name"] = "Pest again"
    raw["features"].append(copied)
    raw["triviador"]["territory_count"] = len(raw["features"])
    with pytest.raises(MapError) as caught:
        load_map(write(tmp_path, raw))
    last, first = len(raw["features"]) - 1, feature_index(raw, "HU-PE")
    assert caught.value.problems == [
        f'features[{last}] "Pest again": duplicate id \'HU-PE\' (also features[{first}] "Pest")'
    ]


def test_missing_metadata(tmp_path, raw):
    raw["triviador"] = None  # without the member at all it is a teacher's map (tests/test_custom_maps.py)
    with pytest.raises(MapError, match='missing top-level "triviador" object'):
        load_map(write(tmp_path, raw))


def test_valid_copy_loads(tmp_path, raw):
    assert load_map(write(tmp_path, raw)).board.adjacency == load_builtin_map("hungary").board.adjacency


# --- reproducible build --------------------------------------------------------


