"""Teachers' real map files, round two (issue 25, "Maps"): each published file
that crashed, was refused or loaded wrongly, built small here in the shape
that file has, now gives a map or a message that says what to do.

The maps are the 3 x 3 grid of ``test_teacher_maps`` (squares of 0.3 x 0.2
degrees at 7E 47N named ``R<row>C<col>``), changed the way the file was.
"""

from __future__ import annotations

import functools
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


def test_a_territory_that_collapsed_whole_is_left_out_with_a_warning(tmp_path):
    """us-atlas's Falls Church (5 square km) is one point at the counties' precision."""
    features = grid() + [feature("Falls Church", polygon([[[7.65, 47.1]] * 4]))]

    check = checked(tmp_path, collection(features))

    assert check.ok, check.errors
    assert check.warnings[0] == ('features[9] "Falls Church": its whole outline collapsed to a point or a line (at '
                                 "7.65 47.1; too small for the file's precision?): left out of the map")
    assert "Falls Church" not in check.game_map.board.names.values()


def test_a_ring_of_three_positions_is_malformed_not_collapsed(tmp_path):
    features = grid()
    features[R1C1]["geometry"] = polygon([[in_r1c1(0, 0), in_r1c1(1, 0), in_r1c1(0, 0)]])

    assert checked(tmp_path, collection(features)).errors[0] == (
        'features[4] "R1C1": invalid geometry: Too few points in geometry component[7.3 47]')


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


# --- Highcharts' map collection: chart units and "hc-transform" ---------------------------------

# Greece's entry in Highcharts' collection has this shape (a PROJ string, then scaled to chart units);
# here a transverse Mercator on 8E for the grid at 7-8E.
HC_TRANSFORM = {"crs": "+proj=tmerc +lat_0=0 +lon_0=8 +k=0.9996 +x_0=500000 +y_0=0 +ellps=GRS80 +units=m +no_defs",
                "scale": 0.008, "jsonres": 15.5, "jsonmarginX": -999, "jsonmarginY": 9851.0,
                "xoffset": 420000.0, "yoffset": 5260000.0}


@functools.lru_cache
def projection(crs: str):
    from pyproj import Transformer

    return Transformer.from_crs("EPSG:4326", crs, always_xy=True)


def to_chart_units(lon: float, lat: float, transform: dict) -> list[float]:
    """Highcharts' transformFromLatLon: projected, turned, scaled and moved to chart units."""
    x, y = projection(transform["crs"]).transform(lon, lat)
    angle = transform.get("rotation", 0.0)
    x, y = x * math.cos(angle) + y * math.sin(angle), -x * math.sin(angle) + y * math.cos(angle)
    t = {"xpan": 0.0, "ypan": 0.0, **transform}
    return [round(((x - t["xoffset"]) * t["scale"] + t["xpan"]) * t["jsonres"] + t["jsonmarginX"], 3),
            round(-(((t["yoffset"] - y) * t["scale"] + t["ypan"]) * t["jsonres"] - t["jsonmarginY"]), 3)]


def highcharts_map(transform: dict, features: list[dict] | None = None) -> dict:
    features = features or grid()
    for f in features:
        f["geometry"]["coordinates"] = [[to_chart_units(x, y, transform) for x, y in ring]
                                        for ring in f["geometry"]["coordinates"]]
    # like the collection's files: a "crs" naming the projection before the scaling, which is not the units
    return collection(features, title="Grid", crs={"type": "name", "properties": {"name": "EPSG:2100"}},
                      **{"hc-transform": {"default": transform}})


def turned(transform: dict, rotation: float) -> dict:
    """``transform`` turned by ``rotation`` radians, its offsets moved so that the grid stays in the chart."""
    x, y = projection(transform["crs"]).transform(7.0, 47.4)
    rx, ry = x * math.cos(rotation) + y * math.sin(rotation), -x * math.sin(rotation) + y * math.cos(rotation)
    return {**transform, "rotation": rotation, "xoffset": round(rx - 10000), "yoffset": round(ry + 10000)}


@pytest.mark.parametrize("rotation", [0.0, -0.0872664625997])  # Canada's entry turns its map by -5 degrees
def test_a_highcharts_map_is_turned_back_into_longitude_and_latitude(tmp_path, rotation):
    transform = turned(HC_TRANSFORM, rotation)
    data = highcharts_map(transform)
    chart = shapely.total_bounds([shape(f["geometry"]) for f in data["features"]])
    assert -999 < chart[0] < chart[2] < 9851 and -999 < chart[1] < chart[3] < 9851  # chart units, as the files have

    check = checked(tmp_path, data)

    assert check.ok, check.errors
    (south, west), (north, east) = check.game_map.bounds
    assert (south, west, north, east) == pytest.approx((46.8, 7.0, 47.4, 7.9), abs=1e-4)
    assert check.warnings[0] == (
        'a Highcharts map: its chart coordinates were turned into longitude/latitude with its "hc-transform" '
        '("default" for 9 features; projection +proj=tmerc +lat_0=0 +lon_0=8 +k=0.9996 +x_0=500000 +y_0=0 '
        "+ellps=GRS80 +unit...), as Highcharts' transformToLatLon does")


