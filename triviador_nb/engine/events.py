"""The event log: what happened, in order, in words and in data.

Every change the engine makes is recorded as an :class:`Event`. The UI shows
their ``text``; tests and replays read their ``data``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened.

    Attributes:
        index: position in the log (0-based).
        kind: one of ``bases``, ``phase``, ``round``, ``question``,
            ``answers``, ``pick``, ``attack``, ``battle``, ``tower``,
            ``take``, ``defend``, ``capture``, ``skip``, ``timeout``, ``warning``,
            ``ranking``.
        text: a sentence for players, e.g. ``"Anna takes Baranya (+200)"``.
        data: the facts behind the text (seats, territory ids, points).
    """

    index: int
    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"[{self.kind}] {self.text}"
