"""Teachers' real map files, round two (issue 25, "Maps"): each published file
that crashed, was refused or loaded wrongly, built small here in the shape
that file has, now gives a map or a message that says what to do.

The maps are the 3 x 3 grid of ``test_teacher_maps`` (squares of 0.3 x 0.2
degrees at 7E 47N named ``R<row>C<col>``), changed the way the file was.
"""

from __future__ import annotations

import json
import math
import unicodedata

import pytest
import shapely
from shapely.geometry import shape

from test_teacher_maps import NINE, checked, collection, feature, grid, polygon, square
from triviador_nb.cli import main

R1C1 = 4  # the middle square's feature index


def in_r1c1(x: float, y: float) -> list[float]:
    """A point of R1C1 (7.3-7.6E, 47.0-47.2N) given in that square's own units (0-1 each way)."""
    return [round(7.3 + x * 0.3, 9), round(47.0 + y * 0.2, 9)]


# --- us-atlas counties through topo2geo: parts collapsed to a point --------------------


def test_a_part_collapsed_to_a_point_is_left_out_with_a_warning(tmp_path):
    """us-atlas's counties: quantizing collapsed some islands to one point; together with an
    outline that crosses itself, GEOS's make_valid raised "mixed-dimension" (a fault report)."""
    features = grid()
    collapsed = [[in_r1c1(0, 1)] * 4]
    crossing = [[in_r1c1(*p) for p in [(0.5, 0.5), (0.5, 0), (1, 0), (2, 2), (0.5, 1), (0.5, 0.5)]],
                [in_r1c1(*p) for p in [(2, 2), (0.5, 0), (1, 1), (2, 2)]]]
    features[R1C1]["geometry"] = {"type": "MultiPolygon", "coordinates": [collapsed, crossing]}
    with pytest.raises(shapely.errors.GEOSException, match="mixed-dimension"):  # the input is the failing one
        shapely.make_valid(shape(features[R1C1]["geometry"]))

    check = checked(tmp_path, collection(features))

    assert check.ok, check.errors
    assert check.warnings[0] == ('features[4] "R1C1": a part of its outline collapsed to a point or a line (at 7.3 '
                                 "47.2) and was left out: it has no area")
    assert check.warnings[1].startswith('features[4] "R1C1": invalid geometry: Interior is disconnected')


def test_several_collapsed_parts_and_a_collapsed_hole_are_one_warning(tmp_path):
    features = grid()
    outline = square(7.3, 47.0, 7.6, 47.2)[0]
    hole = [in_r1c1(0.5, 0.5), in_r1c1(0.6, 0.6), in_r1c1(0.5, 0.5), in_r1c1(0.6, 0.6)]  # a line
    features[R1C1]["geometry"] = {"type": "MultiPolygon", "coordinates": [
        [outline, hole], [[in_r1c1(0.2, 0.2)] * 4], [[in_r1c1(0.8, 0.8)] * 4]]}

    check = checked(tmp_path, collection(features))

    assert check.ok, check.errors
    assert check.warnings == (
        'features[4] "R1C1": 3 parts of its outline collapsed to a point or a line (the first at 7.45 47.1) and '
        "were left out: they have no area", NINE)
    assert check.game_map.features["R1C1"]["geometry"]["type"] == "Polygon"


def test_an_outline_that_collapsed_whole_is_still_an_error(tmp_path):
    features = grid()
    features[R1C1]["geometry"] = polygon([[in_r1c1(0.5, 0.5)] * 4])

    assert checked(tmp_path, collection(features)).errors[0] == (
        'features[4] "R1C1": invalid geometry: Too few points in geometry component[7.45 47.1]')


# --- India (2019): features with an empty MultiPolygon -----------------------------------


def test_features_with_an_empty_geometry_are_left_out_with_a_warning(tmp_path):
    """RFC 7946 allows empty coordinates; India's 2019 file has 6 such features."""
    empty = [feature("Ladakh", {"type": "MultiPolygon", "coordinates": []}),
             feature("Lakshadweep", {"type": "Polygon", "coordinates": []}),
             feature(None, {"type": "MultiPolygon", "coordinates": [[]]})]

    check = checked(tmp_path, collection(grid() + empty))

    assert check.ok, check.errors
    assert check.warnings == (
        'features[9] "Ladakh": empty MultiPolygon (no outline, as GeoJSON allows): left out of the map',
        'features[10] "Lakshadweep": empty Polygon (no outline, as GeoJSON allows): left out of the map',
        "features[11] (no name): empty MultiPolygon (no outline, as GeoJSON allows): left out of the map",
        NINE)
    assert len(check.game_map.board) == 9


def test_a_map_whose_every_outline_is_empty_says_so(tmp_path):
    empty = [feature(f"T{i}", {"type": "MultiPolygon", "coordinates": []}) for i in range(3)]

    assert checked(tmp_path, collection(empty)).errors == (
        "no feature has a Polygon or MultiPolygon geometry (found: 3 empty MultiPolygon); the file has the "
        "territories' data but not their outlines; a map needs each territory's outline as a Polygon or "
        "MultiPolygon: export the map again with its geometry",)


