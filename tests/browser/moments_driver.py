"""Issue 24's moments in a real browser: the 3-2-1 after Start, "2 of 3
answered", the podium, a player's place, and a sound cue played from the
package's own file.

1. The projector (``classroom.ipynb`` in Voila at 1920x1080, two teams and a
   bot, every request to another host blocked): the sound switch is clicked
   on, Start pressed and the 3-2-1 read as it counts; the bot answers and the
   teacher types Team A's answer, so the screen says "2 of 3 answered"; the
   cues the page played and the sizes of the files it played them from are
   read; End game, and the podium.
2. A player's screen (``play.ipynb`` in Voila at 1366x900, you against two
   bots): the 3-2-1, "2 of 3 answered" once the bots answered (and no place
   line yet: nobody has scored), the place line once someone leads, and
   after End game the podium and "You are ... of 3".

Screenshots of each moment. Run by ``test_browser.py``; by hand::

    python tests/browser/moments_driver.py URL OUT_DIR
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import Page, sync_playwright

from driver import CHROMIUM_ARGS, chromium_path

LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
AUDIO = (".wav", ".ogg", ".mp3", ".oga", ".webm")


@dataclass
class MomentsReport:
    """What the pages showed and played."""

    blocked: list[str] = field(default_factory=list)  # requests to other hosts (aborted)
    audio_requests: list[str] = field(default_factory=list)  # any sound file asked of any server
    countdown: dict = field(default_factory=dict)  # page -> the numbers the get-ready showed, in order
    ready_title: str = ""
    answered: dict = field(default_factory=dict)  # page -> the "n of 3 answered" lines seen
    played: list[str] = field(default_factory=list)  # the cues the projector page played
    sizes: dict = field(default_factory=dict)  # cue -> bytes of the file it was played from
    podium: dict = field(default_factory=dict)  # page -> the podium's steps' text
    podium_box: dict = field(default_factory=dict)  # page -> the podium's size, px
    scores: dict = field(default_factory=dict)  # page -> the scores at the end, in seat order
    place_at_first_question: str | None = None  # the place line while the first question is open ("": none)
    place: list[str] = field(default_factory=list)  # the player's place lines once someone leads, and at the end
    podium_names: dict = field(default_factory=dict)  # page -> [(the step's place, [names on it])]
    screenshots: list[str] = field(default_factory=list)


def _watch_network(page: Page, report: MomentsReport) -> None:
    def route(r) -> None:
        url = r.request.url
        if urlparse(url).path.lower().endswith(AUDIO):
            report.audio_requests.append(url)
        if urlparse(url).hostname not in LOOPBACK:
            report.blocked.append(url)
            r.abort()
        else:
            r.continue_()
    page.route("**/*", route)


def _shot(page: Page, out: Path, report: MomentsReport, name: str) -> None:
    page.screenshot(path=str(out / name))
    report.screenshots.append(name)


def _count_down(page: Page, out: Path, report: MomentsReport, key: str) -> None:
    """Read the get-ready's numbers as they change (every 50 ms, at most 8 s); a screenshot at "2"."""
    seen: list[str] = []
    number = page.locator(".tnb-ready-number").first
    number.wait_for(timeout=20_000)
    report.ready_title = page.locator(".tnb-ready-title").first.inner_text()
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline:
        text = number.inner_text() if number.is_visible() else ""
        if not text and seen:
            break
        if text and (not seen or seen[-1] != text):
            seen.append(text)
            if text == "2":
                _shot(page, out, report, f"{key}-get-ready.png")
        page.wait_for_timeout(50)
    report.countdown[key] = seen


def _answered_line(page: Page) -> str:
    line = page.locator(".tnb-answered-line").first
    return line.inner_text() if line.count() and line.is_visible() else ""


