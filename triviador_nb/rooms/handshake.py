"""Proving a key without sending it: the challenge and response of protocol version 3.

A seat's key (and the host's teacher key) is a secret two parties share: the
host that made it and the kernel it was given to. From version 3 on it
travels once, in the ``welcome`` of a first join, and never again: a client
that comes back sends a fresh random nonce, the host answers with its own
nonce and ``proof(key, "host", ...)``, the client checks that proof before it
reads anything else from the host, and only then answers with
``proof(key, "client", ...)``. A process that merely listens on the host's
port (a student who bound it when the teacher's kernel died) cannot make the
host's proof, so the client leaves, keeps its key and says so; and it learns
nothing from the client but the name and a nonce.

Both proofs are HMAC-SHA256 over the same context (who, which room and name,
both nonces), told apart by the side's label, so one side's proof is never
the other's. Pure functions: no sockets, no clock.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets

LABEL = "triviador-nb key proof, protocol 3"
NONCE_CHARS = (16, 64)  # a nonce's length in characters (``nonce()`` makes 24: 144 random bits)


def nonce() -> str:
    """A fresh nonce (144 random bits, URL-safe base64)."""
    return secrets.token_urlsafe(18)


def is_nonce(value: object) -> bool:
    """Whether ``value`` can be a nonce: URL-safe base64 text of 16-64 characters."""
    return (isinstance(value, str) and NONCE_CHARS[0] <= len(value) <= NONCE_CHARS[1]
            and all(c.isascii() and (c.isalnum() or c in "-_") for c in value))


def seat_context(room: str, name: str, client_nonce: str, host_nonce: str) -> bytes:
    """What a seat's proofs are made over: the room code (normalised), the
    name as the client sent it (case-folded) and both nonces."""
    clean = "".join(room.split()).replace("-", "").upper()
    return json.dumps([LABEL, "seat", clean, name.casefold(), client_nonce, host_nonce]).encode()


def teacher_context(client_nonce: str, host_nonce: str) -> bytes:
    """What a teacher key's proofs are made over: both nonces."""
    return json.dumps([LABEL, "teacher", client_nonce, host_nonce]).encode()


def proof(key: str, side: str, context: bytes) -> str:
    """``side``'s proof (``"host"`` or ``"client"``) that it holds ``key``:
    HMAC-SHA256(key, side || context), URL-safe base64 (43 characters)."""
    digest = hmac.new(key.encode(), side.encode() + b"\0" + context, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def key_id(key: str) -> str:
    """A name for ``key`` that gives nothing of it away: 16 characters of
    URL-safe base64 of SHA-256 over the label and the key. A rejoin sends it
    so the host knows which of the keys a name has had the client holds (a
    name released before Start and taken again has had two)."""
    digest = hashlib.sha256(f"{LABEL}\0key id\0{key}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:16]


def is_key_id(value: object) -> bool:
    """Whether ``value`` can be a :func:`key_id`."""
    return isinstance(value, str) and len(value) == 16 and all(c.isascii() and (c.isalnum() or c in "-_")
                                                               for c in value)


def fits(given: object, expected: str) -> bool:
    """Whether ``given`` is ``expected`` (compared in constant time)."""
    return isinstance(given, str) and hmac.compare_digest(given.encode(), expected.encode())
