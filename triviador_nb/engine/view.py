"""The per-seat view: what one seat may see of a game, and nothing more.

:func:`view` derives a frozen, JSON-clean :class:`View` from a
:class:`~.game.Game` for one seat (or for a watcher, ``seat=None``). It alone
decides what a screen may show: an open question's text, its options in the
shown order, who has answered (never what) and its time limit; never the
correct option or number, never another seat's answer before the reveal
(boardgame.io's ``playerView``). The single-screen game and a student's
remote screen render the same views; a secrecy property test checks that a
view does not change when the secret parts of the game do.

A view carries a ``state_id`` a client quotes back with an intent: it names
the moment the intent answers (the open question, or the turn), so a stale
click or a repeated answer is recognised and acknowledged, not applied.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .actions import Draw
from .events import Event
from .plain import from_plain, to_plain
from .rules import ClaimExpansion
from .state import Phase

LOG_KINDS = frozenset({"bases", "phase", "round", "pick", "claim", "attack", "battle", "tower", "take", "defend",
                       "capture", "award", "rebuild", "skip", "timeout", "warning", "teacher", "ranking"})
LOG_LENGTH = 12  # events kept in a view's log


@dataclass(frozen=True)
class PlayerView:
    """One seat as every screen shows it.

    Attributes:
        seat: 0-based seat; name: display name; colour: colour name (``"red"``).
        score: points (D10); territories: how many it owns.
        castle_towers: towers standing on its own castle (0 once captured).
        in_game: False once eliminated; acting: the game awaits this seat.
    """

    seat: int
    name: str
    colour: str
    score: int
    territories: int
    castle_towers: int
    in_game: bool
    acting: bool


@dataclass(frozen=True)
class TerritoryView:
    """One territory: id and display name; owner seat (None while free);
    value in points; ``base_of`` the seat whose base it is (or None);
    ``towers`` standing (0 for an ordinary territory or a ruin)."""

    id: str
    name: str
    owner: int | None
    value: int
    base_of: int | None
    towers: int


@dataclass(frozen=True)
class QuestionView:
    """The open question as a seat may see it.

    Attributes:
        kind: ``"guess"`` or ``"choice"``; purpose: a ``Purpose`` value.
        text: the question; options: the four options in shown order (D2),
            empty for a guess question.
        players: seats that must answer; answered: those that have (never
            what they answered).
        time_limit_s: the timer (D3), seconds.
        my_answer: this seat's own answer (a guess, or an option index),
            None before it answers or when it did not answer.
    """

    kind: str
    purpose: str
    text: str
    options: tuple[str, ...]
    players: tuple[int, ...]
    answered: tuple[int, ...]
    time_limit_s: float
    my_answer: int | None = None


@dataclass(frozen=True)
class Prompt:
    """What the game asks of this seat now.

    Attributes:
        kind: ``"base"`` (choose a base), ``"pick"``, ``"claim"``,
            ``"attack"`` (or rebuild), ``"answer"``, ``"wait"`` (others act,
            or this seat has answered) or ``"over"``.
        choices: territory ids the seat may click (picks, bases, targets).
        wings_choices: territories reachable only with Magic Wings (D11).
        can_rebuild: the seat may rebuild its castle instead (D14).
        picks_left: picks still due to this seat after this one (expansion).
        time_limit_s: the timer for this prompt (D3), 0 for none.
    """

    kind: str
    choices: tuple[str, ...] = ()
    wings_choices: tuple[str, ...] = ()
    can_rebuild: bool = False
    picks_left: int = 0
    time_limit_s: float = 0.0


@dataclass(frozen=True)
class AttackView:
    """The attack under way: seats, the territory and its towers standing."""

    attacker: int
    defender: int
    territory: str
    towers: int


@dataclass(frozen=True)
class View:
    """One seat's view of a game (all fields JSON-clean once :meth:`to_dict`-ed).

    Attributes:
        state_id: names the moment intents answer (see the module docstring).
        seat: whose view (None: a watcher, e.g. the projector).
        rules, rules_title, map_name: what is played where.
        base_value, base_towers, point_values: the rule set's castle and the
            values a territory can have (for the map's labels).
        battle_rounds: how many battle rounds the rule set has.
        phase: a ``Phase`` value; phase_name: the running expansion phase's
            name (``"allocation"``) or the phase; battle_round: 1-based, 0
            before the battle; round_targets: a ``Targets`` value in battle.
        stage: ``"base"``, ``"pick"``, ``"attack"``, ``"answer"`` or ``"over"``;
            claiming: picks are claims (D14); acting: seats that must act.
        pick_queue: the seats due to pick, in order.
        claim: ``(seat, territory)`` of a claim being decided, or None.
        attack: the attack under way, or None.
        players, territories: everyone's standing and the map.
        question: the open question, or None.
        prompt: what this seat is asked to do.
        reveal: the last resolved question (the ``answers`` event), or None.
        outcome: what happened since that reveal, before the next question.
        log: the latest events worth a line, oldest first.
        ranking, win_kind: the final ranking (seats) and Dobyvatel's win kind.
        places: the 1-based place of each seat of ``ranking`` (equal places
            are shared: D13, D16), or None before the end.
        started, paused, time_left_s: the table's clock (the engine alone
            gives True, False and the full time limit): play has begun, a
            result is on screen, seconds left on the prompt's timer.
        get_ready_s: seconds left of the table's "get ready" after Start
            (0: none runs); while it runs the first prompt is not shown.
    """

    state_id: str
    seat: int | None
    rules: str
    rules_title: str
    map_name: str
    base_value: int
    base_towers: int
    point_values: tuple[int, ...]
    battle_rounds: int
    phase: str
    phase_name: str
    battle_round: int
    round_targets: str | None
    stage: str
    claiming: bool
    acting: tuple[int, ...]
    pick_queue: tuple[int, ...]
    claim: tuple[int, str] | None
    attack: AttackView | None
    players: tuple[PlayerView, ...]
    territories: tuple[TerritoryView, ...]
    question: QuestionView | None
    prompt: Prompt
    reveal: Event | None
    outcome: tuple[Event, ...]
    log: tuple[Event, ...]
    ranking: tuple[int, ...] | None
    win_kind: str | None
    started: bool = True
    paused: bool = False
    time_left_s: float = 0.0
    places: tuple[int, ...] | None = None
    get_ready_s: float = 0.0

    @property
    def is_over(self) -> bool:
        return self.stage == "over"

    def territory(self, territory_id: str) -> TerritoryView:
        """The territory with this id.

        Raises:
            KeyError: no such territory on this map.
        """
        for t in self.territories:
            if t.id == territory_id:
                return t
        raise KeyError(territory_id)

    def to_dict(self) -> dict[str, Any]:
        """The view as plain dicts, lists, strings, numbers, booleans and None."""
        return json.loads(self.to_json())

    def to_json(self) -> str:
        """The view as one line of JSON."""
        return json.dumps(to_plain(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "View":
        """Rebuild a view from :meth:`to_dict` (equal to the original).

        Raises:
            ValueError: a field is missing or of the wrong shape.
        """
        try:
            return from_plain(cls, data)
        except ValueError as error:
            raise ValueError(f"not a view: {error}") from None

    @classmethod
    def from_json(cls, text: str) -> "View":
        """Rebuild a view from :meth:`to_json`.

        Raises:
            ValueError: not JSON, or not a view.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not a view: {error}") from None
        return cls.from_dict(data)


