"""Play the notebook in real JupyterLab in headless Chromium, as a person would.

Opens ``notebooks/play.ipynb`` in a running JupyterLab, runs all cells, then
plays: types guesses and presses Enter, clicks answer buttons, clicks outlined
territories on the map. Saves screenshots along the way.

Usage (JupyterLab already serving the repo on ``URL`` without a token)::

    python tests/browser/drive_jupyterlab.py URL OUT_DIR [MOVES] [WIDTHxHEIGHT] [NOTEBOOK]

``tests/browser/test_jupyterlab.py`` starts a server and calls :func:`play`.
Needs Playwright for Python and Debian's ``chromium`` (no browser download).
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# A point inside the first outlined (choosable) territory: sample the path's
# bounding box until the element under the point is that path.
FIND_CHOOSABLE = """
() => {
  const paths = [...document.querySelectorAll('.tnb-map path.leaflet-interactive')]
    .filter(p => p.getAttribute('stroke-width') === '4');
  for (const p of paths) {
    const b = p.getBoundingClientRect();
    for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) {
      const x = b.left + b.width * i / 10, y = b.top + b.height * j / 10;
      if (document.elementFromPoint(x, y) === p) return [x, y];
    }
  }
  return null;
}
"""


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _run_all(page: Page) -> None:
    page.locator(".jp-Notebook").first.wait_for(timeout=60_000)
    page.wait_for_timeout(1500)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.locator(".tnb-root").first.wait_for(timeout=90_000)
    page.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=30_000)


def _start(page: Page) -> None:
    page.get_by_role("button", name="Start the game").first.click()


def _answer_or_click(page: Page, root) -> str:
    """Do whatever the human can do now; return what was done ('' if nothing)."""
    guess = root.locator(".tnb-guess input")
    if guess.count() and guess.first.is_visible() and guess.first.is_enabled():
        guess.first.fill("1900", timeout=3000)
        guess.first.press("Enter", timeout=3000)
        return "guess"
    buttons = root.locator(".tnb-question button:not([disabled])")
    if buttons.count() and buttons.first.is_visible() and buttons.first.inner_text().startswith("A)"):
        buttons.first.click(timeout=3000)
        return "choice"
    status = root.locator(".tnb-status").first.inner_text()
    if status and any(f"Your {what}" in status for what in ("pick", "attack", "base", "claim")):
        point = page.evaluate(FIND_CHOOSABLE)
        if point:
            page.mouse.click(point[0], point[1])
            return "territory"
        rebuild = root.get_by_role("button", name="Rebuild castle")
        if rebuild.count() and rebuild.first.is_visible():
            rebuild.first.click(timeout=3000)
            return "rebuild"
        wings = root.get_by_role("button", name="Use Magic Wings")
        if wings.count() and wings.first.is_visible():
            wings.first.click(timeout=3000)
            return "wings"
    return ""


def play(url: str, out_dir: Path, moves: int = 12, timeout_s: float = 300,
         viewport: tuple[int, int] = (1600, 1000), notebook: str = "notebooks/play.ipynb") -> list[str]:
    """Open the notebook, run all, play ``moves`` human moves; return what was done.

    Screenshots: ``start.png``, ``move-NN.png`` and ``battle.png`` (the first
    screen shown in the battle phase) in ``out_dir``.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    done: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        workspace = f"tnb{int(time.time() * 1000) % 10**9}"  # a fresh workspace: no layout left by other sessions
        page.goto(f"{url}/lab/workspaces/{workspace}/tree/{notebook}")
        _run_all(page)
        root = page.locator(".tnb-root").first
        root.scroll_into_view_if_needed()
        page.wait_for_timeout(1500)
        page.screenshot(path=str(out_dir / "ready.png"))
        _start(page)
        page.wait_for_timeout(1000)
        page.screenshot(path=str(out_dir / "start.png"))
        battle_shot = False
        deadline = time.monotonic() + timeout_s
        while len(done) < moves and time.monotonic() < deadline:
            try:
                what = _answer_or_click(page, root)
            except PlaywrightError:  # the screen changed under the click (a bot was quicker): look again
                what = ""
            if what:
                done.append(what)
                page.wait_for_timeout(700)
                page.screenshot(path=str(out_dir / f"move-{len(done):02d}.png"))
            else:
                page.wait_for_timeout(400)
            status = root.locator(".tnb-status").first.inner_text()
            if not battle_shot and "Battle round" in status:
                page.wait_for_timeout(500)
                page.screenshot(path=str(out_dir / "battle.png"))
                battle_shot = True
            if "Game over" in status:
                break
        page.screenshot(path=str(out_dir / "end.png"))
        browser.close()
    return done


if __name__ == "__main__":
    moves = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    size = tuple(int(v) for v in sys.argv[4].split("x")) if len(sys.argv) > 4 else (1600, 1000)
    notebook = sys.argv[5] if len(sys.argv) > 5 else "notebooks/play.ipynb"
    print(play(sys.argv[1], Path(sys.argv[2]), moves, viewport=size, notebook=notebook))
