"""A teacher's whole lesson in a real browser (issue 12, "Done when"):
``notebooks/classroom.ipynb`` in Voila (every request to another host
blocked) or in JupyterLab, played as a teacher would:

1. open "Game setup", choose Magyar, type two teams' names, press New game
   (the form folds, the game is Hungarian); the third seat is a bot;
2. press Start, type the teams' oral answers into their hidden boxes, click
   the territories they choose on their turns;
3. pause (every timer stops) and resume;
4. restart the kernel (Voila: reload the page, a new kernel; JupyterLab:
   Kernel > Restart Kernel and Run All Cells), choose the saved game and
   resume it: the same moves, in Hungarian;
5. play on, end the game, press Save report and open the xlsx with openpyxl.

Screenshots of each step land in ``OUT``. Run by ``test_browser.py``; by hand:

    python tests/browser/lesson_driver.py URL OUT_DIR [voila|lab]
"""

from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright

from driver import CHROMIUM_ARGS, CUT_LABELS, MAP_STATE, chromium_path
from room_driver import open_lab, restart_and_run_all

from triviador_nb.i18n import REPORT_COLUMN, _, ngettext, pgettext, speaking

REPO = Path(__file__).resolve().parents[2]
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
TEAMS = ("Kékek", "Pirosak")
GUESSES = ("1848", "1900", "12", "300")


def hu(message: str) -> str:
    """A sentence as the Hungarian screen says it (the project's hu.po)."""
    with speaking("hu"):
        return _(message)


def hu_plural(singular: str, plural: str, n: int = 2) -> str:
    """A counted sentence as the Hungarian screen says it for ``n``."""
    with speaking("hu"):
        return ngettext(singular, plural, n)


@dataclass
class LessonRun:
    """What the lesson showed."""

    where: str
    blocked: list[str] = field(default_factory=list)  # requests to other hosts (aborted: Voila only)
    folded_after_new_game: bool = False
    title: str = ""  # the game screen's title, in Hungarian
    entered: int = 0  # team answers typed into the hidden boxes
    entry_hidden: bool = True  # every box was a password box (dots)
    clicks: int = 0  # territories clicked on a team's turn
    paused_status: str = ""
    paused_held_s: float = 0.0  # how long the timer stood still while paused
    moves_before_restart: int = 0
    journal: str = ""  # the file the game was saved in before the restart
    resumed_message: str = ""
    moves_after_resume: int = 0
    over_status: str = ""
    report_message: str = ""
    report_sheets: list[str] = field(default_factory=list)
    report_players: list[str] = field(default_factory=list)
    formulas: int = 0  # cells openpyxl reads as formulas (must be 0)
    cut: list[str] = field(default_factory=list)  # the Hungarian form's labels the page cut short
    report_header: list[str] = field(default_factory=list)  # the players sheet's column headers
    screenshots: list[str] = field(default_factory=list)
    seconds: float = 0.0


def shot(page: Page, out: Path, run: LessonRun, name: str) -> None:
    path = out / f"lesson-{run.where}-{name}.png"
    page.screenshot(path=str(path))
    run.screenshots.append(path.name)


def button(page: Page, label: str):
    """The button saying ``label`` (after its icon, if it has one)."""
    return page.get_by_role("button", name=re.compile(r"^\W*" + re.escape(label) + r"\s*$")).first


def open_lesson(page: Page, url: str, where: str) -> None:
    if where == "voila":
        page.goto(f"{url}/voila/render/notebooks/classroom.ipynb", timeout=120_000)
    else:
        open_lab(page, url, "notebooks/classroom.ipynb")
    page.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=120_000)
    page.wait_for_timeout(800)


def choose_hungarian_and_teams(page: Page, run: LessonRun) -> None:
    titles = [text("Game setup: language, teams, map, questions") for text in (lambda m: m, hu)]
    page.get_by_text(re.compile("|".join(re.escape(t) for t in titles))).first.click()  # either language
    language = page.locator("select:has(option:text-is('Magyar'))").first  # whichever language the form speaks
    language.wait_for(timeout=10_000)
    language.select_option(label="Magyar")
    teams = page.locator(".widget-text", has_text=hu("or teams")).locator("input").first
    teams.wait_for(timeout=10_000)  # the form re-labelled itself in Hungarian
    page.wait_for_timeout(400)
    run.cut = page.evaluate(CUT_LABELS)  # the form's labels in Hungarian, none cut short ("Szabályren...")
    teams.fill(", ".join(TEAMS))
    teams.press("Tab")
    page.wait_for_timeout(400)
    button(page, hu("New game")).click()
    page.locator(".tnb-root .tnb-scores", has_text=TEAMS[1]).first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    run.folded_after_new_game = not page.locator(".widget-dropdown", has_text=hu("Language")).first.is_visible()
    run.title = page.locator(".tnb-title").first.inner_text()


def play_moves(page: Page, run: LessonRun, moves: int, seconds: float) -> int:
    """Answer for the teams and click their territories until ``moves`` were made."""
    made, deadline = 0, time.monotonic() + seconds
    while made < moves and time.monotonic() < deadline:
        if hu("Game over") in page.locator(".tnb-status").first.inner_text():
            break
        try:
            boxes = page.locator(".tnb-teacher input[type=password]:enabled")
            typed = False
            for i in range(boxes.count()):
                box = boxes.nth(i)
                if not box.is_visible():
                    continue
                run.entry_hidden &= box.get_attribute("type") == "password"
                guess = hu("Guess question") in page.locator(".tnb-question").first.inner_text()
                box.click(timeout=2000)
                page.keyboard.type(GUESSES[run.entered % len(GUESSES)] if guess else str(1 + run.entered % 4))
                page.keyboard.press("Enter")
                run.entered += 1
                typed = True
            if typed:
                made += 1
                page.wait_for_timeout(500)
                continue
            board = page.locator(".tnb-root .tnb-map").first
            board.scroll_into_view_if_needed(timeout=2000)  # a teacher looks at the map on a team's turn
            state = page.locator(".tnb-root").first.evaluate(MAP_STATE)
            if state["choosable"]:
                aim = state["choosable"][run.clicks % len(state["choosable"])]
                page.mouse.click(aim["x"], aim["y"])
                run.clicks += 1
                made += 1
                page.wait_for_timeout(700)
                continue
        except PlaywrightError:
            pass  # the screen changed under the move: look again
        page.wait_for_timeout(250)
    return made


