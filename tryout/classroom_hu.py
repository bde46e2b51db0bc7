"""Issue 24's "Done when" tried as a new user would: a Hungarian teacher and two
students play a whole room in three pages, with a Pause, a reload and a kernel
restart, the students joining by the link on the teacher's screen.

Each person has a JupyterLab of their own (as on a hub: one server per
account, each with its own home for seat keys and the last join), all on
127.0.0.1 and each rooted at a folder of its own holding the course's
``notebooks/``. The teacher's host.ipynb has ``language="hu"`` typed into its
cell as the notebook's "Magyarul" note says. The teacher's page is the
projector (1920x1080); the students' pages are 1366x900. A student opens the
teacher's join link on their own server (the link's path and query on their
own origin: what a hub's ``user-redirect`` does), runs the cell, types a name
and presses the join button.

Anna holds her first answer until the teacher has paused and resumed that
question; Ben answers every question the moment it opens (a guess typed
without a click on the box). Territories are clicked by their names with the
map a quarter scrolled out of view. Mid-game Anna's page is reloaded (she
runs the cell again) and Ben restarts his kernel (Kernel > Restart Kernel...,
then runs the join cell). Play goes on to the end (End after ``PLAY_S``).

Screenshots and ``report.json`` land in OUT (default
``test-artifacts/tryout31``). Usage::

    .venv/bin/python tryout/classroom_hu.py [OUT]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import traceback
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlparse

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

from driver import CHROMIUM_ARGS, CUT_LABELS, MAP_STATE, SCROLL_MAP_PARTLY_OUT, chromium_path  # noqa: E402
from lab_server import free_port  # noqa: E402
from lesson_driver import hu  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

PLAY_S = float(os.environ.get("TRYOUT_PLAY_S", "420"))  # then the teacher presses End
GUESSES = ("1848", "12", "1956", "300", "45", "1000", "7", "150")


@contextmanager
def lab(root: Path, home: Path, log_path: Path):
    """``jupyter lab`` on 127.0.0.1 rooted at ``root``, kernels' home ``home``; yields its URL."""
    port = free_port()
    home.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", "--ip=127.0.0.1", f"--port={port}",
             "--IdentityProvider.token=", "--ServerApp.password=", f"--ServerApp.root_dir={root}"],
            stdout=log, stderr=subprocess.STDOUT,
            env={**os.environ, "TRIVIADOR_NB_HOME": str(home), "JUPYTER_CONFIG_DIR": str(home / "jupyter")})
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(240):
                try:
                    urllib.request.urlopen(f"{url}/api", timeout=1)
                    break
                except OSError:
                    time.sleep(0.5)
            else:
                raise RuntimeError(f"no server on {url}: see {log_path}")
            yield url
        finally:
            server.terminate()
            server.wait(timeout=30)


def course_folder(root: Path, teacher: bool) -> None:
    """The course's notebooks in a person's own folder; the teacher's host.ipynb
    says ``language="hu"`` (typed into the cell as the notebook's note says)."""
    (root / "notebooks").mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "notebooks" / "join.ipynb", root / "notebooks" / "join.ipynb")
    if teacher:
        notebook = json.loads((REPO / "notebooks" / "host.ipynb").read_text(encoding="utf-8"))
        cell = next(c for c in notebook["cells"] if c["cell_type"] == "code")
        source = "".join(cell["source"])
        assert 'address="127.0.0.1")' in source
        cell["source"] = source.replace('address="127.0.0.1")', 'address="127.0.0.1", language="hu")')
        (root / "notebooks" / "host.ipynb").write_text(json.dumps(notebook), encoding="utf-8")


def run_all_cells(page: Page) -> None:
    page.locator(".jp-Notebook").first.wait_for(timeout=90_000)
    page.wait_for_timeout(1500)
    no_news = page.get_by_role("button", name="No", exact=True)
    if no_news.count():
        no_news.first.click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


