"""The room host: the rooms served over WebSockets, from a thread of its own.

A :class:`RoomHost` runs one asyncio event loop on a thread of its own (never
the teacher kernel's loop: a teacher running a cell must not freeze the room
or distort response times). On that loop run the WebSocket server (the
``websockets`` package) and the rooms' logic (:class:`~.rooms.Rooms`: every
room's game table with its clock, so the table stamps each answer when it
arrives at the host, counted from when the question was sent: D1, D3).

This module only moves messages: each connection becomes a
:class:`~.rooms.Peer` of the rooms' logic, every text it sends is handed to
:meth:`~.rooms.Rooms.receive`, and what the logic sends goes out on the
socket. Under JupyterHub (``hub=``) the opening handshake carries the
kernel's hub token, checked against the hub before the connection is
accepted: the peer then has a hub identity, and limits count hub users.
Without a hub, a connection from this machine counts as its socket's Unix
user (:mod:`.people`), so students sharing 127.0.0.1 are still people apart.
Pings and pongs a peer sends are counted too (:class:`_CountingConnection`):
a flood of them closes the connection.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import resource
import threading
from http import HTTPStatus
from pathlib import Path
from typing import Any, Callable

from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

from ..banks import resolve_bank
from ..classroom import LoopClock, rebuild_games
from ..classroom.journal import JournalContents, named_as
from ..engine import QuestionBank, RuleSet, find_rule_set
from ..maps import GameMap, resolve_map
from . import codes, people
from .protocol import MAX_CLIENT_MESSAGE, MAX_TEACHER_MESSAGE
from .guard import ConnectionGate
from .redis_record import read_record, rewrites_in
from .rooms import NAMES_PER_PERSON, LogEntry, Room, Rooms, new_teacher_key
from .shared import LocalShared, Shared
from .store import RoomStore

LOG = logging.getLogger("triviador_nb.rooms")
MAX_CONNECTIONS = 2000  # open connections to one host at most (fewer when the process may open fewer files)
PENDING_SLACK = 100  # connections over MAX_CONNECTIONS let finish their handshake, to be told 1013 rather than reset
CALL_TIMEOUT_S = 10.0  # the longest the teacher's kernel waits for the host's loop
PING_INTERVAL_S = 5.0  # the host pings every connection this often...
PING_TIMEOUT_S = 20.0  # ...and closes one whose pong has not come by then (a peer that stopped answering),
CLOSE_TIMEOUT_S = 10.0  # ...dropping it when it does not answer the close either (websockets' default)
LIMIT_CLOSE_S = 1.0  # a connection closed for a limit (1008) is dropped after this, answered or not
DEFLATE = ServerPerMessageDeflateFactory(server_max_window_bits=15, client_max_window_bits=12,
                                        compress_settings={"memLevel": 8})
"""permessage-deflate as the host offers it: a view (about 5 KB of JSON) is compressed against the
whole 32 KiB window of the views before it, so a move costs a seat about 0.1-0.2 KB on the wire
instead of 1.1-1.3 KB with websockets' default 4 KiB window (which a view outgrows), for about
100 KiB more memory per connection (issue 29 item 3; ``benchmarks/rooms.py`` prints both). The
students' messages are small, so their window stays 4 KiB."""
SKILLS = ("easy", "medium", "hard")

__all__ = ["CALL_TIMEOUT_S", "LogEntry", "MAX_CONNECTIONS", "Room", "RoomHost", "SKILLS"]


def raise_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (at
    most 65,536 when the hard one is unlimited): each connection is a file.
    Returns the soft limit now (unchanged when the system refuses)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 65536 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft


def _tcp_person(remote: Any, local: Any) -> str:
    """Who a TCP connection counts as before its handshake (no hub user yet): :func:`.people.person_key`."""
    return people.person_key(remote, local)


