"""Expansion: who may pick which free territory.

conquiztador.txt: "Players may only choose free territories that border their
own empire. If there are none of those left, then they may choose any free
territory." (the adjacent-first rule, D12). "The winner of the question may
choose 2 territories, and the second-place answerer may choose 1." Duel
alternates winner and loser by its table per map size (D11); Long Campaign
lets each player claim a territory by a multiple-choice question (D14).
"""

from __future__ import annotations

from typing import Collection, Mapping, Sequence

from .board import Board
from .state import TerritoryState


def free_territories(board: Board, territories: Mapping[str, TerritoryState]) -> list[str]:
    """Free territories, in board order."""
    return [t for t in board.territories if territories[t].owner is None]


def legal_picks(board: Board, territories: Mapping[str, TerritoryState], seat: int) -> list[str]:
    """Territories ``seat`` may pick now, in board order (adjacent-first rule).

    Returns the free territories bordering the player's own; if there are
    none, every free territory; an empty list when none is free.
    """
    free = free_territories(board, territories)
    owned = {t for t, s in territories.items() if s.owner == seat}
    near = board.neighbours_of_set(owned)
    adjacent = [t for t in free if t in near]
    return adjacent or free


def pick_problem(board: Board, territories: Mapping[str, TerritoryState], seat: int, territory: str,
                 player_names: Sequence[str]) -> str | None:
    """Why ``seat`` may not pick ``territory`` now, as a sentence; None if it may."""
    if territory not in territories:
        return f"there is no territory {territory!r} on this map"
    name = board.names[territory]
    owner = territories[territory].owner
    if owner is not None:
        return f"{name} already belongs to {player_names[owner]}"
    if territory not in legal_picks(board, territories, seat):
        return f"{name} does not border your territories; pick a free territory next to yours"
    return None


def pick_queue(ranking: Sequence[int], sequence: Sequence[int], free: int,
               answered: Collection[int] | None = None) -> list[int]:
    """Seats in picking order after a guess question.

    Args:
        ranking: seats, best first (D1).
        sequence: the pick sequence as ranks (0 = the winner), e.g. ConQUIZtador's
            ``(0, 0, 1)`` or Duel's ``(0, 1, 0, 1, 0, 1, 0)``.
        free: free territories; picks stop when none is free.
        answered: the seats that answered (None: all). D1: "the second-place
            *answerer* may choose 1" - a pick falling to a seat that did not
            answer is not made, and the territory stays free.

    >>> pick_queue([2, 0, 1], (0, 0, 1), free=5)
    [2, 2, 0]
    >>> pick_queue([1, 0], (0, 1, 0, 1, 0), free=3)
    [1, 0, 1]
    >>> pick_queue([2, 0, 1], (0, 0, 1), free=5, answered={2})
    [2, 2]
    >>> pick_queue([0, 1, 2], (0, 0, 1), free=5, answered=set())
    []
    """
    picks = [ranking[rank] for rank in sequence]
    if answered is not None:
        picks = [seat for seat in picks if seat in answered]
    return picks[:free]
