"""Play ``notebooks/play.ipynb`` in a real browser as a student would, and measure.

Opens the notebook in JupyterLab (Run > Run All Cells) or in Voila, sets the
form's pace to "fast", starts a new game and plays it to the end: a guess is
typed the moment its question opens (no click on the box first), options are
chosen by key or by click in turn, and territories are clicked at their
centres (their label points) with the map partly scrolled out of view. It
records what a person would notice:

* every territory click and what came of it: ``ok`` (the game took the
  territory aimed at), ``lost`` (nothing happened), ``misdirected`` (another
  territory was taken or refused), ``refused`` (a warning), ``timed out``
  (clicked in the timer's last second and the timer chose first: not counted
  as a bad click);
* every typed guess and whether it arrived;
* the map's size after every move, and how many territories carry the dashed
  "under attack" outline;
* how many messages the page sent to the kernel while the mouse swept over
  the map.

Usage (a Jupyter server with JupyterLab and Voila serving the repo on ``URL``
without a token)::

    python tests/browser/driver.py URL OUT_DIR [lab|voila] [WIDTHxHEIGHT] [GAMES] [NOTEBOOK]

(``NOTEBOOK`` is relative to the server's root: ``play.ipynb`` for a server
started as the README says, with ``jupyter lab notebooks/play.ipynb``.)

``test_browser.py`` starts a server and calls :func:`play_whole_game`. Needs
Playwright for Python and Debian's ``chromium`` (no browser download).
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HUMAN = "Your team"  # the notebook's name for the player at the screen

# Labels of widgets (ours: JupyterLab's own have no widget classes) whose text the page cuts short
# (an ellipsis instead of "Szabályrendszer").
CUT_LABELS = """
() => [...document.querySelectorAll(
    '.widget-label, .widget-label-basic, .widget-button, .widget-select select, .widget-dropdown select')]
  .filter(e => e.offsetParent !== null)
  .filter(e => e.scrollWidth > e.clientWidth + 1 && (e.innerText || e.value || '').trim())
  .map(e => (e.innerText || e.value || '').trim())
