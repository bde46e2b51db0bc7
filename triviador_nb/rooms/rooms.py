"""The rooms' logic, apart from any transport: lobbies, seats, keys, limits, tables.

:class:`Rooms` owns every room of a host: who joined which room, in which
seat, with which key; the bots; the game tables; the rate limits; the
refusal log; the teachers and the rooms each controls. It reads protocol
messages from connections (:class:`Peer`: anything that can send a text and
close) and answers with protocol messages (:mod:`.protocol` builds them all);
it never touches a socket or a thread, and runs its tables and limits on the
:class:`~triviador_nb.classroom.Clock` it is given, so tests drive whole rooms
on a :class:`~triviador_nb.classroom.ManualClock` with no sockets and no
sleeps. The WebSocket server (:mod:`.host`) only moves messages.

Every method runs on one thread, the clock's (the host's loop): nothing here
takes a lock. A room itself is a :class:`~.room.Room` (:mod:`.room`); the
teachers' part (who is one, their commands, what they are sent) is
:class:`~.teaching.Teaching` (:mod:`.teaching`).

Who is a teacher (protocol version 2): a connection that sends ``teacher``
with the host's teacher key (made when the host starts; in a kernel it never
leaves the kernel), or whose JupyterHub identity says so. A teacher controls
only the rooms it opened (rooms opened by the host's own process belong to
the key); it is sent each room's state (``room``) and projector view
(``view`` with ``room``), never an answer before the reveal.
"""

from __future__ import annotations

import hmac
import logging
import math
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

from ..bots import Bot
from ..classroom import Clock, Table
from ..classroom.journal import JournalContents
from ..engine import Game, QuestionBank, RuleSet, find_rule_set
from ..maps import GameMap
from . import codes, names, people, protocol
from .guard import FAILED_JOIN_WINDOW_S, FAILED_JOINS_ALL, FAILED_JOINS_PER_ADDRESS, MessageBudget
from .protocol import (MAX_CLIENT_MESSAGE, MAX_TEACHER_MESSAGE, PROVING, Intent, Join, Leave, Op, Proof,
                       ProtocolError, Teacher, intent_action, parse_client)
from .proving import Proving
from .room import ANY_TEACHER, KEY_OWNER, SKILLS, Room, RoomError
from .refusal_log import RefusalLog
from .shared import LocalShared, Shared
from .store import Member, MemoryStore, RoomRecord, RoomStore
from .teaching import Teaching

LOG = logging.getLogger("triviador_nb.rooms")
MAX_MEMBERS = 100  # people in one room (a class of 30 in one game, with room to spare)
NEW_MEMBERS_PER_ADDRESS = 40  # new names from one person (or a shared address: a class on one machine) a minute...
NEW_MEMBERS_ALL = 400  # ...and from everyone
REJOIN_EVERY_S = 1.0  # a member rejoins at most this often
RELEASED_KEYS_KEPT = 4  # keys a released name had that are still recognised (so their clients are told, not fooled)
JOIN_WITHIN_S = 10.0  # a connection that has not joined a room (or become a teacher) by then is dropped
UNJOINED_PER_PERSON = 8  # connections one person may hold open without joining (more: the oldest is closed)...
UNJOINED_PER_ADDRESS = 100  # ...and one shared address (127.0.0.1 when the Unix user is not known)
NAMES_PER_PERSON = 1  # names one person may hold in one room (a known person: hub or Unix user, a laptop's address)
RELEASE_AFTER_S = 10.0  # before Start, a name without a connection for this long is free again
PINGS_PER_S = 5.0  # control frames (pings, pongs) a connection may send a second...
PING_BURST = 20  # ...and at once; 200 more than that close it (a client pings every few seconds)
RETURN_WITHIN_S = 30.0  # a room taken over waits at most this long for its players before its clock runs again


class Peer(Protocol):
    """One connection, as the transport gives it to :class:`Rooms`.

    Attributes:
        address: who it is for limits (:func:`.people.person_key`): the
            JupyterHub user (``"hub:anna"``) when the host checks identities,
            the Unix user of a connection from this machine
            (``"user:jupyter-anna"``), else the peer's IP address.
        identity: the JupyterHub identity (``.user``, ``.teacher``) or None.
    """

    address: str
    identity: Any

    def send(self, text: str) -> None:
        """Queue one text frame (never blocks)."""

    def close(self, code: int, reason: str) -> None:
        """Close the connection with a WebSocket close code."""


