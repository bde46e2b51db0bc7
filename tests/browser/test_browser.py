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
import re
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "test-artifacts" / "browser"
sys.path.insert(0, str(Path(__file__).parent))
from lab_server import jupyter_server  # noqa: E402 (beside this file)

try:
    from driver import chromium_path, play_whole_game
    from room_driver import play_room_game
    from classroom_driver import run_lesson
    from moments_driver import run_moments
    from join_driver import run_joining
except ImportError as missing:  # no Playwright
    chromium_path = None
    MISSING = f"Playwright for Python is not installed ({missing})"
else:
    MISSING = "" if chromium_path() else "no chromium on PATH (Debian's chromium package)"

if MISSING and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the browser tests: {MISSING}")
pytestmark = pytest.mark.skipif(bool(MISSING), reason=MISSING or "ok")


KERNEL_HOME: dict[str, Path] = {}  # the server's kernels' home (its journals), once the server runs


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    home = tmp_path_factory.mktemp("kernel-home")  # the kernels' journals and seat keys, never the real home
    KERNEL_HOME["path"] = home
    with jupyter_server(home, OUT / "jupyter-server.log") as url:
        yield url


def _forget_games_saved_since(started: float) -> None:
    """Delete the journals a test saved: the setup form speaks the newest saved game's language, so a
    Czech game would make the next tests' notebooks open in Czech."""
    for journal in (KERNEL_HOME["path"] / "journals").glob("*.journal*"):
        if journal.stat().st_mtime >= started - 1:
            journal.unlink()


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


def test_a_click_on_the_middle_of_every_name_takes_that_territory(server_url):
    """Issue 24's bug 2: at 1280x720 in JupyterLab 19 of 39 clicks on the middle of a name failed
    (Komarom-Esztergom's middle lay outside Hungary, Jasz-Nagykun-Szolnok's over Pest). Every one of
    the 19 names of Hungary is clicked at its middle at the first base of a game, where any territory
    may be chosen; the names' drawn boxes overlap neither each other nor a castle; and a mouse sweep
    over the map, names included, still sends nothing to the kernel."""
    from map_driver import click_every_name

    report = click_every_name(server_url, OUT, (1280, 720))
    print(f"\n{len(report.clicks)} names clicked, {len(report.bad())} missed: {report.bad()}; sweep sent "
          f"{report.sweep_messages} messages")
    assert report.first_prompt.startswith("Bases · Your base"), report.first_prompt
    assert len(report.clicks) == 19 and report.bad() == [], report.bad()
    assert report.names_over_names == [] and report.names_over_castles == [], (report.names_over_names,
                                                                                report.names_over_castles)
    assert report.sweep_messages == 0


@pytest.mark.parametrize("viewport", [(1280, 720), (1366, 900), (1920, 1080)])
def test_in_a_battle_round_no_score_label_covers_a_name(server_url, viewport):
    """Issue 24: in battle rounds every territory carries its score label (seat mark and value, a base's
    castle above it), and those covered names ("Bács-" / "Kiskun" under "2 200"): 3 names over score
    labels at 1280x720 and 1 at 1366x900 and 1920x1080 (seed 1). The drawn boxes of the names and of every
    castle and value are measured in the browser."""
    from map_driver import battle_labels

    report = battle_labels(server_url, OUT, viewport)
    print(f"\n{viewport}: {len(report.names)} names, {len(report.scores)} score labels, "
          f"names over them {report.names_over_scores}, over names {report.names_over_names}")
    assert len(report.names) == 19 and len([s for s in report.scores if s["kind"] == "castle"]) == 3
    assert report.names_over_scores == [] and report.names_over_names == []


