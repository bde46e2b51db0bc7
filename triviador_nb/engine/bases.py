"""Placing the bases: drawn at random (D11-D13) or chosen by the players (D14).

Bases never border each other (D15). A chosen base must also leave room for
the players still to choose, so nobody can be left without a legal base.

Time grows about linearly with the territories: small boards (the built-in
maps, whose games and goldens depend on it) draw from the full list of
non-adjacent sets as they always did; bigger boards draw at random and check,
and the choosable bases are found from one greedy set of spare bases, with an
exact search only for the few territories the greedy set cannot vouch for.
"""

from __future__ import annotations

import math
import random
from typing import Collection, Hashable, Mapping, Sequence, TypeVar

from .board import Board

T = TypeVar("T", bound=Hashable)

ENUMERATE_UP_TO = 50_000
"""Boards with at most this many ways to pick the bases (``C(territories,
players)``) draw from the full list of non-adjacent sets (D15), exactly as
before; bigger boards draw at random and check (same distribution)."""

DRAW_ATTEMPTS = 200
"""Random draws tried on a big board before an exact search in a random order."""


def find_independent_set(adjacency: Mapping[T, Collection[T]], candidates: Collection[T],
                         size: int) -> list[T] | None:
    """``size`` mutually non-adjacent members of ``candidates``, or None when
    there are none (D15).

    Exact and complete: some such set (if any) holds a least-connected
    candidate or one of its neighbours, so only those are tried at each step;
    for the few bases of a game (size <= 4) and maps of any size this takes
    a fraction of a second. Ties are broken by ``candidates``' order.

    Args:
        adjacency: id -> ids it borders (symmetric).
        candidates: ids the set may use, in the order to prefer.
        size: how many are wanted (>= 0).
    """
    order = {t: i for i, t in enumerate(candidates)}

    def search(pool: set[T], wanted: int) -> list[T] | None:
        if wanted == 0:
            return []
        if len(pool) < wanted:
            return None
        greedy = _greedy(adjacency, sorted(pool, key=order.__getitem__), wanted)
        if greedy is not None:
            return greedy
        least = min(pool, key=lambda t: (len(pool.intersection(adjacency[t])), order[t]))
        for choice in sorted(pool.intersection(adjacency[least]) | {least}, key=order.__getitem__):
            found = search(pool - {choice} - set(adjacency[choice]), wanted - 1)
            if found is not None:
                return [choice, *found]
        return None

    found = search(set(order), size)
    return sorted(found, key=order.__getitem__) if found is not None else None


def _greedy(adjacency: Mapping[T, Collection[T]], ordered: Sequence[T], wanted: int | None) -> list[T] | None:
    """Non-adjacent members of ``ordered`` taken first-come; ``wanted`` of them
    (None when fewer fit), or all that fit when ``wanted`` is None."""
    chosen: list[T] = []
    blocked: set[T] = set()
    for t in ordered:
        if t not in blocked:
            chosen.append(t)
            if wanted is not None and len(chosen) == wanted:
                return chosen
            blocked.add(t)
            blocked.update(adjacency[t])
    return chosen if wanted is None else None


def draw_bases(board: Board, players: int, rng: random.Random) -> list[str]:
    """``players`` mutually non-adjacent territories, one per seat, at random.

    Every set of non-adjacent territories is equally likely, and so is each
    order of it; a board with at most :data:`ENUMERATE_UP_TO` ways draws from
    the full list (the draws of the built-in maps never change), a bigger one
    draws seats at random until they are non-adjacent, then (after
    :data:`DRAW_ATTEMPTS`) searches in a random order.

    Raises:
        ValueError: the board has no such set of territories (D15).
    """
    if math.comb(len(board), players) <= ENUMERATE_UP_TO:
        candidates = board.independent_sets(players)
        if not candidates:
            raise _no_room(board, players)
        return rng.sample(rng.choice(candidates), players)
    for _ in range(DRAW_ATTEMPTS):
        bases = rng.sample(board.territories, players)
        if not any(board.borders(a, b) for i, a in enumerate(bases) for b in bases[i + 1:]):
            return bases
    shuffled = rng.sample(board.territories, len(board))
    found = find_independent_set(board.adjacency, shuffled, players)
    if found is None:
        raise _no_room(board, players)
    return rng.sample(found, players)


def _no_room(board: Board, players: int) -> ValueError:
    return ValueError(f"map {board.name!r} has no {players} mutually non-adjacent territories "
                      "for the bases (D15)")


def choosable_bases(board: Board, chosen: Sequence[str], still_to_choose: int) -> list[str]:
    """Territories a player may choose as base now, in board order: not a
    chosen base, bordering none, and leaving ``still_to_choose - 1`` more
    non-adjacent bases possible for the players after (D14, D15).

    About linear in the territories: one greedy set of spare bases vouches for
    most territories at once (those it still has ``still_to_choose - 1``
    members left for once their neighbours are removed); the others get an
    exact :func:`find_independent_set`.
    """
    taken = set(chosen)
    blocked = set(taken)
    for t in taken:
        blocked.update(board.adjacency[t])
    free = [t for t in board.territories if t not in blocked]
    after = max(still_to_choose, 1) - 1
    if after == 0:
        return free
    spare = set(_greedy(board.adjacency, free, None))
    allowed = []
    for t in free:
        kept = len(spare) - (t in spare) - len(spare.intersection(board.adjacency[t]))
        if kept >= after:
            allowed.append(t)
            continue
        shut = board.adjacency[t]
        rest = [u for u in free if u != t and u not in shut]
        if find_independent_set(board.adjacency, rest, after) is not None:
            allowed.append(t)
    return allowed
