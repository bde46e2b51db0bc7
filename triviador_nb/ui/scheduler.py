"""Timers for the UI: the kernel's asyncio loop in play, a manual clock in tests.

Countdowns and bot delays are ``call_later`` callbacks on the running event
loop, so they never block the kernel (``time.sleep`` would block clicks).
Callbacks are never cancelled: the UI ignores those of a game it has left.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from typing import Callable, Protocol


class Scheduler(Protocol):
    """What the UI needs of a clock."""

    def now(self) -> float:
        """Seconds on a monotonic clock."""

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> None:
        """Run ``callback`` after ``delay_s`` seconds."""


class LoopScheduler:
    """Timers on the asyncio event loop that the Jupyter kernel runs."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None):
        self._loop = loop

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            try:
                self._loop = asyncio.get_running_loop()
            except RuntimeError:
                self._loop = asyncio.get_event_loop_policy().get_event_loop()
        return self._loop

    def now(self) -> float:
        return self.loop.time()

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> None:
        self.loop.call_later(max(0.0, delay_s), callback)


class ManualScheduler:
    """A clock that moves only when told to: for tests and headless play.

    ``advance(seconds)`` runs every callback that falls due, in time order.
    """

    def __init__(self) -> None:
        self._now = 0.0
        self._queue: list[tuple[float, int, Callable[[], None]]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        return self._now

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> None:
        heapq.heappush(self._queue, (self._now + max(0.0, delay_s), next(self._counter), callback))

    def advance(self, seconds: float) -> None:
        """Move the clock forward, running callbacks as they fall due."""
        until = self._now + seconds
        while self._queue and self._queue[0][0] <= until:
            due, _, callback = heapq.heappop(self._queue)
            self._now = max(self._now, due)
            callback()
        self._now = until