# --- small ones ------------------------------------------------------------------------


def test_a_name_property_called_Name_is_found_by_itself(tmp_path):
    features = grid()
    for f in features:
        f["properties"] = {"Name": f["properties"].pop("name"), "Id": 1}

    check = checked(tmp_path, collection(features))

    assert check.ok, check.errors
    assert sorted(check.game_map.board.names.values())[:2] == ["R0C0", "R0C1"]


def test_a_name_property_in_other_letter_cases_is_found(tmp_path):
    features = grid()
    for f in features:
        f["properties"] = {"nAmE": f["properties"].pop("name")}

    assert checked(tmp_path, collection(features)).game_map.board.names["R2C2"] == "R2C2"


def test_a_gap_of_263_metres_reads_in_metres_not_as_0_km(tmp_path):
    # 263 m east of R1C2, as the game measures: in km on a plane at the map's middle latitude (47.1N)
    east = 7.9 + 0.263 / (111.32 * math.cos(math.radians(47.1)))
    island = feature("Islet", polygon(square(round(east, 9), 46.95, round(east + 0.1, 9), 47.05)))

    check = checked(tmp_path, collection(grid() + [island]))

    assert check.errors == ('features[9] "Islet": borders no other territory and has no link (nearest: "R1C2", '
                            "263 m away)",)


def test_groups_apart_name_the_nearest_pair_to_link(tmp_path):
    """amCharts' island groups: two islands bordering each other and nothing else."""
    islands = [feature("North Isle", polygon(square(8.5, 47.25, 8.8, 47.45))),  # 0.6 degrees east of R0C2
               feature("South Isle", polygon(square(8.6, 47.05, 8.9, 47.25)))]  # 0.7 east of R1C2

    check = checked(tmp_path, collection(grid() + islands))

    assert check.errors == (
        'the territories fall apart into 2 groups that neither border nor link each other ("R0C0", "R0C1", '
        '"R0C2", "R1C0" and 5 more; "North Isle", "South Isle"); link the groups (links=..., --link A=B); the '
        'nearest pairs to link: "North Isle" and "R0C2" (45 km)',)
    linked = checked(tmp_path, collection(grid() + islands), links=[("North Isle", "R0C2")])
    assert linked.ok, linked.errors


def test_names_in_two_unicode_forms_are_shown_with_their_code_points(tmp_path):
    """"Genève" and "Genève": the same letters, one with è (NFC), one with e and a combining grave (NFD)."""
    features = grid()
    features[0]["properties"]["name"] = unicodedata.normalize("NFC", "Genève")
    features[1]["properties"]["name"] = unicodedata.normalize("NFD", "Genève")

    check = checked(tmp_path, collection(features))

    assert check.warnings[0] == (
        'names that differ only in case, accents or spacing: "Gen\u00e8ve" (\u00e8 = U+00E8, NFC) and '
        '"Gene\u0300ve" (e\u0300 = U+0065 U+0300, NFD); they stay different territories, and a link must name '
        "one of them exactly")


# --- the command line's --link ----------------------------------------------------------


@pytest.mark.parametrize("words, links", [
    (["A=B", "C=D"], [("A", "B"), ("C", "D")]),  # the form the help shows: two links
    (["Isle of Wight=Hampshire", "Kent=Essex"], [("Isle of Wight", "Hampshire"), ("Kent", "Essex")]),  # quoted
    (["Isle", "of", "Wight=Hampshire"], [("Isle of Wight", "Hampshire")]),  # one link, names unquoted
    (["Isle", "of", "Wight", "=", "Hampshire"], [("Isle of Wight", "Hampshire")]),
    (["A", "B"], [("A", "B")]),
])
def test_link_words_are_read_as_the_help_shows(words, links):
    from triviador_nb.cli import build_parser

    args = build_parser().parse_args(["simulate", "--link", *words, "--link", "X=Y"])

    assert args.link == [*links, ("X", "Y")]


def test_links_in_one_option_that_cannot_be_split_say_how_to_write_them(capsys):
    assert main(["simulate", "--link", "Isle", "of", "Wight=Hampshire", "Kent=Essex"]) == 2
    assert ("--link 'Isle of Wight=Hampshire Kent=Essex': give each link as A=B, e.g. --link A=B C=D, and quote a "
            'name of several words: --link "Isle of Wight=Hampshire"') in capsys.readouterr().err


def test_two_links_in_one_option_make_a_map_load(tmp_path, capsys):
    islands = [feature("Isle A", polygon(square(8.5, 47.25, 8.8, 47.45))),
               feature("Isle B", polygon(square(8.5, 46.8, 8.8, 47.0)))]
    path = tmp_path / "map.geojson"
    path.write_text(json.dumps(collection(grid() + islands)), encoding="utf-8")

    assert main(["maps", "check", str(path), "--link", "Isle A=R0C2", "Isle B=R2C2"]) == 0
    assert f"{path}: OK, 11 territories, 12 borders, 2 links, 1 warning" in capsys.readouterr().out