@pytest.mark.parametrize("viewport, longest", [((1280, 720), False), ((1366, 900), False), ((1280, 720), True)])
def test_a_question_opens_in_view_and_the_map_stays_put(server_url, viewport, longest):
    """Issue 24's bug 5 and the map's jump: with the game scrolled into view once, every question's
    options are inside the window as it opens (they were below the fold at 1366x900; at 1280x720 a
    97-character question beside a two-line header put option D's bottom at 682 px of a 690 px view, 8 px
    from the fold, until long questions were drawn smaller in a short window: 626 px);
    the map does not move between questions (the status line above it wrapped and moved it 28 px); and
    the results table breaks no word or number ("wron g", the guess 1925 as "19 / 25"). ``longest``: a
    game of the bank's 30 longest questions of each kind."""
    from map_driver import watch_questions

    report = watch_questions(server_url, OUT, viewport, questions=12 if longest else 8, longest=longest)
    outside = [o for o in report.options if not o["inside"]]
    print(f"\n{viewport}: {len(report.options)} questions, {len(outside)} with options out of view "
          f"(window bottom {report.view_bottom}), map at {sorted(set(report.map_boxes))}, "
          f"broken words {report.broken_words}")
    assert len(report.options) >= 6 and {o["kind"] for o in report.options} == {"guess", "choice"}
    assert outside == [], outside
    first = report.map_boxes[0]
    assert all(abs(a - b) <= 1 for box in report.map_boxes for a, b in zip(box, first)), report.map_boxes
    assert report.broken_words == [], report.broken_words


def test_the_form_and_the_game_in_czech_cut_no_label_at_1280x720(server_url):
    """Issue 24's cut labels, in Czech: the setup form, the new game, its questions and play at 1280x720
    show no label cut short ("Odpově..." on the guess's Answer button and "D) Tomáš Garrigue Mas..." on
    a long option were cut beside the map)."""
    import time

    from czech_driver import run_in_czech

    started = time.time()
    try:
        run = run_in_czech(server_url, OUT)
    finally:
        _forget_games_saved_since(started)
    print(f"\nin Czech: {run.cut}")
    assert run.title.startswith("ConQUIZtador · Maďarsko"), run.title
    assert {"form", "game", "choice", "guess"} <= set(run.cut), run.cut  # each screen was looked at
    assert all(cut == [] for cut in run.cut.values()), run.cut


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
    assert report.link.endswith(f"/lab/tree/notebooks/join.ipynb?code={report.code}&lang=en"), report.link
    assert report.link_code_filled == report.code and report.link_address_filled == ""
    assert report.lobby_text.startswith("2 of 3 seats"), report.lobby_text
    # back in the same seat with nothing typed: after the reload the game at once, no form; after the restart
    # the form filled from the last join and the seat taken again by itself
    assert re.fullmatch(rf"Room {report.code} · Anna · seat [123] \((red|blue|green)\) · connected",
                        report.seat_header), report.seat_header
    assert report.reload_s is not None and not report.reload_form_shown, report
    assert report.reload_header == report.seat_header, (report.reload_header, report.seat_header)
    assert report.restart_form == [report.code, "Anna"], report.restart_form
    assert report.restart_s is not None and report.restart_header == report.seat_header, report


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


def test_the_get_ready_the_answered_count_the_podium_and_a_cue_from_the_package(server_url):
    """Issue 24: Start shows 3, 2, 1 on the projector and on a player's screen
    before the first question; the projector counts "2 of 3 answered"; with
    the sound switched on the page plays the open, almost-up and reveal cues
    from the package's own files (the same bytes, and no sound file asked of
    any server); End game shows the podium, and the player's place."""
    from triviador_nb.ui.sound import cue_file

    report = run_moments(server_url, OUT)
    print(f"\nmoments: countdown {report.countdown}, answered {report.answered}, played {report.played}, "
          f"sizes {report.sizes}, podium {report.podium} {report.podium_box}, place {report.place}")
    assert report.blocked == [] and report.audio_requests == []
    assert report.ready_title == "Get ready!"
    assert report.countdown == {"projector": ["3", "2", "1"], "player": ["3", "2", "1"]}
    assert report.answered["projector"][-2:] == ["1 of 3 answered", "2 of 3 answered"]
    assert report.answered["player"][-1] == "2 of 3 answered"
    assert report.played == ["open", "almost", "reveal"]
    assert report.sizes == {name: len(cue_file(name)) for name in ("open", "almost", "reveal")}
    for key in ("projector", "player"):
        places = [step.split()[-1] for step in report.podium[key]]  # each step ends with its place
        assert places[0] == "1st" and set(places) <= {"1st", "2nd", "3rd"}, report.podium[key]
    assert "Team A" in " ".join(report.podium["projector"]) and "Team B" in " ".join(report.podium["projector"])
    assert report.podium_box["projector"]["height"] >= 250  # read from the back of the room
    # no place while the first question is open (everyone was "1st of 3 (a shared place)"); a place once
    # someone leads, and at the end the player's own step of the podium
    assert report.place_at_first_question == "", report.place_at_first_question
    place = re.compile(r"You are [123](st|nd|rd) of 3( \(a shared place\))?")
    assert len(report.place) == 2 and all(place.fullmatch(line) for line in report.place), report.place
    step, names = next((step, names) for step, names in report.podium_names["player"]
                       if any(not name.startswith("Bot ") for name in names))
    assert report.place[-1] == f"You are {step} of 3" + (" (a shared place)" if len(names) > 1 else ""), \
        (report.place, report.podium_names)


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
    assert run.report_header[:5] == ["játék", "hely", "játékos", "helyezés", "pontszám"], run.report_header
    assert run.formulas == 0
    assert run.cut == [], f"labels cut short in Hungarian: {run.cut}"


