"""Repairing a detailed outline that crosses itself (issue 25: a 168 MB world file spent 53 s in
``make_valid`` for Brazil alone): shapely's ``make_valid`` as it is (the baseline) beside
``triviador_nb.maps.repair.repaired`` (simplified by 10 m first), on the same synthetic country.

Run: ``.venv/bin/python benchmarks/map_repair.py [--points 20000 200000 1000000]``

The country is a ring about 1,000 km across at 14S whose coast wiggles (0.02 degrees, plus 50 m of
noise, as a surveyed coast has), with one point moved across the far coast so that it crosses
itself. Prints, per size, both times, the points left and both areas (the same to 1e-4).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import shapely

from triviador_nb.maps.repair import repaired


def country(points: int) -> shapely.Polygon:
    rng = np.random.default_rng(1)
    t = np.linspace(0, 2 * math.pi, points, endpoint=False)
    r = 10 + 0.02 * np.sin(t * 2000) + rng.normal(0, 0.0005, points)
    xy = np.column_stack([-52 + r * np.cos(t), -14 + r * np.sin(t) * 0.9])
    xy[points // 4] = [-52, -26]  # a spike from the north coast across the south one
    return shapely.Polygon(xy)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, nargs="+", default=[20_000, 200_000, 1_000_000])
    args = parser.parse_args()
    for points in args.points:
        shape = country(points)
        start = time.perf_counter()
        plain = shapely.make_valid(shape)
        plain_s = time.perf_counter() - start
        start = time.perf_counter()
        fixed = repaired(shape, -14.0)
        fixed_s = time.perf_counter() - start
        print(f"{points:>9,} points: make_valid {plain_s:6.2f} s (baseline); repaired, simplified by 10 m first, "
              f"{fixed_s:6.2f} s, {shapely.get_num_coordinates(fixed):,} points left; area {plain.area:.4f} vs "
              f"{fixed.area:.4f} square degrees", flush=True)


if __name__ == "__main__":
    main()
