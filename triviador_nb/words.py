"""Words for the screen: event records, enum identifiers and errors in English.

The engine records what happened as data (:class:`~triviador_nb.engine.Event`:
kind, code, parameters) and names its phases, targets and win kinds with
identifiers. This module alone turns them into sentences, so a second
language is a second table here, not a change to the rules. It is pure: no
widgets, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from .engine.events import EVENT_CODES, Event

LETTERS = "ABCD"

#: Phase identifiers (``Phase`` values and expansion phase names) -> labels.
PHASE_LABELS = {"bases": "bases", "expansion": "expansion", "allocation": "allocation", "claim": "claim",
                "battle": "battle", "tiebreak": "tie-break", "over": "game over"}
#: ``Targets`` values -> what a battle round lets an attacker choose.
TARGET_LABELS = {"adjacent_no_bases": "neighbours, no castles", "adjacent": "neighbours", "any": "anything"}
#: ``WinKinds`` values -> labels (D13).
WIN_KIND_LABELS = {"whole_map": "whole-map victory", "great": "great victory", "narrow": "narrow victory"}
#: ``Purpose`` values -> why a question is asked.
PURPOSE_LABELS = {"expansion": "expansion", "claim": "claim", "battle": "battle", "rebuild": "rebuild",
                  "battle_guess": "battle (guess)", "tiebreak": "tie-break"}


def phase_label(phase: str) -> str:
    """A phase identifier as players call it (unknown names are shown as they are)."""
    return PHASE_LABELS.get(phase, phase)


@dataclass(frozen=True)
class Names:
    """What sentences need besides an event: who is who and what is where.

    Attributes:
        players: display name per seat.
        colours: colour name per seat (``"red"``), or empty.
        territories: territory id -> display name.
    """

    players: Sequence[str]
    colours: Sequence[str]
    territories: Mapping[str, str]

    @classmethod
    def of_game(cls, game) -> "Names":
        """The names of a :class:`~triviador_nb.engine.Game`."""
        return cls(tuple(p.name for p in game.players), tuple(game.colours), game.board.names)

    @classmethod
    def of_view(cls, view) -> "Names":
        """The names of a :class:`~triviador_nb.engine.view.View`."""
        return cls(tuple(p.name for p in view.players), tuple(p.colour for p in view.players),
                   {t.id: t.name for t in view.territories})

    def seat(self, seat: int) -> str:
        return self.players[seat]

    def place(self, territory: str) -> str:
        return self.territories.get(territory, territory)


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.1f} s"


def _answers(d: Mapping, n: Names) -> str:
    guess = d["kind"] == "guess"
    correct = str(d["correct"]) if guess else f"{LETTERS[d['correct_option']]}) {d['options'][d['correct_option']]}"
    parts = []
    for a in d["answers"]:
        given = a["given"]
        shown = "no answer" if given is None else (str(given) if guess else f"{LETTERS[given]}) {d['options'][given]}")
        timing = "" if a["ms"] is None or given is None else f" in {_seconds(a['ms'])}"
        parts.append(f"{n.seat(a['seat'])}: {shown}{timing}")
    return f"Correct answer: {correct}. " + "; ".join(parts)


def _attack(d: Mapping, n: Names) -> str:
    place = n.place(d["territory"])
    what = f"the castle of {place} ({d['towers']} towers standing)" if d["towers"] else place
    flying = " on Magic Wings" if d["wings"] else ""
    return f"{n.seat(d['seat'])} attacks {n.seat(d['defender'])}{flying}: {what}"


def _round_battle(d: Mapping, n: Names) -> str:
    wings = "; Magic Wings allowed" if d["magic_wings"] else ""
    return (f"Battle round {d['round']} of {d['rounds']} ({TARGET_LABELS[d['targets']]}{wings}); "
            f"order: {', '.join(n.seat(s) for s in d['order'])}")


def _ranking(d: Mapping, n: Names) -> str:
    kind = f" ({WIN_KIND_LABELS[d['win_kind']]})" if d.get("win_kind") else ""
    lines = "; ".join(f"{i + 1}. {n.seat(s)} {d['scores'][s]}" for i, s in enumerate(d["ranking"]))
    return f"Game over{kind}. Final ranking: {lines}"


def _defend(d: Mapping, n: Names) -> str:
    extra = f" and earns the defense bonus (+{d['points']})" if d["points"] else ""
    return f"{n.seat(d['seat'])} holds {n.place(d['territory'])}{extra}"


_TEXT: dict[str, Callable[[Mapping, Names], str]] = {
    "bases.drawn": lambda d, n: "Bases drawn - " + ", ".join(
        f"{n.seat(s)}: {n.place(t)}" for s, t in enumerate(d["bases"])),
    "bases.placed": lambda d, n: "Bases placed - " + ", ".join(
        f"{n.seat(s)}: {n.place(t)}" for s, t in enumerate(d["bases"])),
    "bases.chosen": lambda d, n: f"{n.seat(d['seat'])} chooses {n.place(d['territory'])} as base",
    "phase.bases": lambda d, n: "Bases: each player chooses a base, in the order " + ", ".join(
        f"{n.seat(s)} ({n.colours[s]})" if n.colours else n.seat(s) for s in d["order"]),
    "phase.expansion": lambda d, n: f"{phase_label(d['phase']).capitalize()}: {d['value']} points a territory",
    "phase.battle": lambda d, n: "Expansion is over: the battle begins",
    "phase.tiebreak": lambda d, n: (f"{' and '.join(n.seat(s) for s in d['seats'])} have {d['points']} points each: "
                                    "a guess question decides their order"),
    "round.claim": lambda d, n: (f"{phase_label(d['phase']).capitalize()} round {d['round']} of {d['rounds']}; "
                                 f"order: {', '.join(n.seat(s) for s in d['order'])}"),
    "round.battle": _round_battle,
    "question.asked": lambda d, n: (f"{'Guess' if d['kind'] == 'guess' else 'Multiple-choice'} question for "
                                    f"{', '.join(n.seat(s) for s in d['seats'])}: {d['question_text']}"),
    "answers.revealed": _answers,
    "pick.taken": lambda d, n: f"{n.seat(d['seat'])} takes {n.place(d['territory'])} (+{d['points']})",
    "pick.claim_wrong": lambda d, n: f"{n.seat(d['seat'])} answered wrong: {n.place(d['territory'])} stays free",
    "claim.made": lambda d, n: (f"{n.seat(d['seat'])} claims {n.place(d['territory'])}: a multiple-choice "
                                "question decides"),
    "attack.started": _attack,
    "battle.both_right": lambda d, n: "Both answered right: a guess question decides",
    "tower.fallen": lambda d, n: f"A tower of {n.place(d['territory'])} falls ({d['towers']} left)",
    "take.territory": lambda d, n: (f"{n.seat(d['seat'])} takes {n.place(d['territory'])} (+{d['gained']}); "
                                    f"{n.seat(d['defender'])} loses {d['lost']}"),
    "defend.held": _defend,
    "capture.base": lambda d, n: (f"{n.seat(d['seat'])} captures the base of {n.seat(d['defender'])} and takes all "
                                  f"{len(d['territories'])} territories and {d['points']} points; "
                                  f"{n.seat(d['defender'])} is out of the game"),
    "award.elimination": lambda d, n: (f"{n.seat(d['seat'])} earns {d['points']} points for eliminating "
                                       f"{n.seat(d['defender'])}"),
    "award.tiebreak": lambda d, n: f"{n.seat(d['seat'])} wins the tie-break: +{d['points']}",
    "rebuild.tried": lambda d, n: f"{n.seat(d['seat'])} tries to rebuild the castle: a multiple-choice question decides",
    "rebuild.done": lambda d, n: f"{n.seat(d['seat'])} rebuilds the castle: {d['towers']} towers stand again",
    "rebuild.failed": lambda d, n: f"{n.seat(d['seat'])} answered wrong: the castle stays as it was",
    "skip.nothing_to_attack": lambda d, n: f"{n.seat(d['seat'])} has nothing to attack and skips the turn",
    "skip.timed_out": lambda d, n: f"{n.seat(d['seat'])} ran out of time; the turn passes",
    "timeout.random_choice": lambda d, n: (f"{n.seat(d['seat'])} ran out of time; chosen at random: "
                                           f"{n.place(d['territory'])}"),
    "warning.deck_reshuffled": lambda d, n: (f"every {d['kind']} question has been asked; "
                                             "used questions are shuffled and asked again (D4)"),
    "warning.related_question": lambda d, n: (f"every {d['kind']} question left belongs with one asked already "
                                              "(it gives one away, or asks the same fact); one of them is asked"),
    "teacher.skipped": lambda d, n: "The teacher skipped the question: here is another one",
    "teacher.ended": lambda d, n: "The teacher ended the game",
    "ranking.final": _ranking,
}
assert set(_TEXT) == {code for codes in EVENT_CODES.values() for code in codes}, "a sentence per event code"


def event_text(event: Event, names: Names) -> str:
    """The sentence for one event, e.g. ``"Anna takes Baranya (+400); Bot 1
    loses 200"``.

    Raises:
        KeyError: an event code with no sentence (cannot happen for events the
            engine makes: a test checks every code).
    """
    return _TEXT[event.code](event.data, names)


# ----------------------------------------------------------------------------- views


def status(view) -> tuple[str, str]:
    """The status line for the view's seat: ``(phase, what)``, e.g.
    ``("Battle round 2 of 3", "Your attack: click a territory to attack
    (neighbours)")``; before Start and after the game, ``what`` says so.
    Plain text (the screen escapes it)."""
    if not view.started:
        return "Ready", "press Start the game"
    if view.is_over:
        winner = view.players[view.ranking[0]]
        kind = f" - {WIN_KIND_LABELS[view.win_kind]}" if view.win_kind else ""
        return "Game over", f"Game over: {winner.name} wins with {winner.score} points{kind}"
    stage = view.stage
    if view.phase == "battle":
        phase = f"Battle round {view.battle_round} of {view.battle_rounds}"
    else:
        phase = phase_label(view.phase_name).capitalize()
    acting = view.acting
    prompt = view.prompt
    you = not view.paused and prompt.kind not in ("wait", "over")
    other = view.players[acting[0]].name if acting else ""
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
    return phase, what


def _question_status(view) -> str:
    asked = view.question
    names = [view.players[s].name for s in asked.players]
    if asked.purpose == "expansion":
        return "guess question: everyone answers"
    if asked.purpose == "claim":
        seat, territory = view.claim
        return f"{view.players[seat].name} claims {view.territory(territory).name}: a right answer takes it"
    if asked.purpose == "rebuild":
        return f"{names[0]} rebuilds the castle: a right answer raises every tower"
    if view.attack is not None:
        a = view.attack
        who = f"{view.players[a.attacker].name} attacks {view.players[a.defender].name} at {view.territory(a.territory).name}"
        return f"{who}: {'guess question decides' if asked.kind == 'guess' else 'both answer'}"
    return f"{' and '.join(names)} answer"


def question_title(view) -> str:
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


def turn_text(view) -> str:
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


OUTCOME_KINDS = {"battle", "tower", "take", "defend", "capture", "award", "pick", "rebuild"}


def outcome_lines(view) -> list[str]:
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
        answered = {a["seat"] for a in reveal.data["answers"] if a["given"] is not None}
        if not answered:
            return ["Nobody answered: no picks."]
        closest = view.players[next(s for s in reveal.data["order"] if s in answered)].name
        return [f"Closest: {closest}. " + ("; ".join(parts) if parts else "No picks") + "."]
    if reveal.data["purpose"] == "tiebreak":
        order = reveal.data["order"]
        return ["Tie-break: " + ", then ".join(view.players[s].name for s in order) + "."]
    return [event_text(e, names) + "." for e in view.outcome if e.kind in OUTCOME_KINDS]
