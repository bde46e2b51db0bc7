"""Speed figures: engine games per second, and bytes sent to the browser.

Run: ``.venv/bin/python benchmarks/run.py [--games N]``

Prints:
- bot-only games per second for every rule set on Hungary's 19- and
  15-territory maps with the shipped bank (best of 3 runs), and actions per
  second;
- the bytes a territory recolour sends to the browser (fill colour only, and
  colour plus label change), measured on the real widgets with
  :class:`triviador_nb.ui.traffic.WidgetTraffic`;
- the bytes and time to load each built-in map and build its view (first
  render, kernel side), and to fit it to the size the browser reports and lay
  out its names (``label_layout``).
"""

from __future__ import annotations

import argparse
import time

from triviador_nb.banks import load_builtin_bank
from triviador_nb.engine import RULE_SETS, RuleSet
from triviador_nb.maps import builtin_map_names, load_builtin_map
from triviador_nb.simulate import play_bot_game
from triviador_nb.ui.map_view import MapView
from triviador_nb.ui.palette import SEAT_COLOURS
from triviador_nb.ui.traffic import WidgetTraffic


def engine_speed(rules: RuleSet, map_name: str, games: int) -> tuple[float, float]:
    """(games per second, actions per second) of bot-only games, best of 3 runs."""
    board = load_builtin_map(map_name).board
    bank = load_builtin_bank()
    best = (0.0, 0.0)
    for _ in range(3):
        start = time.perf_counter()
        actions = sum(len(play_bot_game(rules, board, bank, seed).actions) for seed in range(games))
        seconds = time.perf_counter() - start
        best = max(best, (games / seconds, actions / seconds))
    return best


def recolour_bytes() -> dict[str, float]:
    """Bytes sent for one territory's changes, and for building the whole view."""
    game_map = load_builtin_map("hungary")
    with WidgetTraffic() as traffic:
        start = time.perf_counter()
        view = MapView(game_map)
        view.preload_labels(SEAT_COLOURS.values(), (200, 400), 1000, 3)
        build_s = time.perf_counter() - start
        build_bytes = traffic.total_bytes
    owners = {t: None for t in view.polygons}
    values = {t: 0 for t in view.polygons}
    towers = {t: None for t in view.polygons}
    view.show(owners, values, towers, 3)
    with WidgetTraffic() as traffic:
        view.polygons["HU-PE"].fill_color = SEAT_COLOURS["red"]
    fill_only = traffic.total_bytes
    with WidgetTraffic() as traffic:
        owners["HU-BA"], values["HU-BA"] = SEAT_COLOURS["blue"], 300
        view.show(owners, values, towers, 3)
    first_label = traffic.total_bytes
    with WidgetTraffic() as traffic:
        owners["HU-SO"], values["HU-SO"] = SEAT_COLOURS["blue"], 200
        view.show(owners, values, towers, 3)
    cached_label = traffic.total_bytes
    return {"fill_only": fill_only, "with_new_label": first_label, "with_cached_label": cached_label,
            "map_view_bytes": build_bytes, "map_view_ms": build_s * 1000}


def first_render(name: str) -> tuple[float, float, int, float, float]:
    """(KiB sent, milliseconds, territories) to load map ``name`` and build its
    view, then (KiB, milliseconds) to fit it to a 725 px wide board and lay out
    its names, as when the browser first reports the map's size."""
    with WidgetTraffic() as traffic:
        start = time.perf_counter()
        game_map = load_builtin_map(name)
        view = MapView(game_map)
        view.preload_labels(SEAT_COLOURS.values(), (200, 300, 400), 1000, 3)
        ms = (time.perf_counter() - start) * 1000
    with WidgetTraffic() as fitting:
        start = time.perf_counter()
        view.map.set_trait("left", 0)
        view.map.set_trait("top", 0)
        view.map.set_trait("right", 725)
        view.map.set_trait("bottom", round(725 / view.aspect))
        fit_ms = (time.perf_counter() - start) * 1000
    return traffic.total_bytes / 1024, ms, len(game_map.board), fitting.total_bytes / 1024, fit_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per run (default 100)")
    args = parser.parse_args()
    for map_name in ("hungary", "hungary15"):
        for rules in RULE_SETS:
            games_s, actions_s = engine_speed(rules, map_name, args.games)
            print(f"engine {rules.name:>13} on {map_name:<9}: {games_s:5.0f} games/s, {actions_s:6.0f} actions/s "
                  f"(medium bots, best of 3 x {args.games} games)")
    sizes = recolour_bytes()
    print(f"recolour one territory: {sizes['fill_only']} bytes (fill colour); "
          f"{sizes['with_cached_label']} bytes with its label (preloaded icon, the case in play); "
          f"{sizes['with_new_label']} bytes with a label never shown before")
    print("first render per map (kernel side: bytes sent to the browser, time to load the map and build the view;"
          " then to fit it and lay out its names):")
    for name in builtin_map_names():
        size_kib, ms, territories, fit_kib, fit_ms = first_render(name)
        print(f"  {name:<12} {territories:>2} territories: {size_kib:6.0f} KiB, {ms:5.0f} ms; "
              f"fit and names {fit_kib:4.1f} KiB, {fit_ms:4.1f} ms")


if __name__ == "__main__":
    main()
