"""Several host processes, one Redis: what they share (issue 23; :mod:`.shared` says what).

``triviador-nb host --redis redis://...`` (or ``RoomHost(redis=...)``) gives
the rooms a :class:`RedisShared` (the ``redis`` package's asyncio client, on
the host's own loop). Keys, under a prefix (``triviador`` by default):

``<prefix>:room:<CODE>``
    the room's **lease**: the id of the process that owns it, with an expiry
    of :data:`LEASE_MS`, renewed every :data:`RENEW_S` while that process
    runs. A code is taken while its lease lives or its record exists
    (:data:`CLAIM`: one Lua script, so two processes never take one code).
    Codes are six random characters and name no port.
``<prefix>:record:<CODE>``
    the room's record, a stream of journal lines (:mod:`.redis_record`),
    kept :data:`RECORD_KEPT_MS` after its last line.
``<prefix>:clock:<CODE>``
    where the room's clock stands (JSON: ``point``, the open prompt's
    :meth:`~triviador_nb.classroom.Table.clock_point` or null, and ``held``),
    written with every line of its record and every :data:`CLOCK_EVERY_S`
    while a prompt's timer runs: a process taking the room over gives the
    prompt back the time it had left (at most :data:`CLOCK_EVERY_S` more).
``<prefix>:owners``
    a hash: each open room's code -> who controls it (a teacher's owner id:
    ``key`` for the teacher key, ``hub:<user>``, ``*``): a teacher who reaches
    a process that does not hold their rooms is relayed to the one that does.
``<prefix>:teacher_key``
    the service's teacher key: the first process makes it, every other one
    takes it, so a teacher's client proves the same key to any of them.
``<prefix>:rooms``
    the codes of the rooms that play (Start pressed, not closed): every
    process looks, every :data:`RENEW_S`, for one whose lease lapsed, and
    takes it over (:data:`TAKE`, :meth:`RedisShared.lapsed`).
``<prefix>:log``
    the refusal log, a stream of the service's latest
    :data:`LOG_KEPT` entries; every process tails it into its own log.
``<prefix>:limit:...``
    the join limits' windows (:mod:`.redis_limits`).

Writes go through one queue drained by one task, in order, batched into a
pipeline, ``MULTI``/``EXEC`` (a record's lines never overtake each other, and a
batch is applied whole or not at all, so trying it again doubles nothing,
unless Redis applied it and the answer was lost); a failed batch is tried again for :data:`RETRY_FOR_S` seconds, then dropped with a notice in
the log. :meth:`when_written` runs a callback once everything queued before it
is in Redis: a player's intent is acked only then, so an accepted move is never
lost with its owner (docs/rooms-protocol.md, "Failover"). Reads a decision needs
are made before it (:meth:`before`).
Everything runs on the host's loop; nothing here blocks it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import secrets
import socket
import time
from collections import deque
from typing import Any, Callable, Iterable
from urllib.parse import urlsplit, urlunsplit

from . import codes
from .redis_limits import RedisWindow
from .redis_record import StreamRecord, record_key
from .shared import SharedUnavailable

LOG = logging.getLogger("triviador_nb.rooms")
LEASE_MS = 10_000  # a room's lease lasts this long without renewal...
RENEW_S = 3.0  # ...its owner renews it this often, and every process looks for lapsed ones as often
RECORD_KEPT_MS = 7 * 24 * 3600 * 1000  # a room's record stays in Redis a week after its last line
LOG_KEPT = 1000  # the refusal log keeps about this many entries
CODES_AHEAD = 4  # codes a process holds ready (claimed in Redis), so opening a room waits for nothing
CONNECT_TIMEOUT_S = 5.0  # the longest a host waits for Redis at start, and for one command
RETRY_FOR_S = 10.0  # a write Redis refused is tried again this long
TAIL_BLOCK_MS = 1000  # a process waits at most this long for new log entries before asking again
CLOCK_EVERY_S = 1.0  # a room's clock is written this often while a prompt's timer runs

CLAIM = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
"""
"""Take the code of KEYS[1] for ARGV[1] unless it is leased, or its record (KEYS[2]) exists."""

RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    table.insert(lost, key)
  end
end
return lost
"""
"""Renew the leases of KEYS held by ARGV[1]; answers those that are no longer its own."""

TAKE = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
"""
"""Take over the room of KEYS[1] for ARGV[1]: its lease lapsed and its record (KEYS[2]) is kept."""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
"""Give up the lease of KEYS[1] if ARGV[1] holds it."""


