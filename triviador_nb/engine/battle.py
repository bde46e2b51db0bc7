"""Battle: what may be attacked, and who wins a battle.

D5: attacker wrong or silent -> defender wins; attacker right and defender
wrong or silent -> attacker wins; both right -> a guess question decides.
D6: the defense bonus goes to a defender who wins at the multiple-choice
stage by answering correctly.
"""

from __future__ import annotations

import random
from enum import Enum
from typing import Mapping, Sequence

from .board import Board
from .rules import BattleOrder, BattleRound, Targets
from .state import PlayerState, TerritoryState


class Outcome(str, Enum):
    """The result of the multiple-choice stage of a battle (D5, D6)."""

    ATTACKER_WINS = "attacker wins"
    DEFENDED_WITH_BONUS = "defender wins, answered right"  # D6 bonus
    DEFENDED = "defender wins"  # both wrong or silent: no bonus
    GUESS_DECIDES = "both right: a guess question decides"


def choice_outcome(attacker_right: bool, defender_right: bool) -> Outcome:
    """Decide a battle's multiple-choice stage (D5, D6)."""
    if not attacker_right:
        return Outcome.DEFENDED_WITH_BONUS if defender_right else Outcome.DEFENDED
    if not defender_right:
        return Outcome.ATTACKER_WINS
    return Outcome.GUESS_DECIDES


def target_problem(board: Board, territories: Mapping[str, TerritoryState], players: Sequence[PlayerState],
                   seat: int, territory: str, targets: Targets, round_number: int) -> str | None:
    """Why ``seat`` may not attack ``territory`` now, as a sentence; None if it may.

    Args:
        targets: what the current battle round allows (D12).
        round_number: 1-based, for the message.
    """
    if territory not in territories:
        return f"there is no territory {territory!r} on this map"
    if territory in legal_targets(board, territories, players, seat, targets):
        return None
    state = territories[territory]
    name = board.names[territory]
    if state.owner == seat:
        return f"{name} is yours already"
    if state.owner is None or not players[state.owner].in_game:
        return f"{name} belongs to nobody in the game"
    if targets is Targets.ADJACENT_NO_BASES and state.is_base:
        return f"castles cannot be attacked in battle round {round_number}"
    return f"{name} does not border your territories (battle round {round_number} allows neighbours only)"


def legal_targets(board: Board, territories: Mapping[str, TerritoryState], players: Sequence[PlayerState],
                  seat: int, targets: Targets) -> list[str]:
    """Territories ``seat`` may attack in a round allowing ``targets``, in board order."""
    owned = {t for t, s in territories.items() if s.owner == seat}
    reach = board.neighbours_of_set(owned)
    out = []
    for t in board.territories:
        state = territories[t]
        if state.owner is None or state.owner == seat or not players[state.owner].in_game:
            continue
        if targets is Targets.ADJACENT_NO_BASES and state.is_base:
            continue
        if targets is not Targets.ANY and t not in reach:
            continue
        out.append(t)
    return out


def wings_targets(board: Board, territories: Mapping[str, TerritoryState], players: Sequence[PlayerState],
                  seat: int, targets: Targets) -> list[str]:
    """Territories only Magic Wings can reach: the other players' territories
    and castles that the round's ``targets`` do not allow (D11), board order."""
    normal = set(legal_targets(board, territories, players, seat, targets))
    return [t for t in legal_targets(board, territories, players, seat, Targets.ANY) if t not in normal]


def attack_order(spec: BattleRound, round_index: int, players: Sequence[PlayerState], scores: Sequence[int],
                 rng: random.Random) -> tuple[int, ...]:
    """The attacking seats of a battle round, players out of the game left out.

    RANDOM: a seeded shuffle (D12 rounds 1-2); SCORE: highest score first,
    ties by seat (D12 last round); FIXED: the round's listed seats (D11);
    ROTATING: round k starts with seat k mod players (D14).
    """
    in_game = [p.seat for p in players if p.in_game]
    if spec.order is BattleOrder.RANDOM:
        rng.shuffle(in_game)
        return tuple(in_game)
    if spec.order is BattleOrder.SCORE:
        return tuple(sorted(in_game, key=lambda s: (-scores[s], s)))
    if spec.order is BattleOrder.FIXED:
        return tuple(s for s in spec.fixed_order if players[s].in_game)
    n = len(players)
    return tuple(s for s in ((round_index + i) % n for i in range(n)) if players[s].in_game)
