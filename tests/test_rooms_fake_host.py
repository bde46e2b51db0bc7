"""A fake host catches nobody (issue 28 part 5).

A student who binds the host's port when the teacher's kernel dies (or a
port a code names that the host does not hold) must get no seat key and no
teacher key: from protocol version 3 a client proves its key by challenge
and response, and first makes the host prove it holds the key too; a client
that meets a host that cannot keeps its key, stores nothing from it, says
so (``fake_host``) and goes on trying, so when the teacher resumes the room
from its journal the student is back in their own seat without typing.

The logic is tested on a manual clock; the fake host and the kernel that
dies run on loopback sockets, few, bounded and tolerant of a busy machine.
"""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from room_helpers import wait_until
from test_rooms_logic import Wire, fast_open, key_of
from websockets.asyncio.server import serve

from triviador_nb.banks import resolve_bank
from triviador_nb.classroom.journal import read_journal
from triviador_nb.maps import resolve_map
from triviador_nb.rooms import codes, handshake
from triviador_nb.rooms.client import RoomClient, token_file
from triviador_nb.rooms.host import RoomHost
from triviador_nb.rooms.teacher_client import TeacherClient

WAIT_S = 30.0  # real-socket waits: generous, for a machine shared by several test runs


# ---------------------------------------------------------------------- the logic, on a manual clock

def test_a_version_3_rejoin_proves_the_key_and_the_host_never_sends_it_again():
    wire = Wire()
    teacher = wire.teacher()
    code = fast_open(wire, teacher)
    anna = wire.student(code, "Anna")
    key = key_of(anna[0])
    anna[1].peer.close(1000, "")
    wire.rooms.disconnect(anna[1])
    wire.clock.advance(2.0)
    back, conn = wire.connect(address="127.0.0.2")
    mine = handshake.nonce()
    wire.send(conn, type="join", room=code, name="anna", map=False, nonce=mine, rejoin=True)
    challenge = back.last("challenge")
    context = handshake.seat_context(code, "anna", mine, challenge["nonce"])
    # the host proves it holds Anna's key before she proves anything, over her own fresh nonce
    assert challenge["proof"] == handshake.proof(key, "host", context)
    assert challenge["proof"] != handshake.proof(key, "client", context)  # one side's proof is never the other's
    wire.send(conn, type="proof", proof=handshake.proof(key, "client", context))
    welcome = back.last("welcome")
    assert welcome["seat"] == 0 and welcome["name"] == "Anna" and "token" not in welcome
    # intents need no key on a proved connection; nothing the host sends her carries it
    wire.send(conn, type="intent", ref=1, state_id="0:0", intent={"kind": "rebuild"})
    assert back.last("ack")["code"] == "not_started"
    assert all(key not in json.dumps(m) for m in back.sent)


def test_a_wrong_proof_is_a_wrong_key_counted_against_the_address():
    wire = Wire()
    code = fast_open(wire, wire.teacher())
    key = key_of(wire.student(code, "Anna")[0])
    for attempt in range(10):
        eve, conn = wire.connect(address="127.0.0.66")
        wire.send(conn, type="join", room=code, name="Anna", map=False, nonce=handshake.nonce(), rejoin=True)
        assert eve.last("challenge")["proof"]  # (a proof over Eve's nonce: of no use for Anna's next one)
        wire.send(conn, type="proof", proof=handshake.proof(key[::-1], "client", b"anything"))
        assert eve.last("error")["code"] == "bad_token" and "welcome" not in [m["type"] for m in eve.sent]
    eve, conn = wire.connect(address="127.0.0.66")
    wire.send(conn, type="join", room=code, name="Ben", map=False, nonce=handshake.nonce())
    assert eve.last("error")["code"] == "too_many_tries"  # the ten wrong proofs locked the address for a minute
    # the right key still gets through at once, from the same address
    wire.clock.advance(1.5)
    assert wire.student(code, "Anna", token=key, address="127.0.0.66")[0].last("welcome")["seat"] == 0


def test_a_version_3_join_that_sends_the_key_is_refused_and_version_2_still_quotes_it():
    wire = Wire()
    code = fast_open(wire, wire.teacher())
    key = key_of(wire.student(code, "Anna")[0])
    peer, conn = wire.connect()
    wire.send(conn, type="join", room=code, name="Anna", token=key, nonce=handshake.nonce(), rejoin=True)
    assert peer.last("error")["code"] == "bad_field" and "welcome" not in [m["type"] for m in peer.sent]
    wire.clock.advance(2.0)
    old = wire.student(code, "Anna", token=key, v=2)  # documented: a version-2 client still sends its key
    assert old[0].last("welcome") == {**old[0].last("welcome"), "v": 2, "token": key, "seat": 0}