def shown_url(url: str) -> str:
    """``url`` without its password (for messages)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username + ':' if parts.username else ''}***@{parts.hostname}" + (
        f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class RedisShared:
    """The rooms of several host processes, shared through Redis (:mod:`.redis_shared`).

    Args:
        url: Redis's URL (``redis://[:password@]host:port/db``, ``rediss://`` for TLS).
        prefix: the prefix of every key (several services can share one Redis).

    Attributes:
        me: this process's id (host name, pid and 32 random bits): the value of its leases.
        problem: the last thing that went wrong with Redis, or "".
    """

    codes_name_port = False

    def __init__(self, url: str, prefix: str = "triviador"):
        self.url, self.prefix = url, prefix
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.problem = ""
        self.redis: Any = None
        self._count = itertools.count()
        self._queue: asyncio.Queue | None = None
        self._tasks: list[asyncio.Task] = []
        self._windows: list[RedisWindow] = []
        self._ready: deque[str] = deque()  # codes claimed and not yet given to a room
        self._leased: set[str] = set()  # codes of this process's rooms (normalised)
        self._heard: deque[tuple] = deque(maxlen=LOG_KEPT)  # other processes' log entries, for listen()
        self._listener: Callable[..., None] | None = None
        self._refilling: asyncio.Task | None = None
        self._followed: dict[str, Any] = {}  # normalised code -> a room of this process whose record it writes
        self.renewing: asyncio.Task | None = None  # the task that renews this process's leases
        #: called (awaited) after every renewal: the host takes lapsed rooms over, the relay follows owners
        self.ticks: list[Callable[[], Any]] = []
        #: called with a room's code (normalised) when this process finds it lost the room's lease
        self.on_lost: list[Callable[[str], None]] = []

    # ------------------------------------------------------------------ starting and stopping

    async def start(self) -> None:
        """Connect, check Redis answers, claim the first codes, start renewing and tailing.

        Raises:
            SharedUnavailable: Redis cannot be reached (the message names it, without its password).
        """
        import redis.asyncio as redis_asyncio
        from redis.exceptions import RedisError

        self.redis = redis_asyncio.Redis.from_url(self.url, decode_responses=True,
                                                  socket_connect_timeout=CONNECT_TIMEOUT_S,
                                                  socket_timeout=CONNECT_TIMEOUT_S + TAIL_BLOCK_MS / 1000)
        self._claim, self._renew = self.redis.register_script(CLAIM), self.redis.register_script(RENEW)
        self._take = self.redis.register_script(TAKE)
        self._release = self.redis.register_script(RELEASE)
        for window in self._windows:
            window.scripts(self.redis)
        try:
            await asyncio.wait_for(self.redis.ping(), CONNECT_TIMEOUT_S)
            await asyncio.wait_for(self._refill(), CONNECT_TIMEOUT_S)
            last = await asyncio.wait_for(self._read_log_backlog(), CONNECT_TIMEOUT_S)
        except (RedisError, OSError, asyncio.TimeoutError) as error:
            await self.redis.aclose()
            self.redis = None
            raise SharedUnavailable(f"cannot use Redis at {shown_url(self.url)}: {error or type(error).__name__}") from None
        self._queue = asyncio.Queue()
        loop = asyncio.get_running_loop()
        self.renewing = loop.create_task(self._renew_forever())
        self._tasks = [loop.create_task(self._write_forever()), self.renewing, loop.create_task(self._tail_forever(last)),
                       loop.create_task(self._clock_forever())]

    async def stop(self, within_s: float = 3.0) -> None:
        """Write what is queued (bounded by ``within_s``), give up this process's leases and codes, disconnect."""
        if self.redis is None:
            return
        if self._queue is not None:
            try:
                await asyncio.wait_for(self._queue.join(), within_s)
            except asyncio.TimeoutError:
                LOG.warning("Redis: %d writes were not done when the host stopped", self._queue.qsize())
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        try:
            for code in [*self._leased, *self._ready]:
                await asyncio.wait_for(self._release(keys=[self._lease_key(code)], args=[self.me]), within_s)
        except Exception as error:  # noqa: BLE001 - stopping goes on: the leases lapse by themselves
            LOG.info("Redis: leases left to lapse (%s)", error)
        self._leased.clear(), self._ready.clear()
        await self.redis.aclose()
        self.redis = None

    # ------------------------------------------------------------------ codes and leases

    def _lease_key(self, code: str) -> str:
        return f"{self.prefix}:room:{codes.normalise(code)}"

    async def _refill(self) -> None:
        """Claim codes until :data:`CODES_AHEAD` are ready (each claim one Lua script: a code leased or
        with a record is never taken twice)."""
        for _ in range(CODES_AHEAD * 10):
            if len(self._ready) >= CODES_AHEAD:
                return
            code = codes.normalise(codes.new_code(codes.random_host_part()))
            if await self._claim(keys=[self._lease_key(code), record_key(self.prefix, code)], args=[self.me, LEASE_MS]):
                self._ready.append(code)

    def new_code(self, host_part: str | None, taken: Iterable[str]) -> str:
        """A code this process claimed in Redis (its lease is renewed from now on as the room's).

        Raises:
            RuntimeError: no code is ready (Redis has not answered the claims yet).
        """
        if not self._ready:
            self._start_refill()
            raise RuntimeError(f"no room code could be claimed in Redis yet ({self.problem or 'try again'})")
        code = self._ready.popleft()
        self._leased.add(code)
        self._start_refill()
        return codes.shown(code)

    def _start_refill(self) -> None:
        if self._refilling is None or self._refilling.done():
            self._refilling = asyncio.get_running_loop().create_task(self._refill_quietly())

    async def _refill_quietly(self) -> None:
        from redis.exceptions import RedisError

        try:
            await self._refill()
        except (RedisError, OSError) as error:
            self._trouble(f"claiming room codes: {error}")

    async def _renew_forever(self) -> None:
        """Renew every lease this process holds, every :data:`RENEW_S`, until stopped."""
        from redis.exceptions import RedisError

        while True:
            await asyncio.sleep(RENEW_S)
            held = [*self._leased, *self._ready]
            try:
                lost = (await self._renew(keys=[self._lease_key(c) for c in held], args=[self.me, LEASE_MS])
                        if held else [])
            except (RedisError, OSError) as error:
                self._trouble(f"renewing leases: {error}")
                continue
            for key in lost:
                code = key.rsplit(":", 1)[1]
                self._ready = deque(c for c in self._ready if c != code)
                self._followed.pop(code, None)
                if code in self._leased:
                    self._leased.discard(code)
                    self._trouble(f"the lease of room {codes.shown(code)} lapsed (this process was too slow, or "
                                  "Redis out of reach, longer than a lease lasts): another process plays it now")
                    for listener in list(self.on_lost):
                        listener(code)
            for tick in list(self.ticks):
                try:
                    await tick()
                except Exception as error:  # noqa: BLE001 - one tick's fault must not stop the renewing
                    self._trouble(f"{getattr(tick, '__name__', 'tick')}: {type(error).__name__}: {error}")

    async def owner(self, code: str) -> str | None:
        """The id of the process that holds the lease of ``code`` (normalised), or None."""
        from redis.exceptions import RedisError

        try:
            return await asyncio.wait_for(self.redis.get(self._lease_key(code)), CONNECT_TIMEOUT_S)
        except (RedisError, OSError, asyncio.TimeoutError) as error:
            self._trouble(f"finding a room's owner: {error or type(error).__name__}")
            return None

    def forget(self, code: str) -> None:
        """The room closed: its lease is given up (its code stays taken while its record is kept)."""
        clean = codes.normalise(code)
        self._followed.pop(clean, None)
        if clean in self._leased:
            self._leased.discard(clean)
            key, me, release, rooms = self._lease_key(clean), self.me, self._release, f"{self.prefix}:rooms"
            owners = f"{self.prefix}:owners"

            async def write(pipe: Any) -> None:
                await release(keys=[key], args=[me], client=pipe)
                pipe.srem(rooms, clean)
                pipe.hdel(owners, clean)
            self._put(write)

    def teach(self, code: str, owner: str) -> None:
        clean, owners = codes.normalise(code), f"{self.prefix}:owners"

        async def write(pipe: Any) -> None:
            pipe.hset(owners, clean, owner)
        self._put(write)

    async def taught_by(self, owners: Iterable[str]) -> list[str]:
        """The codes (normalised) of the open rooms controlled by any of ``owners``."""
        wanted = set(owners)
        return sorted(code for code, owner in (await self.redis.hgetall(f"{self.prefix}:owners")).items()
                      if owner in wanted)

    async def teacher_key(self, fresh: str) -> str:
        """The service's teacher key: ``fresh`` if no process made one before, else that one."""
        key = f"{self.prefix}:teacher_key"
        await asyncio.wait_for(self.redis.set(key, fresh, nx=True), CONNECT_TIMEOUT_S)
        return await asyncio.wait_for(self.redis.get(key), CONNECT_TIMEOUT_S) or fresh

    async def lapsed(self) -> list[tuple[str, list[str], dict]]:
        """Take over every playing room whose owner stopped renewing its lease: each one's code
        (normalised), record lines and clock (``{"point": [moment, what, elapsed_s] or None, "held":
        bool}``; ``{}`` when none was written). The caller brings each back, or :meth:`forget` s it."""
        taken = []
        for code in await self.redis.smembers(f"{self.prefix}:rooms"):
            if code in self._leased or await self.redis.exists(self._lease_key(code)):
                continue
            if await self._take(keys=[self._lease_key(code), record_key(self.prefix, code)], args=[self.me, LEASE_MS]):
                self._leased.add(code)
                taken.append((code, await self.record_lines(code), await self.clock_of(code)))
        return taken

    async def clock_of(self, code: str) -> dict:
        """Where room ``code``'s clock stood when its owner last wrote it (``{}``: never written, or unreadable)."""
        text = await self.redis.get(self._clock_key(code))
        try:
            clock = json.loads(text) if text else {}
        except ValueError:
            return {}
        return clock if isinstance(clock, dict) else {}

    def _clock_key(self, code: str) -> str:
        return f"{self.prefix}:clock:{codes.normalise(code)}"

    # ------------------------------------------------------------------ limits

    def window(self, name: str, per_person: int, overall: int, window_s: float) -> RedisWindow:
        window = RedisWindow(self.prefix, name, per_person, overall, window_s, self._put,
                             lambda: f"{self.me}:{next(self._count)}")
        if self.redis is not None:
            window.scripts(self.redis)
        self._windows.append(window)
        return window

    async def before(self, person: str) -> None:
        """Read ``person``'s counts in every window, after this process's queued writes (bounded)."""
        from redis.exceptions import RedisError

        if self.redis is None or not self._windows:
            return
        try:
            if self._queue is not None:
                await asyncio.wait_for(self._queue.join(), CONNECT_TIMEOUT_S)
            pipe = self.redis.pipeline(transaction=False)
            for window in self._windows:
                await window.refresh(pipe, person)
            answers = await asyncio.wait_for(pipe.execute(), CONNECT_TIMEOUT_S)
        except (RedisError, OSError, asyncio.TimeoutError) as error:
            self._trouble(f"reading the join limits: {error or type(error).__name__}")
            return
        for window, answer in zip(self._windows, answers):
            window.read(person, answer)

    # ------------------------------------------------------------------ the refusal log

    def publish(self, room: str, who: str, code: str, text: str, at: float, refusal: bool) -> None:
        fields = {"at": repr(at), "room": room, "who": who, "code": code, "text": text, "host": self.me,
                  "refusal": "1" if refusal else "0"}
        key = f"{self.prefix}:log"

        async def write(pipe: Any) -> None:
            pipe.xadd(key, fields, maxlen=LOG_KEPT, approximate=True)
        self._put(write)

    def listen(self, listener: Callable[[float, str, str, str, str, bool], None]) -> None:
        """Call ``listener(at, room, who, code, text, refusal)`` (on the host's loop) for each entry
        another process logs; first for those heard already."""
        self._listener = listener
        while self._heard:
            listener(*self._heard.popleft())

    async def _read_log_backlog(self) -> str:
        """The latest entries of the shared log (oldest first) into ``_heard``; answers the newest id."""
        entries = await self.redis.xrevrange(f"{self.prefix}:log", count=LOG_KEPT)
        for _id, fields in reversed(entries):
            self._hear(fields)
        return entries[0][0] if entries else "0-0"

    def _hear(self, fields: dict) -> None:
        if fields.get("host") == self.me:
            return
        try:
            entry = (float(fields["at"]), fields["room"], fields["who"], fields["code"], fields["text"],
                     fields.get("refusal") == "1")
        except (KeyError, ValueError):
            return  # not an entry of ours
        if self._listener is not None:
            self._listener(*entry)
        else:
            self._heard.append(entry)

    async def _tail_forever(self, last: str) -> None:
        """Hand every new entry of the shared log to the listener, until stopped."""
        from redis.exceptions import RedisError

        key = f"{self.prefix}:log"
        while True:
            try:
                answer = await self.redis.xread({key: last}, count=100, block=TAIL_BLOCK_MS)
            except (RedisError, OSError) as error:
                self._trouble(f"reading the shared log: {error}")
                await asyncio.sleep(1.0)
                continue
            for _stream, entries in answer or []:
                for entry_id, fields in entries:
                    last = entry_id
                    self._hear(fields)

    # ------------------------------------------------------------------ records

    def follow(self, room: Any) -> None:
        """Write ``room``'s record to its stream as it is played (:mod:`.redis_record`)."""
        clean = codes.normalise(room.code)
        key, rooms, clock_key = record_key(self.prefix, clean), f"{self.prefix}:rooms", self._clock_key(clean)
        self._followed[clean] = room

        async def playing(pipe: Any) -> None:
            pipe.sadd(rooms, clean)  # a room that plays: taken over if its owner stops renewing its lease
        self._put(playing)

        def add(line: str) -> None:
            clock = self._clock_text(room)

            async def write(pipe: Any) -> None:
                pipe.xadd(key, {"line": line})
                pipe.pexpire(key, RECORD_KEPT_MS)
                if clock is not None:
                    pipe.set(clock_key, clock, px=RECORD_KEPT_MS)
            self._put(write)
        StreamRecord(add, room.table, room.journal_setup())  # (kept by the table, which calls it)

    @staticmethod
    def _clock_text(room: Any) -> str | None:
        table = room.table
        if table is None or not table.started:  # (a room being taken over: the clock it was given stands)
            return None
        # (a hold of the host's own while a room taken over waits for its players is not the teacher's)
        held = bool(table.held) and not getattr(room, "returning", False)
        return json.dumps({"point": table.clock_point(), "held": held})

    async def _clock_forever(self) -> None:
        """Every :data:`CLOCK_EVERY_S`, write the clock of each room this process plays whose clock moved."""
        written: dict[str, str] = {}
        while True:
            await asyncio.sleep(CLOCK_EVERY_S)
            for clean, room in list(self._followed.items()):
                clock = self._clock_text(room) if clean in self._leased else None
                if clock is None or written.get(clean) == clock:
                    continue
                written[clean] = clock
                key = self._clock_key(clean)

                async def write(pipe: Any, key: str = key, clock: str = clock) -> None:
                    pipe.set(key, clock, px=RECORD_KEPT_MS)
                self._put(write)
            for gone in set(written) - set(self._followed):
                del written[gone]

    async def record_lines(self, code: str) -> list[str]:
        """The ``line`` fields of a room's record stream, oldest first."""
        entries = await self.redis.xrange(record_key(self.prefix, codes.normalise(code)))
        return [fields["line"] for _id, fields in entries]

    # ------------------------------------------------------------------ the writer

    def _put(self, write: Callable[[Any], Any] | None, after: Callable[[], None] | None = None) -> None:
        if self._queue is not None:
            self._queue.put_nowait((write, after))
        elif after is not None:
            after()

    def when_written(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` (on the host's loop) once every write queued before it is in Redis
        (or, Redis out of reach, was given up after :data:`RETRY_FOR_S`: the game goes on)."""
        self._put(None, callback)

    async def _write_forever(self) -> None:
        """Drain the queue in order, a batch per pipeline, until stopped."""
        from redis.exceptions import RedisError

        queue = self._queue
        while True:
            batch = [await queue.get()]
            while not queue.empty():
                batch.append(queue.get_nowait())
            end = time.monotonic() + RETRY_FOR_S
            while True:
                try:
                    pipe = self.redis.pipeline(transaction=True)  # all or nothing: a retry never doubles a line
                    for write, _after in batch:
                        if write is not None:
                            await write(pipe)
                    await pipe.execute()
                    break
                except (RedisError, OSError) as error:
                    if time.monotonic() >= end:
                        self._trouble(f"{len(batch)} writes were lost: {error}")
                        break
                    await asyncio.sleep(0.25)
            for _write, after in batch:
                if after is not None:
                    try:
                        after()
                    except Exception as error:  # noqa: BLE001 - one callback's fault must not stop the writer
                        LOG.warning("Redis: after a write: %s: %s", type(error).__name__, error)
                queue.task_done()

    def _trouble(self, text: str) -> None:
        self.problem = text
        LOG.warning("Redis at %s: %s", shown_url(self.url), text)
        if self._listener is not None:
            self._listener(time.time(), "", "host", "redis", text, False)