def ours(page: Page) -> str:
    """The text of our widgets on the page."""
    return "\n".join(page.locator(".jp-OutputArea-output .jupyter-widgets").evaluate_all(
        "els => els.filter(e => !e.parentElement.closest('.jupyter-widgets')).map(e => e.innerText)"))


def timer(page: Page) -> str:
    t = page.locator(".tnb-root .tnb-timer")
    try:
        return t.last.inner_text().strip() if t.count() else ""
    except PlaywrightError:
        return ""


def hu_button(page: Page, english: str):
    return page.get_by_role("button", name=re.compile(r"^\W*" + re.escape(hu(english)) + r"\s*$")).first


class Student:
    def __init__(self, name: str, page: Page, hold_first: bool):
        self.name, self.page, self.hold = name, page, hold_first
        self.answered: set[str] = set()
        self.moves: list[dict] = []

    @property
    def root(self):
        return self.page.locator(".tnb-root").last

    def move(self) -> bool:
        """One move if the screen asks for one: a guess typed at once, an option by key, a territory by name."""
        root = self.root
        question = root.locator(".tnb-qtext")
        qtext = question.first.inner_text().strip() if question.count() and question.first.is_visible() else ""
        box = root.locator(".tnb-guess input")
        if qtext and qtext not in self.answered and box.count() and box.first.is_visible() and box.first.is_enabled():
            if self.hold:
                return False
            value = GUESSES[len(self.moves) % len(GUESSES)]
            self.page.keyboard.type(value)  # at once: no click on the box first
            self.page.keyboard.press("Enter")
            self.page.wait_for_timeout(1200)
            panel = root.locator(".tnb-question").first.inner_text()
            self.answered.add(qtext)
            self.moves.append({"guess": value, "arrived": value in panel and hu("Answer sent.")[:8] in panel,
                               "timer": timer(self.page)})
            return True
        choices = root.locator("button.tnb-choice:not([disabled])")
        if qtext and qtext not in self.answered and choices.count() == 4 and choices.first.is_visible():
            if self.hold:
                return False
            n = len(self.moves) % 4
            if len(self.moves) % 2:
                choices.nth(n).click(timeout=3000)
            else:
                self.page.keyboard.press("1234"[n])
            self.page.wait_for_timeout(1200)
            panel = root.locator(".tnb-question").first.inner_text()
            self.answered.add(qtext)
            self.moves.append({"option": "ABCD"[n], "arrived": hu("Answer sent.")[:8] in panel})
            return True
        state = root.evaluate(MAP_STATE)
        if state["outlined"]:
            root.evaluate(SCROLL_MAP_PARTLY_OUT, 0.25)
            self.page.wait_for_timeout(200)
            state = root.evaluate(MAP_STATE)
            if state["choosable"]:
                aim = state["choosable"][len(self.moves) % len(state["choosable"])]
                log_before = root.evaluate("(r) => r.querySelector('.tnb-log li')?.textContent ?? ''")
                self.page.mouse.click(aim["x"], aim["y"])
                self.page.wait_for_timeout(1500)
                log = root.evaluate("(r) => r.querySelector('.tnb-log li')?.textContent ?? ''")
                self.moves.append({"clicked": aim["name"], "log": log if log != log_before else "(no new log line)"})
                return True
        return False


