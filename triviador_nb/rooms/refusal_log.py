"""The host's log of what it refused or noticed, bounded so that one person cannot fill it (issue 28).

A student who floods the host with wrong codes or broken messages is
refused each time, and each refusal is logged. With one bounded list of the
last 1,000 entries, the flooder's refusals pushed out everyone else's, and
the teacher's screen (the last few refusals of a room) showed only theirs.
Here each person (``who``) keeps at most :data:`PER_PERSON` entries: a new
one of a person at that bound pushes out that person's oldest, not someone
else's; and a room's count of refusals goes on counting what was pushed out.
No sockets, no widgets.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Iterator, Protocol

LIMIT = 1000  # entries kept in all
PER_PERSON = 50  # entries kept of one person (``who``)


class Entry(Protocol):
    room: str
    who: str
    code: str


class RefusalLog:
    """Entries (``LogEntry``: ``at``, ``room``, ``who``, ``code``, ``text``) in the order they came,
    at most :data:`LIMIT` in all and :data:`PER_PERSON` of one ``who``; iterate it like a list."""

    def __init__(self, limit: int = LIMIT, per_person: int = PER_PERSON):
        self.limit, self.per_person = limit, per_person
        self._entries: deque = deque()
        self._kept: Counter = Counter()  # who -> entries of theirs kept
        self._counted: Counter = Counter()  # room -> entries ever logged for it

    def append(self, entry: Entry) -> None:
        """Keep ``entry``, pushing out its person's oldest at their bound, else the oldest of all."""
        self._counted[entry.room] += 1
        if self._kept[entry.who] >= self.per_person:
            oldest = next(e for e in self._entries if e.who == entry.who)
            self._entries.remove(oldest)
            self._kept[entry.who] -= 1
        elif len(self._entries) >= self.limit:
            gone = self._entries.popleft()
            self._kept[gone.who] -= 1
            if not self._kept[gone.who]:
                del self._kept[gone.who]
        self._entries.append(entry)
        self._kept[entry.who] += 1

    def counted(self, room: str) -> int:
        """How many entries were ever logged for ``room`` (kept or pushed out)."""
        return self._counted[room]

    def latest_by_person(self, room: str, count: int) -> list[tuple[Entry, int]]:
        """The last ``count`` (person, code) pairs of ``room``, each as its latest entry and how many
        entries of that pair are kept (a flood shows as one line, ``n`` times)."""
        latest: dict[tuple[str, str], Entry] = {}
        times: Counter = Counter()
        for entry in self._entries:
            if entry.room == room:
                key = (entry.who, entry.code)
                latest.pop(key, None)  # re-inserted last: the dict keeps the order of the latest
                latest[key] = entry
                times[key] += 1
        return [(entry, times[key]) for key, entry in list(latest.items())[-count:]]

    def __iter__(self) -> Iterator:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)
