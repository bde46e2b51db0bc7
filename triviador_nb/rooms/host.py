"""The room host: game rooms served to students over WebSockets, from its own thread.

A :class:`RoomHost` runs one asyncio event loop on a thread of its own (never
the teacher kernel's loop: a teacher running a cell must not freeze the room
or distort response times). On that loop run the WebSocket server (the
``websockets`` package) and every room's game table with its clock, so the
table stamps each answer when it arrives at the host, counted from when the
question was sent (D1, D3). The host alone holds the bank and the engine;
each player is sent only its seat's view (:func:`~triviador_nb.engine.view.view`).

The teacher's kernel drives rooms through :class:`Room` (seats, bots,
Start); every such call is handed to the host's loop and waits for it there,
so room state is only ever changed on that one thread.

What a student's kernel sends is not trusted: every message is parsed by
:mod:`.protocol`, every intent is checked against its seat's token, failed
joins and floods are rate-limited (:mod:`.guard`), oversized messages close
that connection only; each refusal is logged in :attr:`RoomHost.log` and
never changes the game or stops the room.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hmac
import resource
import json
import math
import logging
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from ..banks import resolve_bank
from ..bots import Bot
from ..classroom import Journal, LoopClock, Table, rebuild_games
from ..classroom.journal import JournalContents, named_as
from ..engine import Game, QuestionBank, RuleSet, find_rule_set
from ..i18n import current_language
from ..maps import GameMap, resolve_map
from . import codes
from .guard import FailedJoins, MessageBudget
from .protocol import MAX_CLIENT_MESSAGE, Intent, Join, Leave, ProtocolError, dumps, intent_action, map_to_plain, parse_client
from .store import Member, MemoryStore, RoomRecord, RoomStore

LOG = logging.getLogger("triviador_nb.rooms")
MAX_MEMBERS = 100  # people in one room (a class of 30 in one game, with room to spare)
MAX_CONNECTIONS = min(2000, resource.getrlimit(resource.RLIMIT_NOFILE)[0] // 2)  # open connections to one host
NEW_MEMBERS_PER_ADDRESS = 40  # new names from one address (a class on one machine) per minute...
NEW_MEMBERS_ALL = 400  # ...and from all addresses
REJOIN_EVERY_S = 1.0  # a member rejoins at most this often
JOIN_WITHIN_S = 30.0  # a connection that has not joined a room by then is dropped
CALL_TIMEOUT_S = 10.0  # the longest the teacher's kernel waits for the host's loop
SKILLS = ("easy", "medium", "hard")


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


class Room:
    """One room of a host, as the teacher's kernel sees it.

    Attributes:
        code: the room code (``"K7-PQ45"``).
        rules, game_map, bank: what is played.
        language: the language code of the room (the teacher's when it was
            opened): the ``welcome`` message carries it to the students'
            screens.
        table: the game table once Start was pressed, else None.
    """

    def __init__(self, host: "RoomHost", record: RoomRecord, rules: RuleSet, game_map: GameMap,
                 bank: QuestionBank, seed: int, pace: float, reveal_s: float, think_s: float):
        self.host, self.record = host, record
        self.code = record.code
        self.rules, self.game_map, self.bank = rules, game_map, bank
        self.seed, self.pace, self.reveal_s, self.think_s = seed, pace, reveal_s, think_s
        self.language = "en"  # the room's language (set where the room is opened)
        self.table: Table | None = None
        self.journal_path: Path | None = None  # where the game is journalled once it starts (None: nowhere)
        self.journal: Journal | None = None
        self.specs: dict[str, Any] = {}  # how the journal names the map and bank (names or paths)
        self.map_json = json.dumps(map_to_plain(game_map), ensure_ascii=False, separators=(",", ":"))
        self._listeners: list[Callable[[], None]] = []

    # ------------------------------------------------------------------ reading

    @property
    def started(self) -> bool:
        return self.record.started

    def members(self) -> list[Member]:
        """Everyone who has joined, in the order they joined (copies)."""
        return [Member(m.name, "", m.seat) for m in list(self.record.members.values())]  # (list: one step under the GIL)

    def connected(self, name: str) -> bool:
        """Whether ``name`` has a live connection now."""
        return bool(self.host._connections_of(self.code, name))

    def seat_name(self, seat: int) -> str:
        return self.record.seat_name(seat)

    def roles(self) -> dict[int, str]:
        """Seat -> who plays it, for the scoreboard (bots' skills, teams' members)."""
        roles = {}
        for seat in range(self.record.seats):
            if seat in self.record.bots:
                roles[seat] = f"bot · {self.record.bots[seat]}"
            else:
                people = [m.name for m in self.record.seated(seat)]
                if len(people) > 1 or (people and seat in self.record.seat_names):
                    roles[seat] = "team: " + ", ".join(people)
                elif people:
                    roles[seat] = "student"
                else:
                    roles[seat] = "empty seat"  # its people were moved: the timer plays it (D3)
        return roles

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` (on the host's thread) after every change:
        someone joins or leaves, a seat changes, a move is made."""
        self._listeners.append(listener)

    # ------------------------------------------------------------------ the teacher's controls

    def assign(self, name: str, seat: int | None) -> None:
        """Seat ``name`` (``None``: back to the lobby, watching). Several
        people in one seat play it as a team.

        Raises:
            KeyError: nobody of that name is in the room.
            ValueError: not a seat of this rule set.
        """
        self.host._call(self._assign, name, seat)

    def _assign(self, name: str, seat: int | None) -> None:
        member = self.record.member(name)
        if member is None:
            raise KeyError(f"nobody called {name!r} is in room {self.code}")
        if seat is not None and not (type(seat) is int and 0 <= seat < self.record.seats):
            raise ValueError(f"{self.rules.title} has seats 1-{self.record.seats}")
        if self.started and seat is not None and seat != member.seat:
            if seat in self.record.bots:
                raise ValueError(f"a bot plays seat {seat + 1}: hand it back to people first (hand_back)")
        member.seat = seat
        if not self.started and seat is not None:
            self.record.bots.pop(seat, None)
        self.host.store.save(self.record)
        self.host._send_room(self, welcome_for={member.name.casefold()})

    def remove(self, name: str) -> None:
        """Take ``name`` out of the room (a name nobody owns up to, a joke
        name): their screen says so and their key stops working. A seat they
        played goes on without them (the timer plays it, or hand it to a bot).

        Raises:
            KeyError: nobody of that name is in the room.
        """
        self.host._call(self._remove, name)

    def _remove(self, name: str) -> None:
        member = self.record.member(name)
        if member is None:
            raise KeyError(f"nobody called {name!r} is in room {self.code}")
        del self.record.members[member.name.casefold()]
        self.host.store.save(self.record)
        connections = self.host._room_ws.get(codes.normalise(self.code), {}).pop(member.name.casefold(), set())
        broadcast(connections, dumps("closed", reason="The teacher took you out of the room."))
        self.host._send_room(self)

    def set_bot(self, seat: int, skill: str | None) -> None:
        """Before Start: a bot of ``skill`` plays ``seat`` (None: the seat is
        left to people; a seat nobody joined gets a medium bot at Start).

        Raises:
            ValueError: an unknown skill or seat, or the game has started
                (then use :meth:`hand_to_bot`).
        """
        self.host._call(self._set_bot, seat, skill)

    def _set_bot(self, seat: int, skill: str | None) -> None:
        self._check_seat(seat)
        if self.started:
            raise ValueError("the game has started: use hand_to_bot(seat) to let a bot play a seat")
        if skill is None:
            self.record.bots.pop(seat, None)
        else:
            self._check_skill(skill)
            self.record.bots[seat] = skill
            for member in self.record.seated(seat):
                member.seat = None
        self.host.store.save(self.record)
        self.host._send_room(self, welcome_for=set(self.record.members))

    def name_seat(self, seat: int, name: str | None) -> None:
        """Give ``seat`` a team name (before Start); None goes back to the members' names."""
        self.host._call(self._name_seat, seat, name)

    def _name_seat(self, seat: int, name: str | None) -> None:
        self._check_seat(seat)
        if name is None:
            self.record.seat_names.pop(seat, None)
        else:
            from .protocol import clean_name
            try:
                self.record.seat_names[seat] = clean_name(name)
            except ProtocolError as error:
                raise ValueError(error.reason) from None
        self.host.store.save(self.record)
        self.host._send_room(self)

    def start(self) -> Table:
        """Start the game: seats nobody joined get medium bots; the first
        prompt's timer starts now. Returns the table.

        Raises:
            ValueError: nobody is seated (a room of bots only: use play()).
        """
        return self.host._call(self._start)

    def _start(self) -> Table:
        if self.table is not None:
            return self.table
        record = self.record
        if not any(record.seated(s) for s in range(record.seats)):
            raise ValueError(f"nobody is seated in room {self.code} yet: wait for the students to join")
        for seat in range(record.seats):
            if not record.seated(seat):
                record.bots.setdefault(seat, "medium")
        record.started = True
        new_game = self._new_game_maker()
        game, bots = new_game(self.seed)
        table = self._set_table(Table(game, bots, LoopClock(self.host.loop), pace=self.pace, reveal_s=self.reveal_s,
                                      think_s=self.think_s, new_game=new_game))
        if self.journal_path is not None:
            self._keep_journal(self.journal_path)
        table.start()  # notifies: every member gets the first view
        self.host._send_room(self, welcome_for=set(record.members))
        return table

    def _new_game_maker(self) -> Callable[[int, frozenset[str]], tuple[Game, dict[int, Bot]]]:
        record = self.record
        names = [record.seat_name(s) for s in range(record.seats)]

        def new_game(seed: int, asked_before: frozenset[str] = frozenset()) -> tuple[Game, dict[int, Bot]]:
            game = Game(self.rules, self.game_map.board, self.bank, seed, names=names, asked_before=asked_before)
            return game, {s: Bot(s, skill, seed) for s, skill in dict(record.bots).items()}  # hand-offs too
        return new_game

    def _set_table(self, table: Table) -> Table:
        table.on_change(lambda _events: self.host._changed(self))
        self.table = table
        self.host.store.save(self.record)
        return table

    def journal_setup(self) -> dict:
        """What a journal needs to bring this room back (issue 12): its code,
        rule set, map and bank (names or paths), table settings, and who
        sits where with their seat keys (the journal is the teacher's file)."""
        record = self.record
        return {"screen": "room", "code": self.code, "language": self.language, "rules": self.rules.name,
                "map": self.specs.get("map"),
                "bank": self.specs.get("bank"), "seed": self.seed, "pace": self.pace, "reveal_s": self.reveal_s,
                "think_s": self.think_s, "address": self.host.address,
                "members": [{"name": m.name, "token": m.token, "seat": m.seat} for m in record.members.values()
                            if m.seat is not None],
                "bots": {str(s): skill for s, skill in record.bots.items()},
                "seat_names": {str(s): name for s, name in record.seat_names.items()}}

    def _keep_journal(self, path: Path, resumed: JournalContents | None = None) -> None:
        try:
            self.journal = Journal(path, self.table, self.journal_setup(), resumed=resumed,
                                   on_lost=lambda: self.table.clock.call_later(0, self.table.hold))
        except OSError as error:  # a room without a journal still plays
            self.host._log(self.code, "host", "journal", f"the game cannot be saved to {path}: {error}")

    def run(self, work: Callable[[], Any]) -> Any:
        """Run ``work()`` on the host's thread, where the room's table lives,
        and return its result: the teacher's controls reach the table this
        way (:class:`~triviador_nb.ui.controls.TeacherControls`).

        Raises:
            RuntimeError: the host is closed.
        """
        return self.host._call(work)

    def hand_to_bot(self, seat: int, skill: str = "medium") -> None:
        """During the game: a bot of ``skill`` plays ``seat`` (a silent seat);
        its people watch until :meth:`hand_back`."""
        self.host._call(self._hand, seat, skill)

    def hand_back(self, seat: int) -> None:
        """During the game: the seat's people play it again."""
        self.host._call(self._hand, seat, None)

    def _hand(self, seat: int, skill: str | None) -> None:
        self._check_seat(seat)
        if self.table is None:
            raise ValueError("the game has not started: use set_bot(seat, skill) before Start")
        if skill is None:
            self.record.bots.pop(seat, None)
            self.table.set_bot(seat, None)
        else:
            self._check_skill(skill)
            self.record.bots[seat] = skill
            self.table.set_bot(seat, Bot(seat, skill, self.table.game.seed + 100 + seat))
        self.host.store.save(self.record)
        self.host._send_room(self)

    def restart(self) -> None:
        """The next game in this room, same seats and settings ("Play again")."""
        self.host._call(lambda: self.table.restart() if self.table is not None else None)

    def view(self, seat: int | None = None):
        """The table's view for ``seat`` (None: the projector), or None before Start."""
        table = self.table
        return table.view(seat) if table is not None else None

    def _check_seat(self, seat: int) -> None:
        if not (type(seat) is int and 0 <= seat < self.record.seats):
            raise ValueError(f"{self.rules.title} has seats 0-{self.record.seats - 1}, not {seat!r}")

    @staticmethod
    def _check_skill(skill: str) -> None:
        if skill not in SKILLS:
            raise ValueError(f"a bot's skill is one of {', '.join(SKILLS)}, not {skill!r}")

    def _notify(self) -> None:
        for listener in list(self._listeners):
            try:
                listener()
            except Exception as error:  # noqa: BLE001 - a teacher's screen must not stop the room
                self.host._log(self.code, "host", "screen_fault", f"{type(error).__name__}: {error}")


