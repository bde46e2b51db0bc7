"""What keeps a room standing against a hostile or broken client: rate limits.

Both limits count on the host's monotonic clock, given by the caller, so the
tests drive them without waiting.
"""

from __future__ import annotations

from collections import deque

FAILED_JOINS_PER_ADDRESS = 10  # failed joins allowed from one address...
FAILED_JOINS_ALL = 60  # ...and from all addresses together...
FAILED_JOIN_WINDOW_S = 60.0  # ...in this many seconds
MESSAGES_PER_S = 10.0  # a connection's steady rate of messages
MESSAGE_BURST = 30  # and the burst it may send at once
DROPS_BEFORE_CLOSE = 200  # refused messages after which a flooding connection is closed


class MessageBudget:
    """A token bucket per connection: ``MESSAGES_PER_S`` messages a second,
    bursts of ``MESSAGE_BURST``; a student clicking fast never meets it."""

    def __init__(self, now: float, rate: float = MESSAGES_PER_S, burst: int = MESSAGE_BURST):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = now
        self.dropped = 0

    def allow(self, now: float) -> bool:
        """Whether one more message may be read now (False counts a drop)."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.dropped += 1
        return False

    @property
    def flooding(self) -> bool:
        """So many messages were refused that the connection should be closed."""
        return self.dropped >= DROPS_BEFORE_CLOSE


class FailedJoins:
    """Failed joins (a wrong code, a wrong token) in a sliding window, per
    address and for the whole host: once an address is over its limit, every
    join from there is refused - even one with the right code - until the
    window has moved on; once the host is over its limit, so is every join
    from an address that failed in the window too. An address with no failure
    of its own is never held back by others' failures: six students typing
    wrong codes on purpose locked the whole class out for a minute (issue 28).
    Trying all 923,521 codes of a host still takes days."""

    def __init__(self, per_address: int = FAILED_JOINS_PER_ADDRESS, overall: int = FAILED_JOINS_ALL,
                 window_s: float = FAILED_JOIN_WINDOW_S):
        self.per_address, self.overall, self.window_s = per_address, overall, window_s
        self._all: deque[tuple[float, str]] = deque()

    def _trim(self, now: float) -> None:
        while self._all and self._all[0][0] <= now - self.window_s:
            self._all.popleft()

    def blocked(self, address: str, now: float) -> float:
        """Seconds until ``address`` may try again (0: it may now)."""
        self._trim(now)
        mine = [t for t, a in self._all if a == address]
        if len(self._all) >= self.overall and mine:
            return self._all[0][0] + self.window_s - now
        if len(mine) >= self.per_address:
            return mine[0] + self.window_s - now
        return 0.0

    def failed(self, address: str, now: float) -> None:
        """Count a failed join from ``address``."""
        self._trim(now)
        self._all.append((now, address))


PENDING_PER_PERSON = 8  # TCP connections one person may hold open before their WebSocket handshake...
PENDING_PER_ADDRESS = 100  # ...and one shared address (127.0.0.1 when the Unix user is not known, a hub's proxy)
OPEN_PER_PERSON = 16  # TCP connections one person may hold open at all (joined, waiting, or closing)


class ConnectionGate:
    """TCP connections counted from the moment they open, before any
    WebSocket handshake (issue 28): a student's program that opens sockets
    and never finishes the handshake held the host's files for websockets'
    10 s handshake timeout each, uncounted, and reopened them faster than
    they expired. One person may hold :data:`PENDING_PER_PERSON` such
    connections (a shared address :data:`PENDING_PER_ADDRESS`; the host's
    own Unix user any number), and :data:`OPEN_PER_PERSON` connections in
    all until the TCP connection is gone: a connection the host closed for a
    limit counts until its peer lets it go (a peer that never answers the
    close held it for websockets' close timeout, uncounted); the host holds
    ``most`` connections in all.

    Args:
        most: connections the host holds at once, handshaken or not.
        exempt: the person key with no limit of its own (the host's user).
    """

    def __init__(self, most: int, exempt: str = ""):
        self.most, self.exempt = most, exempt
        self.open = 0
        self.pending: dict[str, int] = {}
        self.held: dict[str, int] = {}  # person -> TCP connections open (one person's only)

    def admit(self, person: str, one_person: bool) -> bool:
        """Whether a new TCP connection from ``person`` may stay open; a True counts it (pending)."""
        waiting, held = self.pending.get(person, 0), self.held.get(person, 0)
        cap = PENDING_PER_PERSON if one_person else PENDING_PER_ADDRESS
        if self.open >= self.most or (person != self.exempt and (waiting >= cap
                                                                 or (one_person and held >= OPEN_PER_PERSON))):
            return False
        self.open += 1
        self.pending[person] = waiting + 1
        if one_person:
            self.held[person] = held + 1
        return True

    def handshaken(self, person: str) -> None:
        """``person``'s connection finished its WebSocket handshake: no longer pending."""
        left = self.pending.get(person, 0) - 1
        if left > 0:
            self.pending[person] = left
        else:
            self.pending.pop(person, None)

    def closed(self, person: str, pending: bool) -> None:
        """A counted connection closed (``pending``: before its handshake finished)."""
        self.open -= 1
        if pending:
            self.handshaken(person)
        held = self.held.get(person, 0) - 1
        if held > 0:
            self.held[person] = held
        else:
            self.held.pop(person, None)
