"""HTML for the side panels: scoreboard, status line, answer reveal, log, ranking.

Pure functions from game state to HTML strings, so they are easy to test.
Every text from a question bank or a player name is escaped: markup in a bank
is shown literally, never rendered.
"""

from __future__ import annotations

from html import escape
from typing import Mapping, Sequence

from ..engine import ClaimExpansion, Event, Game
from ..engine.state import Phase, Purpose
from .map_view import castle_svg
from .palette import seat_colour

LETTERS = "ABCD"


def swatch(colour: str) -> str:
    return f'<span class="tnb-swatch" style="background:{colour}"></span>'


def scoreboard_html(game: Game, roles: Mapping[int, str]) -> str:
    """The players with colour, name, role, score, territories and castle.

    Args:
        roles: seat -> a short role text, e.g. ``"you"`` or ``"bot, hard"``.
    """
    acting = set(game.current_players())
    rows = []
    for p in game.players:
        colour = seat_colour(game.colours[p.seat])
        owned = sum(1 for s in game.territories.values() if s.owner == p.seat)
        base = next((s for s in game.territories.values() if s.base_of == p.seat and s.owner == p.seat), None)
        castle = castle_svg(base.towers, game.rules.base_towers, colour) if base and base.towers else ""
        classes = ["tnb-player"]
        if p.seat in acting:
            classes.append("tnb-acting")
        if not p.in_game:
            classes.append("tnb-out")
        status = "out of the game" if not p.in_game else f"{owned} {'territory' if owned == 1 else 'territories'}"
        rows.append(
            f'<tr class="{" ".join(classes)}"><td>{swatch(colour)}</td>'
            f'<td><b>{escape(p.name)}</b><div class="tnb-role">{escape(roles.get(p.seat, ""))} · {status}</div></td>'
            f'<td class="tnb-castle">{castle}</td><td class="tnb-score">{p.score}</td></tr>')
    return f'<table class="tnb-scores">{"".join(rows)}</table>'


def status_html(game: Game, human: int | None, paused: bool = False, started: bool = True) -> str:
    """One line saying the phase, the round and who must do what.

    Args:
        human: the seat at the screen, or None.
        paused: a question's result is on screen before play goes on.
        started: False until the teacher presses Start.
    """
    if not started:
        return '<div class="tnb-status"><span class="tnb-phase">Ready</span> · press Start the game</div>'
    if game.is_over:
        winner = game.players[game.ranking[0]]
        kind = f" - {game.win_kind.value}" if game.win_kind else ""
        return (f'<div class="tnb-status tnb-over">Game over: {escape(winner.name)} wins with {winner.score} points'
                f'{kind}</div>')
    stage = game.stage
    if game.phase is Phase.BATTLE:
        phase = f"Battle round {game.battle_round} of {len(game.rules.battle_rounds)}"
    else:
        phase = game.phase_name.capitalize()
    acting = game.current_players()
    you = not paused and human is not None and human in acting
    if paused:
        what = "the result"
    elif stage == "base":
        what = ("Your base: click a territory (outlined) for your castle" if you
                else f"{escape(game.players[acting[0]].name)} is choosing a base")
    elif stage == "pick" and isinstance(game.expansion_phase, ClaimExpansion):
        what = ("Your claim: click a free territory next to yours, then answer right to keep it" if you
                else f"{escape(game.players[acting[0]].name)} is choosing a territory to claim")
    elif stage == "pick":
        left = sum(1 for s in game.pick_queue if s == acting[0])
        what = (f"Your pick: click a free territory next to yours ({left} left)" if you
                else f"{escape(game.players[acting[0]].name)} is choosing a territory")
    elif stage == "attack":
        spec = game.rules.battle_rounds[game.battle.round]
        extra = " - or rebuild your castle" if you and game.can_rebuild(human) else ""
        extra += " - Magic Wings reach anything once" if you and game.wings_targets(human) else ""
        what = (f"Your attack: click a territory to attack ({spec.targets.value}){extra}" if you
                else f"{escape(game.players[acting[0]].name)} is choosing whom to attack")
    else:
        what = _question_status(game, human)
    mine = " tnb-yourturn" if you else ""
    return f'<div class="tnb-status{mine}"><span class="tnb-phase">{phase}</span> · {what}</div>'


def _question_status(game: Game, human: int | None) -> str:
    asked = game.question
    names = [game.players[s].name for s in asked.players]
    if asked.purpose is Purpose.EXPANSION:
        return "guess question: everyone answers"
    if asked.purpose is Purpose.CLAIM:
        seat, territory = game.claim
        return (f"{escape(game.players[seat].name)} claims {escape(game.board.names[territory])}: "
                "a right answer takes it")
    if asked.purpose is Purpose.REBUILD:
        return f"{escape(names[0])} rebuilds the castle: a right answer raises every tower"
    if game.attack is not None:
        a = game.attack
        target = game.board.names[a.territory]
        who = f"{escape(game.players[a.attacker].name)} attacks {escape(game.players[a.defender].name)} at {escape(target)}"
        return f"{who}: {'guess question decides' if asked.is_guess else 'both answer'}"
    return f"{escape(' and '.join(names))} answer"


