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
  out its names (``label_layout``);
- the per-seat view: microseconds to build one and to serialise it, and its
  size as JSON, over every state of a bot game;
- the game table: bot-only games driven through :class:`Table` on a manual
  clock (timers, deadlines, views for every listener) against the bare engine.
"""

from __future__ import annotations

import argparse
import time

from triviador_nb.banks import load_builtin_bank
from triviador_nb.bots import Bot
from triviador_nb.classroom import ManualClock, Table
from triviador_nb.engine import CONQUIZTADOR, RULE_SETS, Game, RuleSet
from triviador_nb.engine.view import view
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


def view_cost(map_name: str, seed: int = 1) -> tuple[float, float, float, int]:
    """(us to build a view, us to serialise it, mean KiB as JSON, states) over
    every state of one bot game, for seat 0."""
    board, bank = load_builtin_map(map_name).board, load_builtin_bank()
    played = play_bot_game(CONQUIZTADOR, board, bank, seed)
    game = Game(CONQUIZTADOR, board, bank, seed, names=[p.name for p in played.players])
    build = dump = 0.0
    size = states = 0
    for action in [None, *played.actions]:
        if action is not None:
            game.apply(action)
        start = time.perf_counter()
        v = view(game, 0)
        middle = time.perf_counter()
        text = v.to_json()
        build, dump = build + middle - start, dump + time.perf_counter() - middle
        size, states = size + len(text.encode()), states + 1
    return build / states * 1e6, dump / states * 1e6, size / states / 1024, states


def table_speed(games: int) -> tuple[float, float]:
    """(games per second through a Table with three bots and a listener that
    reads a view after every change, the bare engine's games per second)."""
    board, bank = load_builtin_map("hungary").board, load_builtin_bank()
    start = time.perf_counter()
    for seed in range(games):
        clock = ManualClock()
        table = Table(Game(CONQUIZTADOR, board, bank, seed), {s: Bot(s, "medium", seed) for s in range(3)}, clock)
        table.on_change(lambda _events, t=table: t.view(None))
        table.start()
        while not table.game.is_over:
            clock.advance(1.0)
    through_table = games / (time.perf_counter() - start)
    start = time.perf_counter()
    for seed in range(games):
        play_bot_game(CONQUIZTADOR, board, bank, seed)
    return through_table, games / (time.perf_counter() - start)


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
    for name in ("hungary", "world19"):
        build_us, dump_us, kib, states = view_cost(name)
        print(f"per-seat view on {name:<8}: {build_us:5.0f} us to build, {dump_us:5.0f} us to JSON, {kib:4.1f} KiB "
              f"(mean over the {states} states of a bot game)")
    through, bare = table_speed(max(5, args.games // 10))
    print(f"table: {through:5.1f} games/s through Table (bots on a manual clock, a view after every change) "
          f"vs {bare:5.1f} games/s bare engine (conquiztador, hungary)")


if __name__ == "__main__":
    main()
