"""A small scripted-player driver for rule tests on the grid board.

The grid board (see ``conftest.py``)::

    A1 A2 A3 A4
    B1 B2 B3 B4
    C1 C2 C3 C4

The *standard position* used by many tests: bases p1 = A1, p2 = A4,
p3 = C1, and after three scripted expansion rounds::

    A1 p1 base   A2 p1   A3 p2   A4 p2 base
    B1 p1        B2 p1   B3 p2   B4 p2
    C1 p3 base   C2 p3   C3 p3   C4 p3

Every player has 1000 + 3 x 200 = 1600 points when the battle begins.

Battle outcomes for :func:`attack` (one per multiple-choice battle):

* ``"win"``: attacker right, defender wrong - the attacker wins (D5).
* ``"defend"``: attacker wrong, defender right - defender wins, +100 (D6).
* ``"lose"``: both wrong - defender wins, no bonus (D6).
* ``"silent"``: neither answers - counts as both wrong (D2).
* ``"guess-win"`` / ``"guess-lose"``: both right, then the attacker is
  closer / farther on the guess question (D5, D1).
"""

from __future__ import annotations

import copy
from typing import Iterable, Mapping, Sequence

from fixture_data import grid_board, synthetic_bank

from triviador_nb.engine import (
    CONQUIZTADOR,
    Attack,
    Board,
    ChoiceAnswer,
    Game,
    GuessAnswer,
    Pick,
    QuestionBank,
    RuleSet,
    Timeout,
)
from triviador_nb.engine.state import Purpose

BASES = ("A1", "A4", "C1")
STANDARD_EXPANSION = (
    ((0, 1, 2), ("A2", "B1", "A3")),
    ((1, 2, 0), ("B4", "B3", "C2")),
    ((2, 0, 1), ("C3", "C4", "B2")),
)
STANDARD_OWNERS = {
    "A1": 0, "A2": 0, "B1": 0, "B2": 0,
    "A3": 1, "A4": 1, "B3": 1, "B4": 1,
    "C1": 2, "C2": 2, "C3": 2, "C4": 2,
}


def new_game(seed: int = 0, bases: Sequence[str] | None = BASES, *, board: Board | None = None,
             bank: QuestionBank | None = None, rules: RuleSet = CONQUIZTADOR,
             names: Sequence[str] | None = None) -> Game:
    """A fresh game on the grid board (placed bases unless ``bases=None``)."""
    return Game(rules, board or grid_board(), bank or synthetic_bank(), seed,
                names=names, bases=None if bases is None else list(bases))


def answer_all(game: Game, right: Iterable[int] = (), guesses: Mapping[int, int | None] | None = None,
               ms: Mapping[int, int] | None = None, silent: Iterable[int] = ()) -> list:
    """Answer the open question for every seat still waiting, in seat order.

    Multiple choice: seats in ``right`` give the correct option, seats in
    ``silent`` no answer, the others a wrong option.
    Guess: ``guesses[seat]`` if given, else the correct number for seats in
    ``right``, no answer for ``silent``, else a wrong number (off by
    ``50 * (seat + 1)``).
    Returns the events caused.
    """
    asked = game.question
    assert asked is not None, f"no question open (stage {game.stage})"
    right, silent = set(right), set(silent)
    guesses, ms = dict(guesses or {}), dict(ms or {})
    events = []
    for seat in asked.waiting_for:
        t = ms.get(seat, 1000)
        if asked.is_guess:
            correct = asked.question.answer
            if seat in guesses:
                value = guesses[seat]
            elif seat in silent:
                value = None
            elif seat in right:
                value = correct
            else:
                value = correct + 50 * (seat + 1)
            action = GuessAnswer(seat, value, None if value is None else t)
        else:
            if seat in silent:
                action = ChoiceAnswer(seat, None)
            elif seat in right:
                action = ChoiceAnswer(seat, asked.correct_option, t)
            else:
                action = ChoiceAnswer(seat, (asked.correct_option + 1) % 4, t)
        events += game.apply(action)
    return events


def answer_guess(game: Game, order: Sequence[int]) -> list:
    """Answer the open guess question so that the ranking is ``order``
    (the first seat exact, the next off by 1, ...), all at 1000 ms."""
    assert game.question is not None and game.question.is_guess
    assert set(order) == set(game.question.players), (order, game.question.players)
    correct = game.question.question.answer
    return answer_all(game, guesses={seat: correct + i for i, seat in enumerate(order)})