class RoomHost:
    """Game rooms for students on other kernels, served on ``address``.

    Args:
        address: the address to listen on: ``"127.0.0.1"`` (students on this
            machine, the JupyterHub case) or the classroom network's address
            of this machine (``"0.0.0.0"`` for all of them).
        port: the port; by default one of 41000-41960 that is free, named by
            the rooms' codes so that students need only the code.
        store: where room records are kept (in memory by default).

    Attributes:
        address, port: where the host listens.
        loop: the host's own event loop (on its own thread).
        log: the latest refusals and notices (:class:`LogEntry`), newest last.
        refused: how many messages were refused in all.

    Raises:
        OSError: the port cannot be had (the message says which).
    """

    def __init__(self, address: str = "127.0.0.1", port: int | None = None, store: RoomStore | None = None):
        self.address = address
        self.store: RoomStore = store if store is not None else MemoryStore()
        self.log: deque[LogEntry] = deque(maxlen=1000)
        self.refused = 0
        self.rooms: dict[str, Room] = {}
        self._failed = FailedJoins()
        self._new_members = FailedJoins(NEW_MEMBERS_PER_ADDRESS, NEW_MEMBERS_ALL, 60.0)
        self._rejoined_at: dict[tuple[str, str], float] = {}
        self._room_ws: dict[str, dict[str, set[ServerConnection]]] = {}  # room -> member name -> connections
        self._closing = False
        self._open = 0  # connections open now
        self.loop = asyncio.new_event_loop()
        self.loop.set_exception_handler(lambda _loop, context: LOG.debug("host loop: %s", context.get("message")))
        self._server = None
        self._thread = threading.Thread(target=self._run, name="triviador-room-host", daemon=True)
        self._thread.start()
        try:
            self.port, self.host_part = self._call(self._bind, port, timeout=CALL_TIMEOUT_S)
        except BaseException:
            self._stop_loop()
            raise

    # ------------------------------------------------------------------ setting up

    async def _bind(self, port: int | None) -> tuple[int, str | None]:
        options = dict(max_size=MAX_CLIENT_MESSAGE, max_queue=16, ping_interval=5, ping_timeout=20)
        if port is not None:
            self._server = await serve(self._serve, self.address, port, **options)
            actual = self._server.sockets[0].getsockname()[1]
            return actual, codes.host_part(actual)
        last: OSError | None = None
        for _ in range(40):
            part = codes.random_host_part()
            try:
                self._server = await serve(self._serve, self.address, codes.port_of(part + "2222"), **options)
                return codes.port_of(part + "2222"), part
            except OSError as error:
                last = error
        raise OSError(f"no free port among 41000-41960 on {self.address} ({last}); "
                      "give one with port=...")

    def open_room(self, rules: str | RuleSet = "conquiztador", map: str | GameMap = "hungary",
                  bank: Any = "general_knowledge_en", seed: int | None = None, pace: float = 1.0,
                  reveal_s: float = 3.0, think_s: float = 1.2, journal: str | Path | None = None,
                  language: str | None = None) -> Room:
        """A new room with its own code; students join it before Start.

        Args:
            rules, map, bank: as for :func:`triviador_nb.ui.play`.
            seed: the game number (kept from the students); random by default.
            pace, reveal_s, think_s: as for the game table.
            journal: a file to journal the room's games to from Start
                (:class:`~triviador_nb.classroom.Journal`; :meth:`resume_room`
                brings the room back from it), or None.
            language: the room's language code, sent to the students'
                screens (None: the teacher kernel's language now).

        Raises:
            ValueError, MapError, BankError: unknown rules, a bad map or bank.
        """
        rule_set = rules if isinstance(rules, RuleSet) else find_rule_set(rules)
        game_map = resolve_map(map, players=rule_set.players)
        question_bank = resolve_bank(bank)
        room = self._call(self._open_room, rule_set, game_map, question_bank,
                          seed if seed is not None else secrets.randbelow(1_000_000), pace, reveal_s, think_s,
                          language or current_language())
        room.specs = {"map": named_as(map), "bank": named_as(bank)}
        room.journal_path = Path(journal) if journal is not None else None
        return room

    def resume_room(self, contents: JournalContents, path: str | Path, game_map: GameMap,
                    bank: QuestionBank) -> Room:
        """Bring back a room from its journal (issue 12): the same code, who
        sat where with their seat keys (so students rejoin by running their
        join cell again), every game played and the current one where it
        stood, held until the teacher resumes it; the journal goes on.

        Raises:
            JournalError: the journal is of another map or bank, or does not replay.
            ValueError: this host's port does not fit the room's code, or a
                room with this code is open already.
        """
        setup = contents.header["setup"]
        games = rebuild_games(contents, game_map.board, bank)
        language = setup.get("language")  # absent from a journal written before rooms had languages
        language = language if isinstance(language, str) and language else current_language()
        return self._call(self._resume_room, setup, contents, Path(path), game_map, bank, games, language)

    def _resume_room(self, setup: dict, contents: JournalContents, path: Path, game_map: GameMap,
                     bank: QuestionBank, games: list[Game], language: str) -> Room:
        code = setup["code"]
        if codes.normalise(code)[:2] != (self.host_part or ""):
            raise ValueError(f"room {code} belongs on port {codes.port_of(code)}; this host listens on {self.port}")
        if self.store.get(code) is not None:
            raise ValueError(f"room {code} is open already")
        rules = find_rule_set(setup["rules"])
        record = RoomRecord(code, rules.players, bots={int(s): k for s, k in setup["bots"].items()},
                            seat_names={int(s): n for s, n in setup["seat_names"].items()}, started=True)
        for member in setup["members"]:
            record.members[member["name"].casefold()] = Member(member["name"], member["token"], member["seat"])
        self.store.add(record)
        room = Room(self, record, rules, game_map, bank, int(setup["seed"]), float(setup["pace"]),
                    float(setup["reveal_s"]), float(setup["think_s"]))
        room.specs = {"map": setup["map"], "bank": setup["bank"]}
        room.language = language
        self.rooms[codes.normalise(code)] = room
        seed = games[-1].seed
        table = room._set_table(Table(games[-1], {s: Bot(s, k, seed) for s, k in record.bots.items()},
                                      LoopClock(self.loop), pace=room.pace, reveal_s=room.reveal_s,
                                      think_s=room.think_s, new_game=room._new_game_maker(), earlier=games[:-1]))
        room._keep_journal(path, resumed=contents)
        table.start()
        table.hold()  # the teacher resumes when the students are back
        return room

    def _open_room(self, rules: RuleSet, game_map: GameMap, bank: QuestionBank, seed: int, pace: float,
                   reveal_s: float, think_s: float, language: str) -> Room:
        taken = {codes.normalise(r.code) for r in self.store}
        host = self.host_part or codes.random_host_part()
        record = RoomRecord(codes.new_code(host, taken), rules.players)
        self.store.add(record)
        room = Room(self, record, rules, game_map, bank, seed, pace, reveal_s, think_s)
        room.language = language
        self.rooms[codes.normalise(record.code)] = room
        return room

    def close(self) -> None:
        """Tell every player the room closed, stop every table and the server."""
        if self._closing:
            return
        self._closing = True
        try:
            self._call(self._close, timeout=CALL_TIMEOUT_S)
        except Exception:  # noqa: BLE001 - closing must finish whatever happened
            pass
        self._stop_loop()

    async def _close(self) -> None:
        message = dumps("closed", reason="The teacher closed the room.")
        for members in self._room_ws.values():
            for connections in members.values():
                broadcast(connections, message)
        for room in self.rooms.values():
            if room.table is not None:
                room.table.stop()
        if self._server is not None:
            self._server.close(close_connections=True)
            try:
                await asyncio.wait_for(self._server.wait_closed(), 3.0)
            except asyncio.TimeoutError:
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

    def _log(self, room: str, who: str, code: str, text: str) -> None:
        self.log.append(LogEntry(time.time(), room, who, code, text))
        LOG.info("room %s: %s: %s (%s)", room or "-", who, text, code)

    # ------------------------------------------------------------------ connections

    async def _serve(self, ws: ServerConnection) -> None:
        peer = _peer(ws)
        if self._open >= MAX_CONNECTIONS:
            self._refuse(None, peer, "too_many_connections", f"a connection over the {MAX_CONNECTIONS} open")
            await ws.close(1013, "the room host is full: try again later")
            return
        self._open += 1
        budget = MessageBudget(self.loop.time())
        joined: tuple[Room, Member] | None = None
        warned_at = -1.0
        closing: asyncio.Task | None = None
        deadline = self.loop.call_later(JOIN_WITHIN_S, lambda: ws.transport.abort() if joined is None else None)
        try:
            async for raw in ws:
                if closing is not None:
                    continue  # read what is still queued, so that the closing handshake gets through
                now = self.loop.time()
                if not budget.allow(now):
                    if budget.flooding:
                        self._refuse(joined, peer, "flood", "closed a connection that kept flooding the room")
                        closing = asyncio.ensure_future(ws.close(1008, "too many messages"))
                        continue
                    if now - warned_at >= 1.0:
                        warned_at = now
                        self._refuse(joined, peer, "slow_down", "too many messages: some were not read")
                        await ws.send(dumps("error", code="slow_down", reason="Too many messages at once: "
                                                                              "some were not read."))
                    continue
                try:
                    message = parse_client(raw)
                except ProtocolError as error:
                    self._refuse(joined, peer, error.code, error.reason)
                    await ws.send(dumps("error", code=error.code, reason=error.reason))
                    continue
                if isinstance(message, Join):
                    joined = await self._join(ws, peer, message, joined)
                elif joined is None:
                    self._refuse(None, peer, "not_joined", f"a {type(message).__name__.lower()} before joining")
                    await ws.send(dumps("error", code="not_joined", reason="Join a room first."))
                elif not hmac.compare_digest(message.token.encode(), joined[1].token.encode()):
                    self._refuse(joined, peer, "bad_token", "a message with another seat's or a forged token")
                    await ws.send(dumps("error", code="bad_token", reason="That message did not carry your key."))
                elif isinstance(message, Intent):
                    await self._intent(ws, joined, message)
                elif isinstance(message, Leave):
                    self._detach(ws, joined)
                    joined = None
        except ConnectionClosed as closed:
            if closed.sent is not None and closed.sent.code == 1009:
                self._refuse(joined, peer, "too_big", f"closed a connection that sent a message over "
                                                      f"{MAX_CLIENT_MESSAGE} bytes")
        except Exception as error:  # noqa: BLE001 - one connection's fault must not stop the room
            self._log(joined[0].code if joined else "", peer, "fault", f"{type(error).__name__}: {error}")
        finally:
            self._open -= 1
            deadline.cancel()
            if joined is not None:
                self._detach(ws, joined)

    def _refuse(self, joined: tuple[Room, Member] | None, peer: str, code: str, text: str) -> None:
        self.refused += 1
        self._log(joined[0].code if joined else "", joined[1].name if joined else peer, code, text)

    async def _join(self, ws: ServerConnection, peer: str, message: Join,
                    joined: tuple[Room, Member] | None) -> tuple[Room, Member] | None:
        now = self.loop.time()
        if joined is not None:
            self._refuse(joined, peer, "already_joined", "a second join on one connection")
            await ws.send(dumps("error", code="already_joined", reason="This connection has joined already."))
            return joined
        wait = self._failed.blocked(peer, now)
        if wait > 0 and not self._rejoin_key_fits(message):  # a seat's own key is never locked out
            self._refuse(joined, peer, "too_many_tries", "a join while failed joins are rate-limited")
            await ws.send(dumps("error", code="too_many_tries",
                                reason=f"Too many wrong room codes from this computer: try again in "
                                       f"{max(1, round(wait))} s."))
            return joined
        try:
            key = codes.normalise(message.room)
        except codes.CodeError as error:
            key = None
            reason = str(error)
        room = self.rooms.get(key) if key else None
        if room is None:
            self._failed.failed(peer, now)
            self._refuse(joined, peer, "no_such_room", f"a join to room {message.room[:20]!r}")
            await ws.send(dumps("error", code="no_such_room", reason=(
                f"There is no room {message.room[:20]} here: check the code on the teacher's screen."
                if key else reason[0].upper() + reason[1:] + ".")))
            return joined
        record = room.record
        member = record.member(message.name)
        if message.token is not None:
            if member is None or not hmac.compare_digest(member.token.encode(), message.token.encode()):
                self._failed.failed(peer, now)
                self._refuse(joined, peer, "bad_token", f"a rejoin as {message.name!r} with a wrong key")
                await ws.send(dumps("error", code="bad_token", reason=(
                    f"This computer's key for {message.name} does not fit room {room.code}: join with "
                    "another name, or ask the teacher.")))
                return joined
        elif member is not None:
            await ws.send(dumps("error", code="name_taken", reason=(
                f"Someone called {member.name} is in room {room.code} already. If that is you, join "
                "from the same JupyterLab as before; otherwise choose another name.")))
            return joined
        elif len(record.members) >= MAX_MEMBERS:
            await ws.send(dumps("error", code="room_full", reason=f"Room {room.code} is full."))
            return joined
        elif self._new_members.blocked(peer, now):
            self._refuse(joined, peer, "slow_down", "too many new names from one address")
            await ws.send(dumps("error", code="slow_down", reason="Too many people joined at once: try again "
                                                                  "in a moment."))
            return joined
        else:
            self._new_members.failed(peer, now)  # (counted, not failed: the same sliding window)
            member = record.add_member(message.name)
            self.store.save(record)
            new = True
        if message.token is not None:
            new = False
            key = (codes.normalise(room.code), member.name.casefold())
            if now - self._rejoined_at.get(key, -math.inf) < REJOIN_EVERY_S:
                await ws.send(dumps("error", code="slow_down", reason="Rejoining too often: try again in a moment."))
                return joined
            self._rejoined_at[key] = now
        self._room_ws.setdefault(codes.normalise(room.code), {}).setdefault(member.name.casefold(), set()).add(ws)
        await ws.send(self._welcome(room, member, with_map=message.want_map))
        if new:
            self._send_room(room, views=False)  # everyone's lobby has a new name
        else:
            self._send_room(room, views=False, only={member.name.casefold()})
        self._send_views(room, only={member.name.casefold()})
        return room, member

    def _rejoin_key_fits(self, message: Join) -> bool:
        """The join carries the right key for its name (144 random bits: no
        need to rate-limit those)."""
        try:
            room = self.rooms.get(codes.normalise(message.room))
        except codes.CodeError:
            return False
        member = room.record.member(message.name) if room is not None else None
        return (member is not None and message.token is not None
                and hmac.compare_digest(member.token.encode(), message.token.encode()))

    async def _intent(self, ws: ServerConnection, joined: tuple[Room, Member], message: Intent) -> None:
        room, member = joined
        table = room.table
        if member.seat is None or table is None:
            reason = ("You are watching: the teacher has not given you a seat." if table is not None
                      else "The game has not started yet.")
            code = "not_your_seat" if table is not None else "not_started"
            await ws.send(dumps("ack", ref=message.ref, status="rejected", code=code, reason=reason, ms=None))
            return
        try:
            action = intent_action(member.seat, message.intent)
        except ProtocolError as error:
            self._refuse(joined, member.name, error.code, error.reason)
            await ws.send(dumps("ack", ref=message.ref, status="rejected", code=error.code, reason=error.reason,
                                ms=None))
            return
        ack = table.submit(member.seat, action, message.state_id)
        if not ack.accepted and ack.status != "late":
            self._log(room.code, member.name, ack.code, f"intent refused ({ack.status}): {ack.reason}")
        await ws.send(dumps("ack", ref=message.ref, status=ack.status, code=ack.code, reason=ack.reason, ms=ack.ms))

    def _detach(self, ws: ServerConnection, joined: tuple[Room, Member]) -> None:
        room, member = joined
        members = self._room_ws.get(codes.normalise(room.code), {})
        connections = members.get(member.name.casefold())
        if connections is not None:
            connections.discard(ws)
            if not connections:
                del members[member.name.casefold()]
        self._send_room(room, views=False)

    def _connections_of(self, code: str, name: str) -> set[ServerConnection]:
        return set(self._room_ws.get(codes.normalise(code), {}).get(name.casefold(), ()))

    # ------------------------------------------------------------------ sending

    def _welcome(self, room: Room, member: Member, with_map: bool) -> str:
        body = {"room": room.code, "name": member.name, "token": member.token, "seat": member.seat,
                "rules_title": room.rules.title, "started": room.started, "language": room.language}
        text = dumps("welcome", **body)
        if with_map:
            text = text[:-1] + ',"map":' + room.map_json + "}"
        return text

    def _lobby(self, room: Room, member: Member) -> str:
        record = room.record
        seats = [{"seat": s, "name": record.seat_name(s), "members": [m.name for m in record.seated(s)],
                  "bot": record.bots.get(s)} for s in range(record.seats)]
        waiting = [m.name for m in record.members.values() if m.seat is None]
        return dumps("lobby", room=room.code, seats=seats, waiting=waiting, started=room.started,
                     you={"name": member.name, "seat": member.seat})

    def _changed(self, room: Room) -> None:
        """The room's table changed: send the new views (from any thread)."""
        if self._on_loop():
            self._send_views(room)
        elif not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._send_views, room)

    def _members_of(self, room: Room, only: set[str] | None) -> list[tuple[Member, set[ServerConnection]]]:
        """The room's members with live connections (only those named in ``only``)."""
        found = []
        for name, connections in list(self._room_ws.get(codes.normalise(room.code), {}).items()):
            member = room.record.members.get(name)
            if member is not None and connections and (only is None or name in only):
                found.append((member, connections))
        return found

    def _send_room(self, room: Room, views: bool = True, only: set[str] | None = None,
                   welcome_for: set[str] | frozenset[str] = frozenset()) -> None:
        """Send the lobby (and, after Start, the views) to the room's members."""
        for member, connections in self._members_of(room, only):
            if member.name.casefold() in welcome_for:
                broadcast(connections, self._welcome(room, member, with_map=False))
            broadcast(connections, self._lobby(room, member))
        if views:
            self._send_views(room, only)
        else:
            room._notify()

    def _send_views(self, room: Room, only: set[str] | None = None) -> None:
        """Each member gets their seat's view (a watcher: the projector's)."""
        table = room.table
        if table is not None:
            texts: dict[int | None, str] = {}
            held = "true" if table.held else "false"
            roles = json.dumps({str(s): r for s, r in room.roles().items()}, ensure_ascii=False)
            for member, connections in self._members_of(room, only):
                seat = member.seat if member.seat not in table.bots else None  # a bot plays it: its people watch
                if seat not in texts:
                    seat_json = "null" if seat is None else str(seat)
                    texts[seat] = (f'{{"v":1,"type":"view","seat":{seat_json},"held":{held},"roles":{roles},'
                                   f'"view":{table.view(seat).to_json()}}}')
                broadcast(connections, texts[seat])
        room._notify()


def _peer(ws: ServerConnection) -> str:
    try:
        address = ws.remote_address
        return str(address[0]) if address else "?"
    except Exception:  # noqa: BLE001 - a closed transport has no address
        return "?"

