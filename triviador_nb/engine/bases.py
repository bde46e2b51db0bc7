"""Placing the bases: drawn at random (D11-D13) or chosen by the players (D14).

Bases never border each other (D15). A chosen base must also leave room for
the players still to choose, so nobody can be left without a legal base.
"""

from __future__ import annotations

import random
from itertools import combinations
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


def _fits(board: Board, chosen: Sequence[str], territory: str) -> bool:
    return territory not in chosen and not any(board.borders(territory, c) for c in chosen)


def choosable_bases(board: Board, chosen: Sequence[str], still_to_choose: int) -> list[str]:
    """Territories a player may choose as base now, in board order: not a
    chosen base, bordering none, and leaving ``still_to_choose - 1`` more
    non-adjacent bases possible for the players after."""
    out = []
    for t in board.territories:
        if not _fits(board, chosen, t):
            continue
        rest = [u for u in board.territories if u != t and _fits(board, [*chosen, t], u)]
        if still_to_choose <= 1 or _has_independent_set(board, rest, still_to_choose - 1):
            out.append(t)
    return out


def _has_independent_set(board: Board, territories: Sequence[str], size: int) -> bool:
    return any(not any(board.borders(a, b) for a, b in combinations(combo, 2))
               for combo in combinations(territories, size))