def expansion_round(game: Game, order: Sequence[int], picks: Sequence[str]) -> list:
    """Answer the expansion guess question with ranking ``order``, then make
    ``picks`` in the engine's pick order."""
    assert game.question is not None and game.question.purpose is Purpose.EXPANSION
    events = answer_guess(game, order)
    for territory in picks:
        assert game.stage == "pick", game.stage
        events += game.apply(Pick(game.pick_queue[0], territory))
    return events


def standard_game(seed: int = 0, *, bank: QuestionBank | None = None, rules: RuleSet = CONQUIZTADOR,
                  names: Sequence[str] | None = None) -> Game:
    """The standard position (module docstring) at the start of battle round 1."""
    game = new_game(seed, BASES, bank=bank, rules=rules, names=names)
    for order, picks in STANDARD_EXPANSION:
        expansion_round(game, order, picks)
    assert game.battle_round == 1 and game.stage == "attack"
    return game


def first_battle(seed: int = 0) -> tuple[Game, int, int, str]:
    """The standard game with the first attacker attacking its first target:
    ``(game, attacker, defender, territory)``."""
    game = standard_game(seed)
    attacker = game.attacker
    target = game.legal_targets(attacker)[0]
    game.apply(Attack(attacker, target))
    return game, attacker, game.territories[target].owner, target


def resolve_battles(game: Game, *outcomes: str) -> list:
    """Answer the battle questions of the attack under way, one outcome each."""
    events = []
    for outcome in outcomes:
        attack = game.attack
        assert attack is not None and game.question is not None and not game.question.is_guess
        a, d = attack.attacker, attack.defender
        if outcome == "win":
            events += answer_all(game, right={a})
        elif outcome == "defend":
            events += answer_all(game, right={d})
        elif outcome == "lose":
            events += answer_all(game)
        elif outcome == "silent":
            events += answer_all(game, silent={a, d})
        elif outcome in ("guess-win", "guess-lose"):
            events += answer_all(game, right={a, d})
            assert game.question.purpose is Purpose.BATTLE_GUESS
            events += answer_guess(game, (a, d) if outcome == "guess-win" else (d, a))
        else:
            raise ValueError(outcome)
    return events


def attack(game: Game, territory: str, *outcomes: str) -> list:
    """The current attacker attacks ``territory``; resolve with ``outcomes``."""
    assert game.stage == "attack", game.stage
    events = game.apply(Attack(game.attacker, territory))
    return events + resolve_battles(game, *outcomes)


def quiet_turn(game: Game) -> list:
    """A turn that changes nothing but the turn: the current attacker attacks its first
    legal target and both answer wrong, or lets the timer run out when it has no target
    (only a rebuild is possible, Long Campaign)."""
    targets = game.legal_targets(game.attacker)
    if not targets:
        return game.apply(Timeout(game.attacker))
    return attack(game, targets[0], "lose")


def advance_to(game: Game, seat: int, battle_round: int) -> None:
    """Play quiet turns until it is ``seat``'s turn in ``battle_round``."""
    while not (game.battle_round == battle_round and game.stage == "attack" and game.attacker == seat):
        assert not game.is_over and game.battle_round <= battle_round, "passed the wanted turn"
        quiet_turn(game)


def finish_quietly(game: Game) -> None:
    """Play quiet turns until the battle phase is over."""
    while game.stage == "attack":
        quiet_turn(game)


def scores(game: Game) -> list[int]:
    return game.scores()


def owners(game: Game) -> dict[str, int | None]:
    return {t: s.owner for t, s in game.territories.items()}


def kinds(events: Iterable) -> list[str]:
    return [e.kind for e in events]


def snapshot(game: Game) -> tuple:
    """Everything an action could change, for "the game is unchanged" checks."""
    return (
        copy.deepcopy(game.players), copy.deepcopy(game.territories), list(game.events),
        list(game.actions), list(game.pick_queue), copy.deepcopy(game.battle), copy.deepcopy(game.attack),
        copy.deepcopy(game.question), game.phase, game.ranking, game._chance.state(),
    )


def random_answer(game: Game, seat: int, rng) -> GuessAnswer | ChoiceAnswer:
    """A fuzzing answer for ``seat``: 5 % silent, a guess within 5 of the
    correct number, a multiple-choice answer right 70 % of the time, any
    response time within the timer."""
    asked = game.question
    if rng.random() < 0.05:
        return (GuessAnswer if asked.is_guess else ChoiceAnswer)(seat, None)
    ms = rng.randint(0, round(game.time_limit_s() * 1000))
    if asked.is_guess:
        return GuessAnswer(seat, max(0, asked.question.answer + rng.randint(-5, 5)), ms)
    return ChoiceAnswer(seat, asked.correct_option if rng.random() < 0.7 else rng.randrange(4), ms)
