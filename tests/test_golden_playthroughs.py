"""Golden playthroughs: one seeded bot game per rule set, kept as a readable
transcript in ``tests/golden/<rule set>.txt``.

Each transcript lists every action in its text form, the events it caused,
and - when they changed - the territories (``id=owner:value``, ``-`` for a
free territory, ``*N`` after a base with N towers standing) and the scores.
The test replays the game and compares the transcript line by line; any
change to the engine's (or the bots') behaviour shows up as a unified diff. When a change
is intended, regenerate the transcripts and review the diff in git::

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden_playthroughs.py

The games use ``fixture_data.synthetic_bank()`` (not a shipped bank) so that
editing a question bank never changes them. Seeds were chosen so that each
game visits its rule set's special rules (Magic Wings and a capture in the
Duel, a capture, a successful rebuild and allocation picks in the Long
Campaign).
"""

from __future__ import annotations

import difflib
import functools
import os
from pathlib import Path

import pytest
from fixture_data import grid_board, synthetic_bank

from triviador_nb.engine import CONQUIZTADOR, DOBYVATEL, DUEL, LONG_CAMPAIGN, Board, Game, RuleSet
from triviador_nb.engine.view import view
from triviador_nb.simulate import play_bot_game
from triviador_nb.words import WIN_KIND_LABELS, Names, event_text

GOLDEN = Path(__file__).parent / "golden"


@functools.cache
def board_named(name: str) -> Board:
    if name == "grid":
        return grid_board()
    from triviador_nb.maps import load_builtin_map

    return load_builtin_map(name).board


# rule set, board, seed, what the game must show (checked, so a reseed cannot lose it silently)
GAMES = {
    "duel": (DUEL, "hungary", 622, {"wings", "capture"}),
    "conquiztador": (CONQUIZTADOR, "grid", 3, {"capture"}),
    "dobyvatel": (DOBYVATEL, "hungary15", 2, {"capture", "win kind"}),
    "long-campaign": (LONG_CAMPAIGN, "hungary", 557, {"rebuilt", "capture", "award", "allocation"}),
}


def seat(s: int | None) -> str:
    return "-" if s is None else f"p{s + 1}"


def territory_line(game: Game) -> str:
    parts = []
    for t in game.board.territories:
        s = game.territories[t]
        cell = f"{t}={seat(s.owner)}"
        if s.owner is not None:
            cell += f":{s.value}"
        if s.is_base:
            cell += f"*{s.towers}"
        parts.append(cell)
    return "owners: " + " ".join(parts)


def scores_line(game: Game) -> str:
    return "scores: " + " ".join(f"{seat(p.seat)}={game.score(p.seat)}" + ("" if p.in_game else "(out)") for p in game.players)


def transcript(rules: RuleSet, board_name: str, seed: int) -> tuple[list[str], Game]:
    """Play the seeded bot game and write it out; returns the lines and the game."""
    board, bank = board_named(board_name), synthetic_bank()
    played = play_bot_game(rules, board, bank, seed)
    names = [p.name for p in played.players]
    game = Game(rules, board, bank, seed, names=names)
    lines = [
        f"# {rules.title} ({rules.name}) on {board_name} ({len(board)} territories), seed {seed}, "
        f"medium bots, fixture_data.synthetic_bank()",
        "# regenerate: UPDATE_GOLDEN=1 pytest tests/test_golden_playthroughs.py",
        "# owners: id=owner:value, '-' free, '*N' a base with N towers standing; "
        "owners/scores lines follow an action only when they changed",
        "seats: " + " ".join(f"{seat(s)}={names[s]} ({game.colours[s]})" for s in range(rules.players)),
    ]
    shown = {"events": 0, "owners": None, "scores": None}
    names_of = Names.of_game(game)

    def dump() -> None:
        for event in game.events[shown["events"]:]:
            lines.append(f"   [{event.kind}] {event_text(event, names_of)}")
        shown["events"] = len(game.events)
        for key, line in (("owners", territory_line(game)), ("scores", scores_line(game))):
            if line != shown[key]:
                lines.append(f"   {line}")
                shown[key] = line

    lines.append("start")
    dump()
    for number, action in enumerate(played.actions, start=1):
        game.apply(game.parse(str(action)))  # through the text form, as a saved game would be
        lines.append(f"{number}. {action}")
        dump()
    assert game.events == played.events, "the replay from text differs from the bot game"
    kind = f" ({WIN_KIND_LABELS[game.win_kind.value]})" if game.win_kind else ""
    lines.append("result: " + ", ".join(f"{seat(s)} {game.score(s)}" for s in game.ranking) + kind)
    return lines, game