class _CountingConnection(ServerConnection):
    """A server connection that tells the rooms' logic of every ping and
    pong its peer sends (``on_control``), before websockets answers a ping
    by itself: the logic counts them like messages; and that is counted by
    the host's :class:`~.guard.ConnectionGate` from the moment the TCP
    connection opens (``gate``, set on a subclass per host), so sockets that
    never finish the handshake cannot fill the host."""

    on_control: Callable[[], None] | None = None
    gate: ConnectionGate | None = None
    host: Any = None  # the RoomHost, for its refusal log
    person: str | None = None  # who opened it, while the gate counts it
    pending = False  # the WebSocket handshake has not finished

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        if self.gate is None:
            return
        person = _tcp_person(transport.get_extra_info("peername"), transport.get_extra_info("sockname"))
        if self.gate.admit(person, people.is_one_person(person)):
            self.person, self.pending = person, True
            return
        transport.abort()
        logic = getattr(self.host, "logic", None)
        if logic is not None:
            logic._log("", person, "too_many_pending", "a connection over the person's or the host's limit of "
                                                       "connections still opening", refusal=True)
            logic.refused += 1

    def handshaken(self) -> None:
        """The WebSocket handshake finished: the connection is no longer pending."""
        if self.person is not None and self.pending:
            self.gate.handshaken(self.person)
            self.pending = False

    def connection_lost(self, exc: Exception | None) -> None:
        if self.person is not None:
            self.gate.closed(self.person, self.pending)
            self.person, self.pending = None, False
        super().connection_lost(exc)

    def process_event(self, event: Any) -> None:
        if isinstance(event, Frame) and event.opcode in (Opcode.PING, Opcode.PONG) and self.on_control is not None:
            self.on_control()
        super().process_event(event)


class _SocketPeer:
    """A WebSocket connection as the rooms' logic sees it."""

    def __init__(self, ws: ServerConnection, address: str, identity: Any):
        self.ws, self.address, self.identity = ws, address, identity

    def send(self, text: str) -> None:
        broadcast((self.ws,), text)  # queued, never awaited: a slow reader cannot hold the room up

    def close(self, code: int, reason: str) -> None:
        asyncio.ensure_future(self.ws.close(code, reason))
        if code == 1008:  # a limit: the peer has a moment to read why, not websockets' close timeout
            asyncio.get_running_loop().call_later(LIMIT_CLOSE_S, self._abort)

    def _abort(self) -> None:
        """Drop the TCP connection of a peer closed for a limit that did not answer the close:
        a ping flood went on being read for the whole close timeout (issue 28)."""
        transport = self.ws.transport
        if transport is not None:
            transport.abort()

    def allow_size(self, limit: int) -> None:
        """A teacher may send bigger messages (a bank or a map file)."""
        self.ws.protocol.max_message_size = limit


