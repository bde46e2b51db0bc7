"""The game's mutable state: territories, players, the pending stage.

Only :class:`~triviador_nb.engine.game.Game` changes these objects; the UI and
bots read them through ``Game``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .actions import ChoiceAnswer, GuessAnswer
from .questions import ChoiceQuestion, GuessQuestion


class Phase(str, Enum):
    """The phases of a game, in order."""

    BASES = "bases"  # players choose their bases (D14); drawn bases skip it
    EXPANSION = "expansion"  # every phase that shares out free territories
    BATTLE = "battle"
    TIEBREAK = "tiebreak"
    OVER = "over"


@dataclass
class TerritoryState:
    """One territory.

    Attributes:
        owner: seat of the owner, or None while free.
        value: points the territory is worth to its owner.
        base_of: seat whose base this is (its original owner), or None.
        towers: castle towers standing (0 for an ordinary territory and for
            a ruined castle).
    """

    owner: int | None = None
    value: int = 0
    base_of: int | None = None
    towers: int = 0

    @property
    def is_base(self) -> bool:
        return self.base_of is not None

    @property
    def is_ruin(self) -> bool:
        """A captured base: no towers standing, held by its conqueror (D9)."""
        return self.is_base and self.towers == 0


@dataclass
class PlayerState:
    """One seat's standing.

    Attributes:
        seat: 0-based seat.
        name: display name.
        bonuses: defense bonuses earned or inherited (D6, D9).
        awards: elimination awards and tie-break points.

    The score is derived, never stored: ``Game.score(seat)`` (D10).
        eliminated_in: the index of the event that eliminated the player, or
            None while in the game.
    """

    seat: int
    name: str
    bonuses: int = 0
    awards: int = 0
    eliminated_in: int | None = None

    @property
    def in_game(self) -> bool:
        return self.eliminated_in is None


class Purpose(str, Enum):
    """Why a question is being asked."""

    EXPANSION = "expansion"  # guess: who picks territories
    CLAIM = "claim"  # multiple choice: does the claimed territory become yours (D14)
    BATTLE = "battle"  # multiple choice between attacker and defender
    REBUILD = "rebuild"  # multiple choice: is the castle rebuilt (D14)
    BATTLE_GUESS = "battle_guess"  # guess: both answered right (D5)
    TIEBREAK = "tiebreak"  # guess: equal final scores


@dataclass
class AskedQuestion:
    """A question put to some players, collecting their answers.

    Attributes:
        question: the question (holds the correct answer: the UI shows only
            its text and ``options`` until the question is resolved).
        purpose: why it is asked.
        players: seats that must answer, in seat order.
        options: for multiple choice, the four options in the shuffled order
            shown to players (D2); empty for guess questions.
        correct_option: index of the correct option in ``options``.
        answers: seat -> answer given so far.
    """

    question: GuessQuestion | ChoiceQuestion
    purpose: Purpose
    players: tuple[int, ...]
    options: tuple[str, ...] = ()
    correct_option: int | None = None
    answers: dict[int, GuessAnswer | ChoiceAnswer] = field(default_factory=dict)

    @property
    def is_guess(self) -> bool:
        return isinstance(self.question, GuessQuestion)

    @property
    def waiting_for(self) -> tuple[int, ...]:
        return tuple(p for p in self.players if p not in self.answers)


@dataclass
class AttackInProgress:
    """The attack under way in a battle turn.

    Attributes:
        attacker, defender: seats.
        territory: the territory attacked.
        battles_won: towers knocked down so far in this attack.
    """

    attacker: int
    defender: int
    territory: str
    battles_won: int = 0


@dataclass
class BattleTurns:
    """Where the battle phase stands.

    Attributes:
        round: 0-based battle round.
        order: the attack order of this round (seats).
        turn: index into ``order`` of the current attacker.
        wings_used: seats that have spent their Magic Wings (D11).
    """

    round: int = 0
    order: tuple[int, ...] = ()
    turn: int = 0
    wings_used: frozenset[int] = frozenset()