"""

# The map's scroll container: its nearest ancestor that scrolls (JupyterLab's
# notebook panel), or null when the page itself scrolls (Voila).
SCROLLER = """
function scrollerOf(map) {
  for (let element = map.parentElement; element && element !== document.body; element = element.parentElement) {
    const style = getComputedStyle(element);
    if (/(auto|scroll)/.test(style.overflowY) && element.scrollHeight > element.clientHeight) return element;
  }
  return null;
}
"""

# The root's map: its box, the territories the player may click now whose name
# is visible and really on that territory, 8 px above and below its middle too
# (aimed 2 px above a name near a border, a click went to the neighbour), and
# the dashed paths.
MAP_STATE = """
(root) => {""" + SCROLLER + """
  const map = root.querySelector('.tnb-map');
  const box = map.getBoundingClientRect();
  const scroller = scrollerOf(map);
  const view = scroller ? scroller.getBoundingClientRect()
    : {top: 0, bottom: window.innerHeight, left: 0, right: window.innerWidth};
  const top = Math.max(view.top, box.top, 0), bottom = Math.min(view.bottom, box.bottom, window.innerHeight);
  const choosable = [];
  // A student clicks a territory's name, and a click on a name chooses its territory (issue 24). A name is
  // aimed at (its middle) when nothing else lies on top there and its territory is outlined (choosable): the
  // shape under the name's label point - inside the territory by construction (its pole of inaccessibility),
  // looked at with the labels letting the pointer through - has the outline's 4 px stroke.
  const names = [];
  for (const label of map.querySelectorAll('.tnb-name[data-territory]')) {
    const anchor = (label.closest('.leaflet-marker-icon') || label).getBoundingClientRect();
    const r = label.getBoundingClientRect();
    const x = Math.round(r.left + r.width / 2), y = Math.round(r.top + r.height / 2);
    if (y < top + 12 || y > bottom - 12 || x < box.left + 4 || x > box.right - 4) continue;
    const hit = document.elementFromPoint(x, y);
    const on = hit && hit.closest('[data-territory]');
    if (on && on.dataset.territory === label.dataset.territory) names.push({label, x, y, anchor});
  }
  const seeThrough = document.createElement('style');
  seeThrough.textContent = '.tnb-map .leaflet-marker-pane, .tnb-map .leaflet-marker-pane * {pointer-events: none !important}';
  document.head.appendChild(seeThrough);
  for (const {label, x, y, anchor} of names) {
    const shape = document.elementFromPoint(anchor.left, anchor.top);
    if (shape && shape.tagName === 'path' && shape.getAttribute('stroke-width') === '4') {
      choosable.push({id: label.dataset.territory, name: label.textContent, x, y});
    }
  }
  seeThrough.remove();
  const paths = [...map.querySelectorAll('path.leaflet-interactive')];
  const dashed = paths.filter(p => (p.getAttribute('stroke-dasharray') || '') !== '').length;
  const outlined = paths.filter(p => p.getAttribute('stroke-width') === '4').length;
  return {width: box.width, height: box.height, top: box.top, viewTop: view.top, viewBottom: view.bottom,
          choosable, dashed, outlined};
}
"""

# Scroll the map's scroll container so that ``share`` of the map's height is
# above the top of the visible area (the map "partly scrolled out of view").
SCROLL_MAP_PARTLY_OUT = """
(root, share) => {""" + SCROLLER + """
  const map = root.querySelector('.tnb-map');
  const scroller = scrollerOf(map) ?? document.scrollingElement;
  const viewTop = scroller === document.scrollingElement ? 0 : scroller.getBoundingClientRect().top;
  const box = map.getBoundingClientRect();
  scroller.scrollTop += (box.top - viewTop) + box.height * share;
}
"""

GUESSES = (1900, 12, 300, 45, 1848, 3000, 7, 150)  # plausible answers: years, counts, heights
LOG_TOP = "(root) => root.querySelector('.tnb-log li')?.textContent ?? ''"
MAP_TOP = "(root) => root.querySelector('.tnb-map').getBoundingClientRect().top"


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass
class Report:
    """What one played game showed (see the module docstring)."""

    where: str
    name: str = HUMAN  # the player's name in the log and the results
    moves: list[str] = field(default_factory=list)
    clicks: list[dict] = field(default_factory=list)
    guesses: list[dict] = field(default_factory=list)
    keys: list[dict] = field(default_factory=list)
    map_sizes: list[tuple[float, float]] = field(default_factory=list)
    most_dashed: int = 0
    dashed_at_end: int = -1
    sweep_messages: int = -1
    over: bool = False
    final_status: str = ""
    seconds: float = 0.0

    def bad_clicks(self) -> list[dict]:
        """Clicks that did not do what was aimed at; a click in the timer's
        last second that the timer beat ("timed out") is not one."""
        return [c for c in self.clicks if c["outcome"] not in ("ok", "timed out")]


class KernelTraffic:
    """Counts the frames the page sends on kernel websockets, and the widget
    updates it receives (``"comm_msg"`` frames from the kernel)."""

    def __init__(self, page: Page):
        self.sent = 0
        self.updates = 0
        page.on("websocket", self._watch)

    def _watch(self, ws) -> None:
        if "/api/kernels/" in ws.url:
            ws.on("framesent", self._count_sent)
            ws.on("framereceived", self._count_received)

    def _count_sent(self, _payload) -> None:
        self.sent += 1

    def _count_received(self, payload) -> None:
        text = payload if isinstance(payload, str) else payload[:4096].decode("utf-8", "replace")
        if "comm_msg" in text:
            self.updates += 1


def open_notebook(page: Page, url: str, where: str, notebook: str = "notebooks/play.ipynb") -> None:
    """Open and run the notebook: JupyterLab's Run All Cells, or Voila."""
    if where == "voila":
        page.goto(f"{url}/voila/render/{notebook}", timeout=120_000)
    else:
        workspace = f"tnb{int(time.time() * 1000) % 10**9}"  # a fresh workspace: no layout left by others
        page.goto(f"{url}/lab/workspaces/{workspace}/tree/{notebook}")
        page.locator(".jp-Notebook").first.wait_for(timeout=90_000)
        page.wait_for_timeout(1500)
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=120_000)
    no_news = page.get_by_role("button", name="No", exact=True)  # JupyterLab's "notified about news?" toast
    if no_news.count():
        no_news.first.click()


