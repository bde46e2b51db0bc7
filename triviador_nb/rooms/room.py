"""One room: its record (members, seats, bots), what is played, and its table.

A :class:`Room` belongs to a :class:`~.rooms.Rooms` and lives on its
thread. Its commands (seat, bot, start, hand to a bot, play again) come in
two forms: ``_assign`` and the like run on that thread (the teacher's
``op`` messages reach them there), and ``assign`` and the like hand the work
to that thread first (a teacher's own kernel, when the host runs in it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from ..bots import Bot
from ..classroom import Journal, Table, new_secret
from ..classroom.journal import JournalContents
from ..engine import Game, QuestionBank, RuleSet
from ..maps import GameMap
from . import codes, protocol
from .protocol import ProtocolError, map_to_plain
from .store import Member, RoomRecord

SKILLS = ("easy", "medium", "hard")
KEY_OWNER = "key"  # the owner of rooms opened with the host's teacher key, or by its own process
ANY_TEACHER = "*"  # rooms every teacher of a hub may control (opened by the service itself)


class RoomError(ValueError):
    """A teacher's command that cannot be done; ``code`` says why
    (``no_such_member``, ``bad_seat``, ``bad_skill``, ``started``,
    ``not_started``, ``nobody_seated``, ``bot_seat``, ``no_such_room``)."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code