def reveal_html(game: Game, event: Event | None) -> str:
    """The last resolved question: the correct answer and every player's answer
    and time, best first (D1 order for guesses)."""
    if event is None:
        return ""
    d = event.data
    guess = d["kind"] == "guess"
    if guess:
        correct = f"{d['correct']}"
    else:
        correct = f"{LETTERS[d['correct_option']]}) {escape(d['options'][d['correct_option']])}"
    rows = []
    seats = d["order"] if guess else sorted(d["answers"])
    for seat in seats:
        given, ms = d["answers"][seat]
        colour = seat_colour(game.colours[seat])
        if given is None:
            shown, mark = "no answer", "✗"
        elif guess:
            off = abs(given - d["correct"])
            shown, mark = f"{given}", ("exact" if off == 0 else f"off by {off}")
        else:
            right = given == d["correct_option"]
            shown, mark = f"{LETTERS[given]}) {escape(d['options'][given])}", ("✓ right" if right else "✗ wrong")
        timing = "" if ms is None or given is None else f"{ms / 1000:.1f} s"
        rows.append(f"<tr><td>{swatch(colour)} {escape(game.players[seat].name)}</td><td class='tnb-given'><b>{shown}</b></td>"
                    f"<td>{mark}</td><td class='tnb-time'>{timing}</td></tr>")
    return (f'<div class="tnb-reveal"><div class="tnb-reveal-q">{escape(d["question_text"])}</div>'
            f'<div class="tnb-correct">Correct answer: <b>{correct}</b></div>'
            f'<table>{"".join(rows)}</table></div>')


OUTCOME_KINDS = {"battle", "tower", "take", "defend", "capture", "award", "pick", "rebuild"}


def outcome_lines(game: Game, events: Sequence[Event]) -> list[str]:
    """What a resolved question decided, in sentences for the back row: who
    picks how many territories, or what the battle did."""
    answers = [e for e in events if e.kind == "answers"]
    if answers and answers[-1].data["purpose"] == Purpose.EXPANSION.value:
        picks = [e.data["seat"] for e in events if e.kind == "pick"] + list(game.pick_queue)
        counts = {seat: picks.count(seat) for seat in dict.fromkeys(picks)}
        parts = [f"{game.players[seat].name}: {n} pick{'s' if n > 1 else ''}" for seat, n in counts.items()]
        closest = game.players[answers[-1].data["order"][0]].name
        return [f"Closest: {closest}. " + ("; ".join(parts) if parts else "No picks") + "."]
    if answers and answers[-1].data["purpose"] == Purpose.TIEBREAK.value:
        order = answers[-1].data["order"]
        return ["Tie-break: " + ", then ".join(game.players[s].name for s in order) + "."]
    return [e.text + "." for e in events if e.kind in OUTCOME_KINDS]


LOGGED = {"bases", "phase", "round", "pick", "claim", "attack", "battle", "tower", "take", "defend", "capture",
          "award", "rebuild", "skip", "timeout", "warning", "ranking"}


def log_html(events: Sequence[Event], limit: int = 9) -> str:
    """The latest events, newest first."""
    shown = [e for e in events if e.kind in LOGGED][-limit:]
    items = "".join(f'<li class="tnb-ev-{e.kind}">{escape(e.text)}</li>' for e in reversed(shown))
    return f'<ul class="tnb-log">{items}</ul>'


def ranking_html(game: Game) -> str:
    """The final ranking, large."""
    items = []
    for place, seat in enumerate(game.ranking, start=1):
        p = game.players[seat]
        colour = seat_colour(game.colours[seat])
        note = "" if p.in_game else " (out)"
        items.append(f'<li>{swatch(colour)} <b>{escape(p.name)}</b> {p.score} points{note}</li>')
    kind = f'<div class="tnb-winkind">{escape(game.win_kind.value.capitalize())}</div>' if game.win_kind else ""
    return f'<div class="tnb-ranking"><div>Final ranking</div>{kind}<ol>{"".join(items)}</ol></div>'


def report_html(reports: Sequence) -> str:
    """The question reports after play as a table: right answers, and how far
    guesses were off (so authors can fix or retire a question)."""
    rows = []
    for r in reports:
        if r.kind == "guess":
            how = f"exact {r.correct}/{r.answers}" + (f", median off by {r.median_off:g}" if r.answers else "")
        else:
            how = f"right {r.correct}/{r.answers}"
        rows.append(f"<tr><td>{escape(r.text)}</td><td>{escape(how)}</td></tr>")
    return ('<table class="tnb-report"><tr><th>Question</th><th>Answers</th></tr>'
            + "".join(rows) + "</table>")