class RoomHost:
    """Game rooms for students on other kernels, served on ``address``.

    Args:
        address: the address to listen on: ``"127.0.0.1"`` (students on this
            machine, the JupyterHub case) or the classroom network's address
            of this machine (``"0.0.0.0"`` for all of them).
        port: the port; by default one of 41000-41960 that is free, named by
            the rooms' codes so that students need only the code. A port
            outside 41000-41960 (``8765``; 0: any free one) is served too, but
            the codes name a port the host also holds (a free one of
            41000-41960): a code never leads to a port the host does not hold,
            where a student's program could be listening.
        code_port: the port of 41000-41960 the codes name (resuming rooms
            from their journal: the codes' own); None: ``port`` when it is
            one of them, else a free one.
        store: where room records are kept (in memory by default).
        hub: a :class:`~.identity.HubIdentities`: every connection must carry
            a JupyterHub token (``Authorization: token ...``); names are hub
            users and teachers are the hub's teachers. None: no hub.
        journals: journal the rooms teachers open over the wire.
        names_per_person: names one person may hold in a room
            (:data:`~.rooms.NAMES_PER_PERSON`; more when students share one
            Unix account).
        redis: the URL of a Redis the host shares with other host processes
            (``redis://[:password@]host:port/db``; :mod:`.redis_shared`): room
            codes unique across them and naming no port (``port`` None: any
            free port), join limits and the refusal log shared, each game's
            record written to a stream. None (the default): nothing shared.
        redis_prefix: the prefix of the host's keys in that Redis.

    Attributes:
        address, port: where the host listens.
        code_port: the port its rooms' codes name (``port`` itself, or a
            second port of 41000-41960 the host holds as well); None with
            ``redis`` (the codes name no port).
        loop: the host's own event loop (on its own thread).
        logic: the rooms' logic (:class:`~.rooms.Rooms`), on that loop.
        teacher_key: the secret that makes a connection a teacher (it never
            leaves the process that made the host, unless printed for a
            teacher by ``triviador-nb host``).
        log: the latest refusals and notices (:class:`LogEntry`), newest last.
        refused: how many messages were refused in all.

    Raises:
        OSError: the port cannot be had (the message says which); Redis
            cannot be reached.
    """

    def __init__(self, address: str = "127.0.0.1", port: int | None = None, store: RoomStore | None = None,
                 hub: Any = None, journals: bool = True, names_per_person: int = NAMES_PER_PERSON,
                 code_port: int | None = None, redis: str | None = None, redis_prefix: str = "triviador"):
        self.address = address
        self._hub = hub
        self.teacher_key = new_teacher_key()
        self._closing = False
        self._open = 0  # connections open now
        self.max_connections = min(MAX_CONNECTIONS, raise_file_limit() // 2)
        self.gate = ConnectionGate(self.max_connections + PENDING_SLACK, exempt=people.own_key())
        self.loop = asyncio.new_event_loop()
        self.loop.set_exception_handler(lambda _loop, context: LOG.debug("host loop: %s", context.get("message")))
        self._server = None
        self._code_server = None  # the second listener, on the codes' port, when ``port`` is not one of them
        self._thread = threading.Thread(target=self._run, name="triviador-room-host", daemon=True)
        self._thread.start()
        self.shared: Shared = LocalShared()
        self.relay: Any = None  # with Redis: players of rooms other processes own (:mod:`.relay`)
        try:
            if redis is not None:
                from .redis_shared import RedisShared

                self.shared = RedisShared(redis, redis_prefix)
                self._call(self.shared.start, timeout=CALL_TIMEOUT_S)
                # one key for the service: a teacher's client proves it to whichever process it reaches
                self.teacher_key = self._call(self.shared.teacher_key, self.teacher_key, timeout=CALL_TIMEOUT_S)
            self.port, self.host_part = self._call(self._bind, port, code_port, timeout=CALL_TIMEOUT_S)
        except BaseException:
            self._call_quietly(self._stop_shared)
            self._stop_loop()
            raise
        self.logic = Rooms(LoopClock(self.loop), self.host_part, address, self.port, teacher_key=self.teacher_key,
                           store=store, call=self._call, journals=journals, shared=self.shared)
        self.logic.behind_hub = hub is not None
        self.logic.names_per_person = names_per_person
        self.store = self.logic.store
        self.code_port = codes.port_of(self.host_part + "2222") if self.host_part is not None else None
        if redis is not None:
            from .relay import Relay

            self.relay = Relay(self.shared, self.logic)
            self.shared.ticks += [self._take_over_lapsed, self.relay.follow_owners]
            self.shared.on_lost.append(self.logic.let_go)
            try:
                self._call(self.relay.start, timeout=CALL_TIMEOUT_S)
            except BaseException:
                self.close()
                raise

    @property
    def hub(self) -> Any:
        """The hub's identities (None: no hub): set, every new connection must carry a hub token."""
        return self._hub

    @hub.setter
    def hub(self, hub: Any) -> None:
        self._hub = hub
        self.logic.behind_hub = hub is not None

    @property
    def rooms(self) -> dict[str, Room]:
        return self.logic.rooms

    @property
    def log(self):
        return self.logic.log

    @property
    def refused(self) -> int:
        return self.logic.refused

    def url(self) -> str:
        """The WebSocket URL of this host on this machine."""
        shown = "127.0.0.1" if self.address in ("0.0.0.0", "", "localhost") else self.address
        shown = "[::1]" if shown == "::" else (f"[{shown}]" if ":" in shown and not shown.startswith("[") else shown)
        return f"ws://{shown}:{self.port}"

    # ------------------------------------------------------------------ setting up

    async def _bind(self, port: int | None, code_port: int | None) -> tuple[int, str]:
        """Listen on ``port`` and on the port the codes name (the same one
        when ``port`` is of 41000-41960); returns the port and the codes' first two characters."""
        options = dict(max_size=MAX_CLIENT_MESSAGE, max_queue=16, compression=None, extensions=[DEFLATE],
                       ping_interval=PING_INTERVAL_S, ping_timeout=PING_TIMEOUT_S, close_timeout=CLOSE_TIMEOUT_S,
                       process_request=self._handshake,
                       create_connection=type("_HostConnection", (_CountingConnection,), {"gate": self.gate,
                                                                                        "host": self}))
        if not self.shared.codes_name_port:  # (rooms in Redis: codes are names, any port serves)
            self._server = await serve(self._serve, self.address, port or 0, **options)
            return self._server.sockets[0].getsockname()[1], None
        if port is not None:
            self._server = await serve(self._serve, self.address, port, **options)
            actual = self._server.sockets[0].getsockname()[1]
            part = codes.host_part(actual)
            if part is not None and code_port in (None, actual):
                return actual, part
        try:
            server, part = await self._listen_for_codes(code_port, options)
        except OSError:
            if self._server is not None:
                self._server.close()
            raise
        if self._server is None:
            self._server = server
            return codes.port_of(part + "2222"), part
        self._code_server = server
        return actual, part

    async def _listen_for_codes(self, code_port: int | None, options: dict) -> tuple[Any, str]:
        """A listener on ``code_port``, or on a free port of 41000-41960."""
        if code_port is not None:
            part = codes.host_part(code_port)
            if part is None:
                raise OSError(f"port {code_port} is not one a room code can name (41000-41960)")
            try:
                return await serve(self._serve, self.address, code_port, **options), part
            except OSError as error:
                raise OSError(f"the rooms' port {code_port} on {self.address} is taken ({error}): another "
                              "host, or another program, holds it") from None
        last: OSError | None = None
        for _ in range(40):
            part = codes.random_host_part()
            try:
                return await serve(self._serve, self.address, codes.port_of(part + "2222"), **options), part
            except OSError as error:
                last = error
        # (a port of one's own does not help: the codes must name a port this host holds)
        raise OSError(f"every port a room code can name (41000-41960) that was tried on {self.address} is taken "
                      f"({last}): another program holds them; `ss -ltnp` shows which (its user can stop it), or run "
                      "the host with --redis, whose codes name no port")

    async def _handshake(self, ws: ServerConnection, request: Any) -> Any:
        """Under JupyterHub: accept only a connection whose kernel's hub token
        names a hub user (kept on the connection as ``ws.identity``)."""
        if self.hub is None:
            return None  # no hub: the room code and the seat keys are the authentication
        from .identity import HubUnavailable, NoServiceAccess, token_from_headers

        token = token_from_headers(request.headers)
        if token is None:
            return ws.respond(HTTPStatus.UNAUTHORIZED, "Join from a JupyterHub kernel: its token is missing.\n")
        try:
            identity = await self.hub.identify_async(token)
        except HubUnavailable as error:
            return ws.respond(HTTPStatus.SERVICE_UNAVAILABLE, f"The hub cannot check who you are now: {error}\n")
        except NoServiceAccess as error:
            return ws.respond(HTTPStatus.FORBIDDEN, f"Your JupyterHub token may not use this service ({error}): "
                                                    "ask the hub's admin for the role in the README.\n")
        if identity is None:
            return ws.respond(HTTPStatus.FORBIDDEN, "That JupyterHub token is not valid here.\n")
        ws.identity = identity
        return None

    def open_room(self, rules: str | RuleSet = "conquiztador", map: str | GameMap = "hungary",
                  bank: Any = "general_knowledge_en", seed: int | None = None, pace: float = 1.0,
                  reveal_s: float = 3.0, think_s: float = 1.2, journal: str | Path | None = None,
                  language: str | None = None, owner: str | None = None) -> Room:
        """A new room with its own code; students join it before Start.

        Args:
            rules, map, bank: as for :func:`triviador_nb.ui.play`.
            seed: a game number, for a reproducible game (tests, a set
                piece): anyone who knows it can compute every draw. None
                (the default): each game's chance comes from a fresh secret
                the host never sends (issue 28).
            pace, reveal_s, think_s: as for the game table.
            journal: a file to journal the room's games to from Start, or None.
            language: the room's language code, sent to the students'
                screens (None: ``"en"``; the teacher's screen passes its own).
            owner: who controls it (default: whoever has the teacher key).

        Raises:
            ValueError, MapError, BankError: unknown rules, a bad map or bank.
        """
        from .rooms import KEY_OWNER

        rule_set = rules if isinstance(rules, RuleSet) else find_rule_set(rules)
        game_map = resolve_map(map, players=rule_set.players)
        question_bank = resolve_bank(bank)
        room = self._call(self.logic.open_room, rule_set, game_map, question_bank,
                          seed, pace, reveal_s, think_s,
                          language or "en", owner or KEY_OWNER)
        room.specs = {"map": named_as(map), "bank": named_as(bank)}
        room.journal_path = Path(journal) if journal is not None else None
        return room

    def resume_room(self, contents: JournalContents, path: str | Path, game_map: GameMap,
                    bank: QuestionBank, language: str = "en") -> Room:
        """Bring back a room from its journal: the same code, who sat where
        with their seat keys (so students rejoin by running their join cell
        again), every game played and the current one where it stood, held
        until the teacher resumes it; the journal goes on.

        Raises:
            JournalError: the journal is of another map or bank, or does not replay.
            ValueError: this host's port does not fit the room's code, or a
                room with this code is open already.
        """
        setup = contents.header["setup"]
        games = rebuild_games(contents, game_map.board, bank)
        kept = setup.get("language")  # absent from a journal written before rooms had languages: ``language``
        language = kept if isinstance(kept, str) and kept else language
        return self._call(self.logic.resume_room, setup, contents, Path(path), game_map, bank, games, language)

    def close(self, code: str = "room_closed") -> None:
        """Tell every player the room closed (``code``: ``room_closed`` when
        the teacher closes it, ``host_stopped`` when the service stops), stop
        every table and the server."""
        if self._closing:
            return
        self._closing = True
        try:
            self._call(self._close, code, timeout=CALL_TIMEOUT_S)
        except Exception:  # noqa: BLE001 - closing must finish whatever happened
            pass
        self._stop_loop()

    async def _close(self, code: str) -> None:
        reason = ("The room service stopped: the games are saved; the teacher can bring them back."
                  if code == "host_stopped" else "The teacher closed the room.")
        self.logic.close(code, reason)
        await asyncio.sleep(0.05)  # let the closing messages leave
        if self.relay is not None:
            await self.relay.stop()
        await self._stop_shared()
        for server in (self._server, self._code_server):
            if server is not None:
                server.close(close_connections=True)
                try:
                    await asyncio.wait_for(server.wait_closed(), 3.0)
                except asyncio.TimeoutError:
                    pass

    async def _take_over_lapsed(self) -> None:
        """Bring back, playing, every room whose owner stopped renewing its lease (its process died):
        from its record in Redis, with its code, seat keys and games as they stood (:mod:`.redis_shared`)."""
        for code, lines, clock in await self.shared.lapsed():
            try:
                contents = read_record(lines, code)
                setup = contents.header["setup"]
                game_map = resolve_map(setup["map"], players=find_rule_set(setup["rules"]).players)
                bank = resolve_bank(setup["bank"])
                games = rebuild_games(contents, game_map.board, bank)
                self.logic.take_over(setup, contents, game_map, bank, games, clock, rewrites_in(lines))
                self.logic._log(codes.shown(code), "host", "taken_over",
                                "this host process took the room over: its owner stopped renewing its lease")
            except Exception as error:  # noqa: BLE001 - a room that cannot come back is left, said so
                self.logic._log(codes.shown(code), "host", "take_over_failed",
                                f"the room could not be taken over: {type(error).__name__}: {error}")
                self.shared.forget(code)

    async def _stop_shared(self) -> None:
        """Finish the shared store's writes (bounded) and give up its leases."""
        stop = getattr(self.shared, "stop", None)
        if stop is not None:
            await stop()

    def _call_quietly(self, fn: Callable[..., Any]) -> None:
        try:
            self._call(fn, timeout=CALL_TIMEOUT_S)
        except Exception:  # noqa: BLE001 - (cleaning up after a failed start)
            pass

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()
        tasks = asyncio.all_tasks(self.loop)  # connections still closing: cancel them and let them finish
        for task in tasks:
            task.cancel()
        if tasks:
            self.loop.run_until_complete(asyncio.wait(tasks, timeout=2.0))
        self.loop.close()

    def _stop_loop(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5.0)

    @property
    def closed(self) -> bool:
        return self._closing

    # ------------------------------------------------------------------ the loop

    def _call(self, fn: Callable[..., Any], *args: Any, timeout: float = CALL_TIMEOUT_S) -> Any:
        """Run ``fn(*args)`` (a function or a coroutine function) on the
        host's loop and return its result; at once when already there."""
        if self.loop.is_closed() or (self._closing and not self._on_loop() and fn != self._close):
            raise RuntimeError("the room host is closed: open a new one with host()")
        if self._on_loop():
            result = fn(*args)
            if asyncio.iscoroutine(result):
                raise RuntimeError("a coroutine cannot be awaited from the host's own loop here")
            return result
        future: concurrent.futures.Future = concurrent.futures.Future()

        def run() -> None:
            try:
                result = fn(*args)
            except BaseException as error:  # noqa: BLE001 - handed back to the caller
                future.set_exception(error)
                return
            if asyncio.iscoroutine(result):
                task = self.loop.create_task(result)
                task.add_done_callback(lambda t: future.set_exception(t.exception()) if t.exception()
                                       else future.set_result(t.result()))
            else:
                future.set_result(result)

        self.loop.call_soon_threadsafe(run)
        return future.result(timeout=timeout)

    def _on_loop(self) -> bool:
        return threading.current_thread() is self._thread

    # ------------------------------------------------------------------ connections

    async def _serve(self, ws: ServerConnection) -> None:
        """Move one connection's messages to the rooms' logic until it closes."""
        identity = getattr(ws, "identity", None)
        address = _person(ws, identity)
        if isinstance(ws, _CountingConnection):
            ws.handshaken()
        if self._open >= self.max_connections:
            self.logic._log("", address, "too_many_connections", f"a connection over the {self.max_connections} open",
                            refusal=True)
            self.logic.refused += 1
            await ws.close(1013, "the room host is full: try again later")
            return
        self._open += 1
        peer = _SocketPeer(ws, address, identity)
        conn = self.logic.connect(peer)
        ws.on_control = lambda: self.logic.control_frame(conn)
        relayed = None  # the connection's id when another process owns its room (:mod:`.relay`)
        try:
            async for raw in ws:
                if relayed is not None:
                    self.relay.forward(relayed, raw)
                    continue
                if conn.joined is None and conn.teacher is None:
                    owner = await self.relay.owner_of(raw, identity) if self.relay is not None else None
                    if owner is not None:  # a room another process owns: its logic judges this connection
                        self.logic.disconnect(conn)
                        relayed = self.relay.open(ws, *owner, address, identity, raw)
                        continue
                    await self.shared.before(address)  # the join limits judge it: read them first
                self.logic.receive(conn, raw)
                if conn.teacher is not None:
                    peer.allow_size(MAX_TEACHER_MESSAGE)
        except ConnectionClosed as closed:
            if closed.sent is not None and closed.sent.code == 1009:
                self.logic.too_big(conn, MAX_CLIENT_MESSAGE)
        except Exception as error:  # noqa: BLE001 - one connection's fault must not stop the room
            joined = conn.joined
            self.logic._log(joined[0].code if joined else "", address, "fault", f"{type(error).__name__}: {error}")
        finally:
            self._open -= 1
            if relayed is not None:
                self.relay.closed(relayed)
            else:
                self.logic.disconnect(conn)


def _person(ws: ServerConnection, identity: Any) -> str:
    """Who the connection counts as (:func:`.people.person_key`)."""
    try:
        remote, local = ws.remote_address, ws.local_address
    except Exception:  # noqa: BLE001 - a closed transport has no address
        remote = local = None
    return people.person_key(remote, local, identity.user if identity is not None else None)
