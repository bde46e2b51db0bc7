"""Drawing questions without repeats (D4), those not asked before first,
burned ones not at all until the deck runs out."""

from __future__ import annotations

import random
from typing import Callable, Collection, Generic, Sequence, TypeVar

Q = TypeVar("Q")


class Deck(Generic[Q]):
    """Questions of one type, shuffled once with the game's RNG, drawn in order.

    When every question has been drawn, the deck is reshuffled and
    :meth:`draw` reports it, so the game can record a warning event (D4).

    Args:
        questions: the questions of one type.
        rng: the game's question RNG (its own stream: see ``Game``).
        asked_before: questions asked in earlier games of the same sitting
            ("Play again"): the first pass draws every other question before
            them (each group shuffled), so a class gets unasked questions
            while there are any. Later passes shuffle all alike.
        burned: questions the class has seen without them counting (a
            question skipped or undone): left out of the first pass.

    Raises:
        ValueError: ``questions`` is empty.
    """

    def __init__(self, questions: Sequence[Q], rng: random.Random, asked_before: Collection[Q] = (),
                 burned: Collection[Q] = ()):
        if not questions:
            raise ValueError("a deck needs at least one question")
        self._questions = list(questions)
        self._rng = rng
        fresh, old = [], []
        for question in self._questions:
            if question not in burned:
                (old if question in asked_before else fresh).append(question)
        self._order = self._shuffled(fresh) + self._shuffled(old)  # no RNG draw for an empty list
        self._next = 0
        self.avoided_all = False

    def take(self, question: Q) -> bool:
        """Draw ``question`` itself (a recorded chance outcome, replayed): it
        moves to the front of what is left and is drawn. When that is the
        question :meth:`draw` would give, the deck ends as after ``draw``.

        Returns ``reshuffled`` as :meth:`draw` does.
        """
        reshuffled = self._reshuffle_if_empty()
        drawn = [q for q in self._order[:self._next] if q != question]  # drawn again: counted once
        rest = [q for q in self._order[self._next:] if q != question]
        self._order = drawn + [question] + rest
        self._next = len(drawn) + 1
        return reshuffled

    def _reshuffle_if_empty(self) -> bool:
        if self._next < len(self._order):
            return False
        self._order = self._shuffled()
        self._next = 0
        return True

    def _shuffled(self, questions: Sequence[Q] | None = None) -> list[Q]:
        order = list(self._questions if questions is None else questions)
        self._rng.shuffle(order)
        return order

    def draw(self, avoid: Callable[[Q], bool] | None = None) -> tuple[Q, bool]:
        """Return ``(question, reshuffled)``; ``reshuffled`` is True when the
        deck had run out and was shuffled again before this draw.

        ``avoid(question)`` True passes a question over for now: the next one
        that is not avoided is drawn (it stays in the pass, after). When every
        question left in the pass is avoided, the next one is drawn anyway
        and :attr:`avoided_all` says so until the next draw.
        """
        reshuffled = self._reshuffle_if_empty()
        self.avoided_all = False
        if avoid is not None:
            for k in range(self._next, len(self._order)):
                if not avoid(self._order[k]):
                    if k != self._next:
                        self._order.insert(self._next, self._order.pop(k))
                    break
            else:
                self.avoided_all = True
        question = self._order[self._next]
        self._next += 1
        return question, reshuffled
