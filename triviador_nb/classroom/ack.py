"""The table's answer to an intent, on its own: a student's room connection
(:mod:`triviador_nb.rooms.client`) gives the same answers without loading the
table, its bots and the engine's game (issue 24: a restarted kernel back in
its seat sooner)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ack:
    """The table's answer to an intent.

    Attributes:
        status: ``"accepted"``; ``"late"`` (an answer after the deadline:
            recorded as no answer, D3); ``"duplicate"`` (this seat's answer to
            this question is in already); ``"stale"`` (the quoted state has
            passed); ``"rejected"`` (not allowed now: see ``code``).
        code: ``"ok"`` or why: an engine error code (``"illegal_territory"``,
            ``"not_your_turn"``...) or ``"not_started"``, ``"paused"``,
            ``"held"``, ``"stopped"``, ``"unreadable"``, ``"not_your_seat"``,
            ``"stale_state"``, ``"already_answered"``, ``"answer_too_late"``.
        reason: a sentence for the player.
        ms: the response time the table stamped (answers), else None.
    """

    status: str
    code: str
    reason: str = ""
    ms: int | None = None

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"
