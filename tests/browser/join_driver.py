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
the page shows her room line in her seat ("Room K7-PQ45 · Anna · seat 2 ·
back in your seat": in the seat) and to the moment it shows the map of her
seat (screen drawn). Both moments are the page's own: a MutationObserver
notes them as the page changes (:data:`WATCH`), on the same machine's clock
as the kernel's line. With ``baseline`` (a folder holding another
``triviador_nb`` package, :mod:`benchmarks.rejoin`), a third student, Cleo,
joins with that package and is reloaded and restarted the same way after
Anna. Run by hand: ``python tests/browser/join_driver.py URL OUT_DIR``.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from driver import CHROMIUM_ARGS, chromium_path
from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from room_driver import COPIES, REPO, join_by_form, open_lab, restart_and_run_all, run_all_cells

MAP = ".tnb-map path.leaflet-interactive"
BEGAN = "join cell began at "
SEATED = "join() returned at "  # the seat is taken (or the live screen found) when join() returns


#: Run in each student's page from its first script on (a reload too): notes, once per output of the join
#: cell (a ``.tnb-root``), when it first shows the student's room line in a seat and when it first shows a
#: map, on the page's clock (``Date.now()``, milliseconds).
WATCH = r"""
(() => {
  window.__tnbEvents = [];
  const seen = new WeakMap();
  const note = (root, kind, text) => {
    const kinds = seen.get(root) || new Set();
    if (kinds.has(kind)) return;
    kinds.add(kind); seen.set(root, kinds);
    window.__tnbEvents.push({kind: kind, at: Date.now(), text: text});
  };
  const check = () => {
    const name = window.__tnbName;
    for (const root of document.querySelectorAll('.tnb-root')) {
      const message = root.querySelector('.tnb-message');
      const text = message ? message.textContent.trim() : '';
      if (name && text.includes(' · ' + name + ' · seat ') && /· (connected|back in your seat)$/.test(text)) {
        note(root, 'seated', text);
      }
      if (root.querySelector('.tnb-map path.leaflet-interactive')) note(root, 'drawn', text);
    }
  };
  new MutationObserver(check).observe(document, {childList: true, subtree: true, characterData: true});
})();
"""


def watch(page: Page, name: str) -> None:
    """Note in ``page`` when ``name``'s room line and map first show (:data:`WATCH`), from now and after every reload."""
    script = WATCH.replace("window.__tnbEvents = [];", f"window.__tnbEvents = []; window.__tnbName = {json.dumps(name)};")
    page.add_init_script(script)
    page.evaluate(script)


