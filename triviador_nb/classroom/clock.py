"""The table's clock: the kernel's asyncio loop in play, a manual clock in tests.

Countdowns and bot delays are ``call_later`` callbacks on one event loop, so
they never block the kernel (``time.sleep`` would block clicks). Every timer
can be cancelled, and :meth:`Clock.call_soon_threadsafe` lets another thread
(a room host's, a websocket's) hand work to the loop that owns the table.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
from typing import Callable, Protocol


class Timer(Protocol):
    """A pending callback."""

    def cancel(self) -> None:
        """Do not run it (a no-op once it has run)."""


class Clock(Protocol):
    """What the table needs of a clock."""

    def now(self) -> float:
        """Seconds on a monotonic clock."""

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` after ``delay_s`` seconds (at once for <= 0)."""

    def call_soon_threadsafe(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` soon on the clock's own loop; callable from any thread."""


class LoopClock:
    """Timers on an asyncio event loop: the Jupyter kernel's by default.

    Args:
        loop: the loop to use; by default the loop of the thread that makes the
            clock (the kernel's, for a clock made in a cell). It is found now,
            not when first needed: a clock first used from another thread (a
            room's connection) must still hand work to the kernel's loop.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None):
        if loop is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                if threading.current_thread() is threading.main_thread():
                    loop = asyncio.get_event_loop_policy().get_event_loop()
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

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> Timer:
        """A timer on the loop; asked for from another thread (a room host's,
        a test's), it is set up and cancelled through the loop's thread-safe
        queue, as asyncio requires."""
        loop = self.loop
        if self._on_loop_thread(loop):
            return loop.call_later(max(0.0, delay_s), callback)
        timer = _HandedTimer(loop)
        loop.call_soon_threadsafe(timer.arm, max(0.0, delay_s), callback)
        return timer

    def call_soon_threadsafe(self, callback: Callable[[], None]) -> None:
        self.loop.call_soon_threadsafe(callback)

    @staticmethod
    def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
        try:
            return asyncio.get_running_loop() is loop
        except RuntimeError:
            return not loop.is_running()  # a loop not running yet: set up from the thread that will run it


class _HandedTimer:
    """A timer asked for from another thread: armed, and cancelled, on the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self._loop = loop
        self._handle: asyncio.TimerHandle | None = None
        self._cancelled = False
        self._lock = threading.Lock()

    def arm(self, delay_s: float, callback: Callable[[], None]) -> None:
        with self._lock:
            if not self._cancelled:
                self._handle = self._loop.call_later(delay_s, callback)

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            handle = self._handle
        if handle is not None:
            self._loop.call_soon_threadsafe(handle.cancel)


class _ManualTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told to: for tests and headless play.

    ``advance(seconds)`` runs every callback that falls due, in time order;
    callbacks handed over by other threads run at the next ``advance`` (or
    :meth:`run_pending`).
    """

    def __init__(self) -> None:
        self._now = 0.0
        self._queue: list[tuple[float, int, _ManualTimer, Callable[[], None]]] = []
        self._counter = itertools.count()
        self._handed: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._now

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> Timer:
        timer = _ManualTimer()
        heapq.heappush(self._queue, (self._now + max(0.0, delay_s), next(self._counter), timer, callback))
        return timer

    def call_soon_threadsafe(self, callback: Callable[[], None]) -> None:
        with self._lock:
            self._handed.append(callback)

    def run_pending(self) -> None:
        """Run the callbacks other threads handed over."""
        with self._lock:
            handed, self._handed = self._handed, []
        for callback in handed:
            callback()

    @property
    def pending(self) -> int:
        """Timers still to run (cancelled ones not counted)."""
        return sum(1 for _, _, timer, _ in self._queue if not timer.cancelled)

    def advance(self, seconds: float) -> None:
        """Move the clock forward, running callbacks as they fall due."""
        self.run_pending()
        until = self._now + seconds
        while self._queue and self._queue[0][0] <= until:
            due, _, timer, callback = heapq.heappop(self._queue)
            self._now = max(self._now, due)
            if not timer.cancelled:
                callback()
        self._now = until