def test_a_highcharts_inset_is_read_with_its_own_transform(tmp_path):
    """France's map draws its overseas regions in insets, each with a hitZone and its own transform."""
    inset = {**HC_TRANSFORM, "yoffset": 5549000.0, "scale": 0.002,
             "hitZone": {"type": "Polygon", "coordinates": [[[-999, -999], [9000, -999], [9000, 0], [-999, 0],
                                                             [-999, -999]]]}}
    islands = [feature("Isle", polygon(square(8.0, 47.0, 8.1, 47.2)))]
    data = highcharts_map(HC_TRANSFORM)
    data["features"] += highcharts_map(inset, islands)["features"]
    data["hc-transform"]["inset"] = inset
    isle = shape(data["features"][-1]["geometry"])
    assert inset["hitZone"]["coordinates"][0][0][1] < isle.bounds[1] < isle.bounds[3] < 0  # drawn in the inset

    check = checked(tmp_path, data, links=[("Isle", "R1C2")])

    assert check.ok, check.errors
    drawn = shape(check.game_map.features["Isle"]["geometry"])
    assert drawn.bounds == pytest.approx((8.0, 47.0, 8.1, 47.2), abs=1e-4)  # where it is, not in the inset
    assert '("default" for 9 features, "inset" for 1 feature;' in check.warnings[0]


@pytest.mark.parametrize("entry, problem", [
    ({"scale": 0.0001}, 'its "hc-transform" entry "default" has no "crs" (the projection, a PROJ string)'),
    ({**HC_TRANSFORM, "scale": "0.0001"}, 'its "hc-transform" entry "default" has "scale": \'0.0001\', not a number'),
    ({**HC_TRANSFORM, "jsonres": 0}, 'its "hc-transform" entry "default" has a "scale" or "jsonres" of 0'),
])
def test_a_highcharts_transform_that_cannot_be_read_says_what_the_file_is(tmp_path, entry, problem):
    data = highcharts_map(HC_TRANSFORM)
    data["hc-transform"] = {"default": entry}

    assert checked(tmp_path, data).errors == (
        'the file is a Highcharts map (its coordinates are chart units, and its "hc-transform" member says how to '
        f"turn them into longitude/latitude), but {problem}; convert the map to GeoJSON in longitude/latitude "
        "(WGS 84) first, e.g. with Highcharts' transformToLatLon, or take the map from a source that gives "
        "longitude/latitude",)


def test_highcharts_india_reads_a_point_of_puducherry_where_yanam_lies():
    """Highcharts' countries/in/in-all.geo.json: its transform, and the first point of Puducherry's
    first part (4132, 2394), which is Yanam, an enclave at about 16.73N 82.21E."""
    from triviador_nb.maps.highcharts import to_lon_lat

    india = {"default": {
        "crs": "+proj=lcc +lat_1=19 +lat_0=19 +lon_0=80 +k_0=0.99878641 +x_0=2743195.592233322 "
               "+y_0=914398.5307444407 +a=6377299.36559538 +b=6356098.359005156 +to_meter=0.9143985307444408 "
               "+no_defs",
        "scale": 0.000208805754963, "jsonres": 15.5, "jsonmarginX": -999, "jsonmarginY": 9851.0,
        "xoffset": 1676654.55745, "yoffset": 3026618.02308}}

    converted = to_lon_lat({0: shapely.Point(4132, 2394)}, india)

    assert shapely.get_coordinates(converted.shapes[0])[0] == pytest.approx((82.2476, 16.6918), abs=1e-4)


# --- a mistyped longitude, and swapped axes that stay within +-90 --------------------------


