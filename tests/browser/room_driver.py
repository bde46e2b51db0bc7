"""A room played in real JupyterLab pages: the teacher's host.ipynb and two
students' join.ipynb, each in its own page (and kernel), clicked as people would.

The teacher runs host.ipynb and reads the code off the page; each student runs
join.ipynb, types the code and a name into the form and presses Join; the
teacher presses Start; the students play by clicking the map, pressing option
keys and typing guesses (the moves of ``driver.py``). With ``restart_mid_battle``
the first student's kernel is restarted during the battle (Kernel > Restart
Kernel and Run All Cells) and the student is back in the seat with nothing
typed (the kernel remembers the room, issue 24). Screenshots of all three pages at the start, in the battle and at the end.

Run by hand: ``python tests/browser/room_driver.py URL OUT_DIR`` against a
JupyterLab serving the repository.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from driver import CHROMIUM_ARGS, MAP_STATE, Report, _answer_choice, _answer_guess, _click_territory, chromium_path
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright

NAMES = ("Anna", "Ben")
REPO = Path(__file__).resolve().parents[2]
COPIES = REPO / "test-artifacts" / "browser" / "rooms"  # each student's own join.ipynb, as on their own account


def student_notebook(name: str) -> str:
    """A copy of join.ipynb for ``name`` (students do not share one file), as a
    path the Jupyter server (rooted at the repository) serves."""
    COPIES.mkdir(parents=True, exist_ok=True)
    copy = COPIES / f"join-{name}.ipynb"
    copy.write_bytes((REPO / "notebooks" / "join.ipynb").read_bytes())
    return str(copy.relative_to(REPO))


@dataclass
class RoomReport:
    code: str = ""
    students: list[Report] = field(default_factory=list)
    over: bool = False
    projector_over: bool = False
    rejoined_s: float | None = None
    rejoined_seat: str = ""
    seconds: float = 0.0
    teacher_status: str = ""
    student_status: list[str] = field(default_factory=list)


def open_lab(page: Page, url: str, notebook: str) -> None:
    workspace = f"tnb{int(time.time() * 1000) % 10**9}"
    page.goto(f"{url}/lab/workspaces/{workspace}/tree/{notebook}")
    run_all_cells(page)


def run_all_cells(page: Page) -> None:
    """Once the notebook is on the page: Run > Run All Cells (after saying No to JupyterLab's news)."""
    page.locator(".jp-Notebook").first.wait_for(timeout=90_000)
    page.wait_for_timeout(1500)
    no_news = page.get_by_role("button", name="No", exact=True)
    if no_news.count():
        no_news.first.click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


def join_by_form(page: Page, code: str, name: str) -> None:
    """Type the code and the name into join.ipynb's form and press Join."""
    page.get_by_placeholder("K7-PQ45").first.wait_for(timeout=120_000)
    page.get_by_placeholder("K7-PQ45").first.fill(code)
    page.get_by_placeholder("your name").first.fill(name)
    page.get_by_role("button", name="Join", exact=True).first.click()
    page.locator(".tnb-root").get_by_text(f"· {name} ·").first.wait_for(timeout=30_000)


def restart_and_run_all(page: Page) -> None:
    page.get_by_role("menuitem", name="Kernel", exact=True).click()
    page.get_by_role("menuitem", name="Restart Kernel and Run All Cells…").click()
    page.get_by_role("button", name="Confirm Kernel Restart").or_(
        page.get_by_role("button", name="Restart", exact=True)).first.click()


def _retyping_guess(page: Page, root, report: Report) -> bool:
    """A student's guess in a room: typed at once, and typed again after a
    click on the box when it did not arrive (see :func:`driver._answer_guess`)."""
    return _answer_guess(page, root, report, retype=True)


def teacher_notebook(url: str, key: str) -> str:
    """A teacher's notebook that runs ``teach(url, key)``: the teacher's
    screen of a room host in another process (issue 22), as a path the
    Jupyter server serves."""
    COPIES.mkdir(parents=True, exist_ok=True)
    notebook = json.loads((REPO / "notebooks" / "host.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in notebook["cells"] if c["cell_type"] == "code")
    cell["source"] = ["# NBVAL_IGNORE_OUTPUT\n", "from triviador_nb.ui import teach\n", "\n",
                      f'screen = teach("{url}", key="{key}", rooms=0)\n', "screen"]
    cell["outputs"], cell["execution_count"] = [], None
    notebook["cells"] = [c for c in notebook["cells"] if c["cell_type"] != "code" or c is cell]
    copy = COPIES / "teach.ipynb"
    copy.write_text(json.dumps(notebook), encoding="utf-8")
    return str(copy.relative_to(REPO))


def play_room_game(url: str, out_dir: Path, viewport: tuple[int, int] = (1366, 900), timeout_s: float = 420,
                   restart_mid_battle: bool = True, teacher: str = "notebooks/host.ipynb",
                   prefix: str = "room") -> RoomReport:
    out_dir.mkdir(parents=True, exist_ok=True)
    result = RoomReport()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        pages = [browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}).new_page()
                 for _ in range(3)]
        notebook, (teacher, students) = teacher, (pages[0], pages[1:])
        open_lab(teacher, url, notebook)
        code_box = teacher.locator(".tnb-code").first
        code_box.wait_for(timeout=120_000)
        result.code = code_box.inner_text().strip()
        for page, name in zip(students, NAMES):
            open_lab(page, url, student_notebook(name))
        for page, name in zip(students, NAMES):
            join_by_form(page, result.code, name)
        teacher.get_by_text("Seat 2").first.wait_for(timeout=30_000)
        for name in NAMES:
            teacher.locator(".tnb-root").get_by_text(name).first.wait_for(timeout=30_000)
        teacher.screenshot(path=str(out_dir / f"{prefix}-teacher-lobby.png"))
        teacher.get_by_role("button", name="Start the game").first.click()
        roots = [page.locator(".tnb-root").first for page in students]
        for root in roots:
            root.locator(".tnb-map path.leaflet-interactive").first.wait_for(timeout=60_000)
        for i, page in enumerate(pages):
            page.screenshot(path=str(out_dir / f"{prefix}-{i}-start.png"))
        result.students = [Report(where=f"room:{name}", name=name) for name in NAMES]
        started = time.monotonic()
        battle_shot = restarted = False
        while time.monotonic() - started < timeout_s:
            did = False
            for page, root, report in zip(students, roots, result.students):
                try:
                    for move, kind in ((_retyping_guess, "guess"), (_answer_choice, "choice"),
                                       (_click_territory, "territory")):
                        if move(page, root, report):
                            report.moves.append(kind)
                            state = root.evaluate(MAP_STATE)
                            report.map_sizes.append((round(state["width"], 1), round(state["height"], 1)))
                            did = True
                            break
                except PlaywrightError:  # the screen changed under the move: look again
                    pass
            status = roots[1].locator(".tnb-status").first.inner_text()
            if not battle_shot and "Battle round" in status:
                teacher.wait_for_timeout(400)
                for i, page in enumerate(pages):
                    page.screenshot(path=str(out_dir / f"{prefix}-{i}-battle.png"))
                battle_shot = True
            if battle_shot and restart_mid_battle and not restarted:
                restarted = True
                before = students[0].locator(".tnb-root").first.element_handle()
                restart_and_run_all(students[0])
                begun = time.monotonic()
                before.wait_for_element_state("hidden", timeout=60_000)  # the old output is gone: the cell runs
                # the kernel remembers the room: Anna is back in her seat with nothing typed (issue 24)
                students[0].locator(".tnb-root").get_by_text(f"· {NAMES[0]} ·").first.wait_for(timeout=60_000)
                roots[0] = students[0].locator(".tnb-root").first
                roots[0].locator(".tnb-map path.leaflet-interactive").first.wait_for(timeout=30_000)
                result.rejoined_s = round(time.monotonic() - begun, 2)
                try:  # "back in your seat" until the map is drawn, then "connected" (its update may trail the map)
                    roots[0].locator(".tnb-message", has_text="· connected").first.wait_for(timeout=30_000)
                except PlaywrightError:
                    pass  # (the test then says what the line says)
                result.rejoined_seat = roots[0].locator(".tnb-message").first.inner_text()
                students[0].screenshot(path=str(out_dir / f"{prefix}-1-rejoined.png"))
            if "Game over" in status:
                result.over = True
                break
            if not did:
                students[1].wait_for_timeout(60)
        result.seconds = round(time.monotonic() - started, 1)
        teacher.wait_for_timeout(1500)
        result.teacher_status = teacher.locator(".tnb-status").first.inner_text()
        result.projector_over = "Game over" in result.teacher_status
        result.student_status = [root.locator(".tnb-status").first.inner_text() for root in roots]
        for i, page in enumerate(pages):
            page.screenshot(path=str(out_dir / f"{prefix}-{i}-end.png"), full_page=False)
        browser.close()
    return result


if __name__ == "__main__":
    report = play_room_game(sys.argv[1], Path(sys.argv[2]))
    print(json.dumps(asdict(report), indent=1))