def test_a_hungarian_room_shows_no_english_word_of_ours(server_url):
    """Issue 24, bug 4: host.ipynb with language="hu" and a student's
    join.ipynb in a kernel whose environment says Hungarian. The join form
    before joining, the lobby, the game (scoreboard, log, question headers:
    the bots are worded by each screen) and the ranking say none of our
    English sentences; the questions are the Hungarian bank's; the map is
    credited alike on both pages; no label is cut short."""
    import csv

    from hungarian_room_driver import english_phrases, play_hungarian_room
    from lesson_driver import hu

    room = play_hungarian_room(server_url, OUT)
    print(f"\nHungarian room {room.code}: {len(room.questions)} questions read, {room.seconds} s")
    phrases = english_phrases()
    assert len(phrases) > 200  # the check has our sentences to look for
    pages = {"the student's form": room.form_text, "the student's screen": "\n".join(room.student_text),
             "the teacher's screen": "\n".join(room.teacher_text)}
    english = {where: sorted(p for p in phrases if p in text) for where, text in pages.items()}
    assert english == {where: [] for where in pages}, english
    assert hu("your name") in room.form_placeholders and hu("Join") in room.form_text
    for where in ("the student's screen", "the teacher's screen"):
        assert "3. gép (közepes)" in pages[where] and "Bot 3" not in pages[where], where
        assert hu("Map: Made with Natural Earth") in pages[where], where
    def questions(name):
        with open(REPO / "question_banks" / f"{name}.csv", encoding="utf-8", newline="") as handle:
            return {row["question"].strip() for row in csv.DictReader(handle)}

    hungarian, english_bank = questions("hungarian_hu"), questions("general_knowledge_en")
    asked = [q for q in room.questions if q in hungarian or q in english_bank]  # (not the reveal's lines)
    assert asked and all(q in hungarian for q in asked), room.questions
    assert room.over and room.cut == [], room.cut


def test_the_countdown_ticks_after_resume_and_a_voila_reload_shuts_its_old_kernel_down(server_url):
    """Issue 24 bugs 1 and 6: after the teacher's Pause and Resume the same
    question counts down again (it froze at its number); a reloaded Voila
    page's request to shut its old kernel down is accepted (it was refused,
    403, for want of an ``_xsrf`` cookie)."""
    from resume_driver import run

    report = run(server_url, OUT)
    print(f"\ncountdown {report.before_pause} -> held {report.paused} -> after Resume {report.after_resume}; "
          f"kernels {report.kernels_before_reload} -> {report.kernels_after_reload}, shutdown {report.shutdown_status}")
    assert report.same_question and report.paused[0] == report.paused[1]
    assert report.after_resume[0] <= report.paused[1]
    assert report.after_resume[1] <= report.after_resume[0] - 1, report.after_resume  # it ticks again
    assert report.kernels_after_reload == report.kernels_before_reload, "the old kernel plays on after a reload"


