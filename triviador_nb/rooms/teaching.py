"""The teacher's side of the rooms' logic: who is a teacher, and their commands.

A connection becomes a teacher (protocol version 2) with the host's teacher
key, or by a JupyterHub identity that says so (a hub admin, or in the
teachers' group). A teacher controls only the rooms it opened (rooms opened
by the host's own process belong to the key; :data:`~.room.ANY_TEACHER`
rooms to every teacher) and is sent each room's state (``room``) and its
projector view (``view`` with ``room``): never an answer before the reveal.
:class:`Teaching` is part of :class:`~.rooms.Rooms`.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import re
import secrets
import tempfile
from pathlib import Path
from typing import Any

from ..banks import resolve_bank
from ..classroom.journal import named_as, new_journal_path
from ..engine import find_rule_set
from ..engine.actions import Draw
from ..maps import resolve_map
from . import codes, protocol
from .protocol import Op, Teacher
from .room import ANY_TEACHER, KEY_OWNER, Room, RoomError

LOG_PER_ROOM = 8  # refusals a teacher's ``room`` message carries


class Teaching:
    """The teachers' part of :class:`~.rooms.Rooms` (its attributes: ``rooms``,
    ``log``, ``clock``, ``teacher_key``, ``_teachers``, ``_failed``, ``_files``...)."""

    def _become_teacher(self, conn: Any, message: Teacher) -> None:
        now, peer = self.clock.now(), conn.peer
        identity = getattr(peer, "identity", None)
        if conn.joined is not None or conn.teacher is not None:
            self._refuse(conn, "already_joined", "a teacher message on a connection that has joined")
            peer.send(protocol.error("already_joined", "This connection has joined already.", conn.version))
            return
        wait = self._failed.blocked(peer.address, now)
        if message.key is not None:
            ok = (wait <= 0 and self.teacher_key is not None
                  and hmac.compare_digest(message.key.encode(), self.teacher_key.encode()))
            owner = KEY_OWNER
        else:
            ok = identity is not None and bool(getattr(identity, "teacher", False))
            owner = f"hub:{identity.user}" if identity is not None else ""
        if not ok:
            if message.key is not None and wait <= 0:
                self._failed.failed(peer.address, now)
            self._refuse(conn, "not_a_teacher", "a teacher's message without the teacher's key or role")
            peer.send(protocol.error("not_a_teacher", "Only the teacher can do that: this connection has neither "
                                                      "the host's teacher key nor a teacher's JupyterHub role.",
                                     protocol.VERSION))
            return
        conn.version, conn.teacher = protocol.VERSION, owner
        self._settled(conn)
        self._teachers.add(conn)
        peer.send(protocol.teacher_rooms(self._codes_of(owner), who=identity.user if identity is not None
                                         else "teacher"))
        for room in self._rooms_of(owner):
            self._tell_teacher(conn, room)

    def _rooms_of(self, owner: str) -> list[Room]:
        return [r for r in self.rooms.values() if r.owner in (owner, ANY_TEACHER)]

    def _codes_of(self, owner: str) -> list[str]:
        return [r.code for r in self._rooms_of(owner)]

    def _op(self, conn: Any, message: Op) -> None:
        if conn.teacher is None:
            self._refuse(conn, "not_a_teacher", f"a teacher's {message.op} from a connection that is not one")
            conn.peer.send(protocol.done(message.ref, "rejected", "not_a_teacher", "Only the teacher can do that."))
            return
        if message.op == "open_room":
            try:
                room = self._open_from_wire(conn.teacher, message.args)
            except (ValueError, KeyError, OSError) as error:  # the teacher's files are named as they sent them
                reason = re.sub(re.escape(self._files.name) + r"/[0-9a-f]+/", "", str(error).strip("'\""))
                conn.peer.send(protocol.done(message.ref, "rejected", getattr(error, "code", "bad_setup"), reason))
                return
            conn.peer.send(protocol.done(message.ref, result={"room": room.code}))
            self._tell_teacher(conn, room)
            return
        room = self._room(message.room)
        if room is None or room.owner not in (conn.teacher, ANY_TEACHER):
            self._refuse(conn, "no_such_room", f"a teacher's {message.op} on room {message.room[:20]!r}, "
                                               "not one of theirs")
            conn.peer.send(protocol.done(message.ref, "rejected", "no_such_room",
                                         f"There is no room {message.room[:20]} of yours here."))
            return
        try:
            result = self._do(room, message.op, message.args)
        except (ValueError, KeyError) as error:
            conn.peer.send(protocol.done(message.ref, "rejected", getattr(error, "code", "refused"),
                                         str(error).strip("'\"")))
            return
        conn.peer.send(protocol.done(message.ref, result=result))
        if codes.normalise(room.code) in self.rooms:
            room._notify()

    def _do(self, room: Room, op: str, args: dict) -> Any:
        """A teacher's ``op`` on ``room``; the result travels in ``done``."""
        if op == "assign":
            return room._assign(args["name"], args.get("seat"))
        if op == "remove":
            return room._remove(args["name"])
        if op == "let_back":
            return room._let_back(args["name"])
        if op == "set_bot":
            return room._set_bot(args["seat"], args.get("skill"))
        if op == "name_seat":
            return room._name_seat(args["seat"], args.get("name"))
        if op == "start":
            room._start()
            return None
        if op == "hand_to_bot":
            return room._hand(args["seat"], args.get("skill") or "medium")
        if op == "hand_back":
            return room._hand(args["seat"], None)
        if op == "play_again":
            return room._play_again()
        if op == "close_room":
            return self.close_room(room)
        table = room.table
        if table is None:
            raise RoomError("not_started", "the game has not started yet: press Start")
        if op in ("hold", "release"):
            room.returning = False  # the teacher's hold from now on, not the wait for a room taken over
            return table.hold() if op == "hold" else table.release()
        if op == "report":
            return self._report(room)
        done = {"skip": table.skip, "undo": table.undo, "end": table.end_now}.get(op)
        result = done() if done is not None else table.enter_answer(args["seat"], args.get("given"),
                                                                      timed=args.get("timed", True))
        return {"status": result.status, "code": result.code, "reason": result.reason, "ms": result.ms}

    def _report(self, room: Room) -> dict:
        """The report of every game played in ``room`` (played questions only),
        as files (name -> base64) for the teacher's kernel to write."""
        from ..reports import Report  # (pandas and openpyxl: only when a report is asked for)

        with tempfile.TemporaryDirectory() as folder:
            written = Report(list(room.table.games)).export(Path(folder) / "report", language=room.language)
            return {"files": {p.name: base64.b64encode(p.read_bytes()).decode("ascii") for p in written}}

    def _open_from_wire(self, owner: str, args: dict) -> Room:
        """``open_room`` from a teacher: built-in names, or the teacher's files."""
        rules = find_rule_set(args["rules"])
        game_map = resolve_map(self._file(args["map_file"]) if "map_file" in args else args["map"],
                               players=rules.players)
        bank = resolve_bank(self._file(args["bank_file"]) if "bank_file" in args else args["bank"])
        room = self.open_room(rules, game_map, bank, args.get("seed"),  # no seed: chance from a secret
                              pace=float(args.get("pace", 1.0)), language=args.get("language") or "en", owner=owner)
        room.specs = {"map": named_as(args.get("map")), "bank": named_as(args.get("bank"))}
        if args.get("journal", self.journals):
            room.journal_path = new_journal_path(f"room-{room.code}")
        return room

    def _file(self, data: dict) -> Path:
        """A teacher's file, written where this host can read it."""
        name = Path(data["name"]).name or "file"
        try:
            content = base64.b64decode(data["data"], validate=True)
        except (binascii.Error, ValueError):
            raise RoomError("bad_file", f"{name} did not arrive whole (not base64)") from None
        folder = Path(self._files.name) / secrets.token_hex(8)
        folder.mkdir()
        path = folder / name
        path.write_bytes(content)
        return path

    def room_state(self, room: Room) -> dict:
        """A teacher's picture of ``room`` (the ``room`` message)."""
        record, table = room.record, room.table
        people = [{"name": m.name, "seat": m.seat, "connected": room.connected(m.name)}
                  for m in list(record.members.values())]
        seats = [{"seat": s, "name": record.seat_name(s), "members": [p["name"] for p in people if p["seat"] == s],
                  "bot": record.bots.get(s)} for s in range(record.seats)]
        game = table.game if table is not None else None
        entries = self.log.latest_by_person(room.code, LOG_PER_ROOM)
        return {"room": room.code, "rules_title": room.rules.title, "seats_count": record.seats,
                "removed": [m.name for m in list(record.removed.values())],
                "language": room.language, "started": room.started, "people": people, "seats": seats,
                "roles": {str(s): r for s, r in room.roles().items()},
                "held": bool(table and table.held), "over": bool(game and game.is_over),
                "can_undo": bool(game and any(not isinstance(e, Draw) for e in game.record)),
                "humans": [s for s in range(record.seats) if s not in record.bots and record.seated(s)],
                "journal": str(room.journal.path.resolve()) if room.journal is not None else None,
                "address": self.address, "port": self.port,
                "own_port": self.host_part is None or codes.host_part(self.port) != self.host_part,
                "hub": self.behind_hub,
                "refused": self.log.counted(room.code),
                "log": [{"at": e.at, "who": e.who, "code": e.code, "text": e.text, "times": n}
                        for e, n in entries]}

    def _tell_teacher(self, conn: Any, room: Room) -> None:
        with_map = room.code not in conn.maps_sent
        conn.maps_sent.add(room.code)
        conn.peer.send(protocol.room_state(self.room_state(room), room.map_json if with_map else None))
        if room.table is not None:
            conn.peer.send(protocol.view_message(None, room.table.held, room.roles(),
                                                 room.table.view(None).to_json(), room=room.code,
                                                 bot_names=room.bot_names))

    def _tell_teachers(self, room: Room) -> None:
        for conn in list(self._teachers):
            if room.owner in (conn.teacher, ANY_TEACHER):
                self._tell_teacher(conn, room)

    def _tell_teachers_rooms(self) -> None:
        for conn in list(self._teachers):
            identity = getattr(conn.peer, "identity", None)
            conn.peer.send(protocol.teacher_rooms(self._codes_of(conn.teacher),
                                                  who=identity.user if identity is not None else "teacher"))