def test_a_teacher_key_is_proved_not_sent():
    wire = Wire()
    peer, conn = wire.connect()
    mine = handshake.nonce()
    wire.send(conn, type="teacher", nonce=mine)
    challenge = peer.last("challenge")
    context = handshake.teacher_context(mine, challenge["nonce"])
    assert challenge["proof"] == handshake.proof("the-teachers-key", "host", context)
    wire.send(conn, type="proof", proof=handshake.proof("the-teachers-key", "client", context))
    assert peer.last("rooms")["who"] == "teacher"
    wrong, conn = wire.connect(address="127.0.0.9")
    wire.send(conn, type="teacher", nonce=handshake.nonce())
    wire.send(conn, type="proof", proof=handshake.proof("a-guess", "client", context))
    assert wrong.last("error")["code"] == "not_a_teacher" and not wrong.all("rooms")


# ---------------------------------------------------------------------- on loopback: a fake host

class FakeHost:
    """A student's program on a port: it keeps every message it is sent and
    answers as a host would like to be believed (a challenge it cannot back,
    a welcome with a key of its own, a teacher's room list)."""

    def __init__(self, port: int, answers: list[dict] | None = None):
        self.port = port
        self.answers = answers  # None: a challenge it cannot back, a welcome, a teacher's room list
        self.received: list[str] = []
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._ready.wait(WAIT_S)
        if self._error is not None:
            raise self._error

    async def _answer(self, ws) -> None:
        async for raw in ws:
            self.received.append(raw)
            if self.answers is not None:
                for answer in self.answers:
                    await ws.send(json.dumps(answer))
                continue
            await ws.send(json.dumps({"v": 3, "type": "challenge", "nonce": handshake.nonce(),
                                      "proof": handshake.proof("a guess", "host", b"")}))
            await ws.send(json.dumps({"v": 3, "type": "welcome", "room": "XX-XXXX", "name": "Anna",
                                      "token": "FAKE-KEY", "seat": 3, "rules_title": "", "started": False,
                                      "language": "en"}))
            await ws.send(json.dumps({"v": 3, "type": "rooms", "rooms": ["XX-XXXX"], "who": "teacher"}))

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)

        async def start():
            return await serve(self._answer, "127.0.0.1", self.port)
        try:
            self.server = self.loop.run_until_complete(start())
        except BaseException as error:  # noqa: BLE001 - handed to the test
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        self.loop.run_forever()
        self.server.close()
        self.loop.run_until_complete(self.server.wait_closed())
        self.loop.close()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)


def die(room_host: RoomHost) -> None:
    """The teacher's kernel dies: every socket drops at once, nobody is told."""
    async def crash() -> None:
        for server in (room_host._server, room_host._code_server):
            if server is not None:
                server.close(close_connections=False)
                for ws in list(server.connections):
                    ws.transport.abort()
    room_host._call(crash)
    room_host._closing = True
    room_host._stop_loop()


