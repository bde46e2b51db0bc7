"""Room codes: short, easy to read aloud, and they say where the room is.

A code is six characters from an alphabet without look-alikes (no 0/O, 1/I/L),
shown as ``K7-PQ45``. The first two characters name the host's port
(``PORT_BASE`` + their number: 961 ports, 41000-41960), so a student on the
same machine as the teacher needs only the code: ``join("K7-PQ45")`` connects
to that port on 127.0.0.1. The other four are drawn at random for each room
(923,521 possibilities per host; failed joins are rate-limited, so trying
codes is hopeless).

Why the port is in the code: a student cannot start a fake room that takes
the class. A port can be held by one process only; the teacher's host binds
its port first and keeps it, and the code students are given points there.
A host asked for a port outside 41000-41960 holds one of them as well and
its codes name that one (:class:`~.host.RoomHost`): a code never names a
port its host does not hold.

What a code does not carry: any proof of the host. A classmate knows the
code, so nothing in it is secret from them; only a public-key fingerprint
would let a first-time joiner tell the real host from a program on the port
(say four characters of a slow hash of a per-room signing key, checked
against the host's signature of the client's nonce). Four characters are
923,521 possibilities: at scrypt's 16 MiB, 40 ms a try, about ten core-hours
to forge, minutes on a gaming GPU; eight characters (students typing ten)
would hold a lesson against a GPU. It is not done: the port is held while
the host runs, so a first join reaches a squatter only while the teacher's
host is down or when the code is mistyped, and nobody who joins for the
first time has a key to lose. Keys of people who joined before are proved
by challenge and response and never sent again (:mod:`.handshake`).
"""

from __future__ import annotations

import secrets

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # 31 symbols, none that looks like another
PORT_BASE = 41000
HOST_PARTS = len(ALPHABET) ** 2  # 961
ROOM_PART_LEN = 4


class CodeError(ValueError):
    """A room code that cannot be one (wrong length or characters)."""


def port_of(code: str) -> int:
    """The port a room code points to.

    Args:
        code: a room code, in any case, with or without the dash.

    Raises:
        CodeError: not a room code.
    """
    clean = normalise(code)
    return PORT_BASE + ALPHABET.index(clean[0]) * len(ALPHABET) + ALPHABET.index(clean[1])


def host_part(port: int) -> str | None:
    """The two characters that name ``port``, or None for a port outside
    41000-41960 (then students need the address as well as the code)."""
    index = port - PORT_BASE
    if not 0 <= index < HOST_PARTS:
        return None
    return ALPHABET[index // len(ALPHABET)] + ALPHABET[index % len(ALPHABET)]


def new_code(host: str, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """A new room code ``"K7-PQ45"`` starting with ``host`` (two characters),
    not in ``taken`` (normalised codes)."""
    for _ in range(1000):
        code = host + "".join(secrets.choice(ALPHABET) for _ in range(ROOM_PART_LEN))
        if code not in taken:
            return shown(code)
    raise RuntimeError("no free room code left on this host")  # pragma: no cover - 923,521 codes per host


def random_host_part() -> str:
    return secrets.choice(ALPHABET) + secrets.choice(ALPHABET)


def normalise(code: object) -> str:
    """``"k7 pq4"``, ``"K7-PQ45"`` -> ``"K7PQ4"``... (upper case, no spaces or dashes).

    Raises:
        CodeError: not six characters of the code alphabet afterwards.
    """
    if not isinstance(code, str):
        raise CodeError("a room code is six letters and digits, like K7-PQ45")
    clean = "".join(code.split()).replace("-", "").upper()
    if len(clean) != 2 + ROOM_PART_LEN or any(c not in ALPHABET for c in clean):
        raise CodeError(f"{code[:20]!r} is not a room code: a room code is six letters and digits, like K7-PQ45")
    return clean


def shown(code: str) -> str:
    """A normalised code as it is shown and read aloud: ``"K7-PQ45"``."""
    clean = normalise(code)
    return f"{clean[:2]}-{clean[2:]}"
