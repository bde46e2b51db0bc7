"""Placing the bases: drawn at random (D11-D13) or chosen by the players (D14).

Bases never border each other (D15). A chosen base must also leave room for
the players still to choose, so nobody can be left without a legal base.
"""

from __future__ import annotations

import random
from typing import Sequence

from .board import Board


def draw_bases(board: Board, players: int, rng: random.Random) -> list[str]:
    """``players`` mutually non-adjacent territories, one per seat, at random.

    Raises:
        ValueError: the board has no such set of territories (D15).
    """
    candidates = board.independent_sets(players)
    if not candidates:
        raise ValueError(f"map {board.name!r} has no {players} mutually non-adjacent territories "
                         "for the bases (D15)")
    return rng.sample(rng.choice(candidates), players)


def choosable_bases(board: Board, chosen: Sequence[str], still_to_choose: int) -> list[str]:
    """Territories a player may choose as base now, in board order: not a
    chosen base, bordering none, and leaving ``still_to_choose - 1`` more
    non-adjacent bases possible for the players after (D14, D15).

    These are the territories of the board's cached sets of
    ``len(chosen) + still_to_choose`` non-adjacent territories that hold
    every chosen base.
    """
    taken = set(chosen)
    allowed: set[str] = set()
    for bases in board.independent_sets(len(taken) + max(still_to_choose, 1)):
        if taken.issubset(bases):
            allowed.update(bases)
    return [t for t in board.territories if t in allowed and t not in taken]
