"""One room, players on several host processes: their messages relayed through Redis (issue 23).

A room lives in the process that owns it (its lease, :mod:`.redis_shared`):
its table, clock and the rooms' logic that judges every message. A student
whose connection reaches another process (a load balancer chose it) is
**relayed**: that process (the *via*) reads the first message, sees a join
to a room it does not hold, asks Redis which process holds the room's lease,
and from then on only moves that connection's texts: each one to the
owner, each answer back to the socket. The owner's logic sees a
:class:`RelayPeer`, a peer like a socket, whose person key (and hub
identity) the via found; so every rule, limit, key proof and view is the
owner's, exactly as for its own sockets.

Transport: Redis **pub/sub**, one channel per process
(``<prefix>:relay:<process id>``), every envelope
(:func:`~.protocol.relay`) published through the shared writer's one queue,
so a connection's messages arrive in the order sent. Pub/sub, not streams,
because what it carries is only worth having now: a view replaces the one
before it, a player's intent is acked or refused by the owner (a lost one
gets no ack: the client says ``no_answer`` after its wait, and the player
acts again on the state then shown; an intent carries its state id, which
the table refuses once the state moved on), and a connection that loses its relay
is closed and rejoins by itself; nothing would read a backlog that a stream
keeps. The record that must last is in the room's stream (:mod:`.redis_record`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.server import broadcast

from . import codes, protocol
from .protocol import ProtocolError
from .room import ANY_TEACHER, KEY_OWNER

LOG = logging.getLogger("triviador_nb.rooms")


@dataclass(frozen=True)
class RelayedIdentity:
    """The hub identity a via process found for a relayed connection."""

    user: str
    teacher: bool = False


class RelayPeer:
    """A connection on another process, as the owner's logic sees it."""

    def __init__(self, relay: "Relay", via: str, conn: str, address: str, identity: RelayedIdentity | None):
        self._relay, self.via, self.conn = relay, via, conn
        self.address, self.identity = address, identity

    def send(self, text: str) -> None:
        self._relay.publish(self.via, protocol.relay("text", self.conn, self._relay.me, text, down=True))

    def close(self, code: int, reason: str) -> None:
        self._relay.publish(self.via, protocol.relay("close", self.conn, self._relay.me, code=code, reason=reason,
                                                     down=True))


