"""The game screen in real browsers: whole games clicked through in JupyterLab and Voila.

Runs wherever Debian's ``chromium`` and Playwright for Python are installed
(CI installs both; no browser download) and is skipped elsewhere, except in
CI, where a missing browser fails. A Jupyter server (JupyterLab and Voila)
serves the repository on 127.0.0.1 on a port the test picks. Screenshots land
in ``test-artifacts/browser/``. Each game fails on what a student would
notice (issue 9): a lost or misdirected click on the map, a map that changes
size, a stale dashed outline, a guess typed the moment its question opens
that does not arrive, an option key that does nothing, or more than a handful
of kernel messages while the mouse sweeps over the map.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "test-artifacts" / "browser"
sys.path.insert(0, str(Path(__file__).parent))

try:
    from driver import chromium_path, play_whole_game
    from room_driver import play_room_game
    from classroom_driver import run_lesson
    from join_driver import run_joining
except ImportError as missing:  # no Playwright
    chromium_path = None
    MISSING = f"Playwright for Python is not installed ({missing})"
else:
    MISSING = "" if chromium_path() else "no chromium on PATH (Debian's chromium package)"

if MISSING and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the browser tests: {MISSING}")
pytestmark = pytest.mark.skipif(bool(MISSING), reason=MISSING or "ok")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    port = _free_port()
    home = tmp_path_factory.mktemp("kernel-home")  # the kernels' journals and seat keys, never the real home
    OUT.mkdir(parents=True, exist_ok=True)
    log = open(OUT / "jupyter-server.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
         f"--port={port}", "--IdentityProvider.token=", "--ServerApp.password=",
         f"--ServerApp.root_dir={REPO}"], stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "TRIVIADOR_NB_HOME": str(home)})
    url = f"http://127.0.0.1:{port}"
    for _ in range(240):
        try:
            urllib.request.urlopen(f"{url}/api", timeout=1)
            break
        except OSError:
            time.sleep(0.5)
    else:
        server.terminate()
        raise RuntimeError("the Jupyter server did not start in 120 s; see test-artifacts/browser/jupyter-server.log")
    yield url
    server.terminate()
    server.wait(timeout=30)
    log.close()


def check_game(report) -> None:
    print(f"\n{report.where}: {len(report.clicks)} map clicks ({len(report.bad_clicks())} lost or misdirected), "
          f"{len(report.guesses)} typed guesses, {len(report.keys)} options, map {sorted(set(report.map_sizes))} px, "
          f"most dashed {report.most_dashed}, sweep sent {report.sweep_messages} messages, {report.seconds} s")
    assert report.over, f"{report.where}: the game did not end ({report.final_status!r}, {report.seconds} s)"
    assert report.bad_clicks() == [], f"{report.where}: lost or misdirected clicks: {report.bad_clicks()}"
    assert len(report.clicks) >= 1, report.moves
    assert report.guesses and all(g["arrived"] for g in report.guesses), report.guesses
    assert all(k["arrived"] for k in report.keys), report.keys
    assert len(set(report.map_sizes)) == 1, f"{report.where}: the map changed size: {sorted(set(report.map_sizes))}"
    assert report.most_dashed <= 1 and report.dashed_at_end == 0, (report.most_dashed, report.dashed_at_end)


def test_two_whole_games_in_jupyterlab_by_clicking(server_url):
    shipped = (REPO / "notebooks" / "play.ipynb").read_bytes()
    rerun: dict = {}
    reports = play_whole_game(server_url, OUT, "lab", (1600, 1000), games=2, save_at_end=True, rerun=rerun)
    for report in reports:
        check_game(report)
    assert reports[0].sweep_messages <= 5, f"a mouse sweep sent {reports[0].sweep_messages} kernel messages"
    assert any(c["map_top"] < -10 for r in reports for c in r.clicks), "no click with the map partly out of view"
    assert any(k["by_key"] for r in reports for k in r.keys) and any(not k["by_key"] for r in reports for k in r.keys)
    assert (REPO / "notebooks" / "play.ipynb").read_bytes() == shipped  # saved mid-lesson, still as shipped
    print(f"Run All: {rerun['running']} widget updates in 3 s of a running game, {rerun['updates']} in 10 s after")
    assert rerun["running"] > 20  # a running game updates its timer every 0.25 s: the count sees that
    assert rerun["updates"] <= 5, f"after Run All the old game sent {rerun['updates']} widget updates in 10 s"


def test_a_whole_game_in_voila_on_a_projector_screen(server_url):
    (report,) = play_whole_game(server_url, OUT, "voila", (1280, 720))
    check_game(report)
    assert report.sweep_messages <= 5, f"a mouse sweep sent {report.sweep_messages} kernel messages"


def test_a_room_a_teacher_and_two_students_in_three_pages(server_url):
    """Issue 11's "done when": host.ipynb and two students' join.ipynb in three
    pages of real JupyterLab; the students play by clicking; one student's
    kernel is restarted mid-battle and the student rejoins by the form and
    finishes the game."""
    report = play_room_game(server_url, OUT)
    for student in report.students:
        print(f"\n{student.name}: {len(student.clicks)} map clicks ({len(student.bad_clicks())} lost or "
              f"misdirected), {len(student.guesses)} typed guesses, {len(student.keys)} options, "
              f"map {sorted(set(student.map_sizes))} px")
    print(f"room {report.code}: {report.seconds} s; rejoined {report.rejoined_s} s after the restart")
    assert report.over and report.projector_over, (report.teacher_status, report.student_status)
    assert all(status.startswith("Game over") for status in report.student_status), report.student_status
    assert report.rejoined_s is not None and "· Anna · seat 1" in report.rejoined_seat, report.rejoined_seat
    assert "connected" in report.rejoined_seat
    for student in report.students:
        assert student.clicks and student.bad_clicks() == [], (student.name, student.bad_clicks())
        assert student.guesses and all(g["arrived"] for g in student.guesses), student.guesses
        # a guess typed the instant a room's question opens can lose its keystrokes (1 of 7 in one CI run,
        # Anna's first: issue 24's "typing at once"); the student types it again and it arrives
        assert sum(1 for g in student.guesses if g.get("retyped")) <= 1, student.guesses
        assert all(k["arrived"] for k in student.keys), student.keys
        assert len(set(student.map_sizes)) == 1, (student.name, sorted(set(student.map_sizes)))


def test_students_join_by_the_link_and_rejoin_with_nothing_typed(server_url):
    """Issue 24: Ben opens the teacher's join link in a fresh page and finds the
    code filled in; Anna's page is reloaded and the join cell run again (the
    game at once, no form), then her kernel restarted with Run All (the form
    filled with her room and name, and she is back in her seat by itself).
    The times (from the join cell's start to her seat's map on the page) are
    printed, not asserted: speed is the benchmarks' (benchmarks/rejoin.py)."""
    report = run_joining(server_url, OUT / "joining")
    print(f"\nroom {report.code}: link {report.link}; after a reload join() returned {report.reload_join_s} s and "
          f"the map was on the page {report.reload_s} s after the join cell began; after a kernel restart "
          f"{report.restart_join_s} s (import and rejoin) and {report.restart_s} s")
    assert report.link.endswith(f"/lab/tree/notebooks/join.ipynb?code={report.code}"), report.link
    assert report.link_code_filled == report.code and report.link_address_filled == ""
    assert report.lobby_text.startswith("2 of 3 seats"), report.lobby_text
    assert report.reload_s is not None and not report.reload_form_shown, report
    assert "· Anna · seat" in report.reload_header and report.reload_header.endswith("connected"), report
    assert report.restart_form == [report.code, "Anna"], report.restart_form
    assert "· Anna · seat" in report.restart_header and report.restart_header.endswith("connected"), report


