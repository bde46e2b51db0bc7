"""A student's side of a room: the connection to the host and the screen's source.

:class:`RoomClient` keeps one WebSocket connection to the room host on a
thread of its own, holds the latest view of the student's seat, sends
intents and waits for their acks, and reconnects by itself when the network
drops (proving the seat's key, so the student is back in the seat). The
key never travels after the first join: the client proves it holds it, and
first checks that the host proves it holds it too (:mod:`.handshake`), so a
process that squats the host's port gets nothing and the client says so
(notice ``"fake_host"``). The key is kept in ``~/.triviador_nb/rooms.json`` (readable by the student
only), so after a kernel restart ``join`` with the same code and name finds
the seat again. The screen (:mod:`triviador_nb.ui.sources`) words what it
reports: :attr:`RoomClient.notice` is a code, never a sentence of ours.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import json
import math
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..classroom.ack import Ack
from ..engine import Action
from ..maps import GameMap
from . import codes, handshake, protocol
from .protocol import (LANGUAGE_CODE, MAX_HOST_MESSAGE, ProtocolError, action_intent, bot_names, clean_name,
                       map_from_plain)

if TYPE_CHECKING:
    from ..engine.view import View

ACK_TIMEOUT_S = 5.0  # the longest a click waits for the host's answer
JOIN_TIMEOUT_S = 8.0  # the longest join() waits for the first answer
RECONNECT_ATTEMPTS = 150  # then the client gives up (about five minutes)
RECONNECT_MAX_WAIT_S = 2.0
FATAL = frozenset({"no_such_room", "name_taken", "bad_token", "room_full", "too_many_tries", "wrong_version",
                   "not_allowed", "name_reserved", "name_confusable", "name_held", "removed"})
#: The refusals a client holding a seat's key believes before the host proved it holds that key: their
#: words stay true whoever says them (no room of that code here, this key does not fit here, too many
#: tries, too many at once, a full room, another protocol). The real host sends them without a challenge
#: when it has no key to prove (the room is gone, the key unknown). Every other refusal before the proof
#: (``removed``, ``name_taken``...: the real host proves the key first) is a fake host's.
UNPROVEN_BELIEVED = frozenset({"no_such_room", "bad_token", "too_many_tries", "slow_down", "room_full",
                               "wrong_version"})
MAX_WAIT_S = 3600  # the longest wait a refusal's ``wait_s`` may ask for


class JoinError(Exception):
    """The room refused the join, or could not be reached; ``code`` says why
    (``"no_such_room"``...), ``data`` holds what the screen words it with
    (``room``, ``name``, ``wait_s``); ``str()`` is the host's English sentence."""

    def __init__(self, code: str, reason: str, data: dict | None = None):
        super().__init__(reason)
        self.code, self.data = code, dict(data or {})


def room_url(code: str, address: str | None = None) -> str:
    """The WebSocket URL of room ``code``.

    Args:
        address: None (this machine: 127.0.0.1), a host name or IP
            (``"192.168.1.20"``), ``"host:port"``, or a whole ``ws://`` /
            ``wss://`` URL. Without a port, the port is the code's.

    Raises:
        CodeError: not a room code.
    """
    port = codes.port_of(code)
    if address is None or not address.strip():
        return f"ws://127.0.0.1:{port}"
    address = address.strip()
    if address.startswith(("ws://", "wss://")):
        return address
    if address.count(":") == 1:  # host:port
        return f"ws://{address}"
    if ":" in address and not address.startswith("["):  # a bare IPv6 address
        return f"ws://[{address}]:{port}"
    return f"ws://{address}:{port}"


def token_file() -> Path:
    """Where seat tokens are kept: ``$TRIVIADOR_NB_HOME/rooms.json`` or ``~/.triviador_nb/rooms.json``."""
    home = os.environ.get("TRIVIADOR_NB_HOME") or str(Path.home() / ".triviador_nb")
    return Path(home) / "rooms.json"