@dataclass(frozen=True)
class LogEntry:
    """Something the host refused or noticed.

    Attributes:
        at: ``time.time()`` seconds; room: the room code or "";
        who: the member's name or the peer address; code: what
            (``"bad_token"``, ``"not_json"``, ``"flood"``...); text: a sentence.
    """

    at: float
    room: str
    who: str
    code: str
    text: str


@dataclass(eq=False)
class Connection:
    """What :class:`Rooms` knows of one open connection."""

    peer: Peer
    budget: MessageBudget
    version: int = protocol.VERSION
    joined: tuple["Room", Member] | None = None
    teacher: str | None = None  # the owner id of the rooms this teacher controls
    maps_sent: set[str] = field(default_factory=set)  # rooms whose map this teacher has
    warned_at: float = -1.0
    closing: bool = False
    deadline: Any = None
    pings: MessageBudget | None = None  # control frames (pings and pongs) this connection sent
    proving: tuple | None = None  # version 3: the challenge this connection must answer
    keyed: bool = False  # version 3: the client holds its seat's key (a welcome leaves it out)


class Rooms(Teaching, Proving):
    """Every room of one host, and every connection to it.

    Args:
        clock: the clock every table and limit runs on (the host's loop, or a
            :class:`~triviador_nb.classroom.ManualClock` in tests).
        host_part: the first two characters of every code (they name the
            port), or None for a host on a port of its own.
        address, port: where the host listens (journals and the teacher's
            screen show it).
        teacher_key: the secret a teacher's connection proves itself with
            (None: no teacher by key).
        store: where room records are kept (in memory by default).
        call: runs a function on the clock's thread and returns its result
            (the host's; by default at once: tests on a manual clock).
        journals: journal the rooms teachers open over the wire (True: under
            ``$TRIVIADOR_NB_HOME/journals``).
        own_person: the person key of the host's own Unix user (the teacher
            trying a room with several names from one kernel): it may hold
            any number of names. None: nobody is exempt.
        shared: what this host shares with other host processes (codes,
            join limits, the refusal log, the games' records: :mod:`.shared`);
            None: nothing, one process (:class:`~.shared.LocalShared`).

    Attributes:
        rooms: normalised code -> :class:`Room`.
        log: the latest refusals and notices (:class:`LogEntry`), newest last.
        refused: how many messages were refused in all.
    """

    def __init__(self, clock: Clock, host_part: str | None = None, address: str = "127.0.0.1", port: int = 0,
                 teacher_key: str | None = None, store: RoomStore | None = None,
                 call: Callable[..., Any] | None = None, journals: bool = True,
                 own_person: str | None = people.own_key(), shared: Shared | None = None):
        self.clock = clock
        self.host_part, self.address, self.port = host_part, address, port
        self.teacher_key = teacher_key
        self.store: RoomStore = store if store is not None else MemoryStore()
        self.call = call or (lambda fn, *args: fn(*args))
        self.journals = journals
        self.own_person = own_person
        self.names_per_person = NAMES_PER_PERSON  # names one known person may hold in a room
        self.behind_hub = False  # students come through a JupyterHub's proxy, known by their hub tokens
        self.log = RefusalLog()  # (LogEntry) bounded per person: one flooder cannot push out the rest
        self.refused = 0
        self.rooms: dict[str, Room] = {}
        self.connections: set[Connection] = set()
        self.shared: Shared = shared if shared is not None else LocalShared()
        self._failed = self.shared.window("failed_joins", FAILED_JOINS_PER_ADDRESS, FAILED_JOINS_ALL,
                                          FAILED_JOIN_WINDOW_S)
        self._new_members = self.shared.window("new_names", NEW_MEMBERS_PER_ADDRESS, NEW_MEMBERS_ALL, 60.0)
        self._rejoined_at: dict[tuple[str, str], float] = {}
        self._room_conns: dict[str, dict[str, set[Connection]]] = {}  # room -> member name -> connections
        self._unjoined: dict[str, list[Connection]] = {}  # person -> their connections not joined yet, oldest first
        self._holders: dict[str, dict[str, str]] = {}  # room -> member name (case-folded) -> the person who took it
        # room -> name (case-folded) -> keys the name had before it was released (a client may still hold one)
        self._released: dict[str, dict[str, list[str]]] = {}
        self._teachers: set[Connection] = set()
        self._files = tempfile.TemporaryDirectory(prefix="triviador-rooms-")  # teachers' bank and map files
        self.closed = False
        self.shared.listen(self._heard)

    # ------------------------------------------------------------------ rooms

    def open_room(self, rules: RuleSet, game_map: GameMap, bank: QuestionBank, seed: int | None, pace: float = 1.0,
                  reveal_s: float = 3.0, think_s: float = 1.2, language: str = "en",
                  owner: str = KEY_OWNER) -> Room:
        """A new room with its own code (on the rooms' thread)."""
        record = RoomRecord(self.shared.new_code(self.host_part, [r.code for r in self.store]), rules.players)
        self.store.add(record)
        room = Room(self, record, rules, game_map, bank, seed, pace, reveal_s, think_s)
        room.language, room.owner = language, owner
        self.rooms[codes.normalise(record.code)] = room
        self.shared.teach(record.code, owner)
        self._tell_teachers_rooms()
        return room

    def resume_room(self, setup: dict, contents: JournalContents, path: Path | None, game_map: GameMap,
                    bank: QuestionBank, games: list[Game], language: str, held: bool = True,
                    point: tuple[str, str, float] | None = None, rewrites: int = 0, owner: str = KEY_OWNER) -> Room:
        """Bring back a room from its journal (on the rooms' thread): the same
        code and seat keys, the games where they stood, held (``held`` False:
        playing on at once). ``path``: the journal file that goes on, or None
        (the record goes on in the shared store only). ``point``: where the
        open prompt's timer stood (:meth:`~triviador_nb.classroom.Table.clock_point`;
        it goes on from there); ``rewrites``: the undos and corrections in the
        last game (its state ids go on); ``owner``: who controls it.

        Raises:
            ValueError: the code's port is not this host's, or the room is open already.
        """
        code = setup["code"]
        if self.shared.codes_name_port and codes.normalise(code)[:2] != (self.host_part or ""):
            raise ValueError(f"room {code} belongs on port {codes.port_of(code)}; this host listens on {self.port}")
        if self.store.get(code) is not None:
            raise ValueError(f"room {code} is open already")
        rules = find_rule_set(setup["rules"])
        record = RoomRecord(code, rules.players, bots={int(s): k for s, k in setup["bots"].items()},
                            seat_names={int(s): n for s, n in setup["seat_names"].items()}, started=True)
        for member in setup["members"]:
            record.members[member["name"].casefold()] = Member(member["name"], member["token"], member["seat"])
        self.store.add(record)
        seed = setup["seed"]  # None: the room's games have secrets (in their journal lines)
        room = Room(self, record, rules, game_map, bank, None if seed is None else int(seed), float(setup["pace"]),
                    float(setup["reveal_s"]), float(setup["think_s"]))
        room.specs = {"map": setup["map"], "bank": setup["bank"]}
        room.language, room.owner = language, owner
        self.rooms[codes.normalise(code)] = room
        self.shared.teach(code, owner)
        seed = games[-1].seed
        table = room._set_table(Table(games[-1], {s: Bot(s, k, seed) for s, k in record.bots.items()},
                                      self.clock, pace=room.pace, reveal_s=room.reveal_s,
                                      think_s=room.think_s, new_game=room._new_game_maker(), earlier=games[:-1],
                                      rewrites=rewrites))
        if point is not None:
            table.give_back(*point)
        if path is not None:
            room._keep_journal(path, resumed=contents)
        self.shared.follow(room)
        table.start()
        if held:
            table.hold()  # the teacher resumes when the students are back
        self._tell_teachers_rooms()
        return room

    def take_over(self, setup: dict, contents: JournalContents, game_map: GameMap, bank: QuestionBank,
                  games: list[Game], clock: dict, rewrites: int = 0) -> Room:
        """Bring back, from its record in the shared store, a room whose host process died (issue 23):
        who controls it, its seats and keys, its games as they stood, and the open prompt's timer where
        its owner last wrote it (``clock``: ``{"point": [moment, what, elapsed_s] or None, "held":
        bool}``). The room is held until a member of every seat people play is back (their clients
        reconnect by themselves), at most :data:`RETURN_WITHIN_S`; then a get-ready, and the prompt
        goes on with the time it had left. A room the teacher held stays held.

        Raises:
            ValueError: the room is open here already; a clock that is not one.
        """
        point = clock.get("point")
        if point is not None:
            if not (isinstance(point, list) and len(point) == 3 and all(isinstance(p, str) for p in point[:2])
                    and isinstance(point[2], (int, float)) and not isinstance(point[2], bool)):
                raise ValueError(f"the room's clock in the shared store is not one: {point!r:.80}")
            point = (point[0], point[1], float(point[2]))
        owner = setup.get("owner")
        room = self.resume_room(setup, contents, None, game_map, bank, games, setup.get("language") or "en",
                                held=True, point=point, rewrites=rewrites,
                                owner=owner if isinstance(owner, str) and owner else KEY_OWNER)
        if not clock.get("held"):
            room.returning = True
            self.clock.call_later(RETURN_WITHIN_S, lambda: self._returned(room))
        return room

    def _back(self, room: Room) -> None:
        """A member rejoined: a room taken over goes on once every seat people play has one back."""
        if not room.returning:
            return
        record, bots = room.record, room.table.bots if room.table is not None else {}
        if all(self._connections_of(room.code, m.name) or m.seat in bots
               or any(self._connections_of(room.code, o.name) for o in record.seated(m.seat))
               for m in list(record.members.values()) if m.seat is not None):
            self._returned(room)

    def _returned(self, room: Room) -> None:
        """The wait for a room taken over ends: the get-ready, then the prompt with the time it had left."""
        if room.returning and codes.normalise(room.code) in self.rooms and room.table is not None:
            room.returning = False
            room.table.release()

    def close_room(self, room: Room, code: str = "room_closed", reason: str = "The teacher closed the room.") -> None:
        """Tell the room's players it closed, stop its table, forget it."""
        key = codes.normalise(room.code)
        for connections in self._room_conns.pop(key, {}).values():
            for conn in connections:
                conn.peer.send(protocol.closed(code, reason, conn.version))
                conn.joined = None
        self._holders.pop(key, None)
        self._released.pop(key, None)
        if room.table is not None:
            room.table.stop()
        self.rooms.pop(key, None)
        self.store.remove(room.code)
        self.shared.forget(room.code)
        self._tell_teachers_rooms()

    def let_go(self, code: str) -> None:
        """Another host process owns room ``code`` now (this one lost its lease, :mod:`.redis_shared`):
        stop this copy and close its players' connections without a ``closed`` message, so their
        clients reconnect by themselves and reach the new owner (close code 1012)."""
        room = self._room(code)
        if room is None:
            return
        key = codes.normalise(room.code)
        for connections in self._room_conns.pop(key, {}).values():
            for conn in connections:
                conn.joined, conn.closing = None, True
                conn.peer.close(1012, "the room moved to another host process: reconnect")
        self._holders.pop(key, None)
        if room.table is not None:
            room.table.stop()
        self.rooms.pop(key, None)
        self.store.remove(room.code)
        self._tell_teachers_rooms()

    def close(self, code: str = "host_stopped", reason: str = "The teacher closed the room.") -> None:
        """Close every room (each player is told, with ``code``) and every connection."""
        if self.closed:
            return
        self.closed = True
        for room in list(self.rooms.values()):
            self.close_room(room, code, reason)
        for conn in list(self.connections):
            conn.peer.close(1001, "the room host stopped")
        self._files.cleanup()

    # ------------------------------------------------------------------ connections

    def connect(self, peer: Peer) -> Connection:
        """A new connection; it must join a room (or become a teacher) within
        :data:`JOIN_WITHIN_S` seconds or it is closed. One person keeps at
        most :data:`UNJOINED_PER_PERSON` connections that have not joined (a
        shared address :data:`UNJOINED_PER_ADDRESS`): a new one closes their
        oldest (close code 1008)."""
        now = self.clock.now()
        conn = Connection(peer, MessageBudget(now), pings=MessageBudget(now, PINGS_PER_S, PING_BURST))
        self.connections.add(conn)
        waiting = self._unjoined.setdefault(peer.address, [])
        waiting.append(conn)
        if len(waiting) > (UNJOINED_PER_PERSON if people.is_one_person(peer.address) else UNJOINED_PER_ADDRESS):
            oldest = waiting.pop(0)
            oldest.closing = True
            self._refuse(oldest, "too_many_connections", "closed the oldest of too many connections from one "
                                                         "person that had not joined")
            oldest.peer.close(1008, "too many connections from you that have not joined a room")

        def too_slow() -> None:
            if conn.joined is None and conn.teacher is None and conn in self.connections:
                conn.peer.close(1008, "join a room first")
        conn.deadline = self.clock.call_later(JOIN_WITHIN_S, too_slow)
        return conn

    def _settled(self, conn: Connection) -> None:
        """``conn`` joined a room or became a teacher: no deadline, not counted as unjoined."""
        if conn.deadline is not None:
            conn.deadline.cancel()
        waiting = self._unjoined.get(conn.peer.address)
        if waiting is not None and conn in waiting:
            waiting.remove(conn)
            if not waiting:
                del self._unjoined[conn.peer.address]

    def disconnect(self, conn: Connection) -> None:
        """The connection closed (any reason)."""
        self.connections.discard(conn)
        self._teachers.discard(conn)
        self._settled(conn)
        if conn.joined is not None:
            self._detach(conn)

    def control_frame(self, conn: Connection) -> None:
        """``conn`` sent a ping or a pong (the transport answers pings by
        itself): counted like messages, :data:`PINGS_PER_S` a second; a
        connection that floods them is closed (code 1008)."""
        if conn.closing or conn.pings is None or conn.pings.allow(self.clock.now()):
            return
        if conn.pings.flooding:
            conn.closing = True
            self._refuse(conn, "ping_flood", "closed a connection that kept flooding the host with pings")
            conn.peer.close(1008, "too many pings")

    def too_big(self, conn: Connection, limit: int) -> None:
        """The transport closed ``conn`` for a message over ``limit`` bytes."""
        self._refuse(conn, "too_big", f"closed a connection that sent a message over {limit} bytes")

    def receive(self, conn: Connection, raw: str | bytes) -> None:
        """One message from ``conn``: parsed, checked, acted on, answered."""
        if conn.closing:
            return
        now = self.clock.now()
        if conn.teacher is None and len(raw) > MAX_CLIENT_MESSAGE:
            conn.closing = True
            self.too_big(conn, MAX_CLIENT_MESSAGE)
            conn.peer.close(1009, "message too big")
            return
        if not conn.budget.allow(now):
            if conn.budget.flooding:
                self._refuse(conn, "flood", "closed a connection that kept flooding the room")
                conn.closing = True
                conn.peer.close(1008, "too many messages")
            elif now - conn.warned_at >= 1.0:
                conn.warned_at = now
                self._refuse(conn, "slow_down", "too many messages: some were not read")
                conn.peer.send(protocol.error("slow_down", "Too many messages at once: some were not read.",
                                              conn.version))
            return
        try:
            message = parse_client(raw)
        except ProtocolError as error:
            self._refuse(conn, error.code, error.reason)
            conn.peer.send(protocol.error(error.code, error.reason, conn.version))
            return
        if isinstance(message, Join):
            self._challenge_seat(conn, message) if message.rejoin else self._join(conn, message)
        elif isinstance(message, Teacher):
            self._challenge_teacher(conn, message) if message.nonce else self._become_teacher(conn, message)
        elif isinstance(message, Proof):
            self._proved(conn, message)
        elif isinstance(message, Op):
            self._op(conn, message)
        elif conn.joined is None:
            self._refuse(conn, "not_joined", f"a {type(message).__name__.lower()} before joining")
            conn.peer.send(protocol.error("not_joined", "Join a room first.", conn.version))
        elif not self._carries_key(conn, message.token):
            self._refuse(conn, "bad_token", "a message with another seat's or a forged token")
            conn.peer.send(protocol.error("bad_token", "That message did not carry your key.", conn.version))
        elif isinstance(message, Intent):
            self._intent(conn, message)
        elif isinstance(message, Leave):
            self._detach(conn)

    # ------------------------------------------------------------------ players

    def _join(self, conn: Connection, message: Join) -> None:
        now, peer, version = self.clock.now(), conn.peer, message.version
        if conn.joined is not None or conn.teacher is not None:
            self._refuse(conn, "already_joined", "a second join on one connection")
            peer.send(protocol.error("already_joined", "This connection has joined already.", version))
            return
        identity = getattr(peer, "identity", None)
        name = identity.user if identity is not None else message.name  # under JupyterHub: the hub user
        wait = self._failed.blocked(peer.address, now)
        if wait > 0 and not self._key_fits(message.room, name, message.token):  # a seat's own key always gets in
            self._refuse(conn, "too_many_tries", "a join while failed joins are rate-limited")
            peer.send(protocol.error("too_many_tries", f"Too many wrong room codes from this computer: try again "
                                                       f"in {max(1, round(wait))} s.", version,
                                     wait_s=max(1, round(wait))))
            return
        room = self._room(message.room)
        if room is None:
            self._failed.failed(peer.address, now)
            self._refuse(conn, "no_such_room", f"a join to room {message.room[:20]!r}")
            try:
                codes.normalise(message.room)
                reason = f"There is no room {message.room[:20]} here: check the code on the teacher's screen."
            except codes.CodeError as error:
                reason = str(error)[0].upper() + str(error)[1:] + "."
            peer.send(protocol.error("no_such_room", reason, version, room=message.room[:20]))
            return
        record = room.record
        member = record.member(name)
        removed = room.removed_refusal(name)
        if removed is not None:  # taken out by the teacher, who alone can let them back in
            peer.send(protocol.error("removed", removed, version, room=room.code, name=name))
            return
        if identity is not None and member is not None:
            pass  # the hub vouches for who it is: back to their seat, whatever the key
        elif member is not None and self._holder(room, member.name) == peer.address and self._limited(peer):
            pass  # the same Unix user who took the name: back to their seat, even without the key
        elif message.token is not None and (member is not None or room.started):
            if member is None or not hmac.compare_digest(member.token.encode(), message.token.encode()):
                self._failed.failed(peer.address, now)
                self._refuse(conn, "bad_token", f"a rejoin as {name!r} with a wrong key", room)
                peer.send(protocol.error("bad_token", f"This computer's key for {name} does not fit room "
                                                      f"{room.code}: join with another name, or ask the teacher.",
                                         version, room=room.code, name=name))
                return
        elif member is not None:
            peer.send(protocol.error("name_taken", f"Someone called {member.name} is in room {room.code} already. "
                                                   "If that is you, join from the same JupyterLab as before; "
                                                   "otherwise choose another name.", version,
                                     room=room.code, name=member.name))
            return
        # (a key for a name released before Start: the name is free, so it is a new join)
        new = member is None
        if new:
            member = self._new_member(conn, room, name, version)
            if member is None:
                return
        else:
            key = (codes.normalise(room.code), member.name.casefold())
            if now - self._rejoined_at.get(key, -math.inf) < REJOIN_EVERY_S:
                peer.send(protocol.error("slow_down", "Rejoining too often: try again in a moment.", version))
                return
            self._rejoined_at[key] = now
            self._holders.setdefault(key[0], {}).setdefault(key[1], peer.address)  # (a room resumed from its journal)
            self._replace(room, member)
        conn.version, conn.joined = version, (room, member)
        self._settled(conn)
        self._room_conns.setdefault(codes.normalise(room.code), {}).setdefault(member.name.casefold(), set()).add(conn)
        peer.send(self._welcome(room, member, conn.version, with_map=message.want_map, keyed=conn.keyed))
        conn.keyed = conn.version >= PROVING  # it has its key now: later welcomes leave it out
        self._send_room(room, views=False, only=None if new else {member.name.casefold()})
        self._send_views(room, only={member.name.casefold()})
        self._back(room)

    def _new_member(self, conn: Connection, room: Room, name: str, version: int) -> Member | None:
        """A new name in ``room``, or None (refused: the refusal is sent)."""
        now, peer, record = self.clock.now(), conn.peer, room.record
        if getattr(peer, "identity", None) is None:  # (a hub user's name is the hub's)
            if names.impersonates(name):
                self._refuse(conn, "name_reserved", f"a join as {name!r}, a name for the teacher or a bot", room)
                peer.send(protocol.error("name_reserved", f"{name} is what the screens call the teacher or a bot: "
                                                          "choose your own name.", version, room=room.code,
                                         name=name))
                return None
            like = names.look_alike(name, [m.name for m in list(record.members.values())]
                                    + list(record.seat_names.values()))
            if like is not None:
                self._refuse(conn, "name_confusable", f"a join as {name!r}, which looks like {like!r}", room)
                peer.send(protocol.error("name_confusable", f"The name {name} looks too much like {like}, who is "
                                                            f"in room {room.code} already: choose a name that "
                                                            "looks different.", version, room=room.code, name=like))
                return None
        held = self._names_held(room, peer.address)
        if self._limited(peer) and len(held) >= self.names_per_person:
            self._refuse(conn, "name_held", f"a join as {name!r} by someone in the room as {held[0]!r}",
                         room)
            peer.send(protocol.error("name_held", f"You are in room {room.code} already as {held[0]}: one name "
                                                  f"each. Join as {held[0]}, or ask the teacher.", version,
                                     room=room.code, name=held[0]))  # (the first of the names held)
            return None
        if len(record.members) >= MAX_MEMBERS:
            peer.send(protocol.error("room_full", f"Room {room.code} is full.", version, room=room.code))
            return None
        if self._new_members.blocked(peer.address, now):
            self._refuse(conn, "slow_down", "too many new names from one address", room)
            peer.send(protocol.error("slow_down", "Too many people joined at once: try again in a moment.",
                                     version))
            return None
        self._new_members.failed(peer.address, now)  # (counted, not failed: the same sliding window)
        member = record.add_member(name)
        self._holders.setdefault(codes.normalise(room.code), {})[member.name.casefold()] = peer.address
        self.store.save(record)
        return member

    def _limited(self, peer: Peer) -> bool:
        """Per-person limits apply: the peer is known as one person, and not the host's own user."""
        return people.is_one_person(peer.address) and peer.address != self.own_person

    def _holder(self, room: Room, name: str) -> str | None:
        return self._holders.get(codes.normalise(room.code), {}).get(name.casefold())

    def _names_held(self, room: Room, person: str) -> list[str]:
        """The names ``person`` holds in ``room`` (as shown)."""
        record = room.record
        return [record.members[n].name for n, who in self._holders.get(codes.normalise(room.code), {}).items()
                if who == person and n in record.members]

    def _replace(self, room: Room, member: Member) -> None:
        """A member rejoined: their older connections are closed (``closed``
        ``replaced``), so a rejoin never adds a connection."""
        for old in self._connections_of(room.code, member.name):
            self._detach(old, quietly=True)
            old.closing = True
            old.peer.send(protocol.closed("replaced", f"You joined room {room.code} as {member.name} again from "
                                                      "another window or kernel: this one has stopped.",
                                          old.version))
            old.peer.close(1000, "joined again elsewhere")

    def _key_fits(self, code: str, name: str, token: str | None) -> bool:
        """The join carries the right key for its name (144 random bits: no
        need to rate-limit those)."""
        room = self._room(code)
        member = room.record.member(name) if room is not None else None
        return (member is not None and token is not None
                and hmac.compare_digest(member.token.encode(), token.encode()))

    def _room(self, code: str) -> Room | None:
        try:
            return self.rooms.get(codes.normalise(code))
        except codes.CodeError:
            return None

    def _intent(self, conn: Connection, message: Intent) -> None:
        room, member = conn.joined
        table = room.table
        if member.seat is None or table is None:
            reason = ("You are watching: the teacher has not given you a seat." if table is not None
                      else "The game has not started yet.")
            code = "not_your_seat" if table is not None else "not_started"
            conn.peer.send(protocol.ack(message.ref, "rejected", code, reason, None, conn.version))
            return
        try:
            action = intent_action(member.seat, message.intent)
        except ProtocolError as error:
            self._refuse(conn, error.code, error.reason)
            conn.peer.send(protocol.ack(message.ref, "rejected", error.code, error.reason, None, conn.version))
            return
        result = table.submit(member.seat, action, message.state_id)
        if not result.accepted and result.status != "late":
            self._log(room.code, member.name, result.code, f"intent refused ({result.status}): {result.reason}")
            conn.peer.send(protocol.ack(message.ref, result.status, result.code, result.reason, result.ms,
                                        conn.version))
            return
        text = protocol.ack(message.ref, result.status, result.code, result.reason, result.ms, conn.version)
        self.shared.when_written(lambda: conn.peer.send(text))  # acked once the move is in the shared record

    def _detach(self, conn: Connection, quietly: bool = False) -> None:
        room, member = conn.joined
        conn.joined = None
        members = self._room_conns.get(codes.normalise(room.code), {})
        connections = members.get(member.name.casefold())
        if connections is not None:
            connections.discard(conn)
            if not connections:
                del members[member.name.casefold()]
        if quietly or codes.normalise(room.code) not in self.rooms:
            return
        if not room.started and not self._connections_of(room.code, member.name):
            self.clock.call_later(RELEASE_AFTER_S, lambda: self._release(room, member))
        self._send_room(room, views=False)

    def _release(self, room: Room, member: Member) -> None:
        """Before Start, a name whose connections all left (and stayed away
        :data:`RELEASE_AFTER_S`) is free again: it holds no place in the lobby."""
        record = room.record
        if (room.started or codes.normalise(room.code) not in self.rooms
                or record.members.get(member.name.casefold()) is not member
                or self._connections_of(room.code, member.name)):
            return
        del record.members[member.name.casefold()]
        self._holders.get(codes.normalise(room.code), {}).pop(member.name.casefold(), None)
        keys = self._released.setdefault(codes.normalise(room.code), {}).setdefault(member.name.casefold(), [])
        keys[:] = [*keys, member.token][-RELEASED_KEYS_KEPT:]
        self.store.save(record)
        self._log(room.code, member.name, "released", "a name that left the lobby before Start is free again")
        self._send_room(room, views=False)

    def _connections_of(self, code: str, name: str) -> set[Connection]:
        return set(self._room_conns.get(codes.normalise(code), {}).get(name.casefold(), ()))

    # ------------------------------------------------------------------ teachers

    # ------------------------------------------------------------------ sending

    def _welcome(self, room: Room, member: Member, version: int, with_map: bool, keyed: bool = False) -> str:
        return protocol.welcome(room.code, member.name, None if keyed else member.token, member.seat, room.rules.title, room.started,
                                room.language, room.map_json if with_map else None, version)

    def _lobby(self, room: Room, member: Member, version: int) -> str:
        record = room.record
        seats = [{"seat": s, "name": record.seat_name(s), "members": [m.name for m in record.seated(s)],
                  "bot": record.bots.get(s)} for s in range(record.seats)]
        waiting = [m.name for m in record.members.values() if m.seat is None]
        return protocol.lobby(room.code, seats, waiting, room.started, {"name": member.name, "seat": member.seat},
                              version)

    def _changed(self, room: Room) -> None:
        """The room's table changed: send the new views."""
        if codes.normalise(room.code) in self.rooms:
            self._send_views(room)

    def _members_of(self, room: Room, only: Iterable[str] | None) -> list[tuple[Member, set[Connection]]]:
        """The room's members with live connections (only those named in ``only``)."""
        found = []
        for name, connections in list(self._room_conns.get(codes.normalise(room.code), {}).items()):
            member = room.record.members.get(name)
            if member is not None and connections and (only is None or name in only):
                found.append((member, connections))
        return found

    def _send_room(self, room: Room, views: bool = True, only: set[str] | None = None,
                   welcome_for: set[str] | frozenset[str] = frozenset()) -> None:
        """Send the lobby (and, after Start, the views) to the room's members."""
        for member, connections in self._members_of(room, only):
            for conn in connections:
                if member.name.casefold() in welcome_for:
                    conn.peer.send(self._welcome(room, member, conn.version, with_map=False, keyed=conn.keyed))
                conn.peer.send(self._lobby(room, member, conn.version))
        if views:
            self._send_views(room, only)
        else:
            room._notify()

    def _send_views(self, room: Room, only: set[str] | None = None) -> None:
        """Each member gets their seat's view (a watcher: the projector's)."""
        table = room.table
        if table is not None:
            views: dict[int | None, str] = {}
            texts: dict[tuple[int | None, int], str] = {}
            roles = room.roles()
            for member, connections in self._members_of(room, only):
                seat = member.seat if member.seat not in table.bots else None  # a bot plays it: its people watch
                if seat not in views:
                    views[seat] = table.view(seat).to_json()
                for conn in connections:
                    key = (seat, conn.version)
                    if key not in texts:
                        texts[key] = protocol.view_message(seat, table.held, roles, views[seat], conn.version,
                                                           bot_names=room.bot_names)
                    conn.peer.send(texts[key])
        room._notify()

    # ------------------------------------------------------------------ the log

    def _refuse(self, conn: Connection, code: str, text: str, room: Room | None = None) -> None:
        """Count and log a refusal: under the connection's room and name once it joined, else under
        ``room`` (a join to it refused: the teacher's screen lists it) and the peer's address."""
        self.refused += 1
        joined = conn.joined
        where = joined[0].code if joined else (room.code if room is not None else "")
        self._log(where, joined[1].name if joined else conn.peer.address, code, text, refusal=True)

    def _log(self, room: str, who: str, code: str, text: str, refusal: bool = False) -> None:
        """Log a refusal (``refusal``: counted in :attr:`refused` by the other processes) or a notice,
        here and for every process of the service (:meth:`~.shared.Shared.publish`)."""
        entry = LogEntry(time.time(), room, who, code, text)
        self.log.append(entry)
        LOG.info("room %s: %s: %s (%s)", room or "-", who, text, code)
        self.shared.publish(room, who, code, text, entry.at, refusal)

    def _heard(self, at: float, room: str, who: str, code: str, text: str, refusal: bool) -> None:
        """Another host process of the service logged this (:meth:`~.shared.Shared.listen`)."""
        self.log.append(LogEntry(at, room, who, code, text))
        if refusal:
            self.refused += 1


def new_teacher_key() -> str:
    """A fresh teacher key (192 random bits)."""
    return secrets.token_urlsafe(24)


__all__ = ["ANY_TEACHER", "KEY_OWNER", "SKILLS", "Connection", "LogEntry", "MAX_TEACHER_MESSAGE", "Peer", "Room",
           "RoomError", "Rooms", "new_teacher_key"]
