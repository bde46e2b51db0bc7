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
  draw gets its own ``random.Random``, seeded with HMAC-SHA256 of the secret
  and the draw's name (``"options:41:q-capital-fr"``: what it is and the
  record position it happens at). No long Mersenne Twister stream is
  shared by two draws, so what one draw shows (2 bits for an option order)
  adds nothing towards another, and the secret itself cannot be recovered
  from the digests (HMAC) nor guessed (128 bits). The secret stays with the
  host: it is in the game's header that the journal keeps (the teacher's
  file) and never in a view, a message, or the report.

A game replays from its record and its header: question draws and option
orders are recorded outcomes (:class:`~.actions.Draw`), and the rest is
drawn again from the same secret or number, at the same moments.
"""

from __future__ import annotations

import hashlib
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


def keyed_rng(secret: str, name: str) -> random.Random:
    """A fresh ``random.Random`` for one draw named ``name`` (which says what
    is drawn and when), seeded with HMAC-SHA256(secret, name): the same
    secret and name give the same draws; nothing about other names follows
    from them."""
    digest = hmac.new(bytes.fromhex(secret), name.encode("utf-8"), hashlib.sha256).digest()
    return random.Random(digest)


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
