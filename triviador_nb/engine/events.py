"""The event log: what happened, in order, as data.

Every change the engine makes is recorded as an :class:`Event`: a kind (what
sort of thing happened), a code (exactly which) and JSON-clean parameters
(seats as ints, territory ids, points; lists, never tuples or int-keyed
maps). The engine makes no sentences: :func:`triviador_nb.words.event_text`
turns an event into words for the screen, in one place, where languages
plug in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

#: kind -> the codes of that kind, every one the engine emits.
EVENT_CODES: dict[str, tuple[str, ...]] = {
    "bases": ("bases.drawn", "bases.placed", "bases.chosen"),
    "phase": ("phase.bases", "phase.expansion", "phase.battle", "phase.tiebreak"),
    "round": ("round.claim", "round.battle"),
    "question": ("question.asked",),
    "answers": ("answers.revealed",),
    "pick": ("pick.taken", "pick.claim_wrong"),
    "claim": ("claim.made",),
    "attack": ("attack.started",),
    "battle": ("battle.both_right",),
    "tower": ("tower.fallen",),
    "take": ("take.territory",),
    "defend": ("defend.held",),
    "capture": ("capture.base",),
    "award": ("award.elimination", "award.tiebreak"),
    "rebuild": ("rebuild.tried", "rebuild.done", "rebuild.failed"),
    "skip": ("skip.nothing_to_attack", "skip.timed_out"),
    "timeout": ("timeout.random_choice",),
    "warning": ("warning.deck_reshuffled", "warning.related_question"),
    "teacher": ("teacher.skipped", "teacher.ended"),
    "ranking": ("ranking.final",),
}
#: The 20 kinds of event, in the order a game first meets them (the teacher's last).
EVENT_KINDS: tuple[str, ...] = tuple(EVENT_CODES)


@dataclass(frozen=True)
class Event:
    """One thing that happened.

    Attributes:
        index: position in the log (0-based).
        kind: one of :data:`EVENT_KINDS`, e.g. ``"take"``.
        code: one of that kind's :data:`EVENT_CODES`, e.g. ``"take.territory"``.
        data: the facts, JSON-clean: seats (0-based ints), territory ids,
            points, lists; e.g. ``{"seat": 0, "defender": 1, "territory":
            "HU-BA", "gained": 400, "lost": 200}``.

    Raises:
        ValueError: an unknown kind or code (a bug in the engine, or a forged
            record read with :meth:`from_json`).
    """

    index: int
    kind: str
    code: str
    data: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in EVENT_CODES.get(self.kind, ()):
            raise ValueError(f"unknown event {self.kind!r}/{self.code!r}")

    def to_json(self) -> str:
        """The event as one line of JSON: ``{"index", "kind", "code", "data"}``."""
        return json.dumps({"index": self.index, "kind": self.kind, "code": self.code, "data": self.data},
                          ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Event":
        """Read :meth:`to_json`'s output back (equal to the original).

        Raises:
            ValueError: not JSON, missing fields or an unknown kind/code.
        """
        try:
            raw = json.loads(text)
            return cls(int(raw["index"]), str(raw["kind"]), str(raw["code"]), dict(raw["data"]))
        except (TypeError, KeyError, json.JSONDecodeError) as error:
            raise ValueError(f"not an event record: {error}") from None

    def __str__(self) -> str:
        return f"[{self.kind}] {self.code} {json.dumps(self.data, ensure_ascii=False, sort_keys=True)}"