def test_a_fake_host_on_the_freed_port_gets_no_key_and_the_student_is_back_after_the_resume(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path))
    journal = tmp_path / "room.jsonl"
    room_host = RoomHost("127.0.0.1")
    anna = teacher = fake = back = None
    try:
        room = room_host.open_room("conquiztador", "hungary", "general_knowledge_en", seed=7, journal=journal)
        anna = RoomClient(room.code, "Anna", join_timeout_s=WAIT_S)
        room.start()
        assert wait_until(lambda: anna.view is not None, WAIT_S)
        teacher = TeacherClient(room_host.url(), key=room_host.teacher_key, timeout_s=WAIT_S)
        seat_key, teacher_key, port = anna.token, room_host.teacher_key, room_host.port
        assert seat_key and json.loads(token_file().read_text())
        die(room_host)
        fake = FakeHost(port)  # at once, on the port the code names
        assert wait_until(lambda: anna.notice == "fake_host" and teacher.notice == "fake_host", WAIT_S)
        assert wait_until(lambda: len(fake.received) >= 4, WAIT_S)  # each came back at least twice
        heard = "\n".join(fake.received)
        assert seat_key not in heard and teacher_key not in heard  # neither key ever reached it
        assert [json.loads(m)["type"] for m in fake.received] == ["join" if "room" in m else "teacher"
                                                                  for m in fake.received]
        assert all("token" not in json.loads(m) and "key" not in json.loads(m) for m in fake.received)
        # nothing of the fake host's was kept: the old key, in the client and on disk
        assert anna.token == seat_key and anna.seat == 0 and "FAKE-KEY" not in token_file().read_text()
        assert seat_key in token_file().read_text()
        assert anna.status == "reconnecting" and teacher.status == "reconnecting"
        teacher.close()
        fake.stop()
        fake = None
        # the teacher resumes the room from its journal: Anna is back in her own seat by herself
        contents = read_journal(journal)
        setup = contents.header["setup"]
        back = RoomHost("127.0.0.1", setup["port"], code_port=codes.port_of(setup["code"]))
        back.resume_room(contents, journal, resolve_map("hungary", players=3), resolve_bank("general_knowledge_en"))
        assert wait_until(lambda: anna.status == "joined" and anna.rejoins >= 1, WAIT_S), (
            anna.status, anna.notice, anna.message, list(back.log)[-5:])
        assert anna.seat == 0 and anna.notice == "" and anna.token == seat_key
        resumed = back.rooms[codes.normalise(room.code)]
        assert resumed.connected("Anna") and not [e for e in back.log if e.code == "bad_token"]
    finally:
        for thing in (anna, teacher):
            if thing is not None:
                thing.close()
        if fake is not None:
            fake.stop()
        for host in (room_host, back):
            if host is not None and not host.closed:
                host.close()


def _anna_joined_and_the_host_gone():
    """Anna joined a room (her key saved on disk), then the host closed: its room, port and her key."""
    room_host = RoomHost("127.0.0.1")
    port = room_host.port
    try:
        room = room_host.open_room("conquiztador", "hungary", "general_knowledge_en", seed=7)
        first = RoomClient(room.code, "Anna", join_timeout_s=WAIT_S)
        key = first.token
        first.close()
    finally:
        room_host.close()
    return room, port, key


def test_a_join_cell_run_again_meets_a_fake_host_and_says_so_without_sending_the_key(tmp_path, monkeypatch):
    """The teacher's host is gone and a squatter holds its port: a student
    whose kernel restarted (the key on disk) runs the join cell again; the
    join is refused with ``fake_host``, the key is neither sent nor replaced."""
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path))
    room, port, key = _anna_joined_and_the_host_gone()
    fake = FakeHost(port)
    try:
        with pytest.raises(Exception) as refused:
            RoomClient(room.code, "Anna", join_timeout_s=WAIT_S)  # the join cell, run again
        assert getattr(refused.value, "code", None) == "fake_host"
        assert key not in "\n".join(fake.received) and key in token_file().read_text()
        assert "FAKE-KEY" not in token_file().read_text()
    finally:
        fake.stop()


@pytest.mark.parametrize("taken", [False, True])
def test_a_squatter_saying_name_released_is_a_fake_host_and_the_key_stays(tmp_path, monkeypatch, taken):
    """The third attack: a program on the dead host's port answered a rejoin with
    ``name_released`` at once; the client dropped the real key from rooms.json, joined the
    squatter afresh, and was locked out of its seat when the real host resumed. The real host
    says it only after both sides proved the key: before that it is a fake host's word."""
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path))
    room, port, key = _anna_joined_and_the_host_gone()
    fake = FakeHost(port, answers=[{"v": 3, "type": "error", "code": "name_released", "room": room.code,
                                    "name": "Anna", "taken": taken, "reason": "Your name was freed."},
                                   {"v": 3, "type": "welcome", "room": room.code, "name": "Anna",
                                    "token": "FAKE-KEY", "seat": 3, "rules_title": "", "started": False,
                                    "language": "en"}])
    try:
        with pytest.raises(Exception) as refused:
            RoomClient(room.code, "Anna", join_timeout_s=WAIT_S)  # the join cell, run again
        assert getattr(refused.value, "code", None) == "fake_host"
        assert len(fake.received) == 1 and key not in fake.received[0]  # it never joined the squatter afresh
        assert json.loads(token_file().read_text()) == {f"ws://127.0.0.1:{port}|{codes.normalise(room.code)}|anna": key}
    finally:
        fake.stop()


# ---------------------------------------------------------------------- a code leads only to its host