def test_a_room_s_countdown_ticks_after_resume_on_the_student_s_page_and_the_projector(server_url):
    """Issue 24 bugs 1 and 7 in a room: after Pause and Resume the student's
    and the projector's countdowns tick again; the projector has no number
    box, no "You watch this one.", its answer rows folded, the teacher's
    buttons beside the map's top; after End only Save report and Play again."""
    from room_resume_driver import run

    report = run(server_url, OUT)
    print(f"\nheld {report.held}, after Resume {report.after}, projector {report.projector}, "
          f"after End {report.after_end}")
    for name, (first, later) in report.after.items():
        assert first <= report.held[name] and later <= first - 2, (name, report.held, report.after)
    assert report.projector["number_boxes"] == 0 and not report.projector["watch_notes"]
    assert report.projector["entry_rows_shown"] == 0
    assert abs(report.projector["pause_top"] - report.projector["map_top"]) < 120, report.projector
    assert 0 <= report.projector["map_top"] < 400, report.projector  # in view at Start (was about 740 px down)
    assert report.after_end == {"Pause": False, "Resume": False, "Skip question": False, "Undo": False,
                                "End game": False, "Save report": True, "Play again": True}, report.after_end


@contextmanager
def voila_page(server_url: str, name: str, notebook: dict, ready: str):
    """A page of ``notebook`` (written as ``name``.ipynb beside the screenshots) in Voila, once ``ready``
    (a CSS selector) shows and the board had 3 s to fit to its size; a screenshot ``name``.png at the end."""
    import json

    from playwright.sync_api import sync_playwright

    path = OUT / f"{name}.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path())
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{server_url}/voila/render/{path.relative_to(REPO).as_posix()}", timeout=120_000)
            page.locator(ready).first.wait_for(timeout=120_000)
            page.wait_for_timeout(3000)  # the board fitted to its size, its layers drawn again at that zoom
            yield page
            page.screenshot(path=str(OUT / f"{name}.png"))
            browser.close()
    finally:
        path.unlink()


NAME_LAYER_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": [
        "import json\n",
        "from IPython.display import HTML, display\n",
        "from triviador_nb.maps import load_builtin_map\n",
        "from triviador_nb.ui import map_view\n",
        "map_view.NAME_LAYER_LIMIT = 5  # Hungary's 19 territories drawn as a big map's are\n",
        "view = map_view.MapView(load_builtin_map('hungary'))\n",
        "display(HTML('<pre id=\"tnb-order\">' + json.dumps(list(view.labels)) + '</pre>'))\n",
        "display(view.widget)\n"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5}

NAME_PLACES = """() => {
  const map = document.querySelector('.tnb-map');
  const order = JSON.parse(document.querySelector('#tnb-order').textContent);
  const points = [...map.querySelectorAll('.leaflet-marker-icon')].filter(m => m.querySelector('.tnb-points'))
    .map(m => m.getBoundingClientRect());
  const names = {};
  for (const name of map.querySelectorAll('.tnb-names-layer .tnb-name')) {
    const box = name.getBoundingClientRect();
    names[name.dataset.territory] = {x: box.left + box.width / 2, top: box.top,
                                     events: getComputedStyle(name).pointerEvents};
  }
  return order.map((t, i) => ({t, x: points[i].left, y: points[i].top, name: names[t]}));
}"""


def test_a_big_map_s_names_as_one_layer_stand_under_their_territory_s_label_point(server_url):
    """Issue 29 item 5: above NAME_LAYER_LIMIT the names are one icon placed in pixels from the map's
    corner; in the browser each stands centred just under its territory's value label (the label
    point, placed by Leaflet) and lets clicks through to the territory's shape."""
    with voila_page(server_url, "name-layer", NAME_LAYER_NOTEBOOK, ".tnb-names-layer .tnb-name") as page:
        places = page.evaluate(NAME_PLACES)
    assert len(places) == 19 and all(p["name"] is not None for p in places), places
    off = [(p["t"], round(p["name"]["x"] - p["x"], 1), round(p["name"]["top"] - p["y"], 1)) for p in places
           if abs(p["name"]["x"] - p["x"]) > 1.5 or not 0 <= p["name"]["top"] - p["y"] <= 2.5]
    assert off == [], off  # (territory, x off, y off) in px
    assert {p["name"]["events"] for p in places} == {"none"}



