"""Errors for actions the rules do not allow.

Every error quotes the action's text form, the phase and the player, so a UI
can show it and a test can match it. The game state is unchanged when one is
raised: nothing is lost.
"""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal now.

    Attributes:
        action: the action's text form, e.g. ``"pick p1 HU-BA"``.
        phase: the phase name, e.g. ``"expansion"``.
        reason: a sentence a player can read, e.g.
            ``"Baranya is not next to your territories"``.
    """

    def __init__(self, action: object, phase: str, reason: str):
        self.action = str(action)
        self.phase = phase
        self.reason = reason
        super().__init__(f"{self.action!r} is illegal in {phase}: {reason}")


class GameOverError(IllegalActionError):
    """Any action after the game has ended."""


class NotYourTurnError(IllegalActionError):
    """A player acts when the game awaits someone else or something else."""


class IllegalTerritoryError(IllegalActionError):
    """A pick or attack names a territory the player may not choose now."""


class InvalidAnswerError(IllegalActionError):
    """An answer of the wrong kind, out of range or given twice."""


class AnswerTooLateError(InvalidAnswerError):
    """An answer whose response time exceeds the question's timer (D3)."""


class IllegalRebuildError(IllegalActionError):
    """A castle rebuild that the rules do not allow now (D14)."""