def pause_and_resume(page: Page, out: Path, run: LessonRun) -> None:
    button(page, hu("Pause")).click()
    page.wait_for_timeout(1200)
    run.paused_status = page.locator(".tnb-status").first.inner_text()
    timer = page.locator(".tnb-question .tnb-timer")
    before = timer.first.inner_text() if timer.count() else ""
    page.wait_for_timeout(2500)
    after = timer.first.inner_text() if timer.count() else ""
    run.paused_held_s = 2.5 if before == after else 0.0
    shot(page, out, run, "paused")
    button(page, hu("Resume")).click()
    page.wait_for_timeout(600)


def played_journal(page: Page) -> str:
    """The journal file the game on screen is saved in (under the Teacher buttons)."""
    text = page.locator(".tnb-teacher").first.text_content()  # (folded under "Saved as it is played")
    found = re.search(r"[0-9-]+-game[0-9]*(-[0-9]+)?\.journal", text)  # "game" alone: a game drawn from a secret
    return found.group(0) if found else ""


def restart(page: Page, url: str, where: str) -> None:
    if where == "voila":
        page.reload(timeout=120_000)  # Voila: a new kernel for the page
    else:
        restart_and_run_all(page)
        page.wait_for_timeout(1000)
        idle = page.get_by_text(re.compile(r"\|\s*Idle"))  # the status bar: every cell has run again
        idle.first.wait_for(timeout=120_000)
    page.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=120_000)
    page.wait_for_timeout(1500)


def resume_saved(page: Page, run: LessonRun) -> None:
    button(page, hu("Resume the saved game")).click()
    message = page.locator(".tnb-message").first
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not message.inner_text().strip():
        page.wait_for_timeout(200)
    run.resumed_message = message.inner_text()
    start = button(page, hu("Start the game"))
    if start.count() and start.is_visible():
        start.click()
    page.wait_for_timeout(800)


def end_and_save_report(page: Page, out: Path, run: LessonRun) -> Path | None:
    button(page, hu("End game")).click()
    page.wait_for_timeout(1500)
    run.over_status = page.locator(".tnb-status").first.inner_text()
    button(page, hu("Save report")).click()
    teacher_message = page.locator(".tnb-teacher .widget-html").filter(has_text=".xlsx")
    teacher_message.first.wait_for(timeout=30_000)
    run.report_message = teacher_message.first.inner_text()
    shot(page, out, run, "over")
    found = re.search(r"(report-[0-9-]+\.xlsx)", run.report_message)
    return REPO / "notebooks" / found.group(1) if found else None


def read_report(path: Path, run: LessonRun) -> None:
    import openpyxl

    book = openpyxl.load_workbook(path)
    run.report_sheets = book.sheetnames
    rows = list(book["players"].values)
    with speaking("hu"):  # the lesson's report heads its columns in Hungarian (issue 24)
        player = pgettext(REPORT_COLUMN, "player")
    run.report_header = [str(c) for c in rows[0]]
    run.report_players = [str(r[rows[0].index(player)]) for r in rows[1:]]
    run.formulas = sum(1 for sheet in book for row in sheet.iter_rows() for cell in row if cell.data_type == "f")
    for written in path.parent.glob(path.stem + "*"):
        written.unlink()  # the lesson's files, not the repository's


def run_lesson(url: str, out: Path, where: str = "voila", viewport: tuple[int, int] = (1280, 720)) -> LessonRun:
    run = LessonRun(where)
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        if where == "voila":
            def route(r) -> None:
                if urlparse(r.request.url).hostname not in LOOPBACK:
                    run.blocked.append(r.request.url)
                    r.abort()
                else:
                    r.continue_()
            page.route("**/*", route)
        open_lesson(page, url, where)
        choose_hungarian_and_teams(page, run)
        shot(page, out, run, "setup-hu")
        button(page, hu("Start the game")).click()
        page.wait_for_timeout(1000)
        run.moves_before_restart = play_moves(page, run, 3, 90)
        shot(page, out, run, "playing")
        pause_and_resume(page, out, run)
        run.moves_before_restart += play_moves(page, run, 3, 90)
        run.journal = played_journal(page)
        restart(page, url, where)
        shot(page, out, run, "restarted")
        resume_saved(page, run)
        shot(page, out, run, "resumed")
        run.moves_after_resume = play_moves(page, run, 3, 90)
        deadline = time.monotonic() + 150
        while run.clicks == 0 and time.monotonic() < deadline:  # the teams won no pick yet: on to the battle
            made = play_moves(page, run, 4, 30)                 # rounds, where each team attacks in turn
            run.moves_after_resume += made
            if made == 0 and hu("Game over") in page.locator(".tnb-status").first.inner_text():
                break
        report = end_and_save_report(page, out, run)
        if report is not None and report.exists():
            read_report(report, run)
        browser.close()
    run.seconds = round(time.monotonic() - started, 1)
    return run


if __name__ == "__main__":
    print(json.dumps(asdict(run_lesson(sys.argv[1], Path(sys.argv[2]), *(sys.argv[3:4] or ["voila"]))), indent=1))
