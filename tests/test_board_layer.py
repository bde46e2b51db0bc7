"""A big map's board as one layer (issue 25 "send the board in a few messages", issue 29 item 5).

Above ``map_view.BOARD_LAYER_LIMIT`` territories the shapes are one SVG in one marker, a territory's look
changes through :class:`triviador_nb.ui.board_layer.BoardLooks`'s small messages, a click on the map is
turned into the territory under it, and a label's marker is made only once it shows something. Messages are
counted as benchmarks/map_render.py counts them (``comm.DummyComm.publish_msg``, through ``WidgetTraffic``).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_teacher_maps import checked, collection, grid  # noqa: E402

from triviador_nb.ui import map_view  # noqa: E402
from triviador_nb.ui.map_view import OUTLINES, MapView, pixel_xy  # noqa: E402
from triviador_nb.ui.palette import FREE, SEAT_COLOURS  # noqa: E402
from triviador_nb.ui.traffic import WidgetTraffic  # noqa: E402

COLS = ROWS = 33  # 1,089 cells of 0.1 x 0.1 degrees from 7E 47.4N: past the limit of 1,000 as it ships


@pytest.fixture(scope="module")
def big_map(tmp_path_factory):
    result = checked(tmp_path_factory.mktemp("big"), collection(grid(cols=COLS, rows=ROWS, dx=0.1, dy=0.1)))
    assert result.ok and len(result.game_map.board) == COLS * ROWS
    return result.game_map


def kinds(traffic: WidgetTraffic) -> Counter:
    """Messages by the model they name (what map_render.py groups by)."""
    return Counter(traffic.models)


def blank(view: MapView) -> tuple[dict, dict, dict]:
    ids = view.game_map.board.territories
    return {t: None for t in ids}, {t: 0 for t in ids}, {t: None for t in ids}


def test_a_big_map_s_first_render_is_a_handful_of_messages(big_map, monkeypatch):
    """1,089 territories: no Polygon and no label marker; one marker for the shapes, one for the names, and
    the looks widget, where a Polygon and a label marker per territory sent more than 2,000 messages."""
    with WidgetTraffic() as traffic:
        view = MapView(big_map)
    opened = kinds(traffic)
    assert view.polygons == {} and view.labels == {} and view.names == {}
    assert opened["LeafletPolygonModel"] == 0 and opened["LeafletMarkerModel"] == 2, opened
    assert opened["LeafletDivIconModel"] == 2 and opened["AnyModel"] == 2, opened  # BrowserInput, BoardLooks
    assert view.looks in view.widget.children
    assert len(traffic.messages) <= 30, len(traffic.messages)
    monkeypatch.setattr(map_view, "BOARD_LAYER_LIMIT", 10**9)  # the baseline: every map before this change
    with WidgetTraffic() as before:
        old = MapView(big_map)
    assert len(old.polygons) == 1089 and len(before.messages) > 2 * 1089
    assert traffic.total_bytes < before.total_bytes / 3, (traffic.total_bytes, before.total_bytes)
    old.close()
    view.close()


def test_the_shapes_layer_draws_each_territory_in_pixels_from_the_north_west_corner(big_map):
    """Made once, two zoom levels past the map's first zoom; a refit (the browser's size) sends the scale
    to the map's zoom in one small message, not the SVG again."""
    view = MapView(big_map)
    html = view.shapes_layer.icon.html
    paths = re.findall(r'<path class="t(\d+)" d="M([^"]+)Z"/>', html)
    assert [int(index) for index, _ in paths] == list(range(1089)) and 'pointer-events:none' in html
    # R0C1 (index 1) is the cell from 7.1E to 7.2E below 47.4N: its first point, its south-west corner
    made_at = view.map.zoom + 2
    x0, y0 = pixel_xy(47.4, 7.0, made_at)
    x, y = pixel_xy(47.3, 7.1, made_at)
    first = [float(v) for v in paths[1][1].split()[0].split(",")]
    assert first == pytest.approx([x - x0, y - y0], abs=0.06)
    assert view.looks.scale == 0.25
    with WidgetTraffic() as traffic:
        for trait, value in (("left", 0), ("top", 0), ("right", 725), ("bottom", 725)):
            view.map.set_trait(trait, value)  # the browser's size: fitted, the shapes scaled to that zoom
    assert view.map.zoom > made_at - 2 and view.shapes_layer.icon.html == html
    assert view.looks.scale == pytest.approx(2 ** (view.map.zoom - made_at))
    looks_id = view.looks.comm.comm_id
    assert [size for (_, size), comm_id in zip(traffic.messages, traffic.comm_ids) if comm_id == looks_id] \
        and all(size < 200 for (_, size), comm_id in zip(traffic.messages, traffic.comm_ids) if comm_id == looks_id)
    view.close()


