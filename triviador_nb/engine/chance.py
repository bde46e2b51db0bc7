"""Where a game's chance comes from: a public game number, or a secret.

Chance is the colours' deal (D14), the base draw (D11-D13), the question
decks (D4), each multiple-choice question's option order (D2), each battle
round's order (D12, D13), a territory drawn when a timer runs out (D3) and
the bots' answers and moves. It comes from one of two sources:

- **A game number** alone (``Game(..., seed=123)``, ``secret=None``): three
  ``random.Random`` streams of the number, exactly as games were always
  played (``simulate``, the golden playthroughs, a number the teacher types
  to replay a game, every journal written before secrets existed). Anyone
  who knows the number - or narrows it down from what the screens show: it
  was 20 bits, issue 28 - can compute every draw, the correct option's
  position included. For reproducible games only.
- **A secret** (``secret="<32+ hex digits>"``, drawn by the host or the
  screen with the ``secrets`` module: :data:`SECRET_BITS` or more): every
  draw gets its own generator (:class:`KeyedRandom`), keyed with
  HMAC-SHA256 of the secret and the draw's name (``"options:41:q-capital-fr"``:
  what it is and the record position it happens at), whose bits are
  HMAC-SHA256 blocks in counter mode. No Mersenne Twister is involved (its
  state can be rebuilt from enough of its outputs), no stream is shared by
  two draws, so what one draw shows (2 bits for an option order) adds
  nothing towards another, and the secret can be neither recovered from
  what is shown (HMAC) nor guessed (128 bits). The secret stays with the
  host: it is in the game's header that the journal keeps (the teacher's
  file) and never in a view, a message, or the report.

A game replays from its record and its header: question draws and option
orders are recorded outcomes (:class:`~.actions.Draw`), and the rest is
drawn again from the same secret or number, at the same moments.
"""

from __future__ import annotations

import hmac
import random
import re

SECRET_BITS = 128
"""The fewest bits a secret has (32 hex digits); the host draws exactly these."""

_HEX = re.compile(r"[0-9a-f]+")


def check_secret(secret: object) -> str:
    """``secret`` if it is a valid secret: lowercase hex text of at least
    :data:`SECRET_BITS` bits (and at most 1024).

    Raises:
        ValueError: anything else (the message says what a secret is).
    """
    if not (isinstance(secret, str) and SECRET_BITS // 4 <= len(secret) <= 256 and _HEX.fullmatch(secret)):
        raise ValueError(f"a game's secret is {SECRET_BITS // 4} to 256 lowercase hex digits, not {secret!r}")
    return secret


class KeyedRandom(random.Random):
    """``random.Random``'s methods (``shuffle``, ``choice``, ``sample``,
    ``gauss``...) over a keyed stream: block ``i`` is HMAC-SHA256(key, i),
    its bytes read in order. The same key gives the same draws.

    Args:
        key: the stream's key (bytes; :func:`keyed_rng` makes one per draw).
    """

    def __init__(self, key: bytes):
        super().__init__(key)

    def seed(self, a: object = None, version: int = 2) -> None:
        """Start the stream of key ``a`` (bytes) from its first block."""
        if not isinstance(a, bytes):
            raise TypeError("a keyed stream's key is bytes")
        self._key, self._block, self._left = a, 0, b""
        self.gauss_next = None

    def getrandbits(self, k: int) -> int:
        """``k`` random bits from the stream, as a whole number (k >= 0)."""
        if k < 0:
            raise ValueError("the number of bits must be >= 0")
        size = (k + 7) // 8
        while len(self._left) < size:
            self._left += hmac.digest(self._key, self._block.to_bytes(8, "big"), "sha256")
            self._block += 1
        chunk, self._left = self._left[:size], self._left[size:]
        return int.from_bytes(chunk, "big") >> (size * 8 - k)

    def random(self) -> float:
        """A float in [0, 1) from 53 bits of the stream."""
        return self.getrandbits(53) / 9007199254740992.0

    def getstate(self) -> tuple:
        return self._key, self._block, self._left

    def setstate(self, state: tuple) -> None:
        self._key, self._block, self._left = state


def keyed_rng(secret: str, name: str) -> KeyedRandom:
    """A fresh generator for one draw named ``name`` (which says what is
    drawn and when), keyed with HMAC-SHA256(secret, name): the same secret
    and name give the same draws; nothing about other names follows from
    them."""
    return KeyedRandom(hmac.digest(bytes.fromhex(secret), name.encode("utf-8"), "sha256"))


class Chance:
    """A game's source of chance (see the module docstring).

    Args:
        seed: the game number (None only with a secret).
        secret: hex text of at least :data:`SECRET_BITS` bits, or None for
            the game number's public streams.

    Raises:
        ValueError: no number and no secret, or a secret that is not one.
    """

    def __init__(self, seed: int | None, secret: str | None):
        if secret is None and seed is None:
            raise ValueError("a game needs a game number (seed) or a secret")
        self.secret = check_secret(secret) if secret is not None else None
        self._streams = {} if secret is not None else {
            "game": random.Random(seed), "questions": random.Random(f"questions:{seed}"),
            "options": random.Random(f"options:{seed}")}

    def rng(self, stream: str, moment: str = "") -> random.Random:
        """The RNG for one draw of ``stream`` (``"game"``, ``"questions"`` or
        ``"options"``) at ``moment``: with a secret, a fresh keyed one; with
        a game number, the stream itself, moved on by every draw (so the
        moment does not count)."""
        if self.secret is None:
            return self._streams[stream]
        return keyed_rng(self.secret, f"{stream}:{moment}")

    def state(self) -> tuple:
        """Where the streams stand (an action that fails must leave them as
        they were); empty with a secret, whose draws keep no state."""
        return tuple(rng.getstate() for rng in self._streams.values())

    @property
    def streamed(self) -> bool:
        """True for a game number's streams (draws depend on the draws before them)."""
        return self.secret is None
