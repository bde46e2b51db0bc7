"""Drawing questions without repeats (D4), those not asked before first."""

from __future__ import annotations

import random
from typing import Collection, Generic, Sequence, TypeVar

Q = TypeVar("Q")


class Deck(Generic[Q]):
    """Questions of one type, shuffled once with the game's RNG, drawn in order.

    When every question has been drawn, the deck is reshuffled and
    :meth:`draw` reports it, so the game can record a warning event (D4).

    Args:
        questions: the questions of one type.
        rng: the game's RNG.
        asked_before: questions asked in earlier games of the same sitting
            ("Play again"): the first pass draws every other question before
            them (each group shuffled), so a class gets unasked questions
            while there are any. Later passes shuffle all alike.

    Raises:
        ValueError: ``questions`` is empty.
    """

    def __init__(self, questions: Sequence[Q], rng: random.Random, asked_before: Collection[Q] = ()):
        if not questions:
            raise ValueError("a deck needs at least one question")
        self._questions = list(questions)
        self._rng = rng
        fresh, old = [], []
        for question in self._questions:
            (old if question in asked_before else fresh).append(question)
        self._order = self._shuffled(fresh) + self._shuffled(old)  # no RNG draw for an empty list
        self._next = 0

    def _shuffled(self, questions: Sequence[Q] | None = None) -> list[Q]:
        order = list(self._questions if questions is None else questions)
        self._rng.shuffle(order)
        return order

    def draw(self) -> tuple[Q, bool]:
        """Return ``(question, reshuffled)``; ``reshuffled`` is True when the
        deck had run out and was shuffled again before this draw."""
        reshuffled = False
        if self._next == len(self._order):
            self._order = self._shuffled()
            self._next = 0
            reshuffled = True
        question = self._order[self._next]
        self._next += 1
        return question, reshuffled