def _port_outside_the_code_range() -> int:
    """A free loopback port that no room code names (the system's pick may land in 41000-41960)."""
    import socket

    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if not 41000 <= port <= 41960:
            return port
    raise AssertionError("the system gave 50 ports inside the code range")


def test_a_host_on_a_port_of_its_own_also_holds_the_port_its_codes_name(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path))
    room_host = RoomHost("127.0.0.1", _port_outside_the_code_range())  # the teacher's own port
    try:
        room = room_host.open_room("conquiztador", "hungary", "general_knowledge_en", seed=7)
        assert codes.port_of(room.code) == room_host.code_port
        assert 41000 <= room_host.code_port <= 41960 and codes.host_part(room_host.port) != room.code[:2]
        anna = RoomClient(room.code, "Anna", join_timeout_s=WAIT_S)  # the code alone
        ben = RoomClient(room.code, "Ben", address=f"127.0.0.1:{room_host.port}", join_timeout_s=WAIT_S)
        try:
            assert {m.name for m in room.members()} == {"Anna", "Ben"}
            assert anna.url.endswith(f":{room_host.code_port}") and ben.url.endswith(f":{room_host.port}")
        finally:
            anna.close()
            ben.close()
        state = room_host.logic.room_state(room)
        assert state["port"] == room_host.port and state["own_port"] is True
        assert room.journal_setup()["port"] == room_host.port
    finally:
        room_host.close()


def _released_anna(wire):
    """Anna joins, leaves the lobby before Start and stays away: her name is released (issue 28)."""
    from triviador_nb.rooms.rooms import RELEASE_AFTER_S

    code = fast_open(wire, wire.teacher())
    anna = wire.student(code, "Anna")
    key = key_of(anna[0])
    anna[1].peer.close(1000, "")
    wire.rooms.disconnect(anna[1])
    wire.clock.advance(RELEASE_AFTER_S + 1)
    assert wire.rooms.rooms[codes.normalise(code)].record.member("Anna") is None
    return code, key


def _rejoin(wire, code, key, address, key_id="mine"):
    back, conn = wire.connect(address=address)
    mine = handshake.nonce()
    extra = {"key_id": handshake.key_id(key)} if key_id == "mine" else ({"key_id": key_id} if key_id else {})
    wire.send(conn, type="join", room=code, name="Anna", map=False, nonce=mine, rejoin=True, **extra)
    return back, conn, mine


@pytest.mark.parametrize("with_key_id", [True, False])
def test_a_key_of_a_released_name_is_proved_and_then_called_released_not_a_fake_host(with_key_id):
    """The second attack: Anna's name was released before Start; her kernel came back with
    the old key, the host greeted it as a new player (a welcome without a challenge), and
    her client took the real host for a fake one, every time. The host now proves the old key
    first and says the name was released; her client drops the key and joins afresh."""
    wire = Wire()
    code, key = _released_anna(wire)
    back, conn, mine = _rejoin(wire, code, key, "127.0.0.2", "mine" if with_key_id else None)
    challenge = back.last("challenge")
    context = handshake.seat_context(code, "Anna", mine, challenge["nonce"])
    assert challenge["proof"] == handshake.proof(key, "host", context)  # the old key: her client can check it
    wire.send(conn, type="proof", proof=handshake.proof(key, "client", context))
    assert back.last("error") == {"v": 3, "type": "error", "code": "name_released", "room": code, "name": "Anna",
                                  "taken": False, "reason": f"Your name Anna was freed when you left room {code} "
                                                            "before Start: joining again."}
    assert "welcome" not in [m["type"] for m in back.sent]


def test_a_released_name_someone_else_took_is_told_apart_from_the_new_holder_s_key():
    wire = Wire()
    code, old_key = _released_anna(wire)
    squatter = wire.student(code, "Anna", address="127.0.0.9")
    new_key = key_of(squatter[0])
    # the first Anna's kernel: challenged with her old key, then told someone else has the name
    back, conn, mine = _rejoin(wire, code, old_key, "127.0.0.2")
    context = handshake.seat_context(code, "Anna", mine, back.last("challenge")["nonce"])
    assert back.last("challenge")["proof"] == handshake.proof(old_key, "host", context)
    wire.send(conn, type="proof", proof=handshake.proof(old_key, "client", context))
    error = back.last("error")
    assert (error["code"], error["taken"], error["reason"]) == (
        "name_released", True, f"Someone else took the name Anna in room {code} after you left before Start: "
                               "join with another name.")
    # the new holder's kernel is challenged with the new key, and sits down
    back, conn, mine = _rejoin(wire, code, new_key, "127.0.0.9")
    context = handshake.seat_context(code, "Anna", mine, back.last("challenge")["nonce"])
    assert back.last("challenge")["proof"] == handshake.proof(new_key, "host", context)
    wire.send(conn, type="proof", proof=handshake.proof(new_key, "client", context))
    assert back.last("welcome")["name"] == "Anna"
    # a key id the name never had: no challenge at all, the key does not fit
    back, conn, _mine = _rejoin(wire, code, old_key, "127.0.0.3", key_id="A" * 16)
    assert "challenge" not in [m["type"] for m in back.sent] and back.last("error")["code"] == "bad_token"


