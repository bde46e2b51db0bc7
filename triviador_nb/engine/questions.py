"""Questions and question banks as the engine sees them: immutable values.

The engine never reads files; loaders (``triviador_nb.banks``) build these
objects from CSV and report problems there. Two kinds exist:

* :class:`GuessQuestion` - the answer is a whole number >= 0 (D1).
* :class:`ChoiceQuestion` - one correct option and three wrong ones (D2).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Iterable

from .related import fact_keys, giveaway_ids


@dataclass(frozen=True, init=False)
class GuessQuestion:
    """A guess question: closest whole number wins (D1).

    Attributes:
        id: stable identifier, unique within a bank (e.g. ``"gk-g-017"``).
        text: the question as shown to players.
        answer: the correct whole number, ``>= 0``.
        category, difficulty, source: optional metadata ("" when absent).
        fact: a key shared by questions a game must not both ask (the same
            fact in two banks or languages; see :mod:`.related`), or "".
    """

    id: str
    text: str
    answer: int
    category: str = ""
    difficulty: str = ""
    source: str = ""
    fact: str = ""

    kind = "guess"

    def __init__(self, id: str, text: str, answer: int, category: str = "", difficulty: str = "",
                 source: str = "", fact: str = "") -> None:
        # Stores into the instance dict directly: twice as fast as the generated frozen __init__ (one
        # object.__setattr__ per field) when a bank of 100,000 questions loads (benchmarks/bank_load.py).
        fields = self.__dict__
        fields["id"], fields["text"], fields["answer"] = id, text, answer
        fields["category"], fields["difficulty"], fields["source"], fields["fact"] = category, difficulty, source, fact


@dataclass(frozen=True, init=False)
class ChoiceQuestion:
    """A multiple-choice question with exactly four options (D2).

    Attributes:
        id: stable identifier, unique within a bank.
        text: the question as shown to players.
        answer: the correct option's text.
        wrong: the three wrong options' texts, all distinct from each
            other and from ``answer``.
        category, difficulty, source, fact: as for :class:`GuessQuestion`.
    """

    id: str
    text: str
    answer: str
    wrong: tuple[str, str, str]
    category: str = ""
    difficulty: str = ""
    source: str = ""
    fact: str = ""

    kind = "choice"

    def __init__(self, id: str, text: str, answer: str, wrong: tuple[str, str, str], category: str = "",
                 difficulty: str = "", source: str = "", fact: str = "") -> None:
        fields = self.__dict__  # as in GuessQuestion
        fields["id"], fields["text"], fields["answer"], fields["wrong"] = id, text, answer, wrong
        fields["category"], fields["difficulty"], fields["source"], fields["fact"] = category, difficulty, source, fact

    @property
    def options(self) -> tuple[str, str, str, str]:
        """The four options in bank order: correct first, then the wrong ones."""
        return (self.answer, *self.wrong)


Question = GuessQuestion | ChoiceQuestion


DIFFICULTY_RANKS = {"easy": 0, "medium": 1, "hard": 2}


def difficulty_order(difficulty: str) -> tuple[int, str]:
    """Sort key putting ``easy`` < ``medium`` < ``hard`` < others (by name)."""
    return DIFFICULTY_RANKS.get(difficulty.strip().lower(), len(DIFFICULTY_RANKS)), difficulty


@dataclass(frozen=True)
class QuestionBank:
    """An immutable, validated collection of questions.

    Attributes:
        guess: the guess questions, in bank order.
        choice: the multiple-choice questions, in bank order.
        name: a label for the bank (usually the file name).
    """

    guess: tuple[GuessQuestion, ...]
    choice: tuple[ChoiceQuestion, ...]
    name: str = "bank"
    warnings: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if not self.guess:
            raise ValueError(f"question bank {self.name!r} has no guess questions")
        if not self.choice:
            raise ValueError(f"question bank {self.name!r} has no multiple-choice questions")

    @functools.cached_property
    def giveaways(self) -> dict[str, frozenset[str]]:
        """Question id -> the ids it gives away or is given away by
        (:mod:`.related`); computed once per bank."""
        questions = (*self.guess, *self.choice)
        return giveaway_ids([q.id for q in questions], [q.kind for q in questions], [q.text for q in questions],
                            [str(q.answer) for q in questions])

    def belong_together(self, a: Question, b: Question) -> bool:
        """A game never asks both (D4, one step on): one gives the other away,
        or they share a ``fact`` key."""
        return (b.id in self.giveaways.get(a.id, frozenset())
                or bool(a.fact and b.fact and fact_keys(a.fact) & fact_keys(b.fact)))

    def categories(self) -> list[str]:
        """The categories in the bank, sorted ("" for questions without one)."""
        return sorted({q.category for q in (*self.guess, *self.choice)})

    def difficulties(self) -> list[str]:
        """The difficulties in the bank ("" for questions without one), easiest
        first: ``easy``, ``medium``, ``hard`` in that order (any case), then
        any others alphabetically."""
        return sorted({q.difficulty for q in (*self.guess, *self.choice)}, key=difficulty_order)

    def filtered(self, categories: Iterable[str] | None = None,
                 difficulties: Iterable[str] | None = None) -> "QuestionBank":
        """The questions of the given categories and difficulties (None = all).

        Raises:
            ValueError: no guess or no multiple-choice question is left; the
                message says which.
        """
        cats = None if categories is None else set(categories)
        diffs = None if difficulties is None else set(difficulties)

        def keep(q: Question) -> bool:
            return (cats is None or q.category in cats) and (diffs is None or q.difficulty in diffs)

        guess = tuple(q for q in self.guess if keep(q))
        choice = tuple(q for q in self.choice if keep(q))
        missing = [kind for kind, questions in (("guess", guess), ("multiple-choice", choice)) if not questions]
        if missing:
            raise ValueError(f"no {' and no '.join(missing)} questions of bank {self.name!r} match the chosen "
                             "categories and difficulties; choose more")
        return QuestionBank(guess=guess, choice=choice, name=self.name, warnings=self.warnings)