def run_all(page: Page, screenshot: Path | None = None) -> None:
    """Run > Run All Cells in JupyterLab, and wait for the new game.

    A dialog JupyterLab opened after a save (or a menu that did not open on a busy machine) can swallow
    the first Run All: then Escape and one more Run All, with a screenshot of what stood in the way."""
    for attempt in range(2):
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:
            page.get_by_role("button", name="Start the game").first.wait_for(timeout=60_000 * (attempt + 1))
            return
        except PlaywrightTimeout:
            if attempt:
                raise
            if screenshot is not None:
                page.screenshot(path=str(screenshot))
            page.keyboard.press("Escape")


def save_in_jupyterlab(page: Page) -> None:
    """File > Save Notebook, as a teacher would mid-lesson."""
    page.get_by_role("menuitem", name="File", exact=True).click()
    page.get_by_role("menuitem", name="Save Notebook", exact=False).first.click()
    page.wait_for_timeout(2000)


def new_fast_game(page: Page) -> None:
    """Choose the "fast" pace in the form and press New game, as a teacher would."""
    page.get_by_label("Pace", exact=True).first.select_option(label="fast")
    roots = page.locator(".tnb-root")
    old = roots.first.element_handle() if roots.count() else None
    page.get_by_role("button", name="New game").first.click()
    if old is not None:  # the new game replaces the old one below the form: wait until it is gone (a fixed
        # 2.5 s was too short on a busy machine, and the driver then scrolled the old map as it went)
        page.wait_for_function("(root) => !root.isConnected", arg=old, timeout=60_000)
    page.wait_for_timeout(2500)


def sweep(page: Page, root, traffic: KernelTraffic, sweeps: int = 20) -> int:
    """Sweep the mouse across the map; return the frames sent meanwhile."""
    root.locator(".tnb-map").first.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    box = root.locator(".tnb-map").first.bounding_box()
    before = traffic.sent
    for i in range(sweeps):
        y = box["y"] + box["height"] * (0.2 + 0.6 * (i % 7) / 6)
        page.mouse.move(box["x"] + 5, y)
        page.mouse.move(box["x"] + box["width"] - 5, y, steps=30)
    page.mouse.move(5, 5)
    page.wait_for_timeout(1000)
    return traffic.sent - before


def _answer_guess(page: Page, root, report: Report, retype: bool = False) -> bool:
    """Type a guess at once (no click on the box first) and press Enter. With
    ``retype``, a guess that did not arrive is typed again after a click on
    the box, as a student who sees no "Answer sent" would (the entry then
    says ``retyped``: the first try is a lost keystroke all the same)."""
    box = root.locator(".tnb-guess input").first
    if not (box.count() and box.is_visible() and box.is_enabled()):
        return False
    value = str(GUESSES[len(report.guesses) % len(GUESSES)])
    root.locator(".tnb-question").first.scroll_into_view_if_needed()  # the player sees the question
    page.keyboard.type(value)  # at once: no click on the box first
    page.keyboard.press("Enter")
    arrived = _wait_for(lambda: _arrived(root, f"Answer sent: {value} ", value, report.name), 4)
    entry = {"typed": value, "arrived": arrived}
    if not arrived:
        entry["panel"] = root.locator(".tnb-question").first.inner_text()[-300:]
        if retype and box.is_visible() and box.is_enabled():
            box.fill(value)
            box.press("Enter")
            entry["retyped"] = True
            entry["arrived"] = _wait_for(lambda: _arrived(root, f"Answer sent: {value} ", value, report.name), 4)
    report.guesses.append(entry)
    return True


