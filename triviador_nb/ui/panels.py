"""HTML for the side panels: scoreboard, status line, answer reveal, log, ranking.

Pure functions from a seat's :class:`~triviador_nb.engine.view.View` to HTML
strings (the screen is fed by views only, so it cannot show what the seat may
not see), easy to test. Words come from :mod:`triviador_nb.words`. Every text
from a question bank or a player name is escaped: markup in a bank is shown
literally, never rendered.
"""

from __future__ import annotations

from html import escape
from typing import Mapping, Sequence

from ..engine.view import View
from ..words import TARGET_LABELS, WIN_KIND_LABELS, Names, event_text, phase_label
from .map_view import castle_svg
from .palette import seat_colour

LETTERS = "ABCD"


def swatch(colour: str) -> str:
    return f'<span class="tnb-swatch" style="background:{colour}"></span>'


def scoreboard_html(view: View, roles: Mapping[int, str]) -> str:
    """The players with colour, name, role, score, territories and castle.

    Args:
        roles: seat -> a short role text, e.g. ``"you"`` or ``"bot, hard"``.
    """
    rows = []
    for p in view.players:
        colour = seat_colour(p.colour)
        castle = castle_svg(p.castle_towers, view.base_towers, colour) if p.castle_towers else ""
        classes = ["tnb-player"]
        if p.acting:
            classes.append("tnb-acting")
        if not p.in_game:
            classes.append("tnb-out")
        owned = p.territories
        status = "out of the game" if not p.in_game else f"{owned} {'territory' if owned == 1 else 'territories'}"
        rows.append(
            f'<tr class="{" ".join(classes)}"><td>{swatch(colour)}</td>'
            f'<td><b>{escape(p.name)}</b><div class="tnb-role">{escape(roles.get(p.seat, ""))} · {status}</div></td>'
            f'<td class="tnb-castle">{castle}</td><td class="tnb-score">{p.score}</td></tr>')
    return f'<table class="tnb-scores">{"".join(rows)}</table>'


def status_html(view: View) -> str:
    """One line saying the phase, the round and who must do what, for the
    view's seat (``view.paused``: a result is on screen; ``view.started``:
    False until the teacher presses Start)."""
    if not view.started:
        return '<div class="tnb-status"><span class="tnb-phase">Ready</span> · press Start the game</div>'
    if view.is_over:
        winner = view.players[view.ranking[0]]
        kind = f" - {WIN_KIND_LABELS[view.win_kind]}" if view.win_kind else ""
        return (f'<div class="tnb-status tnb-over">Game over: {escape(winner.name)} wins with {winner.score} points'
                f'{kind}</div>')
    stage = view.stage
    if view.phase == "battle":
        phase = f"Battle round {view.battle_round} of {view.battle_rounds}"
    else:
        phase = phase_label(view.phase_name).capitalize()
    acting = view.acting
    prompt = view.prompt
    you = not view.paused and prompt.kind not in ("wait", "over")
    other = escape(view.players[acting[0]].name) if acting else ""
    if view.paused:
        what = "the result"
    elif stage == "base":
        what = "Your base: click a territory (outlined) for your castle" if you else f"{other} is choosing a base"
    elif stage == "pick" and view.claiming:
        what = ("Your claim: click a free territory next to yours, then answer right to keep it" if you
                else f"{other} is choosing a territory to claim")
    elif stage == "pick":
        what = (f"Your pick: click a free territory next to yours ({prompt.picks_left + 1} left)" if you
                else f"{other} is choosing a territory")
    elif stage == "attack":
        extra = " - or rebuild your castle" if you and prompt.can_rebuild else ""
        extra += " - Magic Wings reach anything once" if you and prompt.wings_choices else ""
        what = (f"Your attack: click a territory to attack ({TARGET_LABELS[view.round_targets]}){extra}" if you
                else f"{other} is choosing whom to attack")
    else:
        what = _question_status(view)
    mine = " tnb-yourturn" if you else ""
    return f'<div class="tnb-status{mine}"><span class="tnb-phase">{phase}</span> · {what}</div>'


def _question_status(view: View) -> str:
    asked = view.question
    names = [view.players[s].name for s in asked.players]
    if asked.purpose == "expansion":
        return "guess question: everyone answers"
    if asked.purpose == "claim":
        seat, territory = view.claim
        return (f"{escape(view.players[seat].name)} claims {escape(view.territory(territory).name)}: "
                "a right answer takes it")
    if asked.purpose == "rebuild":
        return f"{escape(names[0])} rebuilds the castle: a right answer raises every tower"
    if view.attack is not None:
        a = view.attack
        target = view.territory(a.territory).name
        who = f"{escape(view.players[a.attacker].name)} attacks {escape(view.players[a.defender].name)} at {escape(target)}"
        return f"{who}: {'guess question decides' if asked.kind == 'guess' else 'both answer'}"
    return f"{escape(' and '.join(names))} answer"


