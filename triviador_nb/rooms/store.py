"""Room state behind one small interface: who is in which room, in which seat.

A room host keeps its rooms' records in a :class:`RoomStore`. The in-memory
:class:`MemoryStore` is the one that exists; a store shared by several host
processes (Redis, say) can replace it by implementing the same five methods,
without touching the game code: the live game tables stay with the host that
owns each room, and the game itself is rebuilt from its record.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Iterator, Protocol

from .codes import normalise


@dataclass
class Member:
    """A person in a room.

    Attributes:
        name: as shown (unique in the room, ignoring case).
        token: the secret that proves it is them (given at join; quoted with
            every intent and when rejoining).
        seat: the seat they play (several members: a team), or None
            (waiting in the lobby, or watching).
    """

    name: str
    token: str
    seat: int | None = None


@dataclass
class RoomRecord:
    """One room's state outside the game.

    Attributes:
        code: the room code as shown (``"K7-PQ45"``).
        seats: how many seats the rule set has.
        members: name (case-folded) -> member.
        bots: seat -> bot skill for seats a bot plays (or will, at Start).
        seat_names: seat -> a team name the teacher gave.
        started: Start was pressed.
        removed: name (case-folded) -> a member the teacher took out of the
            room, kept (key and seat) so the teacher can let them back in.
    """

    code: str
    seats: int
    members: dict[str, Member] = field(default_factory=dict)
    bots: dict[int, str] = field(default_factory=dict)
    seat_names: dict[int, str] = field(default_factory=dict)
    started: bool = False
    removed: dict[str, Member] = field(default_factory=dict)

    def member(self, name: str) -> Member | None:
        return self.members.get(name.casefold())

    def add_member(self, name: str) -> Member:
        """A new member with a fresh token, seated in the first free seat (before Start)."""
        member = Member(name, secrets.token_urlsafe(18))
        if not self.started:
            member.seat = next((s for s in range(self.seats) if s not in self.bots and not self.seated(s)), None)
        self.members[name.casefold()] = member
        return member

    def seated(self, seat: int) -> list[Member]:
        """The members playing ``seat``, in the order they joined."""
        return [m for m in list(self.members.values()) if m.seat == seat]  # (list: one step under the GIL)

    def seat_name(self, seat: int) -> str:
        """What the game calls ``seat``: the team name, its members' names, or the bot."""
        if seat in self.seat_names:
            return self.seat_names[seat]
        people = [m.name for m in self.seated(seat)]
        if people:
            return people[0] if len(people) == 1 else ", ".join(people[:-1]) + " & " + people[-1]
        if seat in self.bots:
            return f"Bot {seat + 1} ({self.bots[seat]})"  # the record's name; screens word it (named_bot)
        return f"Seat {seat + 1}"

    def named_bot(self, seat: int) -> str | None:
        """The skill of the bot ``seat`` is named after (:meth:`seat_name`
        is ``"Bot 3 (medium)"``), or None when a team name or people name
        it: screens word that name in their own language from the seat and
        the skill (``view.bot_names``)."""
        if seat in self.seat_names or self.seated(seat) or seat not in self.bots:
            return None
        return self.bots[seat]


class RoomStore(Protocol):
    """Where a host keeps its rooms' records."""

    def add(self, room: RoomRecord) -> None:
        """Keep a new room."""

    def get(self, code: str) -> RoomRecord | None:
        """The room with this code (any spelling of it), or None."""

    def save(self, room: RoomRecord) -> None:
        """Keep the room's changed record (a no-op in memory)."""

    def remove(self, code: str) -> None:
        """Forget the room."""

    def __iter__(self) -> Iterator[RoomRecord]:
        """Every room, oldest first."""


class MemoryStore:
    """Rooms in this process's memory."""

    def __init__(self) -> None:
        self._rooms: dict[str, RoomRecord] = {}

    def add(self, room: RoomRecord) -> None:
        self._rooms[normalise(room.code)] = room

    def get(self, code: str) -> RoomRecord | None:
        try:
            return self._rooms.get(normalise(code))
        except ValueError:
            return None

    def save(self, room: RoomRecord) -> None:
        self._rooms[normalise(room.code)] = room

    def remove(self, code: str) -> None:
        self._rooms.pop(normalise(code), None)

    def __iter__(self) -> Iterator[RoomRecord]:
        return iter(list(self._rooms.values()))