def _answer_choice(page: Page, root, report: Report) -> bool:
    buttons = root.locator("button.tnb-choice:not([disabled])")
    if buttons.count() != 4 or not buttons.first.is_visible():
        return False
    index = len(report.keys) % 4
    by_key = len(report.keys) % 2 == 0
    letter = "ABCD"[index]
    if by_key:
        root.locator(".tnb-question").first.scroll_into_view_if_needed()  # the player sees the question
        page.keyboard.press("1234"[index])
    else:
        buttons.nth(index).click(timeout=3000)
    arrived = _wait_for(lambda: _arrived(root, f"Answer sent: {letter} ", f"{letter})", report.name), 4)
    entry = {"option": letter, "by_key": by_key, "arrived": arrived}
    if not arrived:
        entry["panel"] = root.locator(".tnb-question").first.inner_text()[-300:]
    report.keys.append(entry)
    return True


def _arrived(root, sent: str, shown: str, name: str = HUMAN) -> bool:
    """The panel says the answer was sent, or (when it was the last answer)
    the result already shows it beside the player's name."""
    if sent in root.locator(".tnb-question").first.inner_text():
        return True
    reveal = root.locator(".tnb-reveal")
    return bool(reveal.count()) and any(name in line and shown in line
                                        for line in reveal.first.inner_text().splitlines())


def _click_territory(page: Page, root, report: Report) -> bool:
    status = root.locator(".tnb-status").first.inner_text()
    if not any(f"Your {what}" in status for what in ("pick", "attack", "base", "claim")):
        return False
    root.evaluate(SCROLL_MAP_PARTLY_OUT, 0.25)
    page.wait_for_timeout(150)
    state = root.evaluate(MAP_STATE)
    if not state["choosable"]:
        if state["outlined"] == 0:
            return _other_turn_control(root, report)
        root.evaluate(SCROLL_MAP_PARTLY_OUT, 0.05)  # scroll a little and look again
        page.wait_for_timeout(150)
        state = root.evaluate(MAP_STATE)
        if not state["choosable"]:
            return _other_turn_control(root, report)
    log_before = root.evaluate(LOG_TOP)
    seconds_left = _seconds_left(root)
    state = root.evaluate(MAP_STATE)  # measured last, so the click follows at once
    if not state["choosable"]:
        return False
    aim = state["choosable"][len(report.clicks) % len(state["choosable"])]
    page.mouse.click(aim["x"], aim["y"])
    moved = round(root.evaluate(MAP_TOP) - state["top"], 1)  # the map moving under the pointer misdirects a click
    outcome = "lost"
    seen = ""
    deadline = time.monotonic() + 4
    while time.monotonic() < deadline:
        log = root.evaluate(LOG_TOP)
        warning = root.locator(".tnb-message .tnb-warn, .tnb-question .tnb-warn")
        if log != log_before and log.startswith(report.name):
            if aim["name"] in log:
                outcome = "ok"
            elif "ran out of time" in log and seconds_left is not None and seconds_left <= 1:
                outcome = "timed out"  # clicked in the timer's last second (a slow machine): not a lost click
            else:
                outcome = "misdirected"
                seen = log
            break
        if warning.count():
            text = warning.first.inner_text()
            outcome = "refused" if aim["name"] in text else "misdirected"
            break
        page.wait_for_timeout(100)
    report.clicks.append({"aimed": aim["name"], "outcome": outcome, "map_top": state["top"] - state["viewTop"],
                          **({"log": seen, "seconds_left": seconds_left, "map_moved_px": moved} if seen else {})})
    return True


def _seconds_left(root) -> int | None:
    """The seconds the question panel's countdown shows, or None."""
    timer = root.locator(".tnb-question .tnb-timer")
    text = timer.first.inner_text().split()[0] if timer.count() else ""
    return int(text) if text.isdigit() else None


def _other_turn_control(root, report: Report) -> bool:
    for label in ("Rebuild castle", "Use Magic Wings"):
        button = root.get_by_role("button", name=label)
        if button.count() and button.first.is_visible():
            button.first.click(timeout=3000)
            report.moves.append(label)
            return True
    return False


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except PlaywrightError:
            pass
        time.sleep(0.05)
    return False


