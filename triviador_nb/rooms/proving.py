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
from . import codes
from .handshake import fits, key_id, nonce, proof, seat_context, teacher_context
from .protocol import PROVING, Join, Proof, Teacher

NO_KEY = ""  # stands for a key that fits nothing (a wrong proof): the join then fails as a wrong key does


class Proving:
    """The challenges of version 3 (uses ``_room``, ``_join``, ``_become_teacher``,
    ``_refuse`` and ``teacher_key`` of :class:`~.rooms.Rooms`)."""

    def _challenge_seat(self, conn: Any, message: Join) -> None:
        """A client with a seat's key comes back: prove the host holds the key, ask for the client's proof.

        The key of a seat the teacher removed is challenged too, and the
        proved client is then told ``removed`` (a client believes no
        ``removed`` from a host that has not proved the key). So is a key the
        name had before it was released (it left the lobby before Start): once
        both sides proved it, the client is told ``name_released`` and drops
        that key (it joins afresh, or hears that someone else took the name)
        instead of taking the host for a fake.
        """
        room = self._room(message.room)
        identity = getattr(conn.peer, "identity", None)
        name = identity.user if identity is not None else message.name
        member = room.record.member(name) if room else None
        busy = conn.joined is not None or conn.teacher is not None or conn.proving is not None
        released = self._released_key(room, name, message.key_id, member) if room and not busy else None
        removed = room.record.removed.get(name.casefold()) if room and member is None and not busy else None
        if released is not None:
            kind, key = "released", released
        elif removed is not None and message.key_id in (None, key_id(removed.token)):
            kind, key = "removed", removed.token  # proved first, so the client believes ``removed``
        elif member is None or busy or (message.key_id is not None and message.key_id != key_id(member.token)):
            self._join(conn, replace(message, token=NO_KEY))  # no such room, name or key, or joined: refused
            return
        else:
            kind, key = "seat", member.token
        host_nonce = nonce()
        context = seat_context(message.room, message.name, message.nonce, host_nonce)
        conn.proving = (kind, proof(key, "client", context), (message, key))
        conn.peer.send(protocol.challenge(host_nonce, proof(key, "host", context)))

    def _released_key(self, room: Any, name: str, wanted: str | None, member: Any) -> str | None:
        """The key ``name`` had before it was released that the client holds
        (by its key id; without one, the last, if the name is free), or None."""
        keys = self._released.get(codes.normalise(room.code), {}).get(name.casefold(), [])
        if wanted is None:
            return keys[-1] if keys and member is None else None
        if member is not None and wanted == key_id(member.token):
            return None
        return next((key for key in reversed(keys) if key_id(key) == wanted), None)

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
        if kind == "released" and right:
            self._tell_released(conn, join)
            return
        conn.keyed = right  # the client has its key: the welcome leaves it out
        self._join(conn, replace(join, token=key if right else NO_KEY))

    def _tell_released(self, conn: Any, join: Join) -> None:
        """Both sides proved a key the name had before it was released: say so
        (``name_released``, with ``taken`` when someone else has the name now)."""
        room = self._room(join.room)
        name = join.name
        taken = room is not None and room.record.member(name) is not None
        code = room.code if room is not None else join.room
        self._refuse(conn, "name_released", f"a rejoin as {name!r} with the key of a released name")
        reason = (f"Someone else took the name {name} in room {code} after you left before Start: join with "
                  "another name." if taken else
                  f"Your name {name} was freed when you left room {code} before Start: joining again.")
        conn.peer.send(protocol.error("name_released", reason, join.version, room=code, name=name, taken=taken))

    @staticmethod
    def _carries_key(conn: Any, token: str | None) -> bool:
        """An intent or leave on ``conn`` is the seat's: version 3 proved it
        when it joined (no token); versions 1 and 2 quote the key."""
        if token is None:
            return conn.version >= PROVING
        return fits(token, conn.joined[1].token)