def test_a_click_inside_a_territory_chooses_it_and_one_in_the_sea_chooses_nothing(big_map):
    view = MapView(big_map)
    clicked = []
    view.on_territory_click(clicked.append)

    def browser(event_type: str, lat: float, lon: float) -> None:  # as jupyter-leaflet's Map sends it
        view.map._handle_leaflet_event(None, {"event": "interaction", "type": event_type,
                                              "coordinates": [lat, lon]}, [])

    browser("click", 47.21, 7.39)  # row 1 (47.3-47.2N), column 3 (7.3-7.4E), near a corner, far from its label
    browser("click", 44.15, 10.25)  # the last row and column
    browser("click", 47.45, 7.05)  # north of the map: the sea
    browser("click", 46.0, 10.4)  # east of it
    browser("mousemove", 47.25, 7.35)  # not a click
    assert clicked == ["R1C3", "R32C32"]
    view.click("R5C7")  # a test's click goes the browser's way: the map's click at the label point
    assert clicked[-1] == "R5C7"
    with pytest.raises(ValueError, match="no territory 'R99C0'"):
        view.click("R99C0")
    view.close()


def test_a_change_of_owner_changes_the_look_with_one_small_message(big_map):
    view = MapView(big_map)
    view.preload_labels(list(SEAT_COLOURS.values()), (200, 400), 1000, 3)
    owners, values, towers = blank(view)
    with WidgetTraffic() as nothing:
        view.show(owners, values, towers, 3)
    assert nothing.messages == []  # all free, nothing shown: nothing to send
    owners["R0C5"] = SEAT_COLOURS["blue"]
    with WidgetTraffic() as early:
        view.show(owners, values, towers, 3)
    assert len(early.messages) == 1 and view.looks.looks == {"5": [SEAT_COLOURS["blue"], 0]}  # as state
    with WidgetTraffic() as drawn:
        view.looks._handle_custom_msg({"ready": True}, [])  # a page drew the widget: the state once more
    assert drawn.comm_ids == [view.looks.comm.comm_id]
    sent = []
    original = view.looks.send
    view.looks.send = lambda content, buffers=None: (sent.append(content), original(content, buffers))
    owners["R0C5"] = None
    owners["R2C2"] = SEAT_COLOURS["red"]
    with WidgetTraffic() as traffic:
        view.show(owners, values, towers, 3, choosable=["R2C3"])
    index = big_map.board.territories.index
    assert sent == [{"looks": {"5": None, str(index("R2C2")): [SEAT_COLOURS["red"], 0],
                               str(index("R2C3")): [FREE, 1]}}]
    looks_id = view.looks.comm.comm_id
    assert [size for size, comm_id in zip(traffic.messages, traffic.comm_ids) if comm_id == looks_id] \
        == [("comm_msg", traffic.messages[0][1])] and traffic.messages[0][1] < 200, traffic.messages
    assert len(traffic.messages) == 1  # no value, no castle: no label marker
    assert view.look("R2C2") == (SEAT_COLOURS["red"], OUTLINES[0]) and view.look("R2C3") == (FREE, OUTLINES[1])
    assert view.look("R0C0") == (FREE, OUTLINES[0])
    # back to free and plain: the territories' rules go, the kernel's state is what a reloaded page gets
    sent.clear()
    owners["R2C2"] = None
    view.show(owners, values, towers, 3, contested="R0C0")
    assert sent == [{"looks": {"0": [FREE, 2], str(index("R2C2")): None, str(index("R2C3")): None}}]
    assert view.looks.looks == {"0": [FREE, 2]}
    view.close()