def question_title(view: View) -> str:
    """The question panel's heading: the kind of question, who answers, what it decides."""
    asked = view.question
    kind = "Guess question" if asked.kind == "guess" else "Multiple-choice question"
    names = " vs ".join(view.players[s].name for s in asked.players)
    if asked.purpose == "expansion":
        return f"{kind} · everyone answers · closest wins"
    if asked.purpose == "battle_guess":
        return f"{kind} · both were right · closest wins · {names}"
    if asked.purpose == "claim":
        _seat, territory = view.claim
        return f"{kind} · {names} · right = {view.territory(territory).name} is yours"
    if asked.purpose == "rebuild":
        return f"{kind} · {names} · right = the castle stands again"
    return f"{kind} · {names}"


def turn_text(view: View) -> str:
    """What the view's seat is asked to click on its turn."""
    kind = view.prompt.kind
    if kind == "base":
        return "Click a territory (outlined) for your base and castle."
    if kind == "claim":
        return "Click a free territory next to yours, then answer a question to keep it."
    if kind == "pick":
        return "Click a free territory next to yours on the map."
    extra = []
    if view.prompt.wings_choices:
        extra.append("Magic Wings (button below) reach one far territory or castle.")
    if view.prompt.can_rebuild:
        extra.append("Or rebuild your castle (button below).")
    return " ".join(["Click a territory to attack (outlined on the map).", *extra])


def reveal_html(view: View) -> str:
    """The last resolved question: the correct answer and every player's answer
    and time, best first (D1 order for guesses)."""
    event = view.reveal
    if event is None:
        return ""
    d = event.data
    guess = d["kind"] == "guess"
    if guess:
        correct = f"{d['correct']}"
    else:
        correct = f"{LETTERS[d['correct_option']]}) {escape(d['options'][d['correct_option']])}"
    by_seat = {a["seat"]: a for a in d["answers"]}
    rows = []
    for seat in (d["order"] if guess else sorted(by_seat)):
        given, ms = by_seat[seat]["given"], by_seat[seat]["ms"]
        colour = seat_colour(view.players[seat].colour)
        if given is None:
            shown, mark = "no answer", "✗"
        elif guess:
            off = abs(given - d["correct"])
            shown, mark = f"{given}", ("exact" if off == 0 else f"off by {off}")
        else:
            right = given == d["correct_option"]
            shown, mark = f"{LETTERS[given]}) {escape(d['options'][given])}", ("✓ right" if right else "✗ wrong")
        timing = "" if ms is None or given is None else f"{ms / 1000:.1f} s"
        rows.append(f"<tr><td>{swatch(colour)} {escape(view.players[seat].name)}</td><td class='tnb-given'><b>{shown}</b></td>"
                    f"<td>{mark}</td><td class='tnb-time'>{timing}</td></tr>")
    return (f'<div class="tnb-reveal"><div class="tnb-reveal-q">{escape(d["question_text"])}</div>'
            f'<div class="tnb-correct">Correct answer: <b>{correct}</b></div>'
            f'<table>{"".join(rows)}</table></div>')


OUTCOME_KINDS = {"battle", "tower", "take", "defend", "capture", "award", "pick", "rebuild"}


def outcome_lines(view: View) -> list[str]:
    """What the last resolved question decided, in sentences for the back row:
    who picks how many territories, or what the battle did."""
    reveal = view.reveal
    if reveal is None:
        return []
    names = Names.of_view(view)
    if reveal.data["purpose"] == "expansion":
        picks = [e.data["seat"] for e in view.outcome if e.kind == "pick"] + list(view.pick_queue)
        counts = {seat: picks.count(seat) for seat in dict.fromkeys(picks)}
        parts = [f"{view.players[seat].name}: {n} pick{'s' if n > 1 else ''}" for seat, n in counts.items()]
        closest = view.players[reveal.data["order"][0]].name
        return [f"Closest: {closest}. " + ("; ".join(parts) if parts else "No picks") + "."]
    if reveal.data["purpose"] == "tiebreak":
        order = reveal.data["order"]
        return ["Tie-break: " + ", then ".join(view.players[s].name for s in order) + "."]
    return [event_text(e, names) + "." for e in view.outcome if e.kind in OUTCOME_KINDS]


def log_html(view: View, limit: int = 9) -> str:
    """The latest events, newest first."""
    names = Names.of_view(view)
    shown = list(view.log)[-limit:]
    items = "".join(f'<li class="tnb-ev-{e.kind}">{escape(event_text(e, names))}</li>' for e in reversed(shown))
    return f'<ul class="tnb-log">{items}</ul>'


def ranking_html(view: View) -> str:
    """The final ranking, large."""
    items = []
    for seat in view.ranking:
        p = view.players[seat]
        colour = seat_colour(p.colour)
        note = "" if p.in_game else " (out)"
        items.append(f'<li>{swatch(colour)} <b>{escape(p.name)}</b> {p.score} points{note}</li>')
    kind = f'<div class="tnb-winkind">{escape(WIN_KIND_LABELS[view.win_kind].capitalize())}</div>' if view.win_kind else ""
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
