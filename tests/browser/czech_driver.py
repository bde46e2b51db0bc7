"""The setup form and the game's screens in Czech, in real JupyterLab: are any labels cut short?

Opens ``notebooks/play.ipynb``, chooses Čeština as the form's language (the
form re-labels itself), sets the pace to fast, presses New game and Start,
and plays by pressing option keys and typing guesses; at the form, the new
game, the first question and every few seconds of play it collects the
labels the page cut short (:data:`driver.CUT_LABELS`), and takes a
screenshot of each.

Usage (a Jupyter server serving the repository on ``URL`` without a token)::

    python tests/browser/czech_driver.py URL OUT_DIR [WIDTHxHEIGHT]
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from playwright.sync_api import sync_playwright

from driver import CHROMIUM_ARGS, CUT_LABELS, GUESSES, chromium_path, open_notebook
from lesson_driver import button

from triviador_nb.i18n import _, speaking


def cs(message: str) -> str:
    """A sentence as the Czech screen says it (the project's cs.po)."""
    with speaking("cs"):
        return _(message)


@dataclass
class CzechRun:
    """The labels cut short on each screen looked at, by screen."""

    cut: dict[str, list[str]] = field(default_factory=dict)
    screenshots: list[str] = field(default_factory=list)
    title: str = ""


def run_in_czech(url: str, out: Path, viewport: tuple[int, int] = (1280, 720), play_s: float = 60) -> CzechRun:
    run = CzechRun()
    size = f"{viewport[0]}x{viewport[1]}"

    def look(screen: str, page) -> None:
        page.wait_for_timeout(400)
        cut = page.evaluate(CUT_LABELS)
        run.cut[screen] = sorted(set(run.cut.get(screen, [])) | set(cut))
        if screen not in {s.split("-")[1] for s in run.screenshots}:
            path = out / f"cs-{screen}-{size}.png"
            page.screenshot(path=str(path))
            run.screenshots.append(path.name)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        open_notebook(page, url, "lab")
        page.wait_for_timeout(1500)
        language = page.locator("select:has(option:text-is('Čeština'))").first
        language.wait_for(timeout=10_000)
        language.scroll_into_view_if_needed()
        language.select_option(label="Čeština")
        page.get_by_label(cs("Pace"), exact=True).first.wait_for(timeout=10_000)  # the form re-labelled itself
        look("form", page)
        page.get_by_label(cs("Pace"), exact=True).first.select_option(label=cs("fast"))
        button(page, cs("New game")).click()
        page.wait_for_timeout(2500)
        root = page.locator(".tnb-root").first
        root.evaluate("r => r.scrollIntoView({block: 'start'})")
        look("game", page)
        run.title = root.locator(".tnb-title").first.inner_text()
        button(page, cs("Start the game")).click()
        deadline, answered = time.monotonic() + play_s, 0
        while time.monotonic() < deadline:
            choices = root.locator(".tnb-question button.tnb-choice:enabled")
            box = root.locator(".tnb-guess input:enabled")
            if choices.count() == 4:
                look("choice", page)
                page.keyboard.press("1234"[answered % 4])
                answered += 1
            elif box.count():
                look("guess", page)
                box.first.focus()
                page.keyboard.type(str(GUESSES[answered % len(GUESSES)]))
                page.keyboard.press("Enter")
                answered += 1
            else:
                look("play", page)
            page.wait_for_timeout(700)
        browser.close()
    return run


if __name__ == "__main__":
    size = tuple(int(v) for v in sys.argv[3].split("x")) if len(sys.argv) > 3 else (1280, 720)
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    print(json.dumps(asdict(run_in_czech(sys.argv[1], out, size)), indent=1, ensure_ascii=False))