def prompt_id(game) -> str:
    """The moment the game is at, as the intents answering it will quote it:
    while a question is open, the record position of its draw (every answer to
    it quotes the same id); otherwise the record's length."""
    n = len(game.record)
    if game.question is not None:
        n = next(i for i in range(n - 1, -1, -1) if isinstance(game.record[i], Draw))
    return str(n)


def view(game, seat: int | None) -> View:
    """What ``seat`` may see of ``game`` now (``None``: a watcher, who sees
    what every seat sees and answers nothing).

    Args:
        game: a :class:`~.game.Game`.
        seat: 0-based seat, or None.

    Raises:
        ValueError: ``seat`` is not a seat of this game.
    """
    if seat is not None and not (type(seat) is int and 0 <= seat < len(game.players)):
        raise ValueError(f"there is no seat {seat!r} in this game")
    rules, board = game.rules, game.board
    stage = game.stage
    acting = tuple(game.current_players())
    owned = {p.seat: 0 for p in game.players}
    castles = {p.seat: 0 for p in game.players}
    for state in game.territories.values():
        if state.owner is not None:
            owned[state.owner] += 1
        if state.base_of is not None and state.owner == state.base_of:
            castles[state.base_of] = state.towers
    scores = game.scores()
    players = tuple(PlayerView(p.seat, p.name, game.colours[p.seat], scores[p.seat], owned[p.seat],
                               castles[p.seat], p.in_game, p.seat in acting) for p in game.players)
    territories = tuple(TerritoryView(t, board.names[t], s.owner, s.value, s.base_of, s.towers)
                        for t, s in game.territories.items())
    question = None
    if game.question is not None:
        asked = game.question
        mine = asked.answers.get(seat) if seat is not None else None
        question = QuestionView(
            kind="guess" if asked.is_guess else "choice", purpose=asked.purpose.value, text=asked.question.text,
            options=tuple(asked.options), players=tuple(asked.players),
            answered=tuple(s for s in asked.players if s in asked.answers),
            time_limit_s=float(game.time_limit_s()),
            my_answer=None if mine is None else (mine.value if asked.is_guess else mine.option))
    spec = game.expansion_phase
    claiming = isinstance(spec, ClaimExpansion)
    reveal, outcome = _last_reveal(game.events)
    attack = None
    if game.attack is not None:
        a = game.attack
        attack = AttackView(a.attacker, a.defender, a.territory, game.territories[a.territory].towers)
    in_battle = game.phase is Phase.BATTLE
    values = sorted({p.value for p in rules.expansion} | {rules.capture_value, rules.ruin_taken_value})
    return View(
        state_id=prompt_id(game), seat=seat, rules=rules.name, rules_title=rules.title, map_name=board.name,
        base_value=rules.base_value, base_towers=rules.base_towers, point_values=tuple(values),
        battle_rounds=len(rules.battle_rounds), phase=game.phase.value, phase_name=game.phase_name,
        battle_round=game.battle_round,
        round_targets=rules.battle_rounds[game.battle.round].targets.value if in_battle else None,
        stage=stage, claiming=claiming, acting=acting, pick_queue=tuple(game.pick_queue),
        claim=tuple(game.claim) if game.claim is not None else None, attack=attack,
        players=players, territories=territories, question=question, prompt=_prompt(game, seat, stage, claiming),
        reveal=reveal, outcome=outcome,
        log=tuple(e for e in game.events if e.kind in LOG_KINDS)[-LOG_LENGTH:],
        ranking=tuple(game.ranking) if game.ranking is not None else None,
        win_kind=game.win_kind.value if game.win_kind is not None else None,
        time_left_s=float(game.time_limit_s()) if stage != "over" else 0.0,
        places=tuple(game.places) if game.places is not None else None)


def _prompt(game, seat: int | None, stage: str, claiming: bool) -> Prompt:
    if stage == "over":
        return Prompt("over")
    limit = float(game.time_limit_s())
    if seat is None or seat not in game.current_players():
        return Prompt("wait")
    if stage == "answer":
        return Prompt("answer", time_limit_s=limit)
    if stage in ("base", "pick"):
        kind = "base" if stage == "base" else ("claim" if claiming else "pick")
        left = sum(1 for s in game.pick_queue[1:] if s == seat)
        return Prompt(kind, tuple(game.legal_picks(seat)), picks_left=left, time_limit_s=limit)
    return Prompt("attack", tuple(game.legal_targets(seat)), tuple(game.wings_targets(seat)),
                  game.can_rebuild(seat), time_limit_s=limit)


def _last_reveal(events: list[Event]) -> tuple[Event | None, tuple[Event, ...]]:
    """The last ``answers`` event and the events after it up to the next question."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].kind == "answers":
            after = []
            for e in events[i + 1:]:
                if e.kind == "question":
                    break
                after.append(e)
            return events[i], tuple(after)
    return None, ()
