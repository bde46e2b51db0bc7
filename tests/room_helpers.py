"""Helpers for the room tests: bounded waiting, a raw protocol client, and a
simple player that chooses from its view alone (as a student's kernel must)."""

from __future__ import annotations

import json
import time

from websockets.sync.client import connect

from triviador_nb.classroom import ManualClock
from triviador_nb.engine import Attack, ChoiceAnswer, GuessAnswer, Pick
from triviador_nb.rooms import handshake, protocol
from triviador_nb.rooms.rooms import Rooms

WAIT_S = 15.0  # the longest any wait in these tests lasts


def wait_until(condition, timeout: float = WAIT_S, step: float = 0.01) -> bool:
    """Poll ``condition()`` until it is true or ``timeout`` passes (bounded)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(step)
    return bool(condition())


def move_for(view, seat: int):
    """A legal intent for ``seat`` from its view alone, or None (nothing to do)."""
    if view is None or not view.started or view.paused:
        return None
    prompt = view.prompt
    if prompt.kind == "answer":
        return GuessAnswer(seat, 1000) if view.question.kind == "guess" else ChoiceAnswer(seat, seat % 4)
    if prompt.kind in ("base", "pick", "claim") and prompt.choices:
        return Pick(seat, prompt.choices[0])
    if prompt.kind == "attack" and prompt.choices:
        return Attack(seat, prompt.choices[0])
    return None


def play_to_the_end(clients, timeout: float = 120.0) -> int:
    """Every client plays its seat until the game is over; returns how many
    intents were accepted. Bounded by ``timeout``."""
    return play_until(clients, lambda: any(c.view is not None and c.view.is_over for c in clients), timeout)


class RawClient:
    """A hand-written protocol client (a student's kernel that is not ours)."""

    def __init__(self, port: int, max_size: int = 32 * 1024 * 1024):
        self._connecting = connect(f"ws://127.0.0.1:{port}", max_size=max_size, open_timeout=5, close_timeout=2)
        self.ws = self._connecting.__enter__()
        self.received: list[dict] = []

    def send(self, message) -> None:
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def recv(self, timeout: float = 5.0) -> dict:
        data = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(data)
        return data

    def recv_type(self, kind: str, timeout: float = 5.0) -> dict:
        """The next message of ``kind`` (others are kept in ``received``)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            data = self.recv(max(0.01, end - time.monotonic()))
            if data["type"] == kind:
                return data
        raise AssertionError(f"no {kind} message in {timeout} s")

    def join(self, code: str, name: str, token: str | None = None) -> dict:
        self.send({"v": 1, "type": "join", "room": code, "name": name, **({"token": token} if token else {})})
        return self.recv_type("welcome")

    def close(self) -> None:
        self.ws.close()


def play_until(clients, condition, timeout: float = 60.0) -> int:
    """Every client plays its seat until ``condition()`` holds (checked
    before each move); returns how many intents were accepted. Bounded by
    ``timeout``."""
    accepted = 0
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return accepted
        for client in clients:
            view = client.view
            move = move_for(view, client.seat) if client.seat is not None else None
            if move is not None and not condition():
                accepted += client.submit(move, view.state_id).accepted
        time.sleep(0.01)
    raise AssertionError("the game did not get there in time")


def answering(client) -> bool:
    """The client's seat is asked a question now and has not answered it."""
    v = client.view
    return v is not None and not v.paused and v.prompt.kind == "answer"


# ---------------------------------------------------------------------- the rooms' logic without sockets

class MemoryPeer:
    """A connection that keeps every message it was sent, parsed."""

    def __init__(self, address: str = "127.0.0.1", identity=None):
        self.address, self.identity = address, identity
        self.sent: list[dict] = []
        self.closed_with: tuple[int, str] | None = None
        self.key: str | None = None  # the seat's key the peer rejoined with

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        self.closed_with = (code, reason)

    def last(self, kind: str) -> dict:
        return next(m for m in reversed(self.sent) if m["type"] == kind)

    def all(self, kind: str) -> list[dict]:
        return [m for m in self.sent if m["type"] == kind]


class Wire:
    """Rooms on a manual clock, and helpers to talk to them as a client would."""

    def __init__(self):
        self.clock = ManualClock()
        self.rooms = Rooms(self.clock, host_part="22", teacher_key="the-teachers-key", journals=False)
        self.refs = iter(range(1, 10_000))

    def connect(self, **peer):
        peer = MemoryPeer(**peer)
        return peer, self.rooms.connect(peer)

    def send(self, conn, **message):
        version = message.pop("v", protocol.VERSION)
        self.rooms.receive(conn, json.dumps({"v": version, **message}))

    def teacher(self, key="the-teachers-key", v=protocol.VERSION, **peer):
        """A teacher's connection; from version 3 the key is proved, not sent."""
        peer, conn = self.connect(**peer)
        if v < protocol.PROVING or key is None:
            self.send(conn, v=v, type="teacher", **({"key": key} if v < protocol.PROVING else {}))
            return peer, conn
        mine = handshake.nonce()
        self.send(conn, type="teacher", nonce=mine)
        if peer.sent and peer.sent[-1]["type"] == "challenge":
            context = handshake.teacher_context(mine, peer.sent[-1]["nonce"])
            self.send(conn, type="proof", proof=handshake.proof(key, "client", context))
        return peer, conn

    def op(self, teacher, op, room="", **args) -> dict:
        peer, conn = teacher
        ref = next(self.refs)
        self.rooms.receive(conn, protocol.op(ref, op, room, args))
        return next(m for m in reversed(peer.sent) if m["type"] == "done" and m["ref"] == ref)

    def student(self, code, name, token=None, v=protocol.VERSION, **peer):
        """A student's connection; from version 3 a rejoin proves ``token``
        after the host's challenge, and the key is never sent."""
        peer, conn = self.connect(**peer)
        peer.key = token
        if v < protocol.PROVING:
            self.send(conn, v=v, type="join", room=code, name=name, map=False, **({"token": token} if token else {}))
            return peer, conn
        mine = handshake.nonce()
        self.send(conn, type="join", room=code, name=name, map=False, nonce=mine, rejoin=token is not None)
        if token is not None and peer.sent and peer.sent[-1]["type"] == "challenge":
            context = handshake.seat_context(code, name, mine, peer.sent[-1]["nonce"])
            self.send(conn, type="proof", proof=handshake.proof(token, "client", context))
        return peer, conn


def key_of(peer) -> str:
    """The seat's key: the first welcome carries it (from version 3, later ones leave it out), or the
    peer rejoined with it."""
    return next((m["token"] for m in peer.sent if m["type"] == "welcome" and "token" in m), None) or peer.key


def fast_open(wire, teacher, **args):
    done = wire.op(teacher, "open_room", rules="conquiztador", map="hungary", bank="general_knowledge_en", seed=5,
                   pace=0.02, **args)
    assert done["status"] == "ok", done
    return done["result"]["room"]
