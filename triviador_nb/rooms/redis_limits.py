"""Join limits shared by every host process of a service, counted in Redis (issue 23).

A :class:`RedisWindow` is a :class:`~.guard.FailedJoins` whose events live in
two sorted sets of Redis, one for everyone and one per person (score: the
moment, in Redis's own milliseconds, so processes on several machines agree
without agreeing on a clock):

- ``<prefix>:limit:<name>:all``
- ``<prefix>:limit:<name>:person:<person key>``

Each process first **reads** a person's counts (:meth:`RedisWindow.refresh`,
awaited by the transport before it hands the rooms a message from a
connection that has not joined: one Lua script trims the window and counts,
atomically), then the rooms' logic judges on that picture with the same
:meth:`blocked` and :meth:`failed` as in memory. :meth:`failed` counts the
event in the picture at once and queues its ``ZADD`` (one Lua script again).

What this gives: a limit counts every process's events, so N processes do not
weaken it N times. What it does not: a check and its count are two steps, so
joins that reach several processes within one round trip to Redis (well under
a millisecond on one machine) may each pass before any is counted; the
overshoot is at most the joins in flight at once, after which the person is
blocked for the window like anyone else. When Redis cannot be read the last
picture stands (the process still counts its own events): the rooms go on,
and the host's log says so.
"""

from __future__ import annotations

import time
from typing import Any, Callable

CHECK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cut = now - tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cut)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', cut)
local a = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local m = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
return {now, redis.call('ZCARD', KEYS[1]), a[2] or '-1', redis.call('ZCARD', KEYS[2]), m[2] or '-1'}
"""
"""Trim both sets to the window; answer Redis's time (ms), the count and oldest moment for everyone and for the person."""

COUNT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('PEXPIRE', key, ARGV[1])
end
return now
"""
"""Count one event (a unique member) in both sets at Redis's time; each set expires a window after its last event."""

KEEP_PICTURES = 5000  # people whose last picture a process keeps (more: it forgets them all and reads again)


class _Picture:
    """What Redis said of one person's window, and when (this process's monotonic clock)."""

    __slots__ = ("at_ms", "read_at", "all", "oldest_all", "mine", "oldest_mine")

    def __init__(self, answer: list[Any]):
        self.read_at = time.monotonic()
        self.at_ms = float(answer[0])
        self.all, self.oldest_all = int(answer[1]), float(answer[2])
        self.mine, self.oldest_mine = int(answer[3]), float(answer[4])

    def now_ms(self) -> float:
        return self.at_ms + (time.monotonic() - self.read_at) * 1000.0


class RedisWindow:
    """A sliding window of events per person and for everyone, kept in Redis.

    Args:
        prefix: the service's key prefix; name: the window's name (``"failed_joins"``).
        per_person, overall, window_s: as :class:`~.guard.FailedJoins`.
        queue: queues a write (a function given a pipeline) for the shared
            writer, in order.
        unique: a fresh member id for each event (the process's id and a count).

    The ``now`` the rooms' logic passes is its own clock's: a shared window
    runs on Redis's clock instead, read with the person's counts.
    """

    def __init__(self, prefix: str, name: str, per_person: int, overall: int, window_s: float,
                 queue: Callable[[Callable[[Any], Any]], None], unique: Callable[[], str]):
        self.per_address, self.overall, self.window_s = per_person, overall, window_s
        self._all = f"{prefix}:limit:{name}:all"
        self._person = f"{prefix}:limit:{name}:person:"
        self._queue, self._unique = queue, unique
        self._pictures: dict[str, _Picture] = {}
        self._check = self._count = None

    def scripts(self, redis: Any) -> None:
        """Register the window's scripts with the client."""
        self._check, self._count = redis.register_script(CHECK), redis.register_script(COUNT)

    async def refresh(self, pipe: Any, person: str) -> None:
        """Queue, on ``pipe``, the reading of ``person``'s counts (its answer goes to :meth:`read`)."""
        await self._check(keys=[self._all, self._person + person], args=[int(self.window_s * 1000)], client=pipe)

    def read(self, person: str, answer: list[Any]) -> None:
        """Keep what Redis answered to :meth:`refresh` for ``person``."""
        if len(self._pictures) >= KEEP_PICTURES:
            self._pictures.clear()
        self._pictures[person] = _Picture(answer)

    def blocked(self, address: str, now: float) -> float:
        """Seconds until ``address`` may try again (0: it may now), from the last picture read."""
        picture = self._pictures.get(address)
        if picture is None:
            return 0.0
        window_ms, at = self.window_s * 1000.0, picture.now_ms()
        if picture.all >= self.overall and picture.mine > 0 and picture.oldest_all >= 0:  # (see FailedJoins)
            return max(0.0, (picture.oldest_all + window_ms - at) / 1000.0)
        if picture.mine >= self.per_address and picture.oldest_mine >= 0:
            return max(0.0, (picture.oldest_mine + window_ms - at) / 1000.0)
        return 0.0

    def failed(self, address: str, now: float) -> None:
        """Count one event from ``address``: in the picture at once, in Redis through the writer."""
        picture = self._pictures.get(address)
        if picture is not None:
            at = picture.now_ms()
            picture.all, picture.mine = picture.all + 1, picture.mine + 1
            picture.oldest_all = at if picture.oldest_all < 0 else picture.oldest_all
            picture.oldest_mine = at if picture.oldest_mine < 0 else picture.oldest_mine
        keys, member, window_ms = [self._all, self._person + address], self._unique(), int(self.window_s * 1000)
        count = self._count

        async def write(pipe: Any) -> None:
            await count(keys=keys, args=[window_ms, member], client=pipe)
        self._queue(write)
