"""Where the map's names go (issue 24's bug 2): on the Hungary map at the sizes JupyterLab gives the
game's board, with the bases the engine draws, no two names overlap, no name covers a castle or a
value, each name touches its own territory, and its middle (where a student clicks) is on it - or,
on the smallest board, where Komarom-Esztergom has no room, at most a line's height off it.

The board sizes were measured in JupyterLab (Chromium, the file browser open): 525.75 px wide at
1280x720 and 579.08 px at 1366x900; 800 px is a projector's board. Names are sized as
``label_layout`` estimates them (DejaVu Sans, 0.62 em a character); ``tests/browser/map_driver.py``
measures the boxes the browser really draws.
"""

from __future__ import annotations

import pytest
import shapely

from triviador_nb.banks import resolve_bank
from triviador_nb.engine import Game, find_rule_set
from triviador_nb.maps import load_builtin_map
from triviador_nb.ui.label_layout import (TOUCHING_PX, Placement, name_boxes, name_font_px, place_names,
                                          value_boxes)
from triviador_nb.ui.map_view import fit_view, pixel_areas, pixel_xy

BOARDS = [(525.75, 322.34), (579.08, 355.03), (800.0, 490.5)]  # width x height, px (module docstring)


def _overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def drawn_bases(seed: int) -> frozenset[str]:
    """The bases ConQUIZtador draws for game ``seed`` on Hungary (D-rules: drawn at random)."""
    game_map = load_builtin_map("hungary")
    game = Game(find_rule_set("conquiztador"), game_map.board, resolve_bank("general_knowledge_en"), seed,
                names=["A", "B", "C"])
    return frozenset(t for t, s in game.territories.items() if s.base_of is not None)


def layout(width: float, height: float, bases: frozenset[str]):
    game_map = load_builtin_map("hungary")
    _, zoom = fit_view(game_map.bounds, width, height)
    points = {t: pixel_xy(lat, lon, zoom) for t, (lat, lon) in game_map.labels.items()}
    areas = pixel_areas(game_map, zoom)
    places = place_names(points, game_map.board.names, width, bases, areas)
    return game_map, points, areas, places


@pytest.mark.parametrize("width, height", BOARDS)
@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8])
def test_names_on_hungary_overlap_nothing_and_stay_on_their_territory(width, height, seed):
    bases = drawn_bases(seed)
    assert len(bases) == 3
    game_map, points, areas, places = layout(width, height, bases)
    names = name_boxes(points, game_map.board.names, width, places)
    values = value_boxes(points, width, bases)
    over_names = [(a, b) for a in names for b in names if a < b and _overlap(names[a], names[b]) > 0]
    over_values = [(a, b) for a in names for b in values if _overlap(names[a], values[b]) > 0]
    assert over_names == [] and over_values == [], (over_names, over_values)
    em = name_font_px(width)
    for territory, (left, top, right, bottom) in names.items():
        assert areas[territory].intersects(shapely.box(left, top, right, bottom)), (territory, places[territory])
        middle = shapely.Point((left + right) / 2, (top + bottom) / 2)
        off = areas[territory].distance(middle)
        assert off <= em, (territory, off, places[territory])  # next to it at most: a line's height away
        if width > BOARDS[0][0]:  # on every board but the smallest, on it
            assert off <= TOUCHING_PX, (territory, off, places[territory])


def test_the_names_that_were_misclicked_in_the_classroom_are_on_their_counties():
    """Issue 24: at 1280x720 the middle of "Komárom-Esztergom" lay outside Hungary and the middle of
    "Győr-Moson-Sopron" over Veszprém."""
    game_map, points, areas, places = layout(*BOARDS[0], drawn_bases(1))
    names = name_boxes(points, game_map.board.names, BOARDS[0][0], places)
    for territory in ("HU-GS", "HU-JN", "HU-BZ"):
        left, top, right, bottom = names[territory]
        assert areas[territory].contains(shapely.Point((left + right) / 2, (top + bottom) / 2)), places[territory]
    # Komarom-Esztergom (68 x 47 px here) has no room for its name between the castles and the names
    # around it: it is drawn smaller, touching the county (a click on it takes Komarom-Esztergom:
    # tests/browser/map_driver.py)
    left, top, right, bottom = names["HU-KE"]
    assert places["HU-KE"].scale < 1 and areas["HU-KE"].intersects(shapely.box(left, top, right, bottom))


def test_the_layout_is_the_same_for_the_same_map_and_size():
    bases = drawn_bases(2)
    assert layout(*BOARDS[1], bases)[3] == layout(*BOARDS[1], bases)[3]


def test_a_name_with_room_on_its_territory_stays_where_css_puts_it():
    square = shapely.box(0, 0, 400, 300)
    places = place_names({"a": (200.0, 120.0)}, {"a": "Alpha"}, 700, areas={"a": square})
    assert places == {"a": Placement()}
    # the same name at the bottom edge of its territory moves up, above its value, onto the territory
    places = place_names({"a": (200.0, 295.0)}, {"a": "Alpha"}, 700, areas={"a": square})
    assert places["a"].dy < 0
