"""Issue 24 bugs 1 and 7 in a room, in real JupyterLab pages: the teacher's
host.ipynb (its projector at 1920x1080) and a student's join.ipynb (at
1366x900). Start; Pause while a question is open; Resume; each page's
countdown is read twice, 3 s apart (it froze until the question ended); the
projector's layout is measured (the map's top, the teacher's buttons, no
number box); End; what the projector offers after it. Screenshots of both
pages after Resume and after End.

By hand: ``python tests/browser/room_resume_driver.py URL OUT_DIR``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from playwright.sync_api import sync_playwright

from driver import CHROMIUM_ARGS, chromium_path
from resume_driver import seconds
from room_driver import join_by_form, open_lab, student_notebook


@dataclass
class RoomResumeReport:
    held: dict = field(default_factory=dict)  # page -> the countdown while held
    after: dict = field(default_factory=dict)  # page -> [read at Resume + 1.5 s, read 3 s later]
    projector: dict = field(default_factory=dict)  # what the projector page showed, px and counts
    after_end: dict = field(default_factory=dict)  # the teacher's buttons shown after End
    screenshots: list[str] = field(default_factory=list)


PROJECTOR_STATE = """(root) => {
  const box = (s) => { const e = root.querySelector(s); return e ? e.getBoundingClientRect() : null; };
  const shown = (e) => e.offsetParent !== null;
  return {map_top: box(".tnb-map")?.top, pause_top: [...root.querySelectorAll(".tnb-teacher button")]
            .filter((b) => b.innerText.includes("Pause") || b.innerText.includes("Resume")).map((b) => b.getBoundingClientRect().top)[0],
          number_boxes: [...root.querySelectorAll(".tnb-guess input")].filter(shown).length,
          watch_notes: root.innerText.includes("You watch this one."),
          entry_rows_shown: [...root.querySelectorAll(".tnb-teacher input[type=password]")].filter(shown).length};
}"""


def run(url: str, out: Path) -> RoomResumeReport:
    report = RoomResumeReport()
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        teacher = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        student = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
        open_lab(teacher, url, "notebooks/host.ipynb")
        code_box = teacher.locator(".tnb-code").first
        code_box.wait_for(timeout=120_000)
        code = code_box.inner_text().strip()
        open_lab(student, url, student_notebook("Cleo"))
        join_by_form(student, code, "Cleo")
        teacher.locator(".tnb-root").get_by_text("Cleo").first.wait_for(timeout=30_000)
        teacher.get_by_role("button", name="Start the game").first.click()
        pages = {"teacher": teacher, "student": student}
        for page in pages.values():
            page.wait_for_function("() => /[0-9]/.test(document.querySelector('.tnb-root .tnb-timer')?.innerText "
                                   "|| '')", timeout=60_000)
        for _ in range(300):  # Pause with time left on a question (a guess question has 10 s)
            left = seconds(teacher)
            if left is not None and left >= 7:
                break
            teacher.wait_for_timeout(200)
        report.projector = teacher.locator(".tnb-root").first.evaluate(PROJECTOR_STATE)
        teacher.get_by_role("button", name="Pause").first.click()
        teacher.wait_for_timeout(1000)
        report.held = {name: seconds(page) for name, page in pages.items()}
        teacher.wait_for_timeout(1500)
        teacher.get_by_role("button", name="Resume").first.click()
        teacher.wait_for_timeout(1000)
        report.after = {name: [seconds(page)] for name, page in pages.items()}
        teacher.wait_for_timeout(2500)
        for name, page in pages.items():
            report.after[name].append(seconds(page))
            page.screenshot(path=str(out / f"room-resume-{name}.png"))
            report.screenshots.append(f"room-resume-{name}.png")
        teacher.get_by_role("button", name="End game").first.click()
        teacher.get_by_role("button", name="Play again").first.wait_for(timeout=30_000)
        teacher.wait_for_timeout(1000)
        report.after_end = {label: teacher.get_by_role("button", name=label).first.is_visible()
                            if teacher.get_by_role("button", name=label).count() else False
                            for label in ("Pause", "Resume", "Skip question", "Undo", "End game", "Save report",
                                          "Play again")}
        for name, page in pages.items():
            page.screenshot(path=str(out / f"room-end-{name}.png"))
            report.screenshots.append(f"room-end-{name}.png")
        browser.close()
    return report


if __name__ == "__main__":
    print(json.dumps(asdict(run(sys.argv[1], Path(sys.argv[2]))), indent=1))