def test_the_same_teacher_screen_runs_a_room_of_a_host_process(server_url, tmp_path):
    """Issue 22: the teacher's screen against a ``triviador-nb host`` process
    (as on a JupyterHub service) instead of a host in the teacher's kernel:
    the teacher's page runs ``teach(url, key)``, the students join by the
    form, play by clicking, and the game ends on every screen."""
    import os
    import re
    import subprocess

    from room_driver import play_room_game, teacher_notebook

    process = subprocess.Popen([sys.executable, "-m", "triviador_nb", "host", "--rooms", "1", "--start-after",
                                "3600", "--pace", "0.5", "--for", "900"], stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "TRIVIADOR_NB_HOME": str(tmp_path)})
    try:
        lines = [process.stdout.readline() for _ in range(2)]
        found = re.search(r'teach\("([^"]+)", key="([^"]+)"\)', "".join(lines))
        assert found, lines
        url, key = found.groups()
        report = play_room_game(server_url, OUT, restart_mid_battle=False, teacher=teacher_notebook(url, key),
                                prefix="room-process")
    finally:
        process.terminate()
        process.wait(timeout=20)
        process.stdout.close()
    print(f"room {report.code} on a host process: {report.seconds} s")
    assert report.over and report.projector_over, (report.teacher_status, report.student_status)
    assert all(status.startswith("Game over") for status in report.student_status), report.student_status
    for student in report.students:
        assert student.clicks and student.bad_clicks() == [], (student.name, student.bad_clicks())
        assert all(k["arrived"] for k in student.keys), student.keys


