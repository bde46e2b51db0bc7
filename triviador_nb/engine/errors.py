"""Errors for actions the rules do not allow.

Every error quotes the action's text form, the phase and the player, so a UI
can show it and a test can match it; its ``code`` (one per class) and
``params`` say the same as data, for a remote player's screen and for
other languages. The game state is unchanged when one is raised: nothing is
lost.
"""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal now.

    Attributes:
        action: the action's text form, e.g. ``"pick p1 HU-BA"``.
        phase: the phase name, e.g. ``"expansion"``.
        reason: a sentence a player can read, e.g.
            ``"Baranya is not next to your territories"``.
        code: what kind of error, as an identifier (``"not_your_turn"``).
        params: the facts as JSON-clean data: ``{"action", "phase",
            "reason"}``.
    """

    code = "illegal_action"

    def __init__(self, action: object, phase: str, reason: str):
        self.action = str(action)
        self.phase = phase
        self.reason = reason
        super().__init__(f"{self.action!r} is illegal in {phase}: {reason}")

    @property
    def params(self) -> dict[str, str]:
        return {"action": self.action, "phase": self.phase, "reason": self.reason}


class GameOverError(IllegalActionError):
    """Any action after the game has ended."""

    code = "game_over"


class NothingToUndoError(IllegalActionError):
    """An undo before any action (:meth:`~.game.Game.undone`)."""

    code = "nothing_to_undo"


class NotYourTurnError(IllegalActionError):
    """A player acts when the game awaits someone else or something else."""

    code = "not_your_turn"


class IllegalTerritoryError(IllegalActionError):
    """A pick or attack names a territory the player may not choose now."""

    code = "illegal_territory"


class InvalidAnswerError(IllegalActionError):
    """An answer of the wrong kind, out of range or given twice."""

    code = "invalid_answer"


class AnswerTooLateError(InvalidAnswerError):
    """An answer whose response time exceeds the question's timer (D3)."""

    code = "answer_too_late"


class IllegalRebuildError(IllegalActionError):
    """A castle rebuild that the rules do not allow now (D14)."""

    code = "illegal_rebuild"
