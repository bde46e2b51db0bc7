"""Base placement that scales (issue 13 part 2; D14, D15)."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from triviador_nb.engine.bases import (ENUMERATE_UP_TO, choosable_bases, draw_bases,
                                       find_independent_set)
from triviador_nb.engine.board import Board


def grid_board(width: int, height: int) -> Board:
    """Squares in a grid, each bordering the 4 beside it (a map of counties)."""
    names = {f"t{x}_{y}": f"T {x},{y}" for y in range(height) for x in range(width)}
    adjacency = {f"t{x}_{y}": [f"t{a}_{b}" for a, b in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
                               if 0 <= a < width and 0 <= b < height]
                 for y in range(height) for x in range(width)}
    return Board("grid", names, adjacency)


@st.composite
def boards(draw) -> Board:
    n = draw(st.integers(1, 11))
    ids = [f"t{i}" for i in range(n)]
    pairs = [p for p in combinations(ids, 2) if draw(st.booleans())] if n > 1 else []
    adjacency: dict[str, set[str]] = {t: set() for t in ids}
    for a, b in pairs:
        adjacency[a].add(b)
        adjacency[b].add(a)
    return Board("random", {t: t for t in ids}, adjacency)


def independent(board: Board, chosen) -> bool:
    return not any(board.borders(a, b) for a, b in combinations(chosen, 2))


def old_choosable(board: Board, chosen: list[str], still: int) -> list[str]:
    """The enumeration these replaced: every territory of a full non-adjacent
    set that holds the chosen bases."""
    allowed: set[str] = set()
    for combo in combinations(board.territories, len(chosen) + max(still, 1)):
        if set(chosen) <= set(combo) and independent(board, combo):
            allowed.update(combo)
    return [t for t in board.territories if t in allowed and t not in chosen]


@settings(max_examples=300, deadline=None)
@given(boards(), st.integers(0, 4), st.integers(0, 3), st.randoms(use_true_random=False))
def test_choosable_bases_are_exactly_what_the_full_enumeration_allowed(board, still, already, rnd):
    chosen = find_independent_set(board.adjacency, rnd.sample(board.territories, len(board)), already) or []
    assert choosable_bases(board, chosen, still) == old_choosable(board, chosen, still)


@settings(max_examples=300, deadline=None)
@given(boards(), st.integers(0, 5))
def test_an_independent_set_is_found_exactly_when_one_exists(board, size):
    found = find_independent_set(board.adjacency, board.territories, size)
    exists = any(independent(board, c) for c in combinations(board.territories, size))
    assert (found is not None) == exists
    if found is not None:
        assert len(set(found)) == size and independent(board, found)


def test_a_small_board_draws_from_the_full_list_as_before():
    board = grid_board(4, 4)  # C(16, 4) = 1820 ways: the old draw, same stream
    old = random.Random(5)
    expected = old.sample(old.choice(board.independent_sets(4)), 4)
    assert draw_bases(board, 4, random.Random(5)) == expected


def test_a_big_board_draws_non_adjacent_bases_from_the_seed():
    board = grid_board(48, 48)  # 2,304 territories
    assert 2304 * 2303 * 2302 * 2301 // 24 > ENUMERATE_UP_TO
    draws = [draw_bases(board, 4, random.Random(seed)) for seed in range(30)]
    assert all(len(set(d)) == 4 and independent(board, d) for d in draws)
    assert draw_bases(board, 4, random.Random(7)) == draw_bases(board, 4, random.Random(7))
    assert len({tuple(d) for d in draws}) == 30


def test_a_big_board_where_random_draws_fail_still_finds_the_only_room():
    # 80 territories that all border each other, and two more (p0 borders only
    # c0, p1 only c1): three bases fit only as p0, p1 and one of c2..c79, which
    # random draws of 3 of 82 almost never hit (C(82, 3) > ENUMERATE_UP_TO)
    clique = [f"c{i}" for i in range(80)]
    adjacency = {c: [o for o in clique if o != c] for c in clique}
    adjacency["c0"].append("p0")
    adjacency["c1"].append("p1")
    adjacency["p0"], adjacency["p1"] = ["c0"], ["c1"]
    board = Board("tight", {t: t for t in [*clique, "p0", "p1"]}, adjacency)
    bases = draw_bases(board, 3, random.Random(1))
    assert len(board) == 82 and 82 * 81 * 80 // 6 > ENUMERATE_UP_TO
    assert independent(board, bases) and sorted(bases)[-2:] == ["p0", "p1"]
    assert sorted(choosable_bases(board, [], 3)) == sorted(t for t in board.territories if t not in ("c0", "c1"))
    assert choosable_bases(board, ["p0"], 2) == [t for t in clique[2:]] + ["p1"]


def test_a_big_board_offers_every_free_territory_when_room_is_plenty():
    board = grid_board(48, 48)
    chosen = ["t0_0", "t10_10"]
    allowed = choosable_bases(board, chosen, 2)
    blocked = {"t0_0", "t1_0", "t0_1", "t10_10", "t9_10", "t11_10", "t10_9", "t10_11"}
    assert allowed == [t for t in board.territories if t not in blocked]