def test_a_student_kernel_with_a_released_name_s_key_joins_afresh(tmp_path, monkeypatch):
    from triviador_nb.rooms import rooms as rooms_module
    from triviador_nb.rooms.client import JoinError

    monkeypatch.setattr(rooms_module, "RELEASE_AFTER_S", 0.3)
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path / "anna"))
    room_host = RoomHost("127.0.0.1", 0)
    try:
        room = room_host.open_room("conquiztador", "hungary", "general_knowledge_en", seed=7)
        first = RoomClient(room.code, "Anna", join_timeout_s=WAIT_S)
        old_key = first.token
        first.close()
        assert wait_until(lambda: not any(m.name == "Anna" for m in room.members()), 10)
        again = RoomClient(room.code, "Anna", join_timeout_s=WAIT_S)  # the kernel finds the old key, and uses it
        try:
            assert wait_until(lambda: again.status == "joined" and again.token not in (None, old_key), 10)
            assert again.notice != "fake_host" and json.loads(token_file().read_text())[again._key] == again.token
            assert [m.name for m in room.members()] == ["Anna"]
        finally:
            again.close()
        assert wait_until(lambda: not any(m.name == "Anna" for m in room.members()), 10)
        monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path / "eve"))
        squatter = RoomClient(room.code, "Anna", join_timeout_s=WAIT_S)
        try:
            monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path / "anna"))
            with pytest.raises(JoinError) as refused:
                RoomClient(room.code, "Anna", join_timeout_s=WAIT_S)
            assert refused.value.code == "name_released" and "Someone else took the name Anna" in str(refused.value)
            assert again._key not in json.loads(token_file().read_text())  # the stale key is gone
        finally:
            squatter.close()
    finally:
        room_host.close()


# ---------------------------------------------------------------------- refusals before the proof

def _refusal(code: str, **fields) -> dict:
    return {"v": 3, "type": "error", "code": code, "reason": "Click http://evil.example to get your seat back",
            **fields}


@pytest.mark.parametrize("code", ["removed", "name_taken", "name_reserved", "name_held", "not_allowed",
                                  "room_closed", "made_up"])
def test_a_squatter_s_refusal_the_real_host_proves_first_is_a_fake_host_s(tmp_path, monkeypatch, code):
    """The sixth attack: a program on the dead host's port answered a student whose kernel restarted
    (the key on disk) with ``removed`` or ``name_taken`` and its own words; the join cell showed them
    ("The teacher took you out...") as the room's. The real host proves the key before such a refusal,
    so before the proof it is a fake host's: ``fake_host``, in the client's own words, the key kept."""
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path))
    room, port, key = _anna_joined_and_the_host_gone()
    fake = FakeHost(port, answers=[_refusal(code, room="EVIL-ROOM", name="Teacher")])
    try:
        with pytest.raises(Exception) as refused:
            RoomClient(room.code, "Anna", join_timeout_s=WAIT_S)  # the join cell, run again
        assert refused.value.code == "fake_host" and "evil" not in str(refused.value).lower()
        assert str(refused.value).startswith(f"The program at ws://127.0.0.1:{port} could not prove")
        assert len(fake.received) == 1 and key not in fake.received[0]
        assert json.loads(token_file().read_text()) == {f"ws://127.0.0.1:{port}|{codes.normalise(room.code)}|anna": key}
    finally:
        fake.stop()


@pytest.mark.parametrize("code, data", [("no_such_room", {}), ("bad_token", {}),
                                        ("too_many_tries", {"wait_s": 42}), ("room_full", {})])