def first_after(page: Page, kind: str, after: float, timeout_s: float = 120) -> tuple[float, str]:
    """The page's first ``kind`` moment (``"seated"``, ``"drawn"``) at or after ``after`` (seconds since the
    epoch) and the room line then."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        events = page.evaluate("() => window.__tnbEvents || []")
        found = [e for e in events if e["kind"] == kind and e["at"] / 1000 >= after]
        if found:
            return found[0]["at"] / 1000, found[0]["text"]
        page.wait_for_timeout(100)
    raise TimeoutError(f"no {kind} moment on the page within {timeout_s:.0f} s")


def timed_student_notebook(name: str, package: Path | None = None) -> str:
    """A copy of join.ipynb for ``name`` whose code cell first prints when it
    began (the kernel is ready) and gives the student a home of their own (seat
    keys, the last join: as on their own account), as a path the server serves;
    with ``package``, the kernel loads the ``triviador_nb`` in that folder."""
    COPIES.mkdir(parents=True, exist_ok=True)
    notebook = json.loads((REPO / "notebooks" / "join.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in notebook["cells"] if c["cell_type"] == "code")
    cell["source"] = [f'import time as _t; print(f"{BEGAN}{{_t.time():.3f}}")\n',
                      *([f"import sys; sys.path.insert(0, {str(package)!r})\n"] if package else []),
                      f'import os; os.environ["TRIVIADOR_NB_HOME"] = os.environ.get("TRIVIADOR_NB_HOME", "") + "-{name}"\n',
                      *[line + (f'print(f"{SEATED}{{_t.time():.3f}}")\n' if line.startswith("screen = join(") else "")
                        for line in cell["source"]]]
    copy = COPIES / f"join-timed-{name}.ipynb"
    copy.write_text(json.dumps(notebook), encoding="utf-8")
    return str(copy.relative_to(REPO))


@dataclass
class Rejoin:
    """One student's reload and restart (seconds from the join cell's start)."""

    name: str = ""
    seat_header: str = ""  # the room line in the seat before the reload
    reload_seated_s: float | None = None  # the room line in the seat on the page
    reload_drawn_s: float | None = None  # the map on the page
    reload_join_s: float | None = None  # join() returned, in the kernel
    reload_header: str = ""
    reload_form_shown: bool = True
    restart_seated_s: float | None = None
    restart_drawn_s: float | None = None
    restart_join_s: float | None = None
    restart_first_line: str = ""  # the room line the page first showed in the seat after the restart
    restart_header: str = ""  # the room line once the map is drawn
    restart_form: list[str] = field(default_factory=list)


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
    rejoins: list[Rejoin] = field(default_factory=list)  # Anna's, then (with a baseline) Cleo's


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


def _open_teacher(teacher: Page, url: str, out_dir: Path) -> None:
    """host.ipynb run in ``teacher`` until the room code shows: a dialog JupyterLab opened (or a menu that did
    not open on a busy machine) can swallow the first Run All, so Escape and one more, with a screenshot."""
    open_lab(teacher, url, "notebooks/host.ipynb")
    try:
        teacher.locator(".tnb-code").first.wait_for(timeout=90_000)
    except PlaywrightTimeout:
        teacher.screenshot(path=str(out_dir / "teacher-run-all-blocked.png"))
        teacher.keyboard.press("Escape")
        run_all_cells(teacher)
        teacher.locator(".tnb-code").first.wait_for(timeout=120_000)


def _rejoin(page: Page, name: str, out_dir: Path) -> Rejoin:
    """``name``'s page reloaded and the join cell run again, then the kernel restarted with Run All; timed."""
    done = Rejoin(name=name)
    line = (f"() => /· {name} · seat \\d+ \\(.+\\) · connected$/.test(([...document.querySelectorAll("
            "'.tnb-root .tnb-message')].pop()?.innerText || '').trim())")
    page.wait_for_function(line, timeout=30_000)
    done.seat_header = page.locator(".tnb-root .tnb-message").last.inner_text().strip()
    # a reload: the kernel and its connection stay; the student runs the join cell again
    before = time.time()
    page.reload()
    run_all_cells(page)
    began = _fresh_began(page, before)
    done.reload_seated_s = round(first_after(page, "seated", began)[0] - began, 2)
    done.reload_drawn_s = round(first_after(page, "drawn", began)[0] - began, 2)
    done.reload_join_s = round(_fresh_began(page, before, SEATED) - began, 2)
    page.wait_for_function(line, timeout=30_000)
    done.reload_header = page.locator(".tnb-root .tnb-message").last.inner_text().strip()
    done.reload_form_shown = page.get_by_placeholder("K7-PQ45").first.is_visible()
    page.screenshot(path=str(out_dir / f"rejoin-after-reload-{name}.png"))
    # a kernel restart: the form comes back filled and she is back in her seat by itself
    before = time.time()
    restart_and_run_all(page)
    began = _fresh_began(page, before)
    seated, done.restart_first_line = first_after(page, "seated", began)
    done.restart_seated_s = round(seated - began, 2)
    done.restart_drawn_s = round(first_after(page, "drawn", began)[0] - began, 2)
    done.restart_join_s = round(_fresh_began(page, before, SEATED) - began, 2)
    page.wait_for_function(line, timeout=30_000)
    done.restart_header = page.locator(".tnb-root .tnb-message").last.inner_text().strip()
    done.restart_form = [page.get_by_placeholder(p).last.input_value() for p in ("K7-PQ45", "your name")]
    page.screenshot(path=str(out_dir / f"rejoin-after-restart-{name}.png"))
    return done


def _form_shown(page: Page, screenshot: Path) -> None:
    """Wait for a student's join form; a Run All a busy JupyterLab swallowed gets Escape and one more."""
    try:
        page.get_by_placeholder("K7-PQ45").first.wait_for(timeout=90_000)
    except PlaywrightTimeout:
        page.screenshot(path=str(screenshot))
        page.keyboard.press("Escape")
        run_all_cells(page)
        page.get_by_placeholder("K7-PQ45").first.wait_for(timeout=120_000)


