"""The host's side of protocol version 3's challenge and response (:mod:`.handshake`).

A part of :class:`~.rooms.Rooms` (a mixin, like :class:`~.teaching.Teaching`):
a client that holds a seat's key (``join`` with ``rejoin``) or the host's
teacher key (``teacher`` with a ``nonce``) is sent a ``challenge`` (the
host's nonce and the host's proof that it holds the key, so the client can
tell the real host from a process squatting on its port); its ``proof`` is
checked here, and a right one continues as versions 1 and 2's join with the
key did (the same limits, the same refusals); a wrong one counts as a failed
join. The key itself never travels.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import protocol
from .handshake import fits, nonce, proof, seat_context, teacher_context
from .protocol import PROVING, Join, Proof, Teacher

NO_KEY = ""  # stands for a key that fits nothing (a wrong proof): the join then fails as a wrong key does


class Proving:
    """The challenges of version 3 (uses ``_room``, ``_join``, ``_become_teacher``,
    ``_refuse`` and ``teacher_key`` of :class:`~.rooms.Rooms`)."""

    def _challenge_seat(self, conn: Any, message: Join) -> None:
        """A client with a seat's key comes back: prove the host holds the key, ask for the client's proof."""
        room = self._room(message.room)
        identity = getattr(conn.peer, "identity", None)
        member = room.record.member(identity.user if identity is not None else message.name) if room else None
        if member is None or conn.joined is not None or conn.teacher is not None or conn.proving is not None:
            self._join(conn, replace(message, token=NO_KEY))  # no such room or name, or joined: refused as always
            return
        host_nonce = nonce()
        context = seat_context(message.room, message.name, message.nonce, host_nonce)
        conn.proving = ("seat", proof(member.token, "client", context), (message, member.token))
        conn.peer.send(protocol.challenge(host_nonce, proof(member.token, "host", context)))

    def _challenge_teacher(self, conn: Any, message: Teacher) -> None:
        """A teacher's client comes with the teacher key: the same, with that key."""
        if self.teacher_key is None or conn.joined is not None or conn.teacher is not None or conn.proving:
            self._become_teacher(conn, Teacher(NO_KEY))
            return
        host_nonce = nonce()
        context = teacher_context(message.nonce, host_nonce)
        conn.proving = ("teacher", proof(self.teacher_key, "client", context), None)
        conn.peer.send(protocol.challenge(host_nonce, proof(self.teacher_key, "host", context)))

    def _proved(self, conn: Any, message: Proof) -> None:
        """The client's answer to the challenge: the join (or teacher) goes on with the key, or fails."""
        pending, conn.proving = conn.proving, None
        if pending is None:
            self._refuse(conn, "not_joined", "a proof without a challenge")
            conn.peer.send(protocol.error("not_joined", "Join a room first.", PROVING))
            return
        kind, expected, data = pending
        right = fits(message.proof, expected)
        if kind == "teacher":
            self._become_teacher(conn, Teacher(self.teacher_key if right else NO_KEY))
            return
        join, key = data
        conn.keyed = right  # the client has its key: the welcome leaves it out
        self._join(conn, replace(join, token=key if right else NO_KEY))

    @staticmethod
    def _carries_key(conn: Any, token: str | None) -> bool:
        """An intent or leave on ``conn`` is the seat's: version 3 proved it
        when it joined (no token); versions 1 and 2 quote the key."""
        if token is None:
            return conn.version >= PROVING
        return fits(token, conn.joined[1].token)