def test_the_classroom_projector_in_voila_needs_no_network(server_url):
    """Issue 12's projector mode: every request to another host is blocked and
    the whole game still renders; the teacher enters a team's answer hidden
    and pauses."""
    report = run_lesson(server_url, OUT)
    print(f"\nclassroom: {report.requests} requests, blocked {report.blocked}, rendered {report.rendered}")
    assert report.blocked == [], f"the projector page asked other hosts for {report.blocked}"
    assert set(report.rendered) == {"1280x720", "1920x1080"}
    assert all(sizes["map"] > 300 and sizes["teacher"] > 100 for sizes in report.rendered.values()), report.rendered
    assert report.entry_hidden and report.answer_in
    assert report.paused.startswith("Paused"), report.paused


@pytest.mark.parametrize("where", ["voila", "lab"])
def test_a_teacher_s_whole_lesson_in_hungarian(server_url, where):
    """Issue 12's "Done when": set up in Hungarian with two teams and a bot,
    oral answers typed by the teacher, clicks on the teams' turns, a pause, a
    kernel restart and the saved game resumed, the game ended and the report
    saved and opened with openpyxl (Voila with every other host blocked)."""
    from lesson_driver import TEAMS, hu, hu_plural, run_lesson

    run = run_lesson(server_url, OUT, where)
    print(f"\nlesson in {where}: {run.entered} answers typed, {run.clicks} clicks, "
          f"{run.moves_before_restart}+{run.moves_after_resume} moves, {run.seconds} s")
    assert run.blocked == []
    assert run.folded_after_new_game and run.title.startswith("ConQUIZtador · Magyarország")
    assert run.entered >= 2 and run.entry_hidden and run.clicks >= 1
    assert run.paused_status.startswith(hu("Paused")) and run.paused_held_s > 0
    assert run.moves_before_restart >= 4 and run.moves_after_resume >= 1
    assert run.journal and run.journal in run.resumed_message  # the game played, not an older one
    assert run.resumed_message.startswith(hu_plural("Resumed from {file}: game {game}, {n} move in. Press Start to "
                                                    "go on.", "Resumed from {file}: game {game}, {n} moves in. "
                                                    "Press Start to go on.").split("{")[0]), run.resumed_message
    assert run.over_status.startswith(hu("Game over")), run.over_status
    assert run.report_message.startswith(hu("Report saved: {xlsx} and {n} CSV files in {folder}").split("{")[0])
    assert run.report_sheets == ["players", "answers", "questions", "scores"]
    assert set(TEAMS) <= set(run.report_players)
    assert run.formulas == 0