def _scores_differ(page: Page, seconds: float) -> bool:
    """Wait (at most ``seconds``) until the scoreboard's scores are not all equal: a podium with steps."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        scores = [score.inner_text() for score in page.locator(".tnb-scores .tnb-score").all()]
        if len(set(scores)) > 1:
            return True
        page.wait_for_timeout(250)
    return False


def _end_and_podium(page: Page, out: Path, report: MomentsReport, key: str) -> None:
    _scores_differ(page, 60)  # play on (the bots and the timers choose territories) until someone leads
    folded = page.get_by_text("Teacher's controls (Pause, Undo, End, report)")
    if folded.count():  # a student's own game keeps the teacher's controls folded at the bottom
        folded.first.click()
    page.get_by_role("button", name="End game").first.click()
    podium = page.locator(".tnb-podium").first
    podium.wait_for(timeout=30_000)
    podium.scroll_into_view_if_needed()
    page.wait_for_timeout(800)
    report.podium[key] = [step.inner_text() for step in page.locator(".tnb-podium-col").all()]
    report.podium_names[key] = [(step.locator(".tnb-podium-step").inner_text().strip(),
                                 step.locator(".tnb-podium-name").all_inner_texts())
                                for step in page.locator(".tnb-podium-col").all()]
    report.scores[key] = [score.inner_text() for score in page.locator(".tnb-scores .tnb-score").all()]
    box = podium.bounding_box()
    report.podium_box[key] = {"width": round(box["width"]), "height": round(box["height"])}
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, out, report, f"{key}-podium.png")


def projector(page: Page, url: str, out: Path, report: MomentsReport) -> None:
    page.goto(f"{url}/voila/render/notebooks/classroom.ipynb", timeout=120_000)
    page.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=120_000)
    switch = page.locator(".tnb-sound-switch").first
    switch.click()  # the gesture that lets the page play sound
    page.wait_for_function("document.querySelector('.tnb-sound-switch').getAttribute('aria-checked') === 'true'",
                           timeout=10_000)
    page.get_by_role("button", name="Start the game").first.click()
    _count_down(page, out, report, "projector")
    box = page.locator(".tnb-teacher input[type=password]:enabled").first
    box.wait_for(timeout=30_000)  # the question is open
    seen = report.answered.setdefault("projector", [])
    deadline = time.monotonic() + 20
    typed = False
    while time.monotonic() < deadline:
        line = _answered_line(page)
        if line and (not seen or seen[-1] != line):
            seen.append(line)
        if line.startswith("1 of") and not typed:  # the bot answered: Team A's answer, as the teacher types it
            box.click()
            page.keyboard.type("1848")
            page.keyboard.press("Enter")
            typed = True
        if line.startswith("2 of"):
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(300)
            _shot(page, out, report, "projector-2-of-3-answered.png")
            break
        page.wait_for_timeout(100)
    # Team B never answers: the timer runs out and the result shows (the "almost" and "reveal" cues)
    page.wait_for_function("(document.querySelector('.tnb-sound-switch').parentElement.dataset.played || '')"
                           ".includes('reveal')", timeout=30_000)
    data = page.evaluate("({...document.querySelector('.tnb-sound-switch').parentElement.dataset})")
    report.played = data.get("played", "").split()
    report.sizes = json.loads(data.get("sizes", "{}"))
    _end_and_podium(page, out, report, "projector")


def player(page: Page, url: str, out: Path, report: MomentsReport) -> None:
    page.goto(f"{url}/voila/render/notebooks/play.ipynb", timeout=120_000)
    page.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=120_000)
    page.get_by_role("button", name="Start the game").first.click()
    _count_down(page, out, report, "player")
    seen = report.answered.setdefault("player", [])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = _answered_line(page)
        if line and (not seen or seen[-1] != line):
            seen.append(line)
        if line.startswith("2 of"):
            report.place_at_first_question = _place_line(page)
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(300)
            _shot(page, out, report, "player-2-of-3-answered.png")
            break
        page.wait_for_timeout(100)
    _scores_differ(page, 60)
    page.locator(".tnb-place-line").first.wait_for(timeout=10_000)
    report.place.append(_place_line(page))
    _end_and_podium(page, out, report, "player")
    report.place.append(_place_line(page))


def _place_line(page: Page) -> str:
    """The place line's text, "" when there is none on the page."""
    line = page.locator(".tnb-place-line")
    return line.first.inner_text() if line.count() else ""


def run_moments(url: str, out: Path) -> MomentsReport:
    report = MomentsReport()
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for run, size in ((projector, (1920, 1080)), (player, (1366, 900))):
            page = browser.new_page(viewport={"width": size[0], "height": size[1]})
            _watch_network(page, report)
            run(page, url, out, report)
            page.close()
        browser.close()
    return report


if __name__ == "__main__":
    print(json.dumps(asdict(run_moments(sys.argv[1], Path(sys.argv[2]))), indent=1))