def _load_tokens() -> dict[str, str]:
    try:
        data = json.loads(token_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(data, dict) else {}


def _save_token(key: str, token: str) -> None:
    """Keep the seat's token, readable by this user only (best effort)."""
    tokens = _load_tokens()
    tokens[key] = token
    path = token_file()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path.with_suffix(".tmp"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(dict(list(tokens.items())[-200:]), out)
        os.replace(path.with_suffix(".tmp"), path)
    except OSError:
        pass  # a read-only home: rejoining after a kernel restart then needs the teacher


def _forget_token(key: str) -> None:
    """Drop a seat's token the host proved is no longer the name's (best effort)."""
    tokens = _load_tokens()
    if tokens.pop(key, None) is None:
        return
    path = token_file()
    try:
        fd = os.open(path.with_suffix(".tmp"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(tokens, out)
        os.replace(path.with_suffix(".tmp"), path)
    except OSError:
        pass


class RoomClient:
    """One student's connection to a room.

    Args:
        code: the room code (``"K7-PQ45"``).
        name: the student's (or team's) name.
        address: where the host is (see :func:`room_url`); None: this machine.
        hub_token: the kernel's JupyterHub token, sent in the opening
            handshake to a host that is a hub service (the host then knows
            the student by their hub user, whatever name is typed).

    Attributes:
        code, name, url: the room, the name as the room shows it, the URL.
        seat: the seat (None: waiting in the lobby or watching).
        game_map: the map the host sent; view: the seat's latest view (None
            before Start); held: the teacher holds the game; roles: seat ->
            who plays it; bot_names: seat -> ``{"number", "skill"}`` of the
            bots the view names "Bot 3 (medium)" (the screen words them);
            lobby: the latest lobby message.
        language: the room's language code (``"hu"``), from its ``welcome``;
            None from a host that does not send one.
        started: the room's game is under way (the last ``welcome`` or
            ``lobby`` said so): a seat's view is on its way.
        came_back: this join took a seat this kernel's key had already (a
            kernel restarted, a connection back): the student is back in it.
        status: ``"connecting"``, ``"joined"``, ``"reconnecting"``,
            ``"closed"`` (the teacher closed the room) or ``"refused"``.
        message: the room's latest sentence (an error, a refusal: the host's
            English), or "".
        notice: what the connection itself last reported, as a code the
            screen words: ``"reconnecting"``, ``"gone"``, ``"fake_host"`` (a
            host that could not prove it holds the seat's key: the client
            left it, kept its key and tries again), a ``closed`` code
            (``"room_closed"``, ``"removed"``, ``"host_stopped"``) or
            ``"unreadable:<error>"``, or the code of the host's latest
            ``error``; "" when there is none. ``notice_data``: that error's
            data (``room``, ``name``, ``wait_s``).

    Raises:
        JoinError: the room refused the join or cannot be reached.
        ValueError: a name that cannot be used (empty, too long).
        CodeError: not a room code.
    """

    def __init__(self, code: str, name: str, address: str | None = None, join_timeout_s: float = JOIN_TIMEOUT_S,
                 hub_token: str | None = None):
        self.code = codes.shown(code)
        try:
            self.name = clean_name(name if isinstance(name, str) else "")
        except ProtocolError as error:
            raise ValueError(error.reason[0].upper() + error.reason[1:] + ".") from None
        self.url = room_url(code, address)
        self._headers = {"Authorization": f"token {hub_token}"} if hub_token else None
        self._key = f"{self.url}|{codes.normalise(code)}|{self.name.casefold()}"
        self.token: str | None = _load_tokens().get(self._key)
        self.seat: int | None = None
        self.game_map: GameMap | None = None
        self.view: View | None = None
        self.view_at = 0.0
        self.held = False
        self.roles: dict[int, dict | str] = {}
        self.bot_names: dict[int, dict] = {}
        self.lobby: dict[str, Any] = {}
        self.language: str | None = None
        self.started = False
        self.came_back = self.token is not None
        self.status = "connecting"
        self.message = ""
        self.notice = ""
        self.notice_data: dict[str, Any] = {}
        self.rejoins = 0
        self._nonce = ""  # this connection's nonce (version 3)
        self._proven = False  # the host on this connection proved it holds the seat's key
        self._met_fake = False  # since the last welcome, a host failed the proof
        self._listeners: list[Callable[[], None]] = []
        self._pending: dict[int, concurrent.futures.Future] = {}
        self._refs = itertools.count(1)
        self._ws = None
        self._closing = False
        self._first = threading.Event()
        self._first_error: JoinError | None = None
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=f"triviador-room-{self.code}", daemon=True)
        self._thread.start()
        if not self._first.wait(join_timeout_s):
            self.close()
            raise JoinError("no_answer", f"No room answered at {self.url}: check the code and that the "
                                         "teacher's room is open.")
        if self._first_error is not None:
            self.close()
            raise self._first_error

    # ------------------------------------------------------------------ use

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` (on the client's thread) after every message."""
        self._listeners.append(listener)

    def submit(self, action: Action, state_id: str | None = None) -> Ack:
        """Send the seat's intent and wait for the host's answer.

        Returns:
            The host's :class:`Ack`; a ``"rejected"`` one with code
            ``"no_connection"`` while reconnecting, ``"no_answer"`` when the
            host did not answer in time.
        """
        if self.status != "joined" or self.token is None:
            return Ack("rejected", "no_connection", "not connected to the room (reconnecting…)")
        try:
            intent = action_intent(action)
        except ValueError as error:
            return Ack("rejected", "not_an_intent", str(error))
        ref = next(self._refs)
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._pending[ref] = future
        sid = state_id if state_id is not None else (self.view.state_id if self.view is not None else "")
        text = protocol.intent_message(ref, None, sid, intent)  # the connection proved the key: it is not sent
        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(self._send(text)))
        try:
            return future.result(timeout=ACK_TIMEOUT_S)
        except concurrent.futures.TimeoutError:
            return Ack("rejected", "no_answer", "the room did not answer in time: check the connection")
        finally:
            self._pending.pop(ref, None)

    def drop_connection(self) -> None:
        """Cut the connection as a network failure would (the client then
        reconnects by itself). For tests and for trying rejoin by hand."""
        ws = self._ws
        if ws is not None:
            self.loop.call_soon_threadsafe(lambda: ws.transport.abort())

    def close(self) -> None:
        """Leave: close the connection and stop the client's thread."""
        self._closing = True
        ws = self._ws
        if ws is not None and self.loop.is_running():
            asyncio.run_coroutine_threadsafe(ws.close(), self.loop)
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self._stop_soon)
        self._thread.join(timeout=5.0)

    def _stop_soon(self) -> None:
        self.loop.call_later(0.2, self.loop.stop)

    # ------------------------------------------------------------------ the connection

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        task = self.loop.create_task(self._connection())
        task.add_done_callback(lambda _t: self.loop.stop() if not self._closing else None)
        self.loop.run_forever()
        for pending in asyncio.all_tasks(self.loop):
            pending.cancel()
        try:
            self.loop.run_until_complete(asyncio.sleep(0))
        except RuntimeError:
            pass
        self.loop.close()

    async def _connection(self) -> None:
        attempt = 0
        outcome = ""
        while attempt < RECONNECT_ATTEMPTS:  # attempts in a row: a successful rejoin starts the count again
            attempt += 1
            if self._closing:
                return
            try:
                async with connect(self.url, max_size=MAX_HOST_MESSAGE, open_timeout=5, ping_interval=5,
                                   ping_timeout=20, close_timeout=2, additional_headers=self._headers) as ws:
                    self._ws = ws
                    self._nonce, self._proven = handshake.nonce(), self.token is None  # a first join has no key
                    await ws.send(protocol.join(self.code, self.name, self._nonce, self.token is not None,
                                                self.game_map is None,
                                                handshake.key_id(self.token) if self.token is not None else None))
                    async for raw in ws:
                        outcome = self._handle(raw)
                        if outcome == "stop":
                            return
                        if outcome == "retry":
                            break
                        if self.status == "joined":
                            attempt = 0
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidURI, asyncio.TimeoutError) as error:
                outcome = ""
                if isinstance(error, InvalidURI):
                    self._fail("bad_address", f"{self.url} is not an address a room can have.")
                    return
                status = getattr(getattr(error, "response", None), "status_code", None)
                if status in (401, 403):  # a hub service that does not take this kernel's token
                    self._fail("not_allowed", f"The room service at {self.url} did not let this kernel in "
                                              f"(HTTP {status}): join from your own JupyterHub server.")
                    return
            finally:
                self._ws = None
            if self._closing or self.status in ("closed", "refused"):
                return
            if not self._first.is_set() and outcome != "retry":
                self._fail("no_answer", f"No room answered at {self.url}: check the code and that the "
                                        "teacher's room is open.")
                return
            self.status = "reconnecting"
            self.notice, self.message = "fake_host" if self._met_fake else "reconnecting", ""
            for future in list(self._pending.values()):
                if not future.done():
                    future.set_result(Ack("rejected", "no_connection", "the connection dropped: try again"))
            self._notify()
            await asyncio.sleep(min(RECONNECT_MAX_WAIT_S, 0.1 * 2 ** min(attempt, 10)))
        self.status = "refused"
        self.notice, self.message = "gone", ""
        self._notify()

    async def _send(self, text: str) -> None:
        ws = self._ws
        if ws is None:
            return
        try:
            await ws.send(text)
        except ConnectionClosed:
            pass

    def _fail(self, code: str, reason: str) -> None:
        self.status, self.message = "refused", reason
        if not self._first.is_set():
            self._first_error = JoinError(code, reason, self.notice_data if self.notice == code else None)
            self._first.set()
        self._notify()

    def _handle(self, raw: str | bytes) -> str:
        """One message from the host; ``"stop"`` ends the connection for good."""
        try:
            data = json.loads(raw)
            kind = data["type"]
        except (ValueError, TypeError, KeyError, RecursionError):
            return ""  # a broken message from the host is left unread
        if kind == "challenge" or (not self._proven and kind != "error"):
            return self._challenged(data)
        if kind == "error" and not self._proven:
            return self._unproven_refusal(data)
        try:
            if kind == "welcome":
                if self.token is None:  # the first join: the key comes once, and is kept
                    self.token = data["token"]
                    self.came_back = False
                self.seat, self.name = data["seat"], data["name"]
                if "map" in data:
                    self.game_map = map_from_plain(data["map"])
                language = data.get("language")
                if isinstance(language, str) and LANGUAGE_CODE.fullmatch(language):
                    self.language = language
                self.started = bool(data.get("started"))
                if self.status == "reconnecting":
                    self.rejoins += 1
                self.status, self.message, self.notice, self._met_fake = "joined", "", "", False
                _save_token(self._key, self.token)
                self._first.set()
            elif kind == "lobby":
                self.lobby = data
                self.seat = data["you"]["seat"]
                self.started = bool(data.get("started"))
            elif kind == "view":
                from ..engine.view import View  # read on this thread, once the seat is taken (issue 24)

                self.view = View.from_dict(data["view"])
                self.view_at = time.monotonic()
                self.held = bool(data.get("held"))
                self.bot_names = bot_names(data)
                if isinstance(data.get("seats"), dict):  # version 2: roles as data, worded by the screen
                    self.roles = {int(k): v for k, v in data["seats"].items() if isinstance(v, dict)}
                else:
                    self.roles = {int(k): str(v) for k, v in data.get("roles", {}).items()}
            elif kind == "ack":
                future = self._pending.get(data["ref"])
                if future is not None and not future.done():
                    future.set_result(Ack(data["status"], data["code"], data.get("reason", ""), data.get("ms")))
                return ""
            elif kind == "error":
                self.notice = data["code"]
                self.notice_data = {k: data[k] for k in ("room", "name", "wait_s") if k in data}
                if data["code"] == "slow_down":
                    self.message = data["reason"]  # joins are held back: try again later
                    self._notify()
                    return "retry"
                if data["code"] == "name_released":
                    if self.token is None:  # the real host says so only after proving a key
                        return self._challenged(data)
                    self.token = None  # the key of a name released before Start: drop it
                    _forget_token(self._key)
                    if data.get("taken"):
                        self._fail("name_released", data["reason"])
                        return "stop"
                    self.notice, self.message = "", ""
                    return "retry"  # and join afresh at once
                if data["code"] in FATAL:
                    if data["code"] == "bad_token" and self._first.is_set():
                        self.message = data["reason"]
                    else:
                        self._fail(data["code"], data["reason"])
                        return "stop"
                self.message = data["reason"]
            elif kind == "closed":
                self.status, self.message = "closed", str(data.get("reason", ""))
                self.notice = str(data.get("code", "room_closed"))
                if not self._first.is_set():
                    self._first_error = JoinError(self.notice, self.message)
                    self._first.set()
                self._notify()
                return "stop"
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError, ProtocolError) as error:
            self.notice, self.message = f"unreadable:{type(error).__name__}", ""
        self._notify()
        return ""

    def _unproven_refusal(self, data: dict) -> str:
        """A refusal before the host proved it holds the seat's key (the
        client holds one): it may come from a program squatting the room's
        port, so only a code in :data:`UNPROVEN_BELIEVED` is believed, worded
        from what this client knows itself (its room code and name; a wait of
        at most :data:`MAX_WAIT_S`), never with the sender's text or fields;
        any other is a fake host's (:meth:`_challenged`). On the way back no
        refusal is final (a host resuming its rooms has its port a moment
        before its rooms); on the first join it is, and the key is kept."""
        code = data.get("code")
        if code not in UNPROVEN_BELIEVED:
            return self._challenged(data)
        self.notice, self.notice_data = code, {"room": self.code, "name": self.name}
        wait = data.get("wait_s")
        if isinstance(wait, (int, float)) and not isinstance(wait, bool) and 0 < wait <= MAX_WAIT_S:
            self.notice_data["wait_s"] = math.ceil(wait)
        self.message = (f"The program at {self.url} refused to seat {self.name} in room {self.code} ({code}) "
                        "without proving it is the room's host: your key was not sent to it.")
        if code == "slow_down" or self._first.is_set():
            self._notify()
            return "retry"
        self._fail(code, self.message)
        return "stop"

    def _challenged(self, data: dict) -> str:
        """The host's ``challenge`` (or anything else before it proved the
        seat's key): answer a right one; leave a host that cannot prove it,
        keeping the key and storing nothing from it."""
        token = self.token
        if data.get("type") == "challenge" and token is not None and not self._proven:
            host_nonce = data.get("nonce")
            if handshake.is_nonce(host_nonce):
                context = handshake.seat_context(self.code, self.name, self._nonce, host_nonce)
                if handshake.fits(data.get("proof"), handshake.proof(token, "host", context)):
                    self._proven = True
                    answer = protocol.answer(handshake.proof(token, "client", context))
                    self.loop.create_task(self._send(answer))
                    return ""
        self._met_fake = True
        self.notice, self.message = "fake_host", ""
        if not self._first.is_set():
            self._fail("fake_host", f"The program at {self.url} could not prove it is the room's host: nothing "
                                    "was sent to it. Ask the teacher.")
            return "stop"
        self._notify()
        return "retry"

    def _notify(self) -> None:
        for listener in list(self._listeners):
            try:
                listener()
            except Exception:  # noqa: BLE001 - a screen's fault must not drop the connection
                pass
