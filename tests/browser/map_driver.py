"""The map as a student aims at it, in real JupyterLab (issue 24's bugs 2 and 5).

:func:`click_every_name` opens a Long Campaign game on the Hungary map in
which the player at the screen chooses the first base, so every territory may
be clicked; it clicks the middle of each territory's name in turn, reads what
the game took from the log, and takes the choice back (the teacher's undo, by
a button of the test's notebook) before the next name. It also measures the
names' drawn boxes: over each other, and over the castles; and it sweeps the
mouse over the map, names included, counting the messages the page sends.

:func:`watch_questions` plays ``notebooks/play.ipynb`` with the game scrolled
into view once, as a student leaves it, and at every question that opens
records where the map is and whether the answer options (the four buttons, or
the number box and its button) are inside the window; after each result, the
words of the results table that the browser broke across lines.

:func:`battle_labels` opens a game at its first battle turn, where every
territory carries its score label (a value with its seat mark, a castle's
towers above a base's), and measures every name's drawn box against them.

Usage (a Jupyter server serving the repository on ``URL`` without a token)::

    python tests/browser/map_driver.py URL OUT_DIR [names|questions|battle] [WIDTHxHEIGHT]
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from driver import (CHROMIUM_ARGS, GUESSES, LOG_TOP, KernelTraffic, chromium_path, new_fast_game, open_notebook,
                    sweep)

REPO = Path(__file__).resolve().parents[2]
COPIES = REPO / "test-artifacts" / "browser" / "names"
BASE_PROMPT = "Your base"

# The notebook of the name test: seed 5 of Long Campaign gives the player at the screen the first base
# (checked by the test), with 10 minutes for it; a button takes every action back, as the teacher's Undo does.
NAMES_CELL = """# NBVAL_IGNORE_OUTPUT
from dataclasses import replace

import ipywidgets as widgets
from triviador_nb.banks import resolve_bank
from triviador_nb.bots import Bot
from triviador_nb.engine import Game, find_rule_set
from triviador_nb.maps import resolve_map
from triviador_nb.ui.app import GameApp

rules = find_rule_set("long-campaign")
rules = replace(rules, timers=replace(rules.timers, territory_s=600.0))  # no base is chosen by a timer
game_map = resolve_map("hungary", players=3)
game = Game(rules, game_map.board, resolve_bank("general_knowledge_en"), 5, names=["Your team", "Bot 1", "Bot 2"])
# pace 200: a bot takes 4 minutes to choose its base, so no bot acts while the names are clicked
app = GameApp(game, game_map, 0, {1: Bot(1, "medium", 5), 2: Bot(2, "hard", 5)}, pace=200)

def back_to_the_first_base(_button):
    for _ in range(20):
        if app.table.undo().status != "accepted":
            break

back = widgets.Button(description="Back to the first base")
back.on_click(back_to_the_first_base)
display(app, back)
"""

# The battle test's notebook: a ConQUIZtador game on Hungary played by bots (engine only, seeded) up to the
# first battle turn of the player at the screen, then shown; every territory carries its value and seat
# mark, the bases their castles. Pace 200: no bot acts while the labels are measured.
BATTLE_CELL = """# NBVAL_IGNORE_OUTPUT
from triviador_nb.banks import resolve_bank
from triviador_nb.bots import Bot
from triviador_nb.engine import Game, find_rule_set
from triviador_nb.maps import resolve_map
from triviador_nb.ui.app import GameApp

game_map = resolve_map("hungary", players=3)
game = Game(find_rule_set("conquiztador"), game_map.board, resolve_bank("general_knowledge_en"), SEED,
            names=["Your team", "Bot 1", "Bot 2"])
bots = {seat: Bot(seat, "medium", SEED) for seat in range(3)}
while not (game.phase_name == "battle" and game.stage == "attack" and game.attacker == 0):
    game.apply(bots[game.current_players()[0]].act(game))
app = GameApp(game, game_map, 0, {1: bots[1], 2: bots[2]}, pace=200)
display(app)
"""

# The long-question test's notebook: ConQUIZtador on Hungary with a bank of the longest questions of the
# built-in general knowledge bank (the longest multiple-choice one is 104 characters), at a quick pace.
LONG_QUESTIONS_CELL = """# NBVAL_IGNORE_OUTPUT
from triviador_nb.banks import resolve_bank
from triviador_nb.bots import Bot
from triviador_nb.engine import Game, QuestionBank, find_rule_set
from triviador_nb.maps import resolve_map
from triviador_nb.ui.app import GameApp

