"""The projector's lesson in Voila with no network (issue 12): classroom.ipynb
rendered in headless Chromium with every request to a host other than this
machine's blocked; the teacher starts the game, types a team's answer hidden,
and pauses; screenshots at 1280x720 and 1920x1080.

Run by ``test_browser.py``; by hand:

    python tests/browser/classroom_driver.py URL OUT_DIR
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

from driver import CHROMIUM_ARGS, chromium_path

LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


@dataclass
class LessonReport:
    """What the projector page did."""

    blocked: list[str] = field(default_factory=list)  # requests to other hosts (aborted)
    requests: int = 0
    rendered: dict = field(default_factory=dict)  # size -> the map's and the Teacher box's heights, px
    entry_hidden: bool = False  # the team's answer box showed dots, not digits
    answer_in: bool = False  # the row said the answer is in
    paused: str = ""  # the status line after Pause
    screenshots: list[str] = field(default_factory=list)


def run_lesson(url: str, out: Path) -> LessonReport:
    report = LessonReport()
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for width, height in ((1280, 720), (1920, 1080)):
            page = browser.new_page(viewport={"width": width, "height": height})

            def route(r) -> None:
                report.requests += 1
                if urlparse(r.request.url).hostname not in LOOPBACK:
                    report.blocked.append(r.request.url)
                    r.abort()
                else:
                    r.continue_()

            page.route("**/*", route)
            page.goto(f"{url}/voila/render/notebooks/classroom.ipynb", timeout=120_000)
            page.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=120_000)
            page.locator(".tnb-teacher").first.wait_for(timeout=30_000)
            page.wait_for_timeout(1000)
            report.rendered[f"{width}x{height}"] = {
                "map": page.locator(".tnb-root .tnb-map").first.bounding_box()["height"],
                "teacher": page.locator(".tnb-teacher").first.bounding_box()["height"]}
            shot = out / f"classroom-{width}x{height}.png"
            page.screenshot(path=str(shot))
            report.screenshots.append(shot.name)
            if width == 1280:
                page.get_by_role("button", name="Start the game").first.click()
                box = page.locator(".tnb-teacher input[type=password]:enabled").first
                box.wait_for(timeout=30_000)  # the first question is open (after the get-ready's 3-2-1)
                page.wait_for_timeout(300)
                box.click()
                page.keyboard.type("1848")
                report.entry_hidden = box.get_attribute("type") == "password"
                page.keyboard.press("Enter")
                page.wait_for_timeout(1500)
                report.answer_in = page.get_by_text("answer in", exact=False).count() > 0 \
                    or page.get_by_text("the result", exact=False).count() > 0
                page.screenshot(path=str(out / "classroom-entered.png"))
                page.get_by_role("button", name="Pause").first.click()
                page.wait_for_timeout(1200)
                report.paused = page.locator(".tnb-status").first.inner_text()
                page.screenshot(path=str(out / "classroom-paused.png"))
                report.screenshots += ["classroom-entered.png", "classroom-paused.png"]
            page.close()
        browser.close()
    return report


if __name__ == "__main__":
    print(json.dumps(asdict(run_lesson(sys.argv[1], Path(sys.argv[2]))), indent=1))
