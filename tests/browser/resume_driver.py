"""Issue 24 in a real browser: the countdown after the teacher's Resume, and
a Voila reload that shuts its old kernel down.

classroom.ipynb in Voila (the projector; the teacher's box is on it): Start,
Pause while a question is open, Resume, and the countdown read twice, 3 s
apart (it froze until the question ended: bug 1). Then the page is reloaded:
Voila's beforeunload beacon asks the server to shut the old kernel down; it
was refused (403, no ``_xsrf`` cookie on a Voila page opened on its own) and
the old kernel played on (bug 6). Screenshots at 1920x1080 and 1366x900.

By hand: ``python tests/browser/resume_driver.py URL OUT_DIR``.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from playwright.sync_api import sync_playwright

from driver import CHROMIUM_ARGS, chromium_path
from lesson_driver import hu


def button(page, label: str):
    """The button saying ``label`` in English or Hungarian: classroom.ipynb opens in the
    language the last lesson on this server chose (a Hungarian lesson may have run before)."""
    names = "|".join(re.escape(name) for name in {label, hu(label)})
    return page.get_by_role("button", name=re.compile(f"^\\W*({names})$")).first


@dataclass
class ResumeReport:
    before_pause: int | None = None
    paused: list[int] = field(default_factory=list)  # the countdown read while held, 2 s apart
    after_resume: list[int] = field(default_factory=list)  # read 3 s apart after Resume
    same_question: bool = False
    kernels_before_reload: int = 0
    kernels_after_reload: int = 0
    shutdown_status: list[int] = field(default_factory=list)
    screenshots: list[str] = field(default_factory=list)


def seconds(page) -> int | None:
    text = page.locator(".tnb-timer").first.inner_text().strip()
    found = re.search(r"[0-9]+", text)
    return int(found.group(0)) if found else None


def kernels(page, url: str) -> int:
    return len(page.request.get(f"{url}/api/kernels").json())


def run(url: str, out: Path, viewport: tuple[int, int] = (1920, 1080)) -> ResumeReport:
    report = ResumeReport()
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        context.on("response", lambda r: report.shutdown_status.append(r.status)
                   if "/voila/api/shutdown/" in r.url else None)
        page = context.new_page()
        page.goto(f"{url}/voila/render/notebooks/classroom.ipynb", timeout=120_000)
        page.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=120_000)
        button(page, "Start the game").click()
        question = page.locator(".tnb-qtext").first
        page.wait_for_function("() => /[0-9]/.test(document.querySelector('.tnb-timer')?.innerText || '')",
                               timeout=30_000)
        page.wait_for_timeout(1500)
        asked = question.inner_text()
        report.before_pause = seconds(page)
        button(page, "Pause").click()
        page.wait_for_timeout(800)
        report.paused.append(seconds(page))
        page.wait_for_timeout(2000)
        report.paused.append(seconds(page))
        button(page, "Resume").click()
        page.wait_for_timeout(1200)
        report.after_resume.append(seconds(page))
        page.screenshot(path=str(out / f"resume-{viewport[0]}x{viewport[1]}.png"))
        page.set_viewport_size({"width": 1366, "height": 900})
        page.wait_for_timeout(1800)
        report.after_resume.append(seconds(page))
        report.same_question = question.inner_text() == asked
        page.screenshot(path=str(out / "resume-1366x900.png"))
        report.screenshots += [f"resume-{viewport[0]}x{viewport[1]}.png", "resume-1366x900.png"]
        report.kernels_before_reload = kernels(page, url)
        page.reload(timeout=120_000)
        page.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=120_000)
        for _ in range(40):  # the old kernel's shutdown is asked for on unload: give the server 10 s
            report.kernels_after_reload = kernels(page, url)
            if report.kernels_after_reload <= report.kernels_before_reload:
                break
            page.wait_for_timeout(250)
        browser.close()
    return report


if __name__ == "__main__":
    print(json.dumps(asdict(run(sys.argv[1], Path(sys.argv[2]))), indent=1))
