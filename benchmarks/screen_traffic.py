"""Bytes the single screen sends to the browser per move, over whole games played headless.

Run: ``.venv/bin/python benchmarks/screen_traffic.py [--games 3] [--map hungary]``

Plays ``--games`` single-screen games (:func:`triviador_nb.ui.play`, teacher
controls included, as a teacher starts one) of every rule set on a
:class:`~triviador_nb.classroom.ManualClock`, with no browser: ipywidgets'
``DummyComm`` messages are recorded by
:class:`~triviador_nb.ui.traffic.WidgetTraffic` (the JSON of each message's
data, the part that grows with what changed; the Jupyter envelope around each
message is counted as messages). The person at the screen is seat 1, played
through the widgets - a button click, a number typed, a territory clicked -
with a medium bot's decisions after 1.5-6 s; the other seats are medium bots
at the realistic pace.

A *move* is one change the table announces (a seat's move or answer, a
timeout, a result's pause ending): its bytes are what the screen and the
teacher's controls send for it, plus the countdown ticks since the move
before. Prints, per rule set and over all: moves, bytes per move p50 / p95 /
mean, messages per move, the share of the bytes that are countdown ticks and
the bytes of the person's own territory clicks, and which widgets send the
most. Beside each p50, measured in the same run: the same moves had every
line (:class:`~triviador_nb.ui.spliced_html.SplicedHTML`) been sent whole.
The goal of issue 29 (item 4) is p50 <= 1 KB (1,024 bytes); the issue
measured 5.84 KB p50, 8.6 KB p95 (11.6% ticks, a pick 7.5 KB).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
from collections import Counter

import ipywidgets as w

from triviador_nb.bots import Bot
from triviador_nb.classroom import ManualClock
from triviador_nb.engine import RULE_SETS, Attack, ChoiceAnswer, GuessAnswer, Pick, Rebuild
from triviador_nb.ui import play
from triviador_nb.ui.spliced_html import SplicedHTML
from triviador_nb.ui.traffic import WidgetTraffic

HUMAN = 0
STEP_S = 0.05  # the manual clock's step: finer than the countdown's 0.25 s


def widget_names(app) -> dict[str, str]:
    """comm id -> a name for the widgets worth naming (the rest are "other")."""
    names = {}
    for attribute, value in vars(app).items():
        if isinstance(value, w.Widget):
            names[value.model_id] = f"screen.{attribute}"
    for attribute, value in vars(app.panel).items():
        if isinstance(value, w.Widget):
            names[value.model_id] = f"panel.{attribute}"
    for index, button in enumerate(app.panel.choice_buttons):
        names[button.model_id] = f"panel.choice_buttons[{index}]"
    if app.controls is not None:
        for attribute, value in vars(app.controls).items():
            if isinstance(value, w.Widget):
                names[value.model_id] = f"controls.{attribute}"
    for marker in app.map_view.labels.values():
        names[marker.model_id] = "map.label markers"
    for polygon in app.map_view.polygons.values():
        names[polygon.model_id] = "map.polygons"
    return names


def human_act(app, action) -> None:
    """Do ``action`` the way the person at the screen does: through the widgets."""
    panel = app.panel
    if isinstance(action, ChoiceAnswer):
        panel.choice_buttons[action.option].click()
    elif isinstance(action, GuessAnswer):
        panel.guess_box.value = str(action.value)
    elif isinstance(action, (Pick, Attack)):
        app.map_view.click(action.territory)
    elif isinstance(action, Rebuild):
        app.rebuild_button.click()


def play_one(rules: str, seed: int, map_name: str) -> tuple[list[dict], Counter]:
    """One whole game; returns one record per move and the bytes per widget name."""
    clock = ManualClock()
    original_send = SplicedHTML.send
    rng = random.Random(seed)
    app = play(map=map_name, rules=rules, seed=seed, clock=clock, journal=False)
    names = widget_names(app)
    brain = Bot(HUMAN, "medium", seed)
    moves: list[dict] = []
    per_widget: Counter = Counter()
    with WidgetTraffic() as traffic:
        state = {"start": 0, "ticks": 0, "planned": "", "tick_calls": 0, "spliced": 0, "unspliced": 0}

        def moved(_events) -> None:
            sizes = traffic.messages[state["start"]:]
            sent = sum(size for _, size in sizes)
            moves.append({"bytes": sent, "messages": len(sizes), "whole": sent + state["unspliced"],
                          "tick_bytes": state["ticks"], "human_click": state.pop("clicked", False)})
            state["start"], state["ticks"], state["unspliced"] = len(traffic.messages), 0, 0
            plan()

        def spliced_send(widget, content, buffers=None) -> None:  # the baseline: that line sent whole
            whole = {"method": "update", "state": {"value": widget.value}, "buffer_paths": []}
            before = len(traffic.messages)
            original_send(widget, content, buffers)
            state["spliced"] += len(traffic.messages) - before
            state["unspliced"] += len(json.dumps(whole, ensure_ascii=False).encode("utf-8")) - sum(
                size for _, size in traffic.messages[before:])

        SplicedHTML.send = spliced_send

        def plan() -> None:
            game, table = app.game, app.table
            if game.is_over or table.paused or not table.started:
                return
            sid = table.state_id
            mine = (game.stage == "answer" and HUMAN in game.question.waiting_for) or (
                game.stage != "answer" and game.current_players()[0] == HUMAN)
            if mine and state["planned"] != sid:
                state["planned"] = sid
                clock.call_later(rng.uniform(1.5, 6.0), lambda: act(sid))

        def act(sid: str) -> None:
            if app.table.state_id != sid or app.table.paused:
                return
            action = brain.act(app.game)
            state["clicked"] = isinstance(action, (Pick, Attack))
            human_act(app, action)

        app.table.on_change(moved)
        original_tick = app._tick

        def counted_tick(*args) -> None:  # the screen's own signature, whatever it is
            before = len(traffic.messages)
            original_tick(*args)
            state["ticks"] += sum(size for _, size in traffic.messages[before:])
            state["tick_calls"] += 1

        app._tick = counted_tick
        said = app._say

        def no_fault(text: str, *args, **keys) -> None:  # a fault shown would be measured as traffic
            if text.startswith("Something went wrong"):
                raise RuntimeError(f"{rules} game {seed}: the screen said {text!r}")
            said(text, *args, **keys)

        app._say = no_fault
        state["start"] = len(traffic.messages)
        app.start()
        for _ in range(200_000):
            if app.game.is_over:
                break
            clock.advance(STEP_S)
        else:
            raise RuntimeError(f"{rules} game {seed} did not end")
        for (_, size), comm_id in zip(traffic.messages, traffic.comm_ids):
            per_widget[names.get(comm_id, "other")] += size
    SplicedHTML.send = original_send
    played = len(app.game.record)
    app.close()
    if played < 20 or not moves:
        raise RuntimeError(f"{rules} game {seed}: only {played} record entries, {len(moves)} moves")
    if not state["spliced"]:
        raise RuntimeError(f"{rules} game {seed}: no line was sent as a splice (the baseline measured nothing)")
    if state["tick_calls"] < len(moves):  # the countdown ran: several ticks per timed prompt
        raise RuntimeError(f"{rules} game {seed}: {state['tick_calls']} countdown ticks for {len(moves)} moves")
    return moves, per_widget


def summary(label: str, moves: list[dict]) -> str:
    sizes = sorted(m["bytes"] for m in moves)
    p95 = sizes[min(len(sizes) - 1, round(0.95 * (len(sizes) - 1)))]
    total = sum(sizes)
    ticks = sum(m["tick_bytes"] for m in moves)
    clicks = [m["bytes"] for m in moves if m["human_click"]]
    messages = statistics.mean(m["messages"] for m in moves)
    whole = statistics.median(m["whole"] for m in moves)
    return (f"{label:<14} {len(moves):5d} moves: p50 {statistics.median(sizes):6.0f} B (lines sent whole {whole:5.0f} B), "
            f"p95 {p95:6.0f} B, "
            f"mean {total / len(sizes):6.0f} B, {messages:4.1f} messages/move; ticks {ticks / max(total, 1):5.1%} "
            f"of the bytes; own territory click p50 {statistics.median(clicks) if clicks else 0:5.0f} B")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per rule set (default 3)")
    parser.add_argument("--map", default="hungary")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; map {args.map}; {args.games} games per rule set; "
          "goal p50 <= 1024 B (issue 29: p50 5,840 B; before branch perf30, 1 game: p50 1,379 B, p95 3,195 B)")
    everything: list[dict] = []
    widgets: Counter = Counter()
    tick_sizes: list[float] = []
    for rules in RULE_SETS:
        moves: list[dict] = []
        for seed in range(1, args.games + 1):
            played, per_widget = play_one(rules.name, seed, args.map)
            moves += played
            widgets.update(per_widget)
        print(summary(rules.name, moves))
        everything += moves
    print(summary("all", everything))
    total = sum(widgets.values())
    print("bytes by widget: " + ", ".join(f"{name} {size / total:.0%}" for name, size in widgets.most_common(8)))


if __name__ == "__main__":
    main()