BOARD_LAYER_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": [
        "import json\n",
        "import ipywidgets as w\n",
        "from IPython.display import HTML, display\n",
        "from triviador_nb.maps import load_builtin_map\n",
        "from triviador_nb.ui import map_view\n",
        "map_view.NAME_LAYER_LIMIT = map_view.BOARD_LAYER_LIMIT = 5  # Hungary drawn as a big map is\n",
        "view = map_view.MapView(load_builtin_map('hungary'))\n",
        "ids = view.game_map.board.territories\n",
        "owners, values, towers = {t: None for t in ids}, {t: 0 for t in ids}, {t: None for t in ids}\n",
        "owners[ids[0]] = '#CC3311'\n",
        "view.show(owners, values, towers, 3, choosable=[ids[1]])\n",
        "out = w.HTML('<pre id=\"tnb-clicked\"></pre>')\n",
        "def clicked(t):\n",
        "    owners[t], values[t] = '#0077BB', 200\n",
        "    view.show(owners, values, towers, 3)\n",
        "    out.value = f'<pre id=\"tnb-clicked\">{t}</pre><pre id=\"tnb-ready\">{view.looks._ready}</pre>'\n",
        "view.on_territory_click(clicked)\n",
        "display(HTML('<pre id=\"tnb-order\">' + json.dumps(list(ids)) + '</pre>'))\n",
        "display(view.widget, out)\n"]}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5}

PATH_LOOKS = """(order) => Object.fromEntries(order.map((t, i) => {
  const style = getComputedStyle(document.querySelector(`.tnb-map .tnb-shapes path.t${i}`));
  return [t, {fill: style.fill, stroke: style.stroke, width: style.strokeWidth, dash: style.strokeDasharray,
              events: style.pointerEvents}];
}))"""


def test_a_big_map_s_shapes_as_one_layer_take_their_looks_and_a_click_chooses_the_territory_under_it(server_url):
    """Issue 25 / issue 29 item 5: above BOARD_LAYER_LIMIT the shapes are one SVG; in the browser each
    territory's path takes its look from the BoardLooks widget (owner's fill, choosable outline), a click
    at a territory's label point (through the names and the SVG) reaches the kernel as that territory, and
    the look the kernel then sends (a small message) recolours that path."""
    import json

    with voila_page(server_url, "board-layer", BOARD_LAYER_NOTEBOOK, ".tnb-map .tnb-shapes path") as page:
        order = json.loads(page.locator("#tnb-order").text_content())
        before = page.evaluate(PATH_LOOKS, order)
        # scaled to the map's zoom inside the SVG, where non-scaling-stroke keeps outlines 1 px (a scale of the
        # <svg> itself thinned them to a quarter pixel)
        scaled = page.evaluate("""() => { const g = document.querySelector('.tnb-map .tnb-shapes > g');
          return [getComputedStyle(g).transform, getComputedStyle(g.parentElement).transform,
                  getComputedStyle(g.firstElementChild).vectorEffect]; }""")
        chosen, outside = [], []
        for t in (order[2], order[9], order[18]):
            box = page.locator(f'.tnb-names-layer .tnb-name[data-territory="{t}"]').bounding_box()
            x, y = box["x"] + box["width"] / 2, box["y"] - 1  # the label point, above its name
            shape = page.locator(f".tnb-map .tnb-shapes path.t{order.index(t)}").bounding_box()
            if not (shape["x"] <= x <= shape["x"] + shape["width"] and shape["y"] <= y <= shape["y"] + shape["height"]):
                outside.append((t, x, y, shape))  # the SVG is drawn where Leaflet puts the names
            page.mouse.click(x, y)
            page.wait_for_function(f"() => document.querySelector('#tnb-clicked')?.textContent === '{t}'",
                                   timeout=30_000)
            chosen.append(page.locator("#tnb-clicked").text_content())
        page.wait_for_timeout(500)
        after = page.evaluate(PATH_LOOKS, order)
        ready = page.locator("#tnb-ready").text_content()  # the page told the kernel it takes small messages
    free = before[order[3]]["fill"]
    assert before[order[0]]["fill"] == "rgb(204, 51, 17)" and free != before[order[0]]["fill"], before
    assert before[order[1]]["width"] == "4px" and before[order[0]]["width"] == "1px", before
    assert {look["events"] for look in before.values()} == {"none"}
    assert scaled[0].startswith("matrix(") and scaled[1:] == ["none", "non-scaling-stroke"], scaled
    assert chosen == [order[2], order[9], order[18]] and outside == [], outside
    assert ready == "True"
    assert [after[t]["fill"] for t in chosen] == ["rgb(0, 119, 187)"] * 3 and after[order[3]]["fill"] == free