@pytest.mark.parametrize("point", [0, 1])  # the ring's first (and last) point, or one in the middle
def test_a_longitude_typed_180_degrees_off_is_a_warning_naming_the_feature(tmp_path, point):
    """Swiss cantons with +180 on one point: it loaded as "OK", drawn from 7E to 188E; the first point
    made GEOS raise "side location conflict" (a fault report) when the outline was cut at 180."""
    features = grid()
    ring = features[R1C1]["geometry"]["coordinates"][0]
    ring[point][0] += 180
    ring[-1] = ring[0]

    check = checked(tmp_path, collection(features))

    assert check.ok, check.errors
    spot, km = ("47.0°N 172.7°W", "13,595") if point == 0 else ("47.0°N 172.4°W", "13,617")
    assert check.warnings[0] == (
        f'features[4] "R1C1": part of its outline reaches {spot}, {km} km beyond all the other territories, and '
        "the map is drawn that wide: a mistyped coordinate? (a longitude 180 or 360 degrees off, or a sign left "
        "out); fix it in the file")


def test_a_territory_far_from_all_others_is_a_warning(tmp_path):
    """A sign left out: R2C2 typed at 7.6W instead of 7.6E (it is then also a lone territory). Its nearest
    point is 14.6 degrees of longitude from the others, 1,106 km on the map's plane at 47.1N."""
    features = grid()
    features[8]["geometry"] = polygon(square(-7.9, 46.8, -7.6, 47.0))

    check = checked(tmp_path, collection(features), links=[("R2C2", "R2C1")])

    assert check.ok, check.errors
    assert check.warnings[0] == (
        'features[8] "R2C2": lies 1,106 km beyond all the other territories (at 46.9°N 7.8°W): right for an '
        "overseas region, else a mistyped coordinate; look at the map")


def test_overseas_regions_within_the_others_reach_are_not_far(tmp_path):
    """Like Hawaii beside Alaska and the states: further out than the map is wide is far, nearer is not."""
    features = grid() + [feature("Isle", polygon(square(9.5, 47.0, 9.8, 47.2)))]

    check = checked(tmp_path, collection(features), links=[("Isle", "R1C2")])

    assert check.ok, check.errors
    assert not [w for w in check.warnings if "beyond all the other territories" in w]


def test_swapped_axes_found_by_the_bbox_members_the_features_keep(tmp_path):
    """A script that swapped every pair of "coordinates" left RFC 7946's "bbox" members as they were."""
    features = grid()
    for f in features:
        ring = f["geometry"]["coordinates"][0]
        f["bbox"] = [min(x for x, _ in ring), min(y for _, y in ring), max(x for x, _ in ring),
                     max(y for _, y in ring)]
        f["geometry"]["coordinates"] = [[[y, x] for x, y in ring]]

    check = checked(tmp_path, collection(features))

    assert check.ok, check.errors
    assert check.game_map.bounds == ((46.8, 7.0), (47.4, 7.9))
    assert check.warnings[0] == (
        'latitude and longitude are swapped: the features\' "bbox" members ([west, south, east, north]) fit the '
        "outlines only when their pairs are read as [lat, lon], so they were swapped back; GeoJSON stores "
        "[longitude, latitude]: fix the file to silence this warning")


def test_maps_check_says_where_the_map_lies_and_where_it_would_lie_swapped(tmp_path, capsys):
    """Swiss cantons with swapped axes lie in Somalia: nothing in the numbers says so, the place does."""
    features = grid()
    for f in features:
        f["geometry"]["coordinates"] = [[[y, x] for x, y in ring] for ring in f["geometry"]["coordinates"]]
    path = tmp_path / "cantons.geojson"
    path.write_text(json.dumps(collection(features)), encoding="utf-8")

    assert main(["maps", "check", str(path)]) == 0

    assert capsys.readouterr().out.splitlines()[-2] == (
        f"{path}: the map lies around 7.5°N 47.1°E (if it belongs around 47.1°N 7.5°E, its latitudes and "
        "longitudes are swapped: fix the file)")


# --- a 168 MB world file ---------------------------------------------------------------------


def test_a_file_beyond_the_size_checked_is_refused_unread_with_how_to_simplify_it(tmp_path, monkeypatch):
    from triviador_nb import maps

    monkeypatch.setattr(maps, "MAX_MAP_MB", 1)
    path = tmp_path / "world.geojson"
    path.write_bytes(b" " * 1_700_000)  # unread: not even JSON

    assert maps.check_map(path).errors == (
        "the file is 2 MB, and maps up to 1 MB are checked (a game draws at most about 40,000 points, under 1 MB of "
        "outlines): simplify it first, e.g. on mapshaper.org (Import, Simplify to 10% or less, Export as GeoJSON) or "
        "with mapshaper's command line: mapshaper map.geojson -simplify 10% keep-shapes -o simplified.geojson; or "
        "keep only the region you play on",)


def test_the_stated_size_is_50_mb():
    from triviador_nb import maps

    assert maps.MAX_MAP_MB == 50
    assert maps.too_big(168_000_000).startswith("the file is 168 MB, and maps up to 50 MB are checked")


