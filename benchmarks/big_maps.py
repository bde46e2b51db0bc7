"""Big teachers' maps: loading, checking and drawing maps of 19, 434 and 2,328 territories.

Run: ``.venv/bin/python benchmarks/big_maps.py [--sizes 19 434 2328] [--bases]``

Each map is a synthetic grid of square-ish cells at 47N (about 15 km a side),
written as a plain GeoJSON FeatureCollection in a temporary folder, the way
a teacher's file comes: no ``"triviador"`` member, so borders, labels and
the view are computed. Every cell border is drawn with
:data:`POINTS_PER_EDGE` wiggling points that the two cells share exactly (a
clean coverage, as published boundary files are), so that simplification
has work to do. Prints per map:

- ``check``: ``check_map`` (read, check every feature, borders, bases test,
  labels, simplified outlines), best of :data:`RUNS`;
- ``load``: ``load_map`` (the same, raising on errors, warnings issued);
- ``draw``: points and KB of outlines in the file and as drawn
  (``draw_size``), and the KiB the widgets send for the first render of a
  ``MapView`` (:class:`WidgetTraffic`), with the time to build it;
- ``fit``: the time to fit the board to a 725 px wide map and lay out the
  names (``label_layout``), as when the browser first reports its size;
- ``click``: a territory recoloured and its label changed (``MapView.show``,
  what a claim or an attack click redraws; the median and the slowest of
  :data:`CLICKS`, each claiming another territory), and three bases placed
  (names laid out again around the castles);
- with ``--bases``: the engine's base placement (a game's start:
  ``draw_bases``), which is timed apart since it is not the map loader's.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import tempfile
import time
import warnings
from pathlib import Path

from triviador_nb.maps import MapWarning, check_map, draw_size, load_map
from triviador_nb.ui import map_view
from triviador_nb.ui.map_view import OUTLINES, MapView
from triviador_nb.ui.palette import SEAT_COLOURS
from triviador_nb.ui.traffic import WidgetTraffic

WEST, NORTH = 5.0, 52.0
CELL_DEG = 0.2  # about 15 km by 22 km at 47-52N
POINTS_PER_EDGE = 40
RUNS = 3
CLICKS = 15


def wiggle(x: float, y: float, t: float, along_x: bool) -> tuple[float, float]:
    """A point of a cell border moved across it, the same for both cells: a bulge that shows
    (3 % of the cell) and a tremble that does not (0.2 %, as a surveyed border has)."""
    bulge = 0.03 * CELL_DEG * math.sin(math.pi * t) * (1 if math.sin(7.0 * x + 11.0 * y) > 0 else -1)
    tremble = 0.002 * CELL_DEG * math.sin(9173.0 * x + 7919.0 * y)
    return (x, y + bulge + tremble) if along_x else (x + bulge + tremble, y)


def edge(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    """Points from (x0, y0) towards (x1, y1) (the end left out), corners unmoved; the same points,
    reversed, from (x1, y1) to (x0, y0)."""
    along_x = y0 == y1
    (ax, ay), (bx, by) = sorted([(x0, y0), (x1, y1)])  # each border drawn from its west or south end
    points = []
    for k in range(1, POINTS_PER_EDGE):
        t = k / POINTS_PER_EDGE
        points.append(wiggle(round(ax + (bx - ax) * t, 9), round(ay + (by - ay) * t, 9), t, along_x))
    if (ax, ay) != (x0, y0):
        points.reverse()
    return [(x0, y0), *points]


def grid_map(count: int) -> dict:
    """A FeatureCollection of ``count`` cells filled row by row, ``ceil(sqrt(count))`` to a row."""
    cols = math.ceil(math.sqrt(count))
    features = []
    for n in range(count):
        row, col = divmod(n, cols)
        w, e = round(WEST + col * CELL_DEG, 9), round(WEST + (col + 1) * CELL_DEG, 9)
        n_, s = round(NORTH - row * CELL_DEG, 9), round(NORTH - (row + 1) * CELL_DEG, 9)
        ring = edge(w, s, e, s) + edge(e, s, e, n_) + edge(e, n_, w, n_) + edge(w, n_, w, s)
        ring.append(ring[0])
        features.append({"type": "Feature", "properties": {"name": f"Cell {row + 1}-{col + 1}"},
                         "geometry": {"type": "Polygon", "coordinates": [[[round(x, 6), round(y, 6)]
                                                                          for x, y in ring]]}})
    return {"type": "FeatureCollection", "name": f"Grid of {count}", "features": features}


def best(runs: int, function) -> tuple[float, object]:
    """(best seconds, last result) of ``runs`` calls."""
    seconds, result = math.inf, None
    for _ in range(runs):
        start = time.perf_counter()
        result = function()
        seconds = min(seconds, time.perf_counter() - start)
    return seconds, result


def time_clicks(view: MapView, owners: dict, values: dict, towers: dict) -> tuple[float, float]:
    """Median and slowest seconds of :data:`CLICKS` redraws, each claiming another territory (on a big
    map its label's marker is made then), three territories outlined as choosable."""
    ids = view.game_map.board.territories
    view.show(owners, values, towers, 3)
    clicks = []
    for k in reversed(range(CLICKS)):
        owners[ids[k]], values[ids[k]] = SEAT_COLOURS["red"], 200
        start = time.perf_counter()
        view.show(owners, values, towers, 3, choosable=ids[k + 1:k + 4])
        clicks.append(time.perf_counter() - start)
    return statistics.median(clicks), max(clicks)


def measure(count: int, folder: Path, bases: bool) -> None:
    path = folder / f"grid{count}.geojson"
    data = grid_map(count)
    path.write_text(json.dumps(data), encoding="utf-8")
    runs = RUNS if count < 1000 else 1
    check_s, check = best(runs, lambda: check_map(path))
    assert check.ok, check.errors[:3]

    def load():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MapWarning)
            return load_map(path)

    load_s, game_map = best(runs, load)
    raw_points = sum(len(f["geometry"]["coordinates"][0]) for f in data["features"])
    size = draw_size(game_map)
    with WidgetTraffic() as traffic:
        start = time.perf_counter()
        view = MapView(game_map)
        view.preload_labels(SEAT_COLOURS.values(), (200, 300, 400), 1000, 3)
        build_s = time.perf_counter() - start
    if view.looks is not None:  # the page drew the board: its looks' changes travel as small messages
        view.looks._handle_custom_msg({"ready": True}, [])
    start = time.perf_counter()
    view.map.set_trait("left", 0)
    view.map.set_trait("top", 0)
    view.map.set_trait("right", 725)
    view.map.set_trait("bottom", round(725 / view.aspect))
    fit_s = time.perf_counter() - start
    ids = game_map.board.territories
    owners = {t: None for t in ids}
    values = {t: 0 for t in ids}
    towers: dict[str, int | None] = {t: None for t in ids}
    click_s, click_max_s = time_clicks(view, owners, values, towers)
    polygons = ""
    if not view.polygons:  # the baseline in the same run: the same clicks on a Polygon per territory
        board_layer_limit = map_view.BOARD_LAYER_LIMIT
        map_view.BOARD_LAYER_LIMIT = 10**9
        try:
            old = MapView(game_map)
            old.preload_labels(SEAT_COLOURS.values(), (200, 300, 400), 1000, 3)
        finally:
            map_view.BOARD_LAYER_LIMIT = board_layer_limit
        for trait, value in (("left", 0), ("top", 0), ("right", 725), ("bottom", round(725 / old.aspect))):
            old.map.set_trait(trait, value)
        old_s, old_max_s = time_clicks(old, {t: None for t in ids}, {t: 0 for t in ids}, {t: None for t in ids})
        polygons = f"; a Polygon per territory: {old_s * 1000:5.1f} ms, slowest {old_max_s * 1000:5.1f} ms"
        old.close()
    # the baseline in the same run: the same click with nothing remembered of what was drawn, so every
    # territory's look is worked out and compared again, as every click did before issue 29 item 5
    owners[ids[0]] = SEAT_COLOURS["blue"]
    view._drawn.clear()
    start = time.perf_counter()
    view.show(owners, values, towers, 3, choosable=ids[1:4])
    unremembered_s = time.perf_counter() - start
    if view.look(ids[0]) != (SEAT_COLOURS["blue"], OUTLINES[0]) or view.look(ids[1])[1] != OUTLINES[1]:
        raise RuntimeError("the timed clicks did not redraw the map")
    for k, t in enumerate((ids[0], ids[len(ids) // 2], ids[-1])):
        owners[t], towers[t] = list(SEAT_COLOURS.values())[k], 3
    start = time.perf_counter()
    view.show(owners, values, towers, 3)
    bases_s = time.perf_counter() - start
    print(f"{count:>5} territories: check {check_s:6.2f} s, load {load_s:6.2f} s; "
          f"{raw_points:,} points in the file, {size.vertices:,} drawn ({size.geometry_bytes / 1024:,.0f} KB of "
          f"outlines); first render {traffic.total_bytes / 1024:,.0f} KiB sent, {build_s:5.2f} s to build; "
          f"fit and names {fit_s:5.2f} s; a click redraws in {click_s * 1000:5.1f} ms (median of {CLICKS}, "
          f"slowest {click_max_s * 1000:5.1f} ms; nothing remembered of what was drawn: "
          f"{unremembered_s * 1000:5.1f} ms{polygons}), "
          f"three bases in {bases_s * 1000:6.1f} ms", flush=True)
    view.close()
    if bases:
        import random

        from triviador_nb.engine.bases import draw_bases

        start = time.perf_counter()
        draw_bases(game_map.board, 3, random.Random(1))
        print(f"{'':>5}   base placement (engine, draw_bases for 3 players): {time.perf_counter() - start:6.2f} s",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[19, 434, 2328], help="territory counts")
    parser.add_argument("--bases", action="store_true", help="also time the engine's base placement")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for count in args.sizes:
            measure(count, Path(folder), args.bases)


if __name__ == "__main__":
    main()
