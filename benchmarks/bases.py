"""Base placement speed (issue 13 part 2, D14/D15): the random draw and the
choosable bases on grid maps of 19, 434 and 2,328 territories.

Run: ``.venv/bin/python benchmarks/bases.py [--repeat 5] [--old]``

Each map is a near-square grid of squares, each bordering the four beside it
(a map of counties; real maps have about 5-6 neighbours). Printed per size,
best of ``repeat`` runs, in milliseconds: drawing 4 bases (D11-D13); the
choosable bases for the first of 3 players to choose (Long Campaign, D14)
and for the second. ``--old`` also times the full enumeration of
non-adjacent sets these replaced (13 s and 1.1 GB for 434 territories and 3
bases when measured for the issue; skipped above 500 territories).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from itertools import combinations

from triviador_nb.engine.bases import choosable_bases, draw_bases
from triviador_nb.engine.board import Board


def grid(n: int) -> Board:
    width = math.ceil(math.sqrt(n))
    cells = [(i % width, i // width) for i in range(n)]
    ids = {c: f"t{c[0]}_{c[1]}" for c in cells}
    adjacency = {ids[(x, y)]: [ids[o] for o in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if o in ids]
                 for x, y in cells}
    return Board(f"grid{n}", {t: t for t in ids.values()}, adjacency)


def best_ms(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def old_enumeration(board: Board, size: int) -> int:
    return sum(1 for combo in combinations(board.territories, size)
               if not any(board.borders(a, b) for a, b in combinations(combo, 2)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--old", action="store_true", help="also time the old full enumeration")
    args = parser.parse_args()
    print(f"{'territories':>11} {'draw 4 ms':>10} {'choose 1st ms':>14} {'choose 2nd ms':>14}"
          + (f" {'old enumeration s':>18}" if args.old else ""))
    for n in (19, 434, 2328):
        board = grid(n)
        fresh = iter([Board(board.name, board.names, board.adjacency) for _ in range(args.repeat)])
        draw = best_ms(args.repeat, lambda: draw_bases(next(fresh), 4, random.Random(3)))  # nothing cached
        first = best_ms(args.repeat, lambda: choosable_bases(board, [], 3))
        second = best_ms(args.repeat, lambda: choosable_bases(board, [board.territories[n // 2]], 2))
        line = f"{n:>11} {draw:>10.2f} {first:>14.2f} {second:>14.2f}"
        if args.old and n <= 500:
            start = time.perf_counter()
            old_enumeration(board, 3)
            line += f" {time.perf_counter() - start:>18.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
