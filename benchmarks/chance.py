"""What a secret costs (issue 28): bot-only games with a game number's
streams against the same games with every draw keyed by a secret.

Run: ``.venv/bin/python benchmarks/chance.py [--games 20]``

Prints per rule set, on Hungary with the shipped bank, best of 3 runs:
games per second with a number (the baseline, run in the same process) and
with a secret, and the microseconds one keyed draw takes (an HMAC-SHA256 and
a fresh ``random.Random``), against one draw from a stream.
"""

from __future__ import annotations

import argparse
import random
import time

from triviador_nb.banks import load_builtin_bank
from triviador_nb.bots import Bot
from triviador_nb.engine import RULE_SETS, Game
from triviador_nb.engine.chance import keyed_rng
from triviador_nb.maps import load_builtin_map


def games_per_second(rules, board, bank, games: int, secret: bool) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for n in range(games):
            game = Game(rules, board, bank, None if secret else n, secret=f"{n:032x}" if secret else None)
            bots = [Bot(s, "medium", n) for s in range(rules.players)]
            while not game.is_over:
                game.apply(bots[game.current_players()[0]].act(game))
        best = min(best, time.perf_counter() - start)
    return games / best


def draw_us(work, count: int = 20_000) -> float:
    start = time.perf_counter()
    for k in range(count):
        work(k)
    return (time.perf_counter() - start) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    board, bank = load_builtin_map("hungary").board, load_builtin_bank()
    print(f"{'rule set':>14} {'number games/s':>15} {'secret games/s':>15}")
    for rules in RULE_SETS:
        numbered = games_per_second(rules, board, bank, args.games, secret=False)
        keyed = games_per_second(rules, board, bank, args.games, secret=True)
        print(f"{rules.name:>14} {numbered:>15.1f} {keyed:>15.1f}")
    stream = random.Random("options:1")
    secret = "ab" * 16
    print(f"one option order: {draw_us(lambda k: stream.shuffle([0, 1, 2, 3])):.1f} us from a stream, "
          f"{draw_us(lambda k: keyed_rng(secret, f'options:{k}').shuffle([0, 1, 2, 3])):.1f} us keyed")


if __name__ == "__main__":
    main()