def test_a_refusal_true_whoever_says_it_is_believed_in_the_client_s_own_words(tmp_path, monkeypatch, code, data):
    """A room that is not at this address, a key that does not fit here, a limit: the real host says
    them without a proof (it has no key to prove), and they stay true whoever says them. The code is
    believed; the words come from the client (its own room code and name), never the sender's."""
    from triviador_nb.ui.sources import refusal_text

    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path))
    room, port, key = _anna_joined_and_the_host_gone()
    fake = FakeHost(port, answers=[_refusal(code, room="EVIL-ROOM", name="Teacher", **data)])
    try:
        with pytest.raises(Exception) as refused:
            RoomClient(room.code, "Anna", join_timeout_s=WAIT_S)
        error = refused.value
        assert error.code == code and error.data == {"room": room.code, "name": "Anna", **data}
        assert "evil" not in str(error).lower() and "could not" not in str(error)
        assert str(error) == (f"The program at ws://127.0.0.1:{port} refused to seat Anna in room {room.code} "
                              f"({code}) without proving it is the room's host: your key was not sent to it.")
        words = refusal_text(error.code, error.data, str(error))
        assert "EVIL" not in words and "Teacher" not in words
        if code == "too_many_tries":
            assert words == "Too many wrong room codes from this computer: try again in 42 s."
        assert key in token_file().read_text() and key not in fake.received[0]
    finally:
        fake.stop()


def test_a_squatter_s_not_a_teacher_is_worded_by_the_teacher_s_client():
    """The same for the teacher's screen: ``not_a_teacher`` before the proof keeps its code, not its words."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    fake = FakeHost(port, answers=[_refusal("not_a_teacher")])
    try:
        with pytest.raises(Exception) as refused:
            TeacherClient(f"ws://127.0.0.1:{port}", key="the-teachers-key", timeout_s=WAIT_S)
        assert refused.value.code == "not_a_teacher" and "evil" not in str(refused.value).lower()
        assert "the key was not sent to it" in str(refused.value)
        assert "the-teachers-key" not in "\n".join(fake.received)
    finally:
        fake.stop()


def test_the_real_host_proves_a_removed_seat_s_key_before_it_says_removed():
    """A student the teacher took out comes back with the seat's key: the host challenges with that
    key (so the client can believe it), and after the proof says ``removed``; a stranger with another
    key id hears no challenge."""
    wire = Wire()
    teacher = wire.teacher()
    code = fast_open(wire, teacher)
    anna, _conn = wire.student(code, "Anna")
    key = key_of(anna)
    assert wire.op(teacher, "remove", code, name="Anna")["status"] == "ok"
    back, conn = wire.connect(address="127.0.0.2")
    mine = handshake.nonce()
    wire.send(conn, type="join", room=code, name="Anna", map=False, nonce=mine, rejoin=True,
              key_id=handshake.key_id(key))
    challenge = back.last("challenge")
    context = handshake.seat_context(code, "Anna", mine, challenge["nonce"])
    assert challenge["proof"] == handshake.proof(key, "host", context)
    wire.send(conn, type="proof", proof=handshake.proof(key, "client", context))
    assert back.last("error")["code"] == "removed" and not back.all("welcome")
    other, conn = wire.connect(address="127.0.0.3")
    wire.send(conn, type="join", room=code, name="Anna", map=False, nonce=handshake.nonce(), rejoin=True,
              key_id=handshake.key_id("another key"))
    assert not other.all("challenge") and other.last("error")["code"] == "removed"


def test_a_squatter_s_not_a_teacher_on_the_way_back_does_not_stop_the_teacher_s_client(tmp_path, monkeypatch):
    """The sixth attack: once the teacher's host died, one forged ``not_a_teacher`` from the program on its
    port closed the teacher's client for good (the screen had to be run again). On the way back, before
    the proof, it is a fake host's: the client says so and goes on trying."""
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path))
    room_host = RoomHost("127.0.0.1")
    teacher = fake = None
    try:
        teacher = TeacherClient(room_host.url(), key=room_host.teacher_key, timeout_s=WAIT_S)
        port = room_host.port
        die(room_host)
        fake = FakeHost(port, answers=[_refusal("not_a_teacher")])
        assert wait_until(lambda: len(fake.received) >= 2, WAIT_S)  # it came back again after the refusal
        assert teacher.status == "reconnecting" and teacher.notice == "fake_host"
        assert room_host.teacher_key not in "\n".join(fake.received)
    finally:
        if teacher is not None:
            teacher.close()
        if fake is not None:
            fake.stop()
        if not room_host.closed:
            room_host.close()