def play_whole_game(url: str, out_dir: Path, where: str = "lab", viewport: tuple[int, int] = (1600, 1000),
                    timeout_s: float = 480, games: int = 1, save_at_end: bool = False,
                    rerun: dict | None = None, notebook: str = "notebooks/play.ipynb") -> list[Report]:
    """Open the notebook and play ``games`` whole games in a row ("Play again"
    between them), then save the notebook if ``save_at_end`` (JupyterLab);
    return a report per game. With a ``rerun`` dict (JupyterLab), then start
    one more game, Run All again while it runs, and put in ``rerun`` the
    widget updates the page received in the 10 s after (``"updates"``), and
    in the 3 s of that game before it (``"running"``). Screenshots ``WHERE-N-start.png``,
    ``-battle.png`` (the first battle screen) and ``-end.png`` in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    reports: list[Report] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        traffic = KernelTraffic(page)
        open_notebook(page, url, where, notebook)
        page.wait_for_timeout(1500)
        new_fast_game(page)
        root = page.locator(".tnb-root").first
        for number in range(1, games + 1):
            report = Report(where=where)
            reports.append(report)
            started = time.monotonic()
            if number == 1:
                report.sweep_messages = sweep(page, root, traffic)
                root.get_by_role("button", name="Start the game").first.click()
            else:
                root.get_by_role("button", name="Play again").first.click()
            page.wait_for_timeout(300)
            prefix = f"{where}-{number}"
            page.screenshot(path=str(out_dir / f"{prefix}-start.png"))
            battle_shot = False
            while time.monotonic() - started < timeout_s:
                did = ""
                try:
                    for move, name in ((_answer_guess, "guess"), (_answer_choice, "choice"),
                                       (_click_territory, "territory")):
                        if move(page, root, report):
                            did = name
                            break
                except PlaywrightError:  # the screen changed under the move (a bot was quicker): look again
                    pass
                if did:
                    report.moves.append(did)
                    state = root.evaluate(MAP_STATE)
                    report.map_sizes.append((round(state["width"], 1), round(state["height"], 1)))
                    report.most_dashed = max(report.most_dashed, state["dashed"])
                else:
                    page.wait_for_timeout(60)
                status = root.locator(".tnb-status").first.inner_text()
                if not battle_shot and "Battle round" in status:
                    page.wait_for_timeout(400)
                    page.screenshot(path=str(out_dir / f"{prefix}-battle.png"))
                    battle_shot = True
                if "Game over" in status:
                    report.over = True
                    break
            report.final_status = root.locator(".tnb-status").first.inner_text()
            state = root.evaluate(MAP_STATE)
            report.map_sizes.append((round(state["width"], 1), round(state["height"], 1)))
            report.dashed_at_end = state["dashed"]
            report.seconds = round(time.monotonic() - started, 1)
            root.locator(".tnb-map").first.scroll_into_view_if_needed()
            page.wait_for_timeout(500)
            page.screenshot(path=str(out_dir / f"{prefix}-end.png"))
        if save_at_end and where == "lab":
            save_in_jupyterlab(page)
        if rerun is not None and where == "lab":
            root.get_by_role("button", name="Play again").first.click()
            before = traffic.updates
            page.wait_for_timeout(3000)  # the old game runs: timers tick, bots answer
            rerun["running"] = traffic.updates - before
            run_all(page, out_dir / f"{prefix}-rerun-blocked.png")
            page.wait_for_timeout(2000)
            before = traffic.updates
            page.wait_for_timeout(10_000)  # the new game waits for Start; the old one must be silent
            rerun["updates"] = traffic.updates - before
        browser.close()
    return reports


if __name__ == "__main__":
    where = sys.argv[3] if len(sys.argv) > 3 else "lab"
    size = tuple(int(v) for v in sys.argv[4].split("x")) if len(sys.argv) > 4 else (1600, 1000)
    games = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    path = sys.argv[6] if len(sys.argv) > 6 else "notebooks/play.ipynb"
    for r in play_whole_game(sys.argv[1], Path(sys.argv[2]), where, size, games=games, notebook=path):
        print(json.dumps(asdict(r)))
