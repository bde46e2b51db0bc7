"""How soon a student is back in the seat, counted from a fresh kernel (issue 24).

Run: ``.venv/bin/python benchmarks/rejoin.py [--runs 3]``

A room host runs here (loopback, a game under way). Each student kernel is a
fresh Python process standing in for an ipykernel: its clock starts before
anything is imported, it runs what join.ipynb's cell runs
(``from triviador_nb.ui import join``; ``join(...)``) on an asyncio loop, and
reports when the import was done, when ``join()`` returned, and when the
seat's game screen was built (the welcome, the map and the first view
arrived). The process is then killed, as a kernel restart kills it (its
connection drops without a goodbye).

- **baseline**: the same fresh kernel joining with the code and the name
  given, as a student typed them before (the typing itself, 5-9 s in the
  issue's lessons, is not counted).
- **restart**: a fresh kernel running ``join()`` with nothing given: the
  last join is read from ``join.json`` and the seat is taken again with its key.

The page reload (the kernel lives on) shows the kernel's live screen without
any connection: its time is the browser's. ``--browser`` measures both in
real JupyterLab pages (Debian's chromium, ``tests/browser/join_driver.py``):
a teacher's host.ipynb and two students; after Start, Anna's page is
reloaded and her join cell run again, then her kernel restarted with Run
All; each time from the kernel's first execute of the join cell (its first
line prints the time) to her seat's map on the page. Prints each run and
the median.

Run: ``.venv/bin/python benchmarks/rejoin.py --browser [--runs 3]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from triviador_nb.rooms import RoomHost

KERNEL = r"""
import time
began = time.monotonic()
import asyncio, json, sys

async def main():
    from triviador_nb.ui import join
    imported = time.monotonic()
    args = json.loads(sys.argv[1])
    screen = join(*args)
    returned = time.monotonic()
    end = time.monotonic() + 60
    while screen.screen is None and time.monotonic() < end:
        await asyncio.sleep(0.002)
    seated = time.monotonic()
    print(json.dumps({"import_s": imported - began, "join_s": returned - imported, "seated_s": seated - imported,
                      "total_s": seated - began, "seat": screen.client.seat if screen.client else None,
                      "game": screen.screen is not None}), flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def kernel(args: list, env: dict) -> tuple[subprocess.Popen, dict]:
    process = subprocess.Popen([sys.executable, "-c", KERNEL, json.dumps(args)], stdout=subprocess.PIPE, text=True,
                               env=env)
    line = process.stdout.readline()
    return process, json.loads(line)


def stop(process: subprocess.Popen) -> None:
    process.kill()  # as a kernel restart does: no goodbye to the room
    process.wait(timeout=10)
    process.stdout.close()


def browser(runs: int) -> None:
    """The reload and the restart in JupyterLab pages (see the module docstring)."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "tests" / "browser"
    sys.path.insert(0, str(folder))
    from join_driver import run_joining
    from lab_server import jupyter_server

    out = folder.parents[1] / "test-artifacts" / "browser" / "rejoin-bench"
    reports = []
    for run in range(runs):
        # a server and a home of its own each run: the kernels of a run before (host.ipynb's, Anna's, still in
        # their rooms) would otherwise be the ones the same notebooks open again
        home = Path(tempfile.mkdtemp(prefix="rejoin-bench-"))
        with jupyter_server(home, out / f"run-{run + 1}" / "jupyter-server.log") as url:
            report = run_joining(url, out / f"run-{run + 1}")
            assert report.reload_header == report.restart_header == report.seat_header, report
            reports.append(report)
            print(f"browser   reload: map on the page {report.reload_s:.2f} s after the join cell began "
                  f"(join() returned {report.reload_join_s:.2f} s) · restart: join() returned "
                  f"{report.restart_join_s:.2f} s (import and rejoin), map on the page {report.restart_s:.2f} s · "
                  f"{report.seat_header}", flush=True)
    for kind in ("reload", "restart"):
        print(f"median browser {kind}: in the seat {statistics.median(getattr(r, kind + '_s') for r in reports):.2f} s "
              f"after the kernel began the join cell; join() returned after "
              f"{statistics.median(getattr(r, kind + '_join_s') for r in reports):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--browser", action="store_true",
                        help="the reload and the restart in JupyterLab pages (Debian's chromium)")
    options = parser.parse_args()
    if options.browser:
        browser(options.runs)
        return
    home = tempfile.mkdtemp(prefix="rejoin-bench-")
    env = {**os.environ, "TRIVIADOR_NB_HOME": home}
    host = RoomHost()
    room = host.open_room(pace=1.0, seed=3)
    results: dict[str, list[dict]] = {"baseline": [], "restart": []}
    try:
        first, figures = kernel([room.code, "Anna"], env)
        room.start()
        stop(first)
        for _run in range(options.runs):
            for kind, args in (("baseline", [room.code, "Anna"]), ("restart", [])):
                time.sleep(1.1)  # a seat may rejoin once a second (rooms.REJOIN_EVERY_S)
                process, figures = kernel(args, env)
                stop(process)
                assert figures["game"] and figures["seat"] == 0, figures
                results[kind].append(figures)
                print(f"{kind:9} import {figures['import_s']:.2f} s · join() returned {figures['join_s']:.2f} s · "
                      f"game screen built {figures['seated_s']:.2f} s after the import · "
                      f"{figures['total_s']:.2f} s from the kernel's start")
    finally:
        host.close()
    for kind, runs in results.items():
        print(f"median {kind:9}: in the seat {statistics.median(r['seated_s'] for r in runs):.2f} s after "
              f"`from triviador_nb.ui import join`, {statistics.median(r['total_s'] for r in runs):.2f} s from the "
              f"kernel's start (import {statistics.median(r['import_s'] for r in runs):.2f} s)")


if __name__ == "__main__":
    main()
