"""Test data builders: a small grid board and a synthetic question bank.

The grid board makes adjacency obvious in tests:

    A1 A2 A3 A4
    B1 B2 B3 B4
    C1 C2 C3 C4

Each cell borders the cells left, right, above and below it.
"""

from __future__ import annotations

from triviador_nb.engine import Board, ChoiceQuestion, GuessQuestion, QuestionBank


def grid_board(rows: str = "ABC", cols: int = 4) -> Board:
    names = {f"{r}{c}": f"{r}{c}" for r in rows for c in range(1, cols + 1)}
    adjacency: dict[str, set[str]] = {t: set() for t in names}
    for ri, r in enumerate(rows):
        for c in range(1, cols + 1):
            here = f"{r}{c}"
            if c < cols:
                adjacency[here].add(f"{r}{c + 1}")
                adjacency[f"{r}{c + 1}"].add(here)
            if ri + 1 < len(rows):
                adjacency[here].add(f"{rows[ri + 1]}{c}")
                adjacency[f"{rows[ri + 1]}{c}"].add(here)
    return Board("grid", names, adjacency)


def synthetic_bank(guesses: int = 30, choices: int = 60) -> QuestionBank:
    return QuestionBank(
        guess=tuple(GuessQuestion(f"g{i}", f"Guess {i}?", 100 + i) for i in range(guesses)),
        choice=tuple(ChoiceQuestion(f"c{i}", f"Choice {i}?", f"right {i}", (f"w{i}a", f"w{i}b", f"w{i}c"))
                     for i in range(choices)),
        name="synthetic",
    )