bank = resolve_bank("general_knowledge_en")
longest = lambda questions: tuple(sorted(questions, key=lambda q: -len(q.text))[:30])
bank = QuestionBank(guess=longest(bank.guess), choice=longest(bank.choice), name="longest")
game_map = resolve_map("hungary", players=3)
game = Game(find_rule_set("conquiztador"), game_map.board, bank, 7, names=["Your team", "Bot 1", "Bot 2"])
app = GameApp(game, game_map, 0, {1: Bot(1, "medium", 7), 2: Bot(2, "hard", 7)}, pace=0.3)
display(app)
"""

# Every name's drawn box, and every score label's: a castle's drawing and a value with its seat mark.
LABEL_BOXES = """
(root) => {
  const map = root.querySelector('.tnb-map');
  const box = (r) => ({left: r.left, top: r.top, right: r.right, bottom: r.bottom});
  const names = [...map.querySelectorAll('.tnb-name[data-territory]')].map(
    (el) => ({id: el.dataset.territory, name: el.textContent, style: el.getAttribute('style') || '',
              ...box(el.getBoundingClientRect())}));
  const scores = [...map.querySelectorAll('.tnb-points .tnb-castle-svg, .tnb-points .tnb-value')].map(
    (el) => ({kind: el.tagName === 'svg' ? 'castle' : 'value', text: el.textContent,
              ...box(el.getBoundingClientRect())}));
  return {names, scores, map: box(map.getBoundingClientRect())};
}
"""

# Every name's drawn box (its text), every castle's, and how many territories are outlined.
NAME_BOXES = """
(root) => {
  const map = root.querySelector('.tnb-map');
  const box = (r) => ({left: r.left, top: r.top, right: r.right, bottom: r.bottom});
  const names = [...map.querySelectorAll('.tnb-name[data-territory]')].map(
    (el) => ({id: el.dataset.territory, name: el.textContent, ...box(el.getBoundingClientRect())}));
  const castles = [...map.querySelectorAll('.tnb-castle-svg')].map((el) => box(el.getBoundingClientRect()));
  const outlined = [...map.querySelectorAll('path.leaflet-interactive')].filter(
    (p) => p.getAttribute('stroke-width') === '4').length;
  return {names, castles, outlined, map: box(map.getBoundingClientRect())};
}
"""

# The answer options now: the enabled choice buttons, or the enabled number box and its button.
OPTIONS = """
(root) => {
  const panel = root.querySelector('.tnb-question');
  const choices = [...panel.querySelectorAll('button.tnb-choice')].filter((b) => !b.disabled && b.offsetParent);
  const box = panel.querySelector('.tnb-guess input');
  const open = choices.length === 4 ? choices
    : (box && !box.disabled && box.offsetParent ? [box, ...panel.querySelectorAll('button')].filter(
        (b) => !b.disabled && b.offsetParent && !b.classList.contains('tnb-choice')) : []);
  return open.map((el) => { const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; });
}
"""

# Words of the results table that the browser drew on more than one line ("wron g", "19 / 25"); a line
# may end after a hyphen ("Szent-" / "Györgyi"), as the game's names do.
BROKEN_WORDS = """
(root) => {
  const broken = [];
  for (const cell of root.querySelectorAll('.tnb-reveal td')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /[^\\s-]+/g;  // a word, or the part of a hyphenated one between hyphens (a line may end at "-")
      for (let m = re.exec(node.data); m; m = re.exec(node.data)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}
"""

VIEW_BOTTOM = """
(root) => { const s = document.querySelector('.jp-WindowedPanel-outer, .jp-Notebook');
  return s ? Math.min(window.innerHeight, s.getBoundingClientRect().bottom) : window.innerHeight; }
"""


def names_notebook(cell: str = NAMES_CELL, file: str = "names.ipynb") -> str:
    """A test's one-cell notebook (the name test's by default), written where the server (rooted at the
    repository) serves it; its path relative to the repository."""
    COPIES.mkdir(parents=True, exist_ok=True)
    notebook = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                           "source": cell.splitlines(keepends=True)}],
                "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
                "nbformat": 4, "nbformat_minor": 5}
    path = COPIES / file
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return str(path.relative_to(REPO))


def _overlap(a: dict, b: dict) -> float:
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return w * h if w > 0 and h > 0 else 0.0


def _covered(names: list[dict], others: list[dict]) -> tuple[list, list]:
    """Drawn boxes that overlap: names over names as (name, name, px²), and names over ``others`` (castles,
    score labels) as (name, the other's kind and text, px²)."""
    over_names, over_others = [], []
    for k, a in enumerate(names):
        over_names += [(a["name"], b["name"], round(_overlap(a, b), 1)) for b in names[k + 1:] if _overlap(a, b) > 0]
        over_others += [(a["name"], f'{o.get("kind", "castle")} {o.get("text", "")}'.strip(), round(_overlap(a, o), 1))
                        for o in others if _overlap(a, o) > 0]
    return over_names, over_others


@dataclass
class NameReport:
    """What clicking every name showed."""

    clicks: list[dict] = field(default_factory=list)
    names_over_names: list[tuple[str, str, float]] = field(default_factory=list)
    names_over_castles: list[tuple[str, float]] = field(default_factory=list)
    first_prompt: str = ""
    sweep_messages: int = -1

    def bad(self) -> list[dict]:
        return [c for c in self.clicks if c["outcome"] != "ok"]


def _wait(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def _status(root) -> str:
    return root.locator(".tnb-status").first.inner_text()


def click_every_name(url: str, out_dir: Path, viewport: tuple[int, int] = (1280, 720)) -> NameReport:
    """Click the middle of every territory's name at the first base of a game; see the module docstring."""
    report = NameReport()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        traffic = KernelTraffic(page)
        open_notebook(page, url, "lab", names_notebook())
        root = page.locator(".tnb-root").first
        page.wait_for_timeout(1500)
        report.sweep_messages = sweep(page, root, traffic)  # over the names too, which now take clicks
        root.get_by_role("button", name="Start the game").first.click()
        _wait(lambda: BASE_PROMPT in _status(root), 20)
        report.first_prompt = _status(root)
        root.evaluate("r => r.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(500)
        back = page.get_by_role("button", name="Back to the first base")
        state = root.evaluate(NAME_BOXES)
        report.names_over_names, over = _covered(state["names"], state["castles"])
        report.names_over_castles = [(name, area) for name, _castle, area in over]
        page.screenshot(path=str(out_dir / f"names-{viewport[0]}x{viewport[1]}.png"))
        for label in state["names"]:
            if not _wait(lambda: BASE_PROMPT in _status(root) and root.evaluate(NAME_BOXES)["outlined"] >= 19, 10):
                report.clicks.append({"aimed": label["name"], "outcome": "no base prompt", "status": _status(root)})
                break
            target = root.locator(f'.tnb-name[data-territory="{label["id"]}"]').first
            target.scroll_into_view_if_needed()
            r = target.bounding_box()
            x, y = r["x"] + r["width"] / 2, r["y"] + r["height"] / 2
            before = root.evaluate(LOG_TOP)
            page.mouse.click(x, y)
            outcome, seen = "lost", ""
            deadline = time.monotonic() + 4
            while time.monotonic() < deadline:
                top = root.evaluate(LOG_TOP)
                warning = root.locator(".tnb-message .tnb-warn")
                if top != before and top.startswith("Your team"):  # a bot's base after it is not the click's
                    outcome, seen = ("ok" if label["name"] in top else "misdirected"), top
                    break
                if warning.count():
                    outcome, seen = "refused", warning.first.inner_text()
                    break
                page.wait_for_timeout(100)
            report.clicks.append({"aimed": label["name"], "outcome": outcome, "log": seen,
                                  "at": (round(x), round(y))})
            back.click()
            _wait(lambda: "chooses" not in root.evaluate(LOG_TOP), 5)  # the log is back at the first base
        browser.close()
    return report


@dataclass
class LabelReport:
    """Where the names and the score labels of a battle round are drawn, and what covers what."""

    names_over_scores: list[tuple[str, str, float]] = field(default_factory=list)  # name, score label, px²
    names_over_names: list[tuple[str, str, float]] = field(default_factory=list)
    map_box: dict = field(default_factory=dict)
    names: list[dict] = field(default_factory=list)
    scores: list[dict] = field(default_factory=list)


def battle_labels(url: str, out_dir: Path, viewport: tuple[int, int], where: str = "lab",
                  seed: int = 1) -> LabelReport:
    """Open a game of Hungary at its first battle turn (:data:`BATTLE_CELL`) scrolled into view, and
    measure every name's box against every castle's and value's, and against the other names."""
    report = LabelReport()
    notebook = names_notebook(BATTLE_CELL.replace("SEED", str(seed)), f"battle-{seed}.ipynb")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        open_notebook(page, url, where, notebook)
        root = page.locator(".tnb-root").first
        root.locator(".tnb-points .tnb-value").first.wait_for(timeout=30_000)
        root.evaluate("r => r.scrollIntoView({block: 'start'})")
        state, deadline = None, time.monotonic() + 30
        while time.monotonic() < deadline:  # the names are laid out again for each size the map reports
            page.wait_for_timeout(1000)
            now = root.evaluate(LABEL_BOXES)
            if now == state:
                break
            state = now
        report.map_box, report.names, report.scores = state["map"], state["names"], state["scores"]
        report.names_over_names, report.names_over_scores = _covered(state["names"], state["scores"])
        page.screenshot(path=str(out_dir / f"battle-{where}-{viewport[0]}x{viewport[1]}.png"))
        browser.close()
    return report


@dataclass
class QuestionReport:
    """Where the map and the options were at each question that opened."""

    map_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    options: list[dict] = field(default_factory=list)
    broken_words: list[str] = field(default_factory=list)
    view_bottom: float = 0.0


def watch_questions(url: str, out_dir: Path, viewport: tuple[int, int], questions: int = 8,
                    timeout_s: float = 240, longest: bool = False) -> QuestionReport:
    """Play ``play.ipynb`` (or with ``longest``, a game of the longest questions:
    :data:`LONG_QUESTIONS_CELL`) until ``questions`` questions have opened; see the module docstring."""
    report = QuestionReport()
    size = f"{viewport[0]}x{viewport[1]}" + ("-long" if longest else "")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        if longest:
            open_notebook(page, url, "lab", names_notebook(LONG_QUESTIONS_CELL, "long-questions.ipynb"))
            page.wait_for_timeout(1500)
        else:
            open_notebook(page, url, "lab")
            page.wait_for_timeout(1500)
            new_fast_game(page)
        root = page.locator(".tnb-root").first
        root.evaluate("r => r.scrollIntoView({block: 'start'})")  # the student brings the game into view, once
        page.wait_for_timeout(500)
        report.view_bottom = root.evaluate(VIEW_BOTTOM)
        root.get_by_role("button", name="Start the game").first.click()
        started, shots, answered = time.monotonic(), 0, 0
        while len(report.options) < questions and time.monotonic() - started < timeout_s:
            boxes = root.evaluate(OPTIONS)
            if not boxes:
                if root.locator(".tnb-reveal td").count():
                    report.broken_words += [w for w in root.evaluate(BROKEN_WORDS) if w not in report.broken_words]
                page.wait_for_timeout(80)
                continue
            m = root.locator(".tnb-map").first.bounding_box()
            report.map_boxes.append((m["x"], m["y"], m["width"], m["height"]))
            report.options.append({"boxes": boxes, "kind": "choice" if len(boxes) == 4 else "guess",
                                   "chars": len(root.locator(".tnb-question .tnb-qtext").first.inner_text()),
                                   "inside": all(b["top"] >= 0 and b["bottom"] <= report.view_bottom
                                                 and b["left"] >= 0 and b["right"] <= viewport[0] for b in boxes)})
            if shots < 2 and (shots == 0 or len(boxes) == 4):
                page.screenshot(path=str(out_dir / f"question-{size}-{shots + 1}.png"))
                shots += 1
            if len(boxes) == 4:
                page.keyboard.press("1234"[answered % 4])
            else:
                page.keyboard.type(str(GUESSES[answered % len(GUESSES)]))
                page.keyboard.press("Enter")
            answered += 1
            _wait(lambda: not root.evaluate(OPTIONS), 15)
        page.screenshot(path=str(out_dir / f"question-{size}-last.png"))
        browser.close()
    return report


if __name__ == "__main__":
    what = sys.argv[3] if len(sys.argv) > 3 else "names"
    size = tuple(int(v) for v in sys.argv[4].split("x")) if len(sys.argv) > 4 else (1280, 720)
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    run = {"names": click_every_name, "questions": watch_questions, "battle": battle_labels}[what]
    result = run(sys.argv[1], out, size)
    print(json.dumps(asdict(result), indent=1))
