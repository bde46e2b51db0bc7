"""Bank loading speed: ``load_bank`` (read + full validation incl. near-duplicates)
against ``pandas.read_csv`` of the same file alone.

Run: ``.venv/bin/python benchmarks/bank_load.py [--questions 100000] [--repeat 3] [--profile]``

Generates a CSV of N questions (half guess, half choice; questions of
40-150 characters built from a 5,000-word vocabulary; 1% near-duplicates:
a reworded copy of an earlier question) in a temporary folder, then prints
the best-of-``repeat`` time of each and their ratio (target: <= 3x), in wall
time and in CPU time of the process (the loader's worker thread included),
with the load average, then the time of the author's check
(``check_and_load_bank``: ``bank check``, which also reads every word for
give-aways, :mod:`triviador_nb.banks.giveaways`). The ratio is to pandas'
default C reader; the time of pandas with pyarrow's reader is printed beside
it. Both must read every row written, or the script stops without a figure.
"""

from __future__ import annotations

import argparse
import cProfile
import csv
import os
import pstats
import random
import tempfile
import time
from pathlib import Path

import pandas as pd

from triviador_nb.banks import check_and_load_bank, load_bank

OPENINGS = ("What is", "Which", "How many", "In which year did", "Who", "Where is", "How long is", "Name the")


def generate(path: Path, questions: int, seed: int = 1) -> int:
    """Write the bank; return how many near-duplicates it holds."""
    rng = random.Random(seed)
    syllables = ["ka", "lo", "mi", "ter", "san", "vo", "ru", "bel", "dan", "que", "pra", "zu", "nor", "is", "el"]
    vocabulary = sorted({"".join(rng.choices(syllables, k=rng.randint(2, 4))) for _ in range(8000)})[:5000]
    common = ["the", "of", "a", "in", "and", "river", "capital", "country", "city", "largest", "first", "famous"]
    texts: list[str] = []
    duplicates = 0
    with path.open("w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["id", "type", "question", "answer", "wrong_1", "wrong_2", "wrong_3", "category", "difficulty", "source"])
        for index in range(questions):
            if texts and rng.random() < 0.01:
                text = rng.choice(texts).replace("the ", "the very ", 1).rstrip("?") + " ?"
                duplicates += 1
            else:
                words = []
                target = rng.randint(40, 150)
                text = rng.choice(OPENINGS)
                while len(text) < target:
                    text += " " + (rng.choice(common) if rng.random() < 0.4 else rng.choice(vocabulary))
                text = text.capitalize() + "?"
            texts.append(text)
            category = rng.choice(["Geography", "History", "Science", "Sport", "Art", "Music"])
            difficulty = rng.choice(["easy", "medium", "hard"])
            if index % 2:
                out.writerow([f"q{index}", "guess", text, rng.randint(0, 10**rng.randint(1, 9)), "", "", "", category, difficulty, ""])
            else:
                options = rng.sample(vocabulary, 4)
                out.writerow([f"q{index}", "choice", text, *(o.capitalize() for o in options), category, difficulty, "generated"])
    return duplicates


def best_time(function, repeat: int) -> tuple[float, float]:
    """(best wall seconds, best CPU seconds of the whole process: the loader's worker thread included)."""
    best = best_cpu = float("inf")
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        function()
        best, best_cpu = min(best, time.perf_counter() - start), min(best_cpu, time.process_time() - cpu)
    return best, best_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="print the top functions of one load_bank")
    parser.add_argument("--no-author-check", action="store_true",
                        help="leave out check_and_load_bank (about 10x load_bank's time)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big_bank.csv"
        duplicates = generate(path, args.questions)
        size_mb = path.stat().st_size / 1e6
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        bank = load_bank(path)
        read = (len(frame), len(bank.guess) + len(bank.choice))
        if read != (args.questions, args.questions):  # a figure for fewer rows than written would be no figure
            raise SystemExit(f"read_csv read {read[0]} rows and load_bank {read[1]} questions of {args.questions}")
        pandas_s, pandas_cpu = best_time(lambda: pd.read_csv(path, dtype=str, keep_default_na=False), args.repeat)
        arrow_s, _ = best_time(lambda: pd.read_csv(path, dtype=str, keep_default_na=False, engine="pyarrow"),
                               args.repeat)
        load_s, load_cpu = best_time(lambda: load_bank(path), args.repeat)
        near = sum("nearly repeats" in warning for warning in bank.warnings)
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        print(f"file: {args.questions} questions ({len(bank.guess)} guess, {len(bank.choice)} choice; every row "
              f"read by both), {size_mb:.1f} MB, {duplicates} near-duplicates written, {near} reported, "
              f"{len(bank.warnings)} warnings")
        print(f"pandas.read_csv: {pandas_s:.3f} s, CPU {pandas_cpu:.3f} s (with engine='pyarrow', which load_bank's "
              f"reader uses: {arrow_s:.3f} s)")
        print(f"load_bank:       {load_s:.3f} s, CPU {load_cpu:.3f} s")
        print(f"ratio:           {load_s / pandas_s:.2f}x wall, {load_cpu / pandas_cpu:.2f}x CPU (target <= 3x)")
        if not args.no_author_check:
            check_s, _ = best_time(lambda: check_and_load_bank(path), args.repeat)
            print(f"check_and_load_bank (bank check, which also reads words for give-aways): {check_s:.3f} s "
                  f"({check_s / load_s:.1f}x load_bank)")
        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(load_bank, path)
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