def test_a_long_check_tells_its_progress_on_stderr(tmp_path, capsys, monkeypatch):
    from triviador_nb import cli

    monkeypatch.setattr(cli, "PROGRESS_AFTER_S", 0.0)  # as if every step came after 2 s
    path = tmp_path / "map.geojson"
    path.write_text(json.dumps(collection(grid())), encoding="utf-8")

    assert main(["maps", "check", str(path)]) == 0

    told = [line.rsplit(" (", 1)[0] for line in capsys.readouterr().err.splitlines()]
    assert told == [f"triviador-nb: {path}: {step}" for step in (
        "reading 0.0 MB", "9 outlines read; converting coordinates",
        *(f"outlines checked: {k} of 9" for k in range(1, 10)),
        "measuring the borders", "simplifying the outlines for drawing and placing the labels")]


def test_a_quick_check_tells_nothing_on_stderr(tmp_path, capsys):
    path = tmp_path / "map.geojson"
    path.write_text(json.dumps(collection(grid())), encoding="utf-8")

    assert main(["maps", "check", str(path)]) == 0
    assert capsys.readouterr().err == ""


def test_a_big_invalid_outline_is_simplified_by_10_m_before_it_is_repaired():
    """A detailed country that crosses itself (53 s in make_valid for Brazil): simplified first, by
    10 m, so its area stays what make_valid alone gives (benchmarks/map_repair.py times both)."""
    from triviador_nb.maps.repair import REPAIR_SIMPLIFY_POINTS, repaired

    steps = REPAIR_SIMPLIFY_POINTS + 1000
    ring = [(8 + math.cos(2 * math.pi * k / steps) * (1 + 0.001 * math.sin(k)),
             47 + math.sin(2 * math.pi * k / steps) * 0.7) for k in range(steps)]
    ring[steps // 4] = (8.0, 45.8)  # a spike from the north across the south: it crosses itself
    country = shapely.Polygon(ring)
    assert not country.is_valid

    fixed = repaired(country, 47.0)

    plain = shapely.make_valid(country)
    assert fixed.is_valid and shapely.get_num_coordinates(fixed) < shapely.get_num_coordinates(plain)
    assert fixed.area == pytest.approx(plain.area, rel=1e-4)


def test_a_link_to_a_feature_left_out_says_why_it_is_not_on_the_map(tmp_path):
    empty = feature("Ladakh", {"type": "MultiPolygon", "coordinates": []})

    check = checked(tmp_path, collection(grid() + [empty]), links=[("Ladakh", "R0C0")])

    assert check.errors == ('links[0] ("Ladakh", "R0C0"): "Ladakh" is not on the map: features[9] has no outline to '
                            "draw (see its warning)",)


def test_a_highcharts_member_beside_degrees_is_not_applied(tmp_path):
    """A collection map converted to longitude/latitude that kept its "hc-transform" member."""
    check = checked(tmp_path, collection(grid(), **{"hc-transform": {"default": HC_TRANSFORM}}))

    assert check.ok, check.errors
    assert check.game_map.bounds == ((46.8, 7.0), (47.4, 7.9))
    assert check.warnings[0] == ('the file has a Highcharts "hc-transform" member, but its coordinates are '
                                 "longitude/latitude degrees already (converted before?): the transform was not "
                                 "applied")


def test_highcharts_separator_lines_are_left_out_with_a_warning(tmp_path):
    """The collection's maps carry the lines between their insets as a feature of their own."""
    data = highcharts_map(HC_TRANSFORM)
    data["features"].append({"type": "Feature", "properties": {"hc-group": "__separator_lines__"},
                             "geometry": {"type": "MultiLineString", "coordinates": [[[-999, 300], [9000, 300]]]}})

    check = checked(tmp_path, data)

    assert check.ok, check.errors
    assert check.warnings[0] == ("features[9] (no name): Highcharts' lines between the map's insets (a "
                                 "MultiLineString, not a territory): left out of the map")


def test_a_link_matching_both_unicode_forms_shows_their_code_points(tmp_path):
    features = grid()
    features[0]["properties"]["name"] = unicodedata.normalize("NFC", "Genève")
    features[1]["properties"]["name"] = unicodedata.normalize("NFD", "Genève")

    check = checked(tmp_path, collection(features), links=[("geneve", "R2C2")])

    assert check.errors == (
        'links[0] ("geneve", "R2C2"): "geneve" matches "Gen\u00e8ve" (\u00e8 = U+00E8, NFC) and "Gene\u0300ve" '
        "(e\u0300 = U+0065 U+0300, NFD), which differ only in case, accents or spacing; use the exact name",)
