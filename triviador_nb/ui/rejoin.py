"""What a student's kernel remembers of its last join (issue 24: rejoin with nothing typed).

A reload of the page keeps the kernel and its connection: :func:`live`
gives the screen still in its room, and ``join()`` shows it again at once.
A kernel restart loses both: :func:`recall` reads the room, code, name and
address of the last join from ``join.json`` beside the seat keys
(``$TRIVIADOR_NB_HOME`` or ``~/.triviador_nb``; the folder 0700, the file
0600: readable by the student only), kept per notebook (the kernel's
``$JPY_SESSION_NAME``: several students sharing one account each run their
own copy of join.ipynb), so the form comes back filled and,
within :data:`REJOIN_WITHIN_S` of the join while the student was still in
the room, joins by itself. The seat's key stays where the connection keeps
it (:func:`triviador_nb.rooms.client.token_file`).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from typing import Any

from ..rooms.client import token_file

REJOIN_WITHIN_S = 3 * 3600.0  # a lesson: a join older than this fills the form but waits for Join
KEPT = 50  # notebooks whose last join is kept

_LIVE: list[Any] = []  # the student's screen of this kernel that is in a room (at most one)


@dataclass(frozen=True)
class LastJoin:
    """The last room this user's kernel joined.

    Attributes:
        code: the room code (``"K7-PQ45"``); name: as the room shows it;
        address: as given to ``join`` (``""``: this machine, or the hub's service);
        at: when it joined (seconds since the epoch); in_room: True until the
            student leaves or the room closes or refuses them.
    """

    code: str
    name: str
    address: str = ""
    at: float = 0.0
    in_room: bool = True

    def fresh(self, now: float | None = None) -> bool:
        """Still in the room and joined within :data:`REJOIN_WITHIN_S`: join again by itself."""
        age = (time.time() if now is None else now) - self.at
        return self.in_room and 0 <= age <= REJOIN_WITHIN_S


def memory_file():
    """``join.json`` beside the seat keys."""
    return token_file().with_name("join.json")


def _notebook() -> str:
    """The notebook this kernel runs (``$JPY_SESSION_NAME``, set by the Jupyter server), or ``""``."""
    return os.environ.get("JPY_SESSION_NAME", "")


def _kept() -> dict:
    try:
        data = json.loads(memory_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def remember(last: LastJoin) -> None:
    """Keep ``last`` as this notebook's last join for a kernel restart,
    readable by this user only (best effort: a read-only home only loses the
    filled form)."""
    path = memory_file()
    kept = {k: v for k, v in _kept().items() if k != _notebook()}
    kept[_notebook()] = asdict(last)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(dict(list(kept.items())[-KEPT:]), out)
        os.replace(temporary, path)
    except OSError:
        pass


def recall() -> LastJoin | None:
    """This notebook's last join kept by :func:`remember`, or None (none, or unreadable)."""
    try:
        data = _kept()[_notebook()]
        last = LastJoin(str(data["code"]), str(data["name"]), str(data.get("address") or ""),
                        float(data.get("at", 0.0)), bool(data.get("in_room", False)))
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    return last if last.code and last.name else None


def live() -> Any:
    """The student's screen of this kernel that is still in its room, or None."""
    return _LIVE[0] if _LIVE else None


def set_live(screen: Any) -> None:
    """``screen`` is this kernel's screen in a room (None: none is)."""
    _LIVE[:] = [screen] if screen is not None else []