class Relay:
    """The relaying of one host process, both ways (:mod:`.relay`).

    Args:
        shared: the host's :class:`~.redis_shared.RedisShared` (started).
        logic: the host's :class:`~.rooms.Rooms`.
    """

    def __init__(self, shared: Any, logic: Any):
        self.shared, self.logic, self.me = shared, logic, shared.me
        self._count = itertools.count()
        self._sockets: dict[str, Any] = {}  # via side: conn id -> this process's socket
        self._owners: dict[str, str] = {}  # via side: conn id -> the owner it is relayed to
        self._codes: dict[str, str] = {}  # via side: conn id -> the room it joined (normalised)
        self._relayed: dict[tuple[str, str], Any] = {}  # owner side: (via, conn id) -> the logic's Connection
        self._pubsub: Any = None
        self._task: asyncio.Task | None = None

    def channel(self, process: str) -> str:
        return f"{self.shared.prefix}:relay:{process}"

    async def start(self) -> None:
        self._pubsub = self.shared.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel(self.me))
        self._task = asyncio.get_running_loop().create_task(self._read_forever())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._pubsub is not None:
            try:
                await asyncio.wait_for(self._pubsub.aclose(), 2.0)
            except Exception:  # noqa: BLE001 - stopping goes on
                pass

    def publish(self, process: str, envelope: str) -> None:
        channel = self.channel(process)

        async def write(pipe: Any) -> None:
            pipe.publish(channel, envelope)
        self.shared._put(write)

    # ------------------------------------------------------------------ the via's side

    async def owner_of(self, raw: Any, identity: Any = None) -> tuple[str, str] | None:
        """The process that owns the room ``raw`` joins, when it is not this one, and that room's
        code (normalised); for a teacher's ``teacher`` message, the process that owns the teacher's
        rooms when this one holds none of them (the first room's, by code; a teacher whose rooms
        live on several processes sees, on one connection, those of one). None: this process's
        logic reads ``raw``: its own room, no room, or neither a join nor a teacher."""
        by = protocol.teacher_by(raw)
        if by is not None:
            user = getattr(identity, "user", None)
            owners = [KEY_OWNER] if by == "key" else ([f"hub:{user}", ANY_TEACHER] if user else [])
            if not owners:
                return None
            try:
                taught = await self.shared.taught_by(owners)
            except Exception as error:  # noqa: BLE001 - Redis out of reach: this process serves the teacher
                LOG.warning("relay: finding a teacher's rooms: %s", error)
                return None
            if any(code in self.logic.rooms for code in taught):
                return None
            for code in taught:
                owner = await self.shared.owner(code)
                if owner not in (None, self.me):
                    return owner, code
            return None
        room = protocol.joined_room(raw)
        try:
            clean = codes.normalise(room) if room is not None else None
        except codes.CodeError:
            return None
        if clean is None or clean in self.logic.rooms:
            return None
        owner = await self.shared.owner(clean)
        return (owner, clean) if owner not in (None, self.me) else None

    def open(self, ws: Any, owner: str, code: str, address: str, identity: Any, first: str) -> str:
        """Relay the connection ``ws`` to ``owner`` from now on (it joined room ``code``, or is the
        teacher of it), starting with its message ``first``; returns the connection's id."""
        conn = f"{next(self._count)}"
        self._sockets[conn], self._owners[conn] = ws, owner
        self._codes[conn] = code
        user = getattr(identity, "user", None)
        self.publish(owner, protocol.relay("open", conn, self.me, address=address, user=user,
                                           teacher=bool(getattr(identity, "teacher", False))))
        self.publish(owner, protocol.relay("text", conn, self.me, first))
        return conn

    def forward(self, conn: str, raw: Any) -> None:
        if isinstance(raw, str):
            self.publish(self._owners[conn], protocol.relay("text", conn, self.me, raw))

    def closed(self, conn: str) -> None:
        """The socket of a relayed connection closed."""
        self._sockets.pop(conn, None)
        self._codes.pop(conn, None)
        owner = self._owners.pop(conn, None)
        if owner is not None:
            self.publish(owner, protocol.relay("close", conn, self.me))

    async def follow_owners(self) -> None:
        """Close every relayed socket whose room has another owner now (its owner died and another
        process took the room over): the client reconnects by itself and is relayed to the new
        owner, or served here if this process took the room."""
        owners = {code: await self.shared.owner(code) for code in set(self._codes.values())}
        for conn, code in list(self._codes.items()):
            socket = self._sockets.get(conn)
            if socket is not None and owners.get(code) not in (None, self._owners.get(conn)):
                asyncio.ensure_future(socket.close(1012, "the room moved to another host process: reconnect"))

    # ------------------------------------------------------------------ reading

    async def _read_forever(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except Exception as error:  # noqa: BLE001 - Redis out of reach: try again in a moment
                LOG.warning("relay: %s", error)
                await asyncio.sleep(1.0)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                envelope = protocol.parse_relay(message["data"])
            except ProtocolError:
                continue
            try:
                await self._handle(envelope)
            except Exception as error:  # noqa: BLE001 - one envelope's fault must not stop the relay
                LOG.warning("relay: %s: %s", type(error).__name__, error)

    async def _handle(self, envelope: dict) -> None:
        kind, conn, via = envelope["relay"], envelope["conn"], envelope["via"]  # (via: the process that sent it)
        if envelope.get("down"):  # from a room's owner to a socket of ours
            socket = self._sockets.get(conn)
            if socket is None or self._owners.get(conn) != via:
                return
            if kind == "text":
                broadcast((socket,), envelope["text"])
            elif kind == "close":
                asyncio.ensure_future(socket.close(int(envelope.get("code") or 1000), str(envelope.get("reason", ""))))
            return
        key = (via, conn)
        if kind == "open":
            user = envelope.get("user")
            identity = RelayedIdentity(user, bool(envelope.get("teacher"))) if isinstance(user, str) else None
            self._relayed[key] = self.logic.connect(RelayPeer(self, via, conn, str(envelope.get("address")), identity))
        elif kind == "text" and key in self._relayed:
            connection = self._relayed[key]
            if connection.joined is None and connection.teacher is None:
                await self.shared.before(connection.peer.address)
            self.logic.receive(connection, envelope["text"])
        elif kind == "close" and key in self._relayed:
            self.logic.disconnect(self._relayed.pop(key))
