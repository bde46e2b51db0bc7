"""Joining a room in real JupyterLab pages as a class would (issue 24): by the
join link, by the form, and back after a reload and after a kernel restart
with nothing typed; timed.

The teacher runs host.ipynb and reads the join link off the page. Ben opens
the link in a fresh page, runs the notebook and finds the code filled in; he
types his name. Anna joins by her own join.ipynb's form. The teacher takes
screenshots of the lobby at 1920x1080 and 1366x900 and presses Start. Then
Anna's page is reloaded and the join cell run again (the game is shown with
nothing typed), and her kernel is restarted with Run All (the form is filled
and she is back in her seat by itself).

Times are measured from the moment the student's kernel starts the join cell
(the kernel is ready: the cell's first line prints the time) to the moment
the page shows the map of her seat. Run by hand:
``python tests/browser/join_driver.py URL OUT_DIR``.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from driver import CHROMIUM_ARGS, chromium_path
from playwright.sync_api import Page, sync_playwright
from room_driver import COPIES, REPO, join_by_form, open_lab, restart_and_run_all, run_all_cells

MAP = ".tnb-map path.leaflet-interactive"
BEGAN = "join cell began at "
SEATED = "join() returned at "  # the seat is taken (or the live screen found) when join() returns


def timed_student_notebook(name: str) -> str:
    """A copy of join.ipynb for ``name`` whose code cell first prints when it
    began (the kernel is ready) and gives the student a home of their own (seat
    keys, the last join: as on their own account), as a path the server serves."""
    COPIES.mkdir(parents=True, exist_ok=True)
    notebook = json.loads((REPO / "notebooks" / "join.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in notebook["cells"] if c["cell_type"] == "code")
    cell["source"] = [f'import time as _t; print(f"{BEGAN}{{_t.time():.3f}}")\n',
                      f'import os; os.environ["TRIVIADOR_NB_HOME"] = os.environ.get("TRIVIADOR_NB_HOME", "") + "-{name}"\n',
                      *[line + (f'print(f"{SEATED}{{_t.time():.3f}}")\n' if line.startswith("screen = join(") else "")
                        for line in cell["source"]]]
    copy = COPIES / f"join-timed-{name}.ipynb"
    copy.write_text(json.dumps(notebook), encoding="utf-8")
    return str(copy.relative_to(REPO))


@dataclass
class JoinReport:
    code: str = ""
    link: str = ""
    link_code_filled: str = ""
    link_address_filled: str = ""
    seat_header: str = ""  # Anna's room line in her seat before the reload ("Room ... · Anna · seat 1 (red) · connected")
    reload_s: float | None = None  # the join cell's start (after the reload) to the map shown
    reload_join_s: float | None = None  # the join cell's start to join()'s return, in the kernel
    reload_header: str = ""
    reload_form_shown: bool = True
    restart_s: float | None = None  # the join cell's start (in the restarted kernel) to the map shown
    restart_join_s: float | None = None  # the join cell's start to join()'s return (import included)
    restart_header: str = ""
    restart_form: list[str] = field(default_factory=list)
    lobby_shots: list[str] = field(default_factory=list)
    lobby_text: str = ""


def _map_shown_at(page: Page) -> float:
    page.locator(".tnb-root").last.locator(MAP).first.wait_for(timeout=60_000)
    return time.time()


def _fresh_began(page: Page, before: float, what: str = BEGAN) -> float:
    """The time the join cell printed after ``before`` (not the previous run's line)."""
    end = time.monotonic() + 120
    while time.monotonic() < end:
        texts = page.locator(".jp-OutputArea-output", has_text=what).all_inner_texts()
        stamps = [float(t.split(what, 1)[1].split()[0]) for t in texts if what in t]
        if stamps and max(stamps) > before:
            return max(stamps)
        page.wait_for_timeout(50)
    raise TimeoutError("the join cell did not run again")


def run_joining(url: str, out_dir: Path) -> JoinReport:
    out_dir.mkdir(parents=True, exist_ok=True)
    report = JoinReport()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        teacher, anna, ben = (browser.new_context(viewport={"width": w, "height": h}).new_page()
                              for w, h in ((1920, 1080), (1366, 900), (1366, 900)))
        open_lab(teacher, url, "notebooks/host.ipynb")
        teacher.locator(".tnb-code").first.wait_for(timeout=120_000)
        report.code = teacher.locator(".tnb-code").first.inner_text().strip()
        link = teacher.locator(".tnb-join-link a").first
        link.wait_for(timeout=30_000)
        report.link = link.get_attribute("href")
        open_lab(anna, url, timed_student_notebook("Anna"))
        ben.goto(report.link)  # a fresh page, as from the QR code
        run_all_cells(ben)
        code_box = ben.get_by_placeholder("K7-PQ45").first
        code_box.wait_for(timeout=120_000)
        ben.wait_for_function("(code) => [...document.querySelectorAll('input')].some(i => i.value === code)",
                              arg=report.code, timeout=30_000)
        report.link_code_filled = code_box.input_value()
        report.link_address_filled = ben.locator(".tnb-address input").first.input_value()
        ben.get_by_placeholder("your name").first.fill("Ben")
        ben.get_by_role("button", name="Join", exact=True).first.click()
        join_by_form(anna, report.code, "Anna")
        for name in ("Anna", "Ben"):
            teacher.locator(".tnb-joined-name", has_text=name).first.wait_for(timeout=30_000)
        report.lobby_text = teacher.locator(".tnb-joined").first.inner_text()
        teacher.locator(".tnb-root").first.scroll_into_view_if_needed()
        teacher.locator(".tnb-title").first.evaluate("e => e.scrollIntoView({block: 'start'})")
        for width, height in ((1920, 1080), (1366, 900)):
            teacher.set_viewport_size({"width": width, "height": height})
            teacher.wait_for_timeout(600)
            teacher.locator(".tnb-title").first.evaluate("e => e.scrollIntoView({block: 'start'})")
            shot = out_dir / f"lobby-{width}x{height}.png"
            teacher.screenshot(path=str(shot))
            report.lobby_shots.append(str(shot))
        teacher.get_by_role("button", name="Start the game").first.click()
        _map_shown_at(anna)
        anna.wait_for_function("() => /· seat \\d+ \\(.+\\) · connected$/.test("
                               "document.querySelector('.tnb-root .tnb-message').innerText.trim())", timeout=30_000)
        report.seat_header = anna.locator(".tnb-root .tnb-message").first.inner_text().strip()
        # a reload: the kernel and its connection stay; the student runs the join cell again
        before = time.time()
        anna.reload()
        run_all_cells(anna)
        began = _fresh_began(anna, before)
        report.reload_s = round(_map_shown_at(anna) - began, 2)
        report.reload_join_s = round(_fresh_began(anna, before, SEATED) - began, 2)
        report.reload_header = anna.locator(".tnb-root .tnb-message").first.inner_text().strip()
        report.reload_form_shown = anna.get_by_placeholder("K7-PQ45").first.is_visible()
        anna.screenshot(path=str(out_dir / "rejoin-after-reload.png"))
        # a kernel restart: the form comes back filled and she is back in her seat by itself
        before = time.time()
        restart_and_run_all(anna)
        began = _fresh_began(anna, before)
        report.restart_s = round(_map_shown_at(anna) - began, 2)
        report.restart_join_s = round(_fresh_began(anna, before, SEATED) - began, 2)
        anna.wait_for_function("() => [...document.querySelectorAll('.tnb-root .tnb-message')].pop()"
                               ".innerText.trim().endsWith(' · connected')", timeout=30_000)
        report.restart_header = anna.locator(".tnb-root .tnb-message").last.inner_text().strip()
        report.restart_form = [anna.get_by_placeholder(p).last.input_value() for p in ("K7-PQ45", "your name")]
        anna.screenshot(path=str(out_dir / "rejoin-after-restart.png"))
        browser.close()
    return report


if __name__ == "__main__":
    print(json.dumps(asdict(run_joining(sys.argv[1], Path(sys.argv[2]))), indent=1))
