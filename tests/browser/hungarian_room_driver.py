"""A Hungarian room in real JupyterLab pages (issue 24, bug 4): the teacher's
host.ipynb with ``language="hu"`` and a student's join.ipynb in a kernel whose
environment says Hungarian (``LANG=hu_HU.UTF-8``, as a hub's spawner sets it),
each page read for English words of ours.

The student's form is read before joining; the student types the code and a
name and presses Belépés; the teacher presses Start; both pages are read while
the base picks and the first questions go by (the student answers
multiple-choice questions by key); the teacher ends the game and both pages
are read at the ranking. What each page showed in our widgets (``.tnb-root``
and the teacher's screen) is kept, with the question texts and the labels the
page cut short. Screenshots land in ``OUT``.

Run by ``test_browser.py``; by hand:

    python tests/browser/hungarian_room_driver.py URL OUT_DIR
"""

from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from babel.messages.pofile import read_po
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright

from driver import CHROMIUM_ARGS, CUT_LABELS, chromium_path
from lesson_driver import button, hu
from room_driver import COPIES, open_lab

from triviador_nb.i18n import TEMPLATE

REPO = Path(__file__).resolve().parents[2]
NAME = "Anna"


@dataclass
class HungarianRoom:
    code: str = ""
    form_text: str = ""  # the student's join form before joining
    form_placeholders: list[str] = field(default_factory=list)
    student_text: list[str] = field(default_factory=list)  # what the student's screen said, moment by moment
    teacher_text: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)  # question texts the student's screen showed
    cut: list[str] = field(default_factory=list)  # labels a page cut short
    over: bool = False
    seconds: float = 0.0


def english_phrases(shortest: int = 14) -> list[str]:
    """Our English sentences' pieces between their ``{fields}``, at least
    ``shortest`` characters long, from the template (names with a msgctxt:
    territories, maps, rule sets... are left out, and so is a piece the
    Hungarian keeps as it is)."""
    with open(TEMPLATE, "rb") as handle:
        template = read_po(handle)
    with open(TEMPLATE.with_name("hu.po"), "rb") as handle:
        hungarian = read_po(handle, locale="hu")
    phrases = set()
    for message in template:
        if not message.id or message.context:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        translated = hungarian.get(message.id)
        strings = " ".join(translated.string if isinstance(translated.string, (list, tuple)) else [translated.string]
                           ) if translated is not None else ""
        for text in ids:
            for piece in re.split(r"\{[^{}]*\}", text):
                piece = piece.strip(" .,:;·()-–…'\"\n")
                if len(piece) >= shortest and piece not in strings:
                    phrases.add(piece)
    return sorted(phrases)


