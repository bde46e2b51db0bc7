"""How soon a student is back in the seat, counted from a fresh kernel (issue 24).

Run: ``.venv/bin/python benchmarks/rejoin.py [--runs 5] [--baseline main]``

A room host runs here (loopback, a game under way). Each student kernel is a
fresh Python process standing in for an ipykernel: its clock starts before
anything is imported, it runs what join.ipynb's cell runs
(``from triviador_nb.ui import join``; ``join()``) on an asyncio loop, and
reports (counted from when it has loaded what a ready ipykernel has:
IPython, traitlets, comm) **in the seat**, when the room has taken the
seat's key back and the room line saying so is shown (this tree shows it the
moment the seat is back, ``StudentScreen.seated_at``; the baseline when the
cell is done), and **screen drawn**, when the seat's game screen (the map)
is built. The process is then killed, as a kernel restart kills it (its
connection drops without a goodbye).

Each run times the same restart twice, in turn: **baseline**, the package as
it is on ``--baseline`` (a git ref; by default the commit this branch
left ``main`` at: its
``triviador_nb/`` and ``maps/`` unpacked to a temporary folder put first on
the kernel's ``PYTHONPATH``), and **this tree**. Both are real rejoins or the
run fails: the seat's key kept on disk is the one the kernel comes back
with, the seat is Anna's, the room holds her alone and sees her connected.

``--browser`` measures in real JupyterLab pages (Debian's chromium,
``tests/browser/join_driver.py``): a teacher's host.ipynb and two students;
after Start, Anna's page is reloaded and her join cell run again, then her
kernel restarted with Run All; the same for Cleo, whose notebook loads the
baseline's package. Each time from the kernel's first execute of the join
cell (its first line prints the time) to the moment the page shows her room
line in her seat (the page's own clock, by a MutationObserver: **in the
seat**) and to her seat's map on the page (**screen drawn**). Prints each run
and the median and worst of each, with the load average.

Run: ``.venv/bin/python benchmarks/rejoin.py --browser [--runs 5]``
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
from pathlib import Path

from triviador_nb.rooms import RoomHost
from triviador_nb.rooms.client import token_file

REPO = Path(__file__).resolve().parents[1]

KERNEL = r"""
import asyncio, json, re, sys, time
import ipykernel.ipkernel  # what a kernel has loaded when it is ready (IPython, traitlets, comm)
began = time.monotonic()