def test_a_label_gets_its_marker_only_once_it_shows_something(big_map):
    view = MapView(big_map)
    view.preload_labels(list(SEAT_COLOURS.values()), (200, 400), 1000, 3)
    owners, values, towers = blank(view)
    clicked = []
    view.on_territory_click(clicked.append)
    owners["R0C0"], values["R0C0"] = SEAT_COLOURS["red"], 200
    owners["R0C1"], towers["R0C1"], values["R0C1"] = SEAT_COLOURS["blue"], 3, 1000
    view.show(owners, values, towers, 3, marks={"R0C0": "1", "R0C1": "2"})
    assert set(view.labels) == {"R0C0", "R0C1"}
    assert '<div class="tnb-value">' in view.labels["R0C0"].icon.html and ">200</div>" in view.labels["R0C0"].icon.html
    assert "tnb-castle-svg" in view.labels["R0C1"].icon.html
    groups = [layer for layer in view.map.layers if any(m in getattr(layer, "layers", ()) for m in view.labels.values())]
    assert groups and view.map.layers[-1] is view.name_layer  # the names stay on top
    layers = view.map.layers
    values["R0C0"] = 400  # a label that changes re-points its marker, adds no layer
    with WidgetTraffic() as traffic:
        view.show(owners, values, towers, 3, marks={"R0C0": "1", "R0C1": "2"})
    assert view.map.layers == layers and len(traffic.messages) == 1 and ">400</div>" in view.labels["R0C0"].icon.html
    view.labels["R0C1"]._handle_mouse_events(None, {"type": "click", "coordinates": list(big_map.labels["R0C1"])},
                                             [])  # as the browser sends a click on the marker
    assert clicked == ["R0C1"]  # a castle's click is its territory's, wherever it stands
    view.close()


def test_a_small_map_keeps_a_polygon_and_a_label_per_territory(tmp_path):
    game_map = checked(tmp_path, collection(grid(cols=5, rows=5, dx=0.1, dy=0.1))).game_map
    view = MapView(game_map)
    assert len(view.polygons) == len(view.labels) == 25 and view.looks is None and view.shapes_layer is None
    view.show({t: SEAT_COLOURS["red"] for t in view.polygons}, {t: 200 for t in view.polygons},
              {t: None for t in view.polygons}, 3, choosable=["R0C0"])
    assert view.polygons["R0C1"].fill_color == SEAT_COLOURS["red"] and view.look("R0C0")[1] == OUTLINES[1]
    view.close()


def test_the_lookup_finds_a_territory_in_another_s_hole_and_in_any_part_of_a_multipolygon():
    from triviador_nb.ui.territory_lookup import TerritoryLookup

    ring = {"type": "Polygon", "coordinates": [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]],
                                               [[1, 1], [3, 1], [3, 3], [1, 3], [1, 1]]]}
    island = {"type": "Polygon", "coordinates": [[[1, 1], [3, 1], [3, 3], [1, 3], [1, 1]]]}
    parts = {"type": "MultiPolygon", "coordinates": [[[[5, 0], [6, 0], [6, 1], [5, 1], [5, 0]]],
                                                     [[[8, 8], [9, 8], [9, 9], [8, 9], [8, 8]]]]}
    lookup = TerritoryLookup({"RING": ring, "ISLAND": island, "PARTS": parts})
    assert lookup.at(2, 2) == "ISLAND"  # (lat, lon): in the ring's hole
    assert lookup.at(0.5, 2) == "RING" and lookup.at(3.5, 3.5) == "RING"
    assert lookup.at(8.5, 8.5) == "PARTS" and lookup.at(0.5, 5.5) == "PARTS"
    assert lookup.at(7, 7) is None and lookup.at(0.5, 4.5) is None  # between the parts, beside the ring
    assert lookup.at(2, 1) == "RING"  # on the border the two share: the first in the map's order