def features(game: Game) -> set[str]:
    found = set()
    for e in game.events:
        if e.kind == "attack" and e.data.get("wings"):
            found.add("wings")
        if e.kind in ("capture", "award"):
            found.add(e.kind)
        if e.kind == "rebuild" and e.data.get("towers") == game.rules.base_towers:
            found.add("rebuilt")  # a rebuild answered right
        if e.kind == "pick" and e.data.get("points") == 300:
            found.add("allocation")  # a territory taken in the allocation phase
    if game.win_kind is not None:
        found.add("win kind")
    return found


@pytest.mark.parametrize("name", GAMES)
def test_golden_playthrough(name):
    rules, board_name, seed, wanted = GAMES[name]
    lines, game = transcript(rules, board_name, seed)
    assert game.is_over and game.score_invariant_problems() == []
    assert wanted <= features(game), f"seed {seed} no longer shows {wanted - features(game)}"
    compare_with_golden(GOLDEN / f"{name}.txt", lines)


def compare_with_golden(path: Path, lines: list[str]) -> None:
    """Fail with a unified diff when ``lines`` differ from the golden file
    (``UPDATE_GOLDEN=1`` writes them instead)."""
    text = "\n".join(lines) + "\n"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"{path} is missing; create it with UPDATE_GOLDEN=1")
    expected = path.read_text(encoding="utf-8")
    if expected != text:
        diff = difflib.unified_diff(expected.splitlines(), lines, f"golden/{path.name}", "this run", lineterm="", n=2)
        shown = list(diff)
        pytest.fail(f"{path.name}: the game differs from its golden transcript "
                    f"(UPDATE_GOLDEN=1 to accept):\n" + "\n".join(shown[:200])
                    + ("\n..." if len(shown) > 200 else ""), pytrace=False)


def test_golden_transcripts_are_byte_stable_within_a_run():
    """Writing the same game twice gives the same text (no sets, ids or clocks in it)."""
    rules, board_name, seed, _ = GAMES["conquiztador"]
    assert transcript(rules, board_name, seed)[0] == transcript(rules, board_name, seed)[0]


# ----------------------------------------------------------------------------- each seat's view


def view_line(game: Game, s: int) -> str:
    """What seat ``s`` is shown and asked, as one line (OpenSpiel's
    playthroughs keep each player's observation at every step)."""
    v = view(game, s)
    parts = [f"{seat(s)}: {v.prompt.kind}"]
    if v.prompt.choices:
        parts.append("choices=" + ",".join(v.prompt.choices))
    if v.prompt.wings_choices:
        parts.append("wings=" + ",".join(v.prompt.wings_choices))
    if v.prompt.can_rebuild:
        parts.append("rebuild")
    if v.question is not None:
        q = v.question
        answered = ",".join(seat(a) for a in q.answered) or "-"
        parts.append(f"{q.kind} {q.purpose} {q.text!r}" + (f" options={list(q.options)}" if q.options else "")
                     + f" answered={answered}" + ("" if q.my_answer is None else f" mine={q.my_answer}"))
    return "   " + " | ".join(parts)


def views_transcript(name: str) -> list[str]:
    rules, board_name, seed, _ = GAMES[name]
    board, bank = board_named(board_name), synthetic_bank()
    played = play_bot_game(rules, board, bank, seed)
    game = Game(rules, board, bank, seed, names=[p.name for p in played.players])
    lines = [f"# {rules.title} on {board_name}, seed {seed}: what each seat is shown after every action "
             "(engine/view.py); never a correct answer or another seat's answer before the reveal",
             "# regenerate: UPDATE_GOLDEN=1 pytest tests/test_golden_playthroughs.py", "start"]
    lines += [view_line(game, s) for s in range(rules.players)]
    for number, action in enumerate(played.actions, start=1):
        game.apply(action)
        lines.append(f"{number}. {action}")
        lines += [view_line(game, s) for s in range(rules.players)]
    return lines


def test_golden_views_of_each_seat():
    compare_with_golden(GOLDEN / "duel.views.txt", views_transcript("duel"))