def _join_by_link(ben: Page, report: JoinReport, out_dir: Path) -> None:
    """Ben opens the teacher's join link in a fresh page, finds the code filled in, types his name and joins.
    A kernel whose page lost its first connection (JupyterLab starting two kernels for the link's page at once,
    the server answering 500) never runs the cell: then one reload and Run All again, with a screenshot."""
    ben.goto(report.link)  # a fresh page, as from the QR code
    run_all_cells(ben)
    code_box = ben.get_by_placeholder("K7-PQ45").first
    try:
        code_box.wait_for(timeout=90_000)
    except PlaywrightTimeout:
        ben.screenshot(path=str(out_dir / "link-page-run-all-blocked.png"))
        ben.reload()
        run_all_cells(ben)
        code_box.wait_for(timeout=120_000)
    ben.wait_for_function("(code) => [...document.querySelectorAll('input')].some(i => i.value === code)",
                          arg=report.code, timeout=30_000)
    report.link_code_filled = code_box.input_value()
    report.link_address_filled = ben.locator(".tnb-address input").first.input_value()
    ben.get_by_placeholder("your name").first.fill("Ben")
    ben.get_by_role("button", name="Join", exact=True).first.click()


def run_joining(url: str, out_dir: Path, baseline: Path | None = None) -> JoinReport:
    """The whole walk (see the module's docstring); with ``baseline``, Cleo's kernel loads the package there."""
    out_dir.mkdir(parents=True, exist_ok=True)
    report = JoinReport()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        teacher, anna, ben = (browser.new_context(viewport={"width": w, "height": h}).new_page()
                              for w, h in ((1920, 1080), (1366, 900), (1366, 900)))
        _open_teacher(teacher, url, out_dir)
        report.code = teacher.locator(".tnb-code").first.inner_text().strip()
        link = teacher.locator(".tnb-join-link a").first
        link.wait_for(timeout=30_000)
        report.link = link.get_attribute("href")
        open_lab(anna, url, timed_student_notebook("Anna"))
        if baseline is None:  # (the benchmark times the rejoins alone: one page fewer on a busy machine)
            _join_by_link(ben, report, out_dir)
        _form_shown(anna, out_dir / "anna-run-all-blocked.png")
        join_by_form(anna, report.code, "Anna")
        students = {"Anna": anna}
        if baseline is not None:
            cleo = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
            open_lab(cleo, url, timed_student_notebook("Cleo", baseline))
            _form_shown(cleo, out_dir / "cleo-run-all-blocked.png")
            join_by_form(cleo, report.code, "Cleo")
            students["Cleo"] = cleo
        for name in ("Anna", "Ben") if baseline is None else students:
            teacher.locator(".tnb-joined-name", has_text=name).first.wait_for(timeout=30_000)
        report.lobby_text = teacher.locator(".tnb-joined").first.inner_text()
        teacher.locator(".tnb-root").first.scroll_into_view_if_needed()
        teacher.locator(".tnb-title").first.evaluate("e => e.scrollIntoView({block: 'start'})")
        if baseline is None:
            for width, height in ((1920, 1080), (1366, 900)):
                teacher.set_viewport_size({"width": width, "height": height})
                teacher.wait_for_timeout(600)
                teacher.locator(".tnb-title").first.evaluate("e => e.scrollIntoView({block: 'start'})")
                shot = out_dir / f"lobby-{width}x{height}.png"
                teacher.screenshot(path=str(shot))
                report.lobby_shots.append(str(shot))
        for name, page in students.items():
            watch(page, name)
        teacher.get_by_role("button", name="Start the game").first.click()
        for name, page in students.items():
            _map_shown_at(page)
            report.rejoins.append(_rejoin(page, name, out_dir))
        anna_s = report.rejoins[0]
        report.seat_header, report.reload_header, report.restart_header = (
            anna_s.seat_header, anna_s.reload_header, anna_s.restart_header)
        report.reload_s, report.reload_join_s, report.reload_form_shown = (
            anna_s.reload_drawn_s, anna_s.reload_join_s, anna_s.reload_form_shown)
        report.restart_s, report.restart_join_s, report.restart_form = (
            anna_s.restart_drawn_s, anna_s.restart_join_s, anna_s.restart_form)
        browser.close()
    return report


if __name__ == "__main__":
    print(json.dumps(asdict(run_joining(sys.argv[1], Path(sys.argv[2]))), indent=1))
