"""Questions and question banks as the engine sees them: immutable values.

The engine never reads files; loaders (``triviador_nb.banks``) build these
objects from CSV and report problems there. Two kinds exist:

* :class:`GuessQuestion` - the answer is a whole number >= 0 (D1).
* :class:`ChoiceQuestion` - one correct option and three wrong ones (D2).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class GuessQuestion:
    """A guess question: closest whole number wins (D1).

    Attributes:
        id: stable identifier, unique within a bank (e.g. ``"gk-g-017"``).
        text: the question as shown to players.
        answer: the correct whole number, ``>= 0``.
        category, difficulty, source: optional metadata ("" when absent).
    """

    id: str
    text: str
    answer: int
    category: str = ""
    difficulty: str = ""
    source: str = ""

    kind = "guess"


@dataclass(frozen=True)
class ChoiceQuestion:
    """A multiple-choice question with exactly four options (D2).

    Attributes:
        id: stable identifier, unique within a bank.
        text: the question as shown to players.
        answer: the correct option's text.
        wrong: the three wrong options' texts, all distinct from each
            other and from ``answer``.
    """

    id: str
    text: str
    answer: str
    wrong: tuple[str, str, str]
    category: str = ""
    difficulty: str = ""
    source: str = ""

    kind = "choice"

    @property
    def options(self) -> tuple[str, str, str, str]:
        """The four options in bank order: correct first, then the wrong ones."""
        return (self.answer, *self.wrong)


Question = GuessQuestion | ChoiceQuestion


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
