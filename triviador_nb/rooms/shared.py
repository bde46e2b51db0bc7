"""What the host processes of one service share, behind one small interface (issue 23).

A room host (:class:`~.rooms.Rooms`) asks its :class:`Shared` for four things:

- a new room **code**, unique among every room of the service;
- the **sliding windows** its join limits count in (failed joins, new
  names), so that N processes do not weaken a limit N times;
- to **publish** an entry of its refusal log, so every process's log (and
  the teachers it tells) holds the service's refusals;
- to **follow** a room's table, writing the game's record as it is played;
- to run a callback **when written**: once what it queued before is stored
  (a player's ack waits for the move to be in the shared store);
- to note which teacher controls a room (**teach**), so a teacher's
  connection to any process reaches its rooms.

:class:`LocalShared` is the default: one process, everything in its memory
(codes name the host's port, the windows are :class:`~.guard.FailedJoins`,
nothing is published or followed). :class:`~.redis_shared.RedisShared` keeps
the same in Redis for several host processes (``triviador-nb host --redis``).

Every method here runs on the rooms' thread and returns at once: a shared
store that needs the network does its reading in :meth:`Shared.before`,
which the transport awaits before it hands the rooms a message from a
connection that has not joined (the only messages the limits judge), and
queues its writes.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Protocol

from . import codes
from .guard import FailedJoins


class SharedUnavailable(OSError):
    """The shared store cannot be used (the message names it, without its password, and says why)."""


class Window(Protocol):
    """A sliding window of events per person and for everyone (:class:`~.guard.FailedJoins`)."""

    def blocked(self, address: str, now: float) -> float:
        """Seconds until ``address`` may try again (0: it may now)."""

    def failed(self, address: str, now: float) -> None:
        """Count one event from ``address``."""


class Shared(Protocol):
    """What the host processes of a service share (:mod:`.shared`)."""

    codes_name_port: bool
    """Whether room codes name the host's port (one process), or are only names (a shared store)."""

    def new_code(self, host_part: str | None, taken: Iterable[str]) -> str:
        """A room code no other room of the service has (shown form, ``"K7-PQ45"``).

        Raises:
            RuntimeError: no code can be had now (the message says why).
        """

    def window(self, name: str, per_person: int, overall: int, window_s: float) -> Window:
        """The window called ``name``: ``per_person`` events per person and ``overall`` in all per ``window_s``."""

    async def before(self, person: str) -> None:
        """Bring the windows' counts for ``person`` up to date (awaited by the transport)."""

    def publish(self, room: str, who: str, code: str, text: str, at: float, refusal: bool) -> None:
        """Share one entry of the refusal log (``refusal``: counted in ``refused``)."""

    def follow(self, room: Any) -> None:
        """Write ``room``'s game record as it is played (called once its table is set)."""

    def forget(self, code: str) -> None:
        """The room ``code`` closed: its code is free once its record is gone."""

    def when_written(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` on the rooms' thread once every write queued before it is stored."""

    def teach(self, code: str, owner: str) -> None:
        """Room ``code`` is controlled by ``owner`` (a teacher's owner id, :mod:`.room`): a teacher
        reaching another process is sent on to the process that holds it."""

    def listen(self, listener: Callable[[float, str, str, str, str, bool], None]) -> None:
        """Call ``listener(at, room, who, code, text, refusal)`` on the rooms' thread for each entry
        another process publishes."""


class LocalShared:
    """One process, nothing shared: codes name the port, the windows live in memory."""

    codes_name_port = True

    def new_code(self, host_part: str | None, taken: Iterable[str]) -> str:
        return codes.new_code(host_part or codes.random_host_part(), {codes.normalise(c) for c in taken})

    def window(self, name: str, per_person: int, overall: int, window_s: float) -> Window:
        return FailedJoins(per_person, overall, window_s)

    async def before(self, person: str) -> None:
        return None

    def publish(self, room: str, who: str, code: str, text: str, at: float, refusal: bool) -> None:
        return None

    def follow(self, room: Any) -> None:
        return None

    def forget(self, code: str) -> None:
        return None

    def when_written(self, callback: Callable[[], None]) -> None:
        callback()  # (nothing is written elsewhere: at once)

    def teach(self, code: str, owner: str) -> None:
        return None

    def listen(self, listener: Callable[[float, str, str, str, str, bool], None]) -> None:
        return None