def student_notebook() -> str:
    """join.ipynb as a Hungarian student's kernel runs it: the environment
    says Hungarian (a hub sets ``LANG`` per user), nothing else changed."""
    COPIES.mkdir(parents=True, exist_ok=True)
    notebook = json.loads((REPO / "notebooks" / "join.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in notebook["cells"] if c["cell_type"] == "code")
    cell["source"] = ["import os\n", "for name in ('TRIVIADOR_NB_LANGUAGE', 'LANGUAGE', 'LC_ALL', 'LC_MESSAGES'):\n",
                      "    os.environ.pop(name, None)\n", "os.environ['LANG'] = 'hu_HU.UTF-8'\n",
                      *("".join(cell["source"]).splitlines(keepends=True))]
    copy = COPIES / "join-hu.ipynb"
    copy.write_text(json.dumps(notebook), encoding="utf-8")
    return str(copy.relative_to(REPO))


def teacher_notebook() -> str:
    """host.ipynb with ``language="hu"`` (its bank left to the language) and a quick pace."""
    COPIES.mkdir(parents=True, exist_ok=True)
    notebook = json.loads((REPO / "notebooks" / "host.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in notebook["cells"] if c["cell_type"] == "code")
    source = "".join(cell["source"])
    assert "bank=" not in source.split("host(", 1)[1], "host.ipynb names a bank: the language should choose it"
    cell["source"] = source.replace('address="127.0.0.1")', 'address="127.0.0.1", language="hu", pace=0.3)')
    assert 'language="hu"' in cell["source"]
    copy = COPIES / "host-hu.ipynb"
    copy.write_text(json.dumps(notebook), encoding="utf-8")
    return str(copy.relative_to(REPO))


def _ours(page: Page) -> str:
    """The text of our widgets on the page (not JupyterLab's own menus, not the notebook's markdown)."""
    return "\n".join(page.locator(".jp-OutputArea-output .jupyter-widgets").evaluate_all(
        "els => els.filter(e => !e.parentElement.closest('.jupyter-widgets')).map(e => e.innerText)"))


def _cut(page: Page, result: HungarianRoom) -> None:
    for label in page.evaluate(CUT_LABELS):
        if label not in result.cut:
            result.cut.append(label)


def play_hungarian_room(url: str, out_dir: Path, viewport: tuple[int, int] = (1366, 900),
                        seconds: float = 75) -> HungarianRoom:
    out_dir.mkdir(parents=True, exist_ok=True)
    result = HungarianRoom()
    begun = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        teacher, student = (browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}).new_page()
                            for _ in range(2))
        open_lab(teacher, url, teacher_notebook())
        code_box = teacher.locator(".tnb-code").first
        code_box.wait_for(timeout=120_000)
        result.code = code_box.inner_text().strip()
        open_lab(student, url, student_notebook())
        student.get_by_placeholder("K7-PQ45").first.wait_for(timeout=120_000)
        student.wait_for_timeout(500)
        result.form_text = _ours(student)
        result.form_placeholders = student.locator(".jp-OutputArea-output input").evaluate_all(
            "els => els.map(e => e.placeholder)")
        _cut(student, result)
        student.screenshot(path=str(out_dir / "hungarian-room-student-form.png"))
        student.get_by_placeholder("K7-PQ45").first.fill(result.code)
        student.get_by_placeholder(hu("your name")).first.fill(NAME)
        student.get_by_role("button", name=hu("Join"), exact=True).first.click()
        teacher.locator(".tnb-root").get_by_text(NAME).first.wait_for(timeout=30_000)
        teacher.wait_for_timeout(500)
        result.teacher_text.append(_ours(teacher))
        result.student_text.append(_ours(student))
        _cut(teacher, result)
        teacher.screenshot(path=str(out_dir / "hungarian-room-teacher-lobby.png"))
        button(teacher, hu("Start the game")).click()
        student.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=60_000)
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            try:
                question = student.locator(".tnb-qtext").first
                if question.count() and question.is_visible():
                    text = question.inner_text().strip()
                    if text and text not in result.questions:
                        result.questions.append(text)
                        if student.locator(".tnb-choice:enabled").count():
                            student.keyboard.press("1")
                result.student_text.append(_ours(student))
                result.teacher_text.append(_ours(teacher))
            except PlaywrightError:  # the screen changed under the reading: read again
                pass
            student.wait_for_timeout(1500)
        _cut(student, result)
        _cut(teacher, result)
        student.screenshot(path=str(out_dir / "hungarian-room-student-play.png"))
        teacher.screenshot(path=str(out_dir / "hungarian-room-teacher-play.png"))
        button(teacher, hu("End game")).click()
        over = hu("Game over")
        student.locator(".tnb-status", has_text=over).first.wait_for(timeout=30_000)
        teacher.locator(".tnb-status", has_text=over).first.wait_for(timeout=30_000)
        teacher.wait_for_timeout(1000)
        result.over = True
        result.student_text.append(_ours(student))
        result.teacher_text.append(_ours(teacher))
        student.screenshot(path=str(out_dir / "hungarian-room-student-end.png"))
        teacher.screenshot(path=str(out_dir / "hungarian-room-teacher-end.png"))
        browser.close()
    result.seconds = round(time.monotonic() - begun, 1)
    return result


if __name__ == "__main__":
    room = play_hungarian_room(sys.argv[1], Path(sys.argv[2]))
    print(json.dumps(asdict(room), indent=1, ensure_ascii=False))