def main(out: Path) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    homes = out / "people"
    shutil.rmtree(homes, ignore_errors=True)
    report: dict = {"shots": {}, "timings": {}, "texts": {}, "cut": {}, "errors": []}

    def shot(page: Page, name: str, what: str) -> None:
        page.screenshot(path=str(out / name))
        report["shots"][name] = what
        try:
            report["cut"][name] = page.evaluate(CUT_LABELS)
            report["texts"][name] = ours(page)[:4000]
        except PlaywrightError:
            pass

    with ExitStack() as stack:
        urls = {}
        for who in ("teacher", "anna", "ben"):
            course_folder(homes / who / "files", teacher=who == "teacher")
            urls[who] = stack.enter_context(lab(homes / who / "files", homes / who / "home", out / f"{who}-lab.log"))
        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        teacher = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        anna_page, ben_page = (browser.new_context(viewport={"width": 1366, "height": 900}).new_page() for _ in "ab")
        try:
            teacher.goto(f"{urls['teacher']}/lab/tree/notebooks/host.ipynb")
            run_all_cells(teacher)
            teacher.locator(".tnb-code").first.wait_for(timeout=120_000)
            code = teacher.locator(".tnb-code").first.inner_text().strip()
            link = teacher.locator(".tnb-join-link a").first
            link.wait_for(timeout=30_000)
            report["code"], report["link"] = code, link.get_attribute("href")
            shot(teacher, "01-teacher-lobby-empty.png", "the projector before anyone joined")
            started = time.monotonic()
            students = []
            for who, page, hold in (("Anna", anna_page, True), ("Ben", ben_page, False)):
                parsed = urlparse(report["link"])
                page.goto(f"{urls[who.lower()]}{parsed.path}?{parsed.query}")  # the link, on the student's own server
                run_all_cells(page)
                code_box = page.get_by_placeholder("K7-PQ45").first
                code_box.wait_for(timeout=120_000)
                page.wait_for_timeout(800)
                report[f"{who}_form_code"] = code_box.input_value()
                shot(page, f"02-{who.lower()}-form.png", f"{who}'s join form opened by the link")
                name_box = page.get_by_placeholder(re.compile(f"^(your name|{re.escape(hu('your name'))})$")).first
                name_box.fill(who)
                page.get_by_role("button", name=re.compile(f"^(Join|{re.escape(hu('Join'))})$")).first.click()
                students.append(Student(who, page, hold))
            for who in ("Anna", "Ben"):
                teacher.locator(".tnb-joined-name", has_text=who).first.wait_for(timeout=60_000)
            report["timings"]["link_to_both_joined_s"] = round(time.monotonic() - started, 1)
            teacher.wait_for_timeout(800)
            teacher.locator(".tnb-title").first.evaluate("e => e.scrollIntoView({block: 'start'})")
            shot(teacher, "03-teacher-lobby.png", "the projector's lobby with Anna and Ben")
            shot(anna_page, "03-anna-lobby.png", "Anna in the lobby")
            hu_button(teacher, "Start the game").click()
            for s in students:
                s.root.locator(".tnb-map path.leaflet-interactive").first.wait_for(timeout=60_000)
            # the first question: Pause and Resume while it is open
            for _ in range(600):
                for s in students:
                    try:
                        s.move()
                    except PlaywrightError:
                        pass
                digits = re.findall(r"\d+", timer(teacher))
                if digits and int(digits[0]) >= 5:
                    break
                teacher.wait_for_timeout(100)
            report["texts"]["first_question_teacher_timer"] = timer(teacher)
            hu_button(teacher, "Pause").click()
            teacher.wait_for_timeout(2000)
            report["paused"] = {"teacher": timer(teacher), "anna": timer(anna_page), "ben": timer(ben_page)}
            shot(teacher, "04-teacher-paused.png", "the projector while paused")
            hu_button(teacher, "Resume").click()
            teacher.wait_for_timeout(1000)
            first = {"teacher": timer(teacher), "anna": timer(anna_page), "ben": timer(ben_page)}
            teacher.wait_for_timeout(2000)
            second = {"teacher": timer(teacher), "anna": timer(anna_page), "ben": timer(ben_page)}
            report["after_resume"] = {"+1s": first, "+3s": second}
            shot(teacher, "05-teacher-question-after-resume.png", "the projector: a question counting after Resume")
            shot(anna_page, "05-anna-question-after-resume.png", "Anna: the question counting after Resume")
            students[0].hold = False
            play_began = time.monotonic()
            reloaded = restarted = False
            over = False
            while time.monotonic() - play_began < PLAY_S:
                for s in students:
                    try:
                        s.move()
                    except PlaywrightError:
                        pass
                status = teacher.locator(".tnb-root .tnb-status").first.inner_text()
                if hu("Game over") in status:
                    over = True
                    break
                elapsed = time.monotonic() - play_began
                if not reloaded and elapsed > 40:
                    reloaded = True
                    page = anna_page
                    t0 = time.monotonic()
                    page.reload()
                    run_all_cells(page)
                    page.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=120_000)
                    report["timings"]["reload_to_map_s"] = round(time.monotonic() - t0, 1)
                    page.wait_for_timeout(1500)
                    report["texts"]["anna_after_reload_header"] = page.locator(".tnb-root .tnb-message").last.inner_text()
                    shot(page, "06-anna-after-reload.png", "Anna back in her seat after a reload")
                if reloaded and not restarted and elapsed > 80:
                    restarted = True
                    page = ben_page
                    before = page.locator(".tnb-root").last.element_handle()
                    t0 = time.monotonic()
                    page.get_by_role("menuitem", name="Kernel", exact=True).click()
                    page.get_by_role("menuitem", name=re.compile(r"^Restart Kernel…")).first.click()
                    page.get_by_role("button", name=re.compile("^(Restart|Confirm Kernel Restart)$")).first.click()
                    page.wait_for_timeout(1500)
                    page.locator(".jp-Notebook .jp-Cell.jp-CodeCell").first.click()
                    page.keyboard.press("Shift+Enter")
                    before.wait_for_element_state("hidden", timeout=60_000)
                    page.locator(".tnb-root .tnb-map path.leaflet-interactive").first.wait_for(timeout=120_000)
                    report["timings"]["restart_to_map_s"] = round(time.monotonic() - t0, 1)
                    page.wait_for_timeout(1500)
                    report["texts"]["ben_after_restart_header"] = page.locator(".tnb-root .tnb-message").last.inner_text()
                    shot(page, "07-ben-after-restart.png", "Ben back in his seat after a kernel restart")
                    shot(teacher, "07-teacher-after-restart.png", "the projector after Ben's restart")
                if int(elapsed) % 60 == 0:
                    report["texts"][f"teacher_status_{int(elapsed)}"] = status
                teacher.wait_for_timeout(80)
            report["over_by_itself"] = over
            report["play_s"] = round(time.monotonic() - play_began, 1)
            if not over:
                shot(teacher, "08-teacher-before-end.png", "the projector before End")
                hu_button(teacher, "End game").click()
            teacher.locator(".tnb-podium").first.wait_for(timeout=60_000)
            teacher.wait_for_timeout(1500)
            teacher.locator(".tnb-podium").first.scroll_into_view_if_needed()
            shot(teacher, "09-teacher-podium.png", "the projector's podium")
            for s in students:
                s.page.wait_for_timeout(500)
                place = s.page.locator(".tnb-place-line")
                report["texts"][f"{s.name}_place"] = place.last.inner_text() if place.count() else "(no place line)"
                podium = s.page.locator(".tnb-podium")
                if podium.count():
                    podium.last.scroll_into_view_if_needed()
                shot(s.page, f"10-{s.name.lower()}-end.png", f"{s.name}'s screen at the end")
                if place.count():
                    place.last.scroll_into_view_if_needed()
                    shot(s.page, f"11-{s.name.lower()}-place.png", f"{s.name}'s place line at the end")
            report["moves"] = {s.name: s.moves for s in students}
        except Exception:
            report["errors"].append(traceback.format_exc())
            for name, page in (("teacher", teacher), ("anna", anna_page), ("ben", ben_page)):
                try:
                    shot(page, f"99-error-{name}.png", "at the error")
                except Exception:
                    pass
            report["moves"] = {s.name: s.moves for s in locals().get("students", [])}
        finally:
            browser.close()
    (out / "report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    return report


if __name__ == "__main__":
    target = (Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "test-artifacts" / "tryout31").resolve()  # kernels run elsewhere
    result = main(target)
    print(json.dumps({k: v for k, v in result.items() if k not in ("texts",)}, indent=1, ensure_ascii=False)[:6000])
