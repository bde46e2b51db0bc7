"""A teacher's side of a room host: the connection that opens and runs rooms.

:class:`TeacherClient` keeps one WebSocket connection to a room host on a
thread of its own, proves it is the teacher (the host's teacher key, or the
kernel's JupyterHub token when the host is a hub service), sends the
teacher's commands (:data:`~.protocol.TEACHER_OPS`) and waits for their
``done``, and keeps the latest picture of each of the teacher's rooms: the
lobby and controls' state (``room``), the projector view (``view``) and the
map. It reconnects by itself when the network drops. The teacher key is
never sent: the client proves it holds it, after the host proved it holds
it too (:mod:`.handshake`); a host that cannot is left at once
(``notice`` ``"fake_host"``). It holds no host
object: the host may run in this kernel (``host()``) or in another process
(``triviador-nb host``, a JupyterHub service).
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import itertools
import json
import threading
import time
from pathlib import Path
from typing import Any, Callable

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..engine.view import View
from ..maps import GameMap
from . import handshake, protocol
from .protocol import MAX_HOST_MESSAGE, ProtocolError, bot_names, map_from_plain

COMMAND_TIMEOUT_S = 30.0  # the longest a command waits (opening a room reads a bank and a map)
CONNECT_TIMEOUT_S = 8.0
RECONNECT_ATTEMPTS = 150
RECONNECT_MAX_WAIT_S = 2.0


class RoomRefused(Exception):
    """The host refused a teacher's command, or cannot be reached; ``code``
    says why (``not_a_teacher``, ``no_such_room``, ``nobody_seated``...),
    ``str()`` is the host's sentence."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code