class Room:
    """One room: its record (members, seats, bots), what is played, its table.

    Args:
        rooms: the :class:`~.rooms.Rooms` it belongs to (its thread, store and connections).

    Attributes:
        code: the room code (``"K7-PQ45"``).
        rules, game_map, bank: what is played.
        seed: the game number the teacher gave (reproducible chance, for
            tests and set pieces), or None: every game's chance comes from a
            fresh secret the host never sends (issue 28).
        language: the language code of the room (the teacher's when it was
            opened): the ``welcome`` message carries it to the students'
            screens.
        owner: who controls it (:data:`KEY_OWNER`, a hub teacher's owner id,
            or :data:`ANY_TEACHER`).
        table: the game table once Start was pressed, else None.
    """

    def __init__(self, rooms: Any, record: RoomRecord, rules: RuleSet, game_map: GameMap,
                 bank: QuestionBank, seed: int | None, pace: float, reveal_s: float, think_s: float):
        self.rooms, self.record = rooms, record
        self.code = record.code
        self.rules, self.game_map, self.bank = rules, game_map, bank
        self.seed, self.pace, self.reveal_s, self.think_s = seed, pace, reveal_s, think_s
        self.language = "en"
        self.owner = KEY_OWNER
        self.table: Table | None = None
        self.journal_path: Path | None = None  # where the game is journalled once it starts (None: nowhere)
        self.journal: Journal | None = None
        self.specs: dict[str, Any] = {}  # how the journal names the map and bank (names or paths)
        #: seat -> skill of each bot the game names after itself ("Bot 3 (medium)"), fixed at Start
        self.bot_names: dict[int, str] = {}
        #: taken over from a host process that died: held until its players are back (:meth:`~.rooms.Rooms.take_over`)
        self.returning = False
        self.map_json = json.dumps(map_to_plain(game_map), ensure_ascii=False, separators=(",", ":"))
        self._listeners: list[Callable[[], None]] = []

    # ------------------------------------------------------------------ reading

    @property
    def started(self) -> bool:
        return self.record.started

    def members(self) -> list[Member]:
        """Everyone who has joined, in the order they joined (copies, without keys)."""
        return [Member(m.name, "", m.seat) for m in list(self.record.members.values())]

    def connected(self, name: str) -> bool:
        """Whether ``name`` has a live connection now."""
        return bool(self.rooms._connections_of(self.code, name))

    def seat_name(self, seat: int) -> str:
        return self.record.seat_name(seat)

    def roles(self) -> dict[int, dict]:
        """Seat -> who plays it, as data (:func:`~.protocol.role`)."""
        roles = {}
        for seat in range(self.record.seats):
            people = [m.name for m in self.record.seated(seat)]
            if seat in self.record.bots:
                roles[seat] = protocol.role("bot", skill=self.record.bots[seat])
            elif len(people) > 1 or (people and seat in self.record.seat_names):
                roles[seat] = protocol.role("team", members=people)
            elif people:
                roles[seat] = protocol.role("student")
            else:
                roles[seat] = protocol.role("empty")  # its people were moved: the timer plays it (D3)
        return roles

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` (on the rooms' thread) after every change."""
        self._listeners.append(listener)

    def view(self, seat: int | None = None):
        """The table's view for ``seat`` (None: the projector), or None before Start."""
        table = self.table
        return table.view(seat) if table is not None else None

    # ------------------------------------------------------------------ the teacher's commands (any thread)

    def assign(self, name: str, seat: int | None) -> None:
        """Seat ``name`` (``None``: back to the lobby, watching). Several
        people in one seat play it as a team.

        Raises:
            RoomError: nobody of that name is here; not a seat of this rule set.
        """
        self.rooms.call(self._assign, name, seat)

    def remove(self, name: str) -> None:
        """Take ``name`` out of the room: their screen says so and their key
        stops working; a seat they played goes on without them. The teacher
        can let them back in (:meth:`let_back`)."""
        self.rooms.call(self._remove, name)

    def let_back(self, name: str) -> None:
        """Undo :meth:`remove`: ``name`` is a member again, in the seat they
        had, and their key works again (they run their join cell again).

        Raises:
            RoomError: nobody of that name was removed (``no_such_member``), or
                someone else took the name since (``name_taken``).
        """
        self.rooms.call(self._let_back, name)

    def set_bot(self, seat: int, skill: str | None) -> None:
        """Before Start: a bot of ``skill`` plays ``seat`` (None: left to people)."""
        self.rooms.call(self._set_bot, seat, skill)

    def name_seat(self, seat: int, name: str | None) -> None:
        """Give ``seat`` a team name (before Start); None goes back to the members' names."""
        self.rooms.call(self._name_seat, seat, name)

    def start(self) -> Table:
        """Start the game: seats nobody joined get medium bots. Returns the table.

        Raises:
            RoomError: nobody is seated (a room of bots only: use play()).
        """
        return self.rooms.call(self._start)

    def run(self, work: Callable[[], Any]) -> Any:
        """Run ``work()`` on the rooms' thread, where the table lives."""
        return self.rooms.call(work)

    def hand_to_bot(self, seat: int, skill: str = "medium") -> None:
        """During the game: a bot of ``skill`` plays ``seat``; its people watch."""
        self.rooms.call(self._hand, seat, skill)

    def hand_back(self, seat: int) -> None:
        """During the game: the seat's people play it again."""
        self.rooms.call(self._hand, seat, None)

    def restart(self) -> None:
        """The next game in this room, same code, seats and settings ("Play again")."""
        self.rooms.call(self._play_again)

    # ------------------------------------------------------------------ the same, on the rooms' thread

    def _assign(self, name: str, seat: int | None) -> None:
        member = self._member(name)
        if seat is not None:
            self._check_seat(seat)
        if self.started and seat is not None and seat != member.seat and seat in self.record.bots:
            raise RoomError("bot_seat", f"a bot plays seat {seat + 1}: hand it back to people first (hand_back)")
        member.seat = seat
        if not self.started and seat is not None:
            self.record.bots.pop(seat, None)
        self.rooms.store.save(self.record)
        self.rooms._send_room(self, welcome_for={member.name.casefold()})

    def _remove(self, name: str) -> None:
        member = self._member(name)
        del self.record.members[member.name.casefold()]
        self.record.removed[member.name.casefold()] = member
        self.rooms.store.save(self.record)
        for conn in self.rooms._room_conns.get(codes.normalise(self.code), {}).pop(member.name.casefold(), set()):
            conn.peer.send(protocol.closed("removed", "The teacher took you out of the room.", conn.version))
            conn.joined = None
        self.rooms._send_room(self)

    def _let_back(self, name: str) -> None:
        member = self.record.removed.get(name.casefold())
        if member is None:
            raise RoomError("no_such_member", f"nobody called {name!r} was taken out of room {self.code}")
        if self.record.member(name) is not None:
            raise RoomError("name_taken", f"someone else joined room {self.code} as {member.name} since")
        del self.record.removed[name.casefold()]
        self.record.members[name.casefold()] = member
        self.rooms.store.save(self.record)
        self.rooms._send_room(self)

    def removed_refusal(self, name: str) -> str | None:
        """Why ``name`` cannot join again (they were taken out of the room
        and not let back in), or None."""
        if self.record.member(name) is None and name.casefold() in self.record.removed:
            return "The teacher took you out of the room; the teacher can let you back in."
        return None

    def _set_bot(self, seat: int, skill: str | None) -> None:
        self._check_seat(seat)
        if self.started:
            raise RoomError("started", "the game has started: use hand_to_bot(seat) to let a bot play a seat")
        if skill is None:
            self.record.bots.pop(seat, None)
        else:
            self._check_skill(skill)
            self.record.bots[seat] = skill
            for member in self.record.seated(seat):
                member.seat = None
        self.rooms.store.save(self.record)
        self.rooms._send_room(self, welcome_for=set(self.record.members))

    def _name_seat(self, seat: int, name: str | None) -> None:
        self._check_seat(seat)
        if name is None:
            self.record.seat_names.pop(seat, None)
        else:
            try:
                self.record.seat_names[seat] = protocol.clean_name(name)
            except ProtocolError as error:
                raise RoomError("bad_name", error.reason) from None
        self.rooms.store.save(self.record)
        self.rooms._send_room(self)

    def _start(self) -> Table:
        if self.table is not None:
            return self.table
        record = self.record
        if not any(record.seated(s) for s in range(record.seats)):
            raise RoomError("nobody_seated", f"nobody is seated in room {self.code} yet: wait for the students "
                                             "to join")
        for seat in range(record.seats):
            if not record.seated(seat):
                record.bots.setdefault(seat, "medium")
        record.started = True
        new_game = self._new_game_maker()
        game, bots = new_game(self.seed)
        table = self._set_table(Table(game, bots, self.rooms.clock, pace=self.pace, reveal_s=self.reveal_s,
                                      think_s=self.think_s, new_game=new_game))
        if self.journal_path is not None:
            self._keep_journal(self.journal_path)
        self.rooms.shared.follow(self)
        table.start()  # notifies: every member gets the first view
        self.rooms._send_room(self, welcome_for=set(record.members))
        return table

    def _new_game_maker(self) -> Callable[[int, frozenset[str]], tuple[Game, dict[int, Bot]]]:
        record = self.record
        names = [record.seat_name(s) for s in range(record.seats)]
        self.bot_names = {s: skill for s in range(record.seats) if (skill := record.named_bot(s)) is not None}

        def new_game(seed: int | None, asked_before: frozenset[str] = frozenset()) -> tuple[Game, dict[int, Bot]]:
            game = Game(self.rules, self.game_map.board, self.bank, seed, names=names, asked_before=asked_before,
                        secret=new_secret() if seed is None else None)
            return game, {s: Bot(s, skill, seed) for s, skill in dict(record.bots).items()}  # hand-offs too
        return new_game

    def _set_table(self, table: Table) -> Table:
        table.on_change(lambda _events: self.rooms._changed(self))
        self.table = table
        self.rooms.store.save(self.record)
        return table

    def _hand(self, seat: int, skill: str | None) -> None:
        self._check_seat(seat)
        if self.table is None:
            raise RoomError("not_started", "the game has not started: use set_bot(seat, skill) before Start")
        if skill is None:
            self.record.bots.pop(seat, None)
            self.table.set_bot(seat, None)
        else:
            self._check_skill(skill)
            self.record.bots[seat] = skill
            number = self.table.game.seed  # None in a game with a secret: its bots draw from the secret
            self.table.set_bot(seat, Bot(seat, skill, None if number is None else number + 100 + seat))
        self.rooms.store.save(self.record)
        self.rooms._send_room(self)

    def _play_again(self) -> None:
        if self.table is None:
            raise RoomError("not_started", "the game has not started yet: press Start")
        self.table.restart()
        self.rooms._send_room(self)

    def _member(self, name: str) -> Member:
        member = self.record.member(name)
        if member is None:
            raise RoomError("no_such_member", f"nobody called {name!r} is in room {self.code}")
        return member

    def _check_seat(self, seat: int) -> None:
        if not (type(seat) is int and 0 <= seat < self.record.seats):
            raise RoomError("bad_seat", f"{self.rules.title} has seats 1-{self.record.seats}, not {seat!r}")

    @staticmethod
    def _check_skill(skill: str) -> None:
        if skill not in SKILLS:
            raise RoomError("bad_skill", f"a bot's skill is one of {', '.join(SKILLS)}, not {skill!r}")

    # ------------------------------------------------------------------ journal

    def journal_setup(self) -> dict:
        """What a journal needs to bring this room back: its code, who controls it, rule set,
        map and bank (names or paths), table settings, and who sits where
        with their seat keys (the journal is the teacher's file)."""
        record = self.record
        return {"screen": "room", "code": self.code, "owner": self.owner, "language": self.language,
                "rules": self.rules.name,
                "map": self.specs.get("map"),
                "bank": self.specs.get("bank"), "seed": self.seed, "pace": self.pace, "reveal_s": self.reveal_s,
                "think_s": self.think_s, "address": self.rooms.address, "port": self.rooms.port,
                "members": [{"name": m.name, "token": m.token, "seat": m.seat} for m in record.members.values()
                            if m.seat is not None],
                "bots": {str(s): skill for s, skill in record.bots.items()},
                "seat_names": {str(s): name for s, name in record.seat_names.items()}}

    def _keep_journal(self, path: Path, resumed: JournalContents | None = None) -> None:
        try:
            self.journal = Journal(path, self.table, self.journal_setup(), resumed=resumed,
                                   on_lost=lambda: self.table.clock.call_later(0, self.table.hold))
        except OSError as error:  # a room without a journal still plays
            self.rooms._log(self.code, "host", "journal", f"the game cannot be saved to {path}: {error}")

    def _notify(self) -> None:
        for listener in list(self._listeners):
            try:
                listener()
            except Exception as error:  # noqa: BLE001 - a listener must not stop the room
                self.rooms._log(self.code, "host", "screen_fault", f"{type(error).__name__}: {error}")
        self.rooms._tell_teachers(self)