async def main():
    from triviador_nb.ui import join
    imported = time.monotonic()
    screen = join(*json.loads(sys.argv[1]))
    returned = time.monotonic()  # the cell is done: what it shows goes to the page
    seated = getattr(screen, "seated_at", None) or returned  # (this tree shows the room line the moment it is back)
    line = re.sub("<[^>]+>", "", screen.header.value)
    end = time.monotonic() + 60
    while screen.screen is None and time.monotonic() < end:
        await asyncio.sleep(0.002)
    drawn = time.monotonic()
    client = screen.client
    print(json.dumps({"import_s": imported - began, "seated_s": seated - began, "returned_s": returned - began, "drawn_s": drawn - began,
                      "line": line, "seat": client.seat if client else None, "status": client.status if client else None,
                      "token": client.token if client else None, "drawn": screen.screen is not None,
                      "package": sys.modules["triviador_nb"].__file__}), flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def unpack(ref: str) -> tuple[Path, str]:
    """``triviador_nb/`` and ``maps/`` of git ``ref`` in a temporary folder; the folder and the commit."""
    commit = subprocess.run(["git", "rev-parse", "--short", ref], cwd=REPO, capture_output=True, text=True,
                            check=True).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="rejoin-baseline-"))
    archive = subprocess.run(["git", "archive", commit, "triviador_nb", "maps"], cwd=REPO, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder, commit


def kernel(args: list, env: dict) -> tuple[subprocess.Popen, dict]:
    process = subprocess.Popen([sys.executable, "-c", KERNEL, json.dumps(args)], stdout=subprocess.PIPE, text=True,
                               env=env, cwd=env["TRIVIADOR_NB_HOME"])  # not the repository: its package would come first
    line = process.stdout.readline()
    if not line:
        process.wait(timeout=30)
        raise SystemExit(f"the student's kernel died without a figure (exit {process.returncode})")
    return process, json.loads(line)


def stop(process: subprocess.Popen) -> None:
    process.kill()  # as a kernel restart does: no goodbye to the room
    process.wait(timeout=10)
    process.stdout.close()


def really_back(figures: dict, room, key: str, package: Path) -> None:
    """Fail loudly unless the kernel is back in Anna's seat with her kept key,
    from the package it was meant to load, and the room sees her there alone."""
    problems = []
    if not str(figures["package"]).startswith(str(package)):
        problems.append(f"loaded {figures['package']}, not the package under {package}")
    if figures["status"] != "joined" or figures["seat"] != 0 or figures["token"] != key:
        problems.append(f"not back in seat 1 with the kept key: {figures['status']}, seat {figures['seat']}, "
                        f"{'the same' if figures['token'] == key else 'another'} key")
    if " · Anna · seat 1" not in figures["line"]:
        problems.append(f"the room line says {figures['line']!r}")
    if not figures["drawn"]:
        problems.append("no game screen within 60 s")
    end = time.monotonic() + 5
    while not room.connected("Anna") and time.monotonic() < end:
        time.sleep(0.01)
    members = [(m.name, m.seat) for m in room.members()]
    if members != [("Anna", 0)] or not room.connected("Anna"):
        problems.append(f"the room holds {members}, Anna {'connected' if room.connected('Anna') else 'not connected'}")
    if problems:
        raise SystemExit("NOT A REJOIN: " + "; ".join(problems))


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def summary(values: list[float]) -> str:
    return f"median {statistics.median(values):.2f} s, worst {max(values):.2f} s"


def browser(runs: int, old: Path, commit: str) -> None:
    """The reload and the restart in JupyterLab pages: Anna on this tree, Cleo on the baseline (see the
    module's docstring)."""
    folder = REPO / "tests" / "browser"
    sys.path.insert(0, str(folder))
    from join_driver import run_joining
    from lab_server import jupyter_server
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    out = REPO / "test-artifacts" / "browser" / "rejoin-bench"
    kinds = {"Anna": "this tree", "Cleo": f"baseline {commit}"}
    figures: dict[tuple[str, str], list[tuple[float, float]]] = {}
    print(load(), flush=True)
    run = attempt = 0
    while run < runs:
        attempt += 1
        if attempt > 2 * runs:
            raise SystemExit(f"only {run} of {runs} runs could be set up in {attempt - 1} tries")
        # a server and a home of its own each run: the kernels of a run before (host.ipynb's, Anna's, still in
        # their rooms) would otherwise be the ones the same notebooks open again
        home = Path(tempfile.mkdtemp(prefix="rejoin-bench-"))
        try:
            with jupyter_server(home, out / f"try-{attempt}" / "jupyter-server.log") as url:
                report = run_joining(url, out / f"try-{attempt}", baseline=old)
        except PlaywrightTimeout as error:  # JupyterLab never ran a notebook (a busy machine): try again
            print(f"try {attempt}: a page did not get ready ({str(error).splitlines()[0]}); see "
                  f"{out / f'try-{attempt}'}", flush=True)
            continue
        for back in report.rejoins:
            problems = [f"{when}: {header!r}" for when, header in (("after the reload", back.reload_header),
                                                                   ("after the restart", back.restart_header))
                        if header != back.seat_header]
            if back.reload_form_shown or back.restart_form != [report.code, back.name]:
                problems.append(f"the form: shown after the reload {back.reload_form_shown}, after the restart "
                                f"{back.restart_form}")
            if problems:  # not back in the very seat she had, with nothing typed
                raise SystemExit(f"NOT A REJOIN ({back.name}, in the seat {back.seat_header!r}): " + "; ".join(problems))
            for kind in ("reload", "restart"):
                seated, drawn = getattr(back, f"{kind}_seated_s"), getattr(back, f"{kind}_drawn_s")
                figures.setdefault((kind, kinds[back.name]), []).append((seated, drawn))
                print(f"run {run + 1} {kind:7} {kinds[back.name]:18} in the seat {seated:.2f} s · screen drawn "
                      f"{drawn:.2f} s (join() returned {getattr(back, f'{kind}_join_s'):.2f} s)"
                      + (f" · first line {back.restart_first_line!r}" if kind == "restart" else ""), flush=True)
        print(f"run {run + 1}: {report.rejoins[0].seat_header} · {load()}", flush=True)
        run += 1
    print(f"in JupyterLab, from the kernel's first execute of the join cell; {runs} runs each; {load()}")
    for (kind, tree), values in sorted(figures.items()):
        print(f"{kind:7} {tree:18}: in the seat {summary([v[0] for v in values])} · screen drawn "
              f"{summary([v[1] for v in values])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", help="the git ref timed beside this tree (default: where this branch left main)")
    parser.add_argument("--browser", action="store_true",
                        help="the reload and the restart in JupyterLab pages (Debian's chromium)")
    options = parser.parse_args()
    if options.baseline is None:
        options.baseline = subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=REPO, capture_output=True,
                                          text=True, check=True).stdout.strip()[:10]
    old, commit = unpack(options.baseline)
    if options.browser:
        browser(options.runs, old, commit)
        return
    home = tempfile.mkdtemp(prefix="rejoin-bench-")
    env = {**os.environ, "TRIVIADOR_NB_HOME": home}
    trees = {f"baseline {commit}": (old, {**env, "PYTHONPATH": str(old)}),
             "this tree": (REPO, env)}
    host = RoomHost()
    room = host.open_room(pace=1.0, seed=3)
    results: dict[str, list[dict]] = {kind: [] for kind in trees}
    print(load())
    try:
        first, figures = kernel([room.code, "Anna"], env)
        room.start()
        stop(first)
        os.environ["TRIVIADOR_NB_HOME"] = home
        key = json.loads(token_file().read_text(encoding="utf-8"))
        key = next(iter(key.values()))
        for _run in range(options.runs):
            for kind, (package, kernel_env) in trees.items():
                time.sleep(1.1)  # a seat may rejoin once a second (rooms.REJOIN_EVERY_S)
                process, figures = kernel([], kernel_env)  # join() with nothing typed, as join.ipynb runs it
                try:
                    really_back(figures, room, key, package)
                finally:
                    stop(process)
                results[kind].append(figures)
                print(f"{kind:18} in the seat {figures['seated_s']:.2f} s (import {figures['import_s']:.2f} s, cell done "
                      f"{figures['returned_s']:.2f} s) · "
                      f"screen drawn {figures['drawn_s']:.2f} s · {figures['line']} · {load()}", flush=True)
    finally:
        host.close()
    print(f"restarted kernels, from the kernel's first line; {options.runs} runs each; {load()}")
    for kind, runs in results.items():
        print(f"{kind:18}: in the seat {summary([r['seated_s'] for r in runs])} · screen drawn "
              f"{summary([r['drawn_s'] for r in runs])}")


if __name__ == "__main__":
    main()