class TeacherClient:
    """One teacher's connection to a room host.

    Args:
        url: the host's WebSocket URL (``ws://127.0.0.1:41532``,
            ``wss://hub.example/services/triviador/``).
        key: the host's teacher key; None under JupyterHub (then
            ``hub_token`` proves who the teacher is).
        hub_token: the kernel's JupyterHub token (``JUPYTERHUB_API_TOKEN``),
            sent in the opening handshake.

    Attributes:
        codes: the codes of the teacher's rooms, oldest first.
        states: code -> the latest ``room`` message (lobby, roles, held,
            over, can_undo, people with ``connected``, refusals).
        views: code -> the projector view (None before Start); held: code ->
            the teacher holds the game; view_at: code -> when it arrived;
            bot_names: code -> the view's bots to word (as ``RoomClient``'s).
        maps: code -> the room's map.
        who: the teacher as the host knows them.
        status: ``"connected"``, ``"reconnecting"`` or ``"closed"``.
        notice: ``"fake_host"`` while the latest host reached could not prove
            it holds the teacher key (the client left it and tries again), else "".

    Raises:
        RoomRefused: the host cannot be reached, or does not take this key
            or identity.
    """

    def __init__(self, url: str, key: str | None = None, hub_token: str | None = None,
                 timeout_s: float = CONNECT_TIMEOUT_S):
        self.url, self._key, self._hub_token = url, key, hub_token
        self.codes: list[str] = []
        self.states: dict[str, dict] = {}
        self.views: dict[str, View | None] = {}
        self.bot_names: dict[str, dict[int, dict]] = {}
        self.held: dict[str, bool] = {}
        self.view_at: dict[str, float] = {}
        self.maps: dict[str, GameMap] = {}
        self.who = ""
        self.status = "connecting"
        self.notice = ""
        self._nonce = ""
        self._proven = False
        self._listeners: list[Callable[[str | None], None]] = []
        self._pending: dict[int, concurrent.futures.Future] = {}
        self._refs = itertools.count(1)
        self._ws = None
        self._closing = False
        self._first = threading.Event()
        self._first_error: RoomRefused | None = None
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="triviador-teacher", daemon=True)
        self._thread.start()
        if not self._first.wait(timeout_s):
            self.close()
            raise RoomRefused("no_answer", f"No room host answered at {url}.")
        if self._first_error is not None:
            self.close()
            raise self._first_error

    # ------------------------------------------------------------------ use

    def on_change(self, listener: Callable[[str | None], None]) -> None:
        """Call ``listener(code)`` (on the client's thread) after every message
        about room ``code`` (None: the list of rooms or the connection)."""
        self._listeners.append(listener)

    def command(self, op: str, room: str = "", **args: Any) -> Any:
        """Send a teacher's command and wait for the host's ``done``.

        Returns:
            The command's result (``{"room": code}`` for ``open_room``; an
            ack's fields for skip, undo, end and entered answers).

        Raises:
            RoomRefused: the host refused it (``code`` says why), or did not
                answer in time, or the connection is down.
        """
        if self.status != "connected":
            raise RoomRefused("no_connection", "Not connected to the room host (reconnecting…).")
        ref = next(self._refs)
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._pending[ref] = future
        text = protocol.op(ref, op, room, args)
        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(self._send(text)))
        try:
            done = future.result(timeout=COMMAND_TIMEOUT_S)
        except concurrent.futures.TimeoutError:
            raise RoomRefused("no_answer", "The room host did not answer in time.") from None
        finally:
            self._pending.pop(ref, None)
        if done["status"] != "ok":
            raise RoomRefused(done.get("code") or "refused", done.get("reason") or "refused")
        return done.get("result")

    def open_room(self, rules: str = "conquiztador", map: Any = "hungary", bank: Any = "general_knowledge_en",
                  language: str | None = None, seed: int | None = None, pace: float | None = None,
                  journal: bool | None = None) -> str:
        """Open a room on the host; returns its code. A ``map`` or ``bank``
        that is a file here (or a comma-separated list with one bank file) is
        sent to the host: it never reaches a student.

        Raises:
            RoomRefused: the host refused the rules, map or bank (the reason
                names the file, row and column).
        """
        args: dict[str, Any] = {"rules": rules, "map": str(map), "bank": str(bank), "language": language,
                                "seed": seed, "pace": pace, "journal": journal}
        for name, value in (("map", map), ("bank", bank)):
            path = Path(str(value)).expanduser()
            if isinstance(value, (str, Path)) and path.is_file():
                args[name + "_file"] = {"name": path.name,
                                        "data": base64.b64encode(path.read_bytes()).decode("ascii")}
                args[name] = path.name
        result = self.command("open_room", **args)
        code = result["room"]
        self.settled([code])  # its state follows the done at once
        return code

    def settled(self, codes: list[str], timeout_s: float = 5.0) -> bool:
        """Wait (at most ``timeout_s``) until the host has sent the state of
        each room in ``codes``, and the projector view of each started one:
        a screen drawn then shows them whole at once."""
        def ready() -> bool:
            return all(code in self.states and (not self.states[code].get("started") or code in self.views)
                       for code in codes)
        deadline = time.monotonic() + timeout_s
        while not ready() and time.monotonic() < deadline and self.status != "closed":
            time.sleep(0.01)
        return ready()

    def close(self) -> None:
        """Close the connection (the rooms stay open on the host)."""
        self._closing = True
        ws = self._ws
        if ws is not None and self.loop.is_running():
            asyncio.run_coroutine_threadsafe(ws.close(), self.loop)
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(lambda: self.loop.call_later(0.2, self.loop.stop))
        self._thread.join(timeout=5.0)

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
        headers = {"Authorization": f"token {self._hub_token}"} if self._hub_token else None
        attempt = 0
        while attempt < RECONNECT_ATTEMPTS and not self._closing:
            attempt += 1
            try:
                async with connect(self.url, max_size=MAX_HOST_MESSAGE, open_timeout=5, ping_interval=5,
                                   ping_timeout=20, close_timeout=2, additional_headers=headers) as ws:
                    self._ws = ws
                    self._nonce, self._proven = handshake.nonce(), self._key is None  # None: the hub vouches
                    await ws.send(protocol.teacher_hello(self._nonce if self._key is not None else None))
                    async for raw in ws:
                        outcome = self._handle(raw)
                        if outcome == "stop":
                            return
                        if outcome == "retry":
                            break
                        if self.status == "connected":
                            attempt = 0
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidURI, asyncio.TimeoutError) as error:
                if isinstance(error, (InvalidURI, InvalidHandshake)) and not self._first.is_set():
                    self._fail("no_answer", f"The room host at {self.url} refused the connection ({error}).")
                    return
            finally:
                self._ws = None
            if self._closing or self.status == "closed":
                return
            if not self._first.is_set():
                self._fail("no_answer", f"No room host answered at {self.url}.")
                return
            self.status = "reconnecting"
            for future in list(self._pending.values()):
                if not future.done():
                    future.set_result({"status": "rejected", "code": "no_connection",
                                       "reason": "The connection dropped: try again."})
            self._notify(None)
            await asyncio.sleep(min(RECONNECT_MAX_WAIT_S, 0.1 * 2 ** min(attempt, 10)))
        self.status = "closed"
        self._notify(None)

    async def _send(self, text: str) -> None:
        ws = self._ws
        if ws is not None:
            try:
                await ws.send(text)
            except ConnectionClosed:
                pass

    def _fail(self, code: str, reason: str) -> None:
        self.status = "closed"
        if not self._first.is_set():
            self._first_error = RoomRefused(code, reason)
            self._first.set()
        self._notify(None)

    def _handle(self, raw: str | bytes) -> str:
        """One message from the host; ``"stop"`` ends the connection for good."""
        try:
            data = json.loads(raw)
            kind = data["type"]
        except (ValueError, TypeError, KeyError, RecursionError):
            return ""
        if kind == "challenge" or (not self._proven and kind != "error"):
            return self._challenged(data)
        code = None
        try:
            if kind == "rooms":
                self.codes, self.who = [str(c) for c in data["rooms"]], str(data.get("who", ""))
                for gone in set(self.states) - set(self.codes):
                    self.states.pop(gone, None)
                self.status, self.notice = "connected", ""
                self._first.set()
            elif kind == "room":
                code = data["room"]
                if "map" in data:
                    self.maps[code] = map_from_plain(data.pop("map"))
                self.states[code] = data
            elif kind == "view":
                code = data["room"]
                self.views[code] = View.from_dict(data["view"])
                self.bot_names[code] = bot_names(data)
                self.held[code] = bool(data.get("held"))
                self.view_at[code] = time.monotonic()
            elif kind == "done":
                future = self._pending.get(data["ref"])
                if future is not None and not future.done():
                    future.set_result(data)
                return ""
            elif kind == "error":
                if data["code"] == "not_a_teacher":
                    # the host sends it without a challenge when it has no teacher key to prove, so it may
                    # be a program squatting the port: its code is believed, its words are not; and on the
                    # way back (the key took this host before) it is a fake host's, and the client tries again
                    if not self._proven and self._first.is_set():
                        return self._challenged(data)
                    self._fail("not_a_teacher", data["reason"] if self._proven else (
                        f"The program at {self.url} did not take this teacher key (a wrong key, or a program "
                        "that is not the room host): the key was not sent to it."))
                    return "stop"
            elif kind == "closed":
                self.status = "closed"
                self._notify(None)
                return "stop"
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError, ProtocolError):
            return ""  # a message this client cannot read is left unread
        self._notify(code)
        return ""

    def _challenged(self, data: dict) -> str:
        """The host's ``challenge`` (or anything before it proved the teacher
        key): answer a right one; leave a host that cannot prove it."""
        if data.get("type") == "challenge" and self._key is not None and not self._proven:
            host_nonce = data.get("nonce")
            if handshake.is_nonce(host_nonce):
                context = handshake.teacher_context(self._nonce, host_nonce)
                if handshake.fits(data.get("proof"), handshake.proof(self._key, "host", context)):
                    self._proven = True
                    self.loop.create_task(self._send(protocol.answer(handshake.proof(self._key, "client", context))))
                    return ""
        self.notice = "fake_host"
        if not self._first.is_set():  # a wrong key and a program that is not the host look the same from here
            self._fail("not_a_teacher" if data.get("type") == "challenge" else "fake_host",
                       f"The program at {self.url} does not hold this teacher key (a wrong key, or a program that "
                       "is not the room host): the key was not sent to it.")
            return "stop"
        self._notify(None)
        return "retry"

    def _notify(self, code: str | None) -> None:
        for listener in list(self._listeners):
            try:
                listener(code)
            except Exception:  # noqa: BLE001 - a screen's fault must not drop the connection
                pass
