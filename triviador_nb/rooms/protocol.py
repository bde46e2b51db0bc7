"""The room protocol, version 3: JSON messages between a room host, its players and its teachers.

Every message is one WebSocket text frame holding a JSON object with ``"v"``
(1, 2 or 3) and a ``"type"``. The full description, with examples, is in
``docs/rooms-protocol.md``; this module is its one implementation, used by the
host and by the clients alike: every message is built by a function here and
read by :func:`parse_client` (nothing else writes protocol JSON).

Version 2 adds the teacher (``teacher``, ``op``; the host answers ``done``,
``rooms`` and ``room``) and sends a seat's role as data (``view.seats``).
A player that joins with ``"v": 1`` is answered in version 1, as before
(``view.roles`` as short English labels), so old student clients keep working.

Version 3 proves keys instead of sending them (:mod:`.handshake`): a ``join``
carries a ``nonce`` and ``rejoin`` instead of the ``token``, a ``teacher`` a
``nonce`` instead of the ``key``; the host answers ``challenge`` (its nonce
and proof), the client ``proof``; intents and leaves carry no token, and
only the first ``welcome`` of a first join carries the seat's key. Versions
1 and 2 are still read and answered as before.

From a player to the host (at most ``MAX_CLIENT_MESSAGE`` bytes each):

- ``join``: ``{"room": "K7-PQ45", "name": "Anna", "token": "...", "map": false}``;
  the token only when rejoining (it was given in ``welcome``); ``"map": false``
  when the player has the map already (it is sent by default).
- ``intent``: ``{"ref": 7, "token": "...", "state_id": "1:12", "intent": {...}}``
  where the intent is ``{"kind": "pick", "territory": "HU-PE"}`` (a base,
  pick or claim), ``{"kind": "attack", "territory": "HU-PE", "wings": false}``,
  ``{"kind": "rebuild"}``, ``{"kind": "choice", "option": 2}`` (0-3) or
  ``{"kind": "guess", "value": 1848}``. ``ref`` is the player's own number
  for the intent; the ``ack`` quotes it.
- ``leave``: ``{"token": "..."}``.

From the host to a player: ``welcome`` (the seat, the token, the map, the
room's language),
``lobby`` (who sits where), ``view`` (the seat's view: never a correct answer
before the reveal, never another seat's answer), ``ack`` (what became of an
intent), ``error`` (a refused message) and ``closed`` (the room closed).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine import Action, Attack, ChoiceAnswer, GuessAnswer, Pick, Rebuild
from ..engine.board import Board
from ..maps import GameMap, builtin_map_dir, is_builtin_map
from .handshake import is_key_id, is_nonce
from .names import MAX_STACKED_MARKS, stacked_marks, visible

VERSION = 3
VERSIONS = (1, 2, 3)  # what a host reads; it answers each connection in the version it joined with
#: From this version on a seat's or teacher's key never travels after the
#: first join: it is proved by challenge and response (:mod:`.handshake`).
PROVING = 3
MAX_CLIENT_MESSAGE = 8 * 1024  # bytes: the longest intent is well under 1 KiB
MAX_TEACHER_MESSAGE = 16 * 1024 * 1024  # bytes: an ``open_room`` may carry the teacher's bank and map files
MAX_HOST_MESSAGE = 32 * 1024 * 1024  # bytes: a welcome carries the map's geometry
MAX_NAME = 40  # characters in a player's name
INTENT_KINDS = ("pick", "attack", "rebuild", "choice", "guess")
#: A ``welcome``'s ``language``: a language code (``"hu"``, ``"pt_BR"``). A
#: client reads it if it is one and ignores it otherwise, as it ignores any
#: field it does not know (an optional field: no new protocol version).
LANGUAGE_CODE = re.compile(r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{1,8}){0,2}")


class ProtocolError(ValueError):
    """A message that breaks the protocol.

    Attributes:
        code: ``not_json``, ``not_an_object``, ``wrong_version``,
            ``unknown_type`` or ``bad_field``.
        reason: a sentence saying what is wrong.
    """

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code, self.reason = code, reason


@dataclass(frozen=True)
class Join:
    """``nonce`` and ``rejoin`` are version 3's (the client's nonce; it holds
    the seat's key and will prove it); ``token`` is versions 1 and 2's."""

    room: str
    name: str
    token: str | None = None
    want_map: bool = True
    version: int = VERSION
    nonce: str | None = None
    rejoin: bool = False
    key_id: str | None = None  # version 3, with rejoin: which key the client holds (:func:`.handshake.key_id`)


@dataclass(frozen=True)
class Proof:
    """Version 3: the client's answer to a ``challenge`` (:func:`.handshake.proof`)."""

    proof: str


@dataclass(frozen=True)
class Intent:
    ref: int
    token: str | None  # None: version 3 (the connection proved the key)
    state_id: str
    intent: dict


@dataclass(frozen=True)
class Leave:
    token: str | None


@dataclass(frozen=True)
class Teacher:
    """A connection asks to be a teacher: with the host's teacher key, or
    (``key`` None) by the JupyterHub identity its connection carries.
    Version 3 sends a ``nonce`` instead of the key (the host then challenges)."""

    key: str | None
    nonce: str | None = None


@dataclass(frozen=True)
class Op:
    """A teacher's command: ``op`` (one of :data:`TEACHER_OPS`) on ``room``
    (a code, "" for ``open_room``), with ``args``; ``ref`` is quoted back in
    the ``done``."""

    ref: int
    op: str
    room: str
    args: dict


ClientMessage = Join | Intent | Leave | Teacher | Op | Proof

#: A teacher's commands -> the arguments each takes (name -> what it must be).
TEACHER_OPS: dict[str, dict[str, str]] = {
    "open_room": {"rules": "str", "map": "str", "bank": "str", "map_file": "file?", "bank_file": "file?",
                  "language": "str?", "seed": "int?", "pace": "num?", "journal": "bool?"},
    "assign": {"name": "str", "seat": "seat?"},
    "remove": {"name": "str"},
    "let_back": {"name": "str"},
    "set_bot": {"seat": "seat", "skill": "str?"},
    "name_seat": {"seat": "seat", "name": "str?"},
    "start": {},
    "hold": {},
    "release": {},
    "skip": {},
    "undo": {},
    "end": {},
    "enter_answer": {"seat": "seat", "given": "int?", "timed": "bool?"},
    "hand_to_bot": {"seat": "seat", "skill": "str?"},
    "hand_back": {"seat": "seat"},
    "play_again": {},
    "close_room": {},
    "report": {},
}


def dumps(kind: str, version: int = VERSION, **fields: Any) -> str:
    """One protocol message as text: ``{"v": version, "type": kind, **fields}``."""
    return json.dumps({"v": version, "type": kind, **fields}, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------------- from the host

def welcome(room: str, name: str, token: str | None, seat: int | None, rules_title: str, started: bool, language: str,
            map_json: str | None = None, version: int = VERSION) -> str:
    """``welcome``; ``map_json`` is :func:`map_to_plain` as JSON text (made once per room); ``token``
    None leaves it out (version 3, to a client that has its key already)."""
    text = dumps("welcome", version, room=room, name=name, **({"token": token} if token is not None else {}),
                 seat=seat, rules_title=rules_title, started=started, language=language)
    return text if map_json is None else text[:-1] + ',"map":' + map_json + "}"


def lobby(room: str, seats: list[dict], waiting: list[str], started: bool, you: dict | None,
          version: int = VERSION) -> str:
    """``lobby``: each seat ``{"seat", "name", "members", "bot"}``; ``you`` is None for a teacher."""
    fields = {"room": room, "seats": seats, "waiting": waiting, "started": started}
    return dumps("lobby", version, **fields, **({"you": you} if you is not None else {}))


#: What a seat's role can be (``view.seats``, ``room.seats``): who plays it.
ROLE_KINDS = ("student", "team", "bot", "empty")


def role(kind: str, skill: str | None = None, members: tuple[str, ...] | list[str] = ()) -> dict:
    """A seat's role as data: ``{"kind": "bot", "skill": "medium"}``,
    ``{"kind": "team", "members": ["Anna", "Ben"]}``, ``{"kind": "student"}``
    or ``{"kind": "empty"}`` (its people were moved: the timer plays it)."""
    data: dict[str, Any] = {"kind": kind}
    if skill is not None:
        data["skill"] = skill
    if members:
        data["members"] = list(members)
    return data


def legacy_role(data: dict) -> str:
    """The version-1 label of a role (``"bot · medium"``, ``"team: Anna, Ben"``),
    for clients that joined with ``"v": 1`` (they show it as it is)."""
    kind = data.get("kind")
    if kind == "bot":
        return f"bot · {data.get('skill', '')}"
    if kind == "team":
        return "team: " + ", ".join(data.get("members", ()))
    return "empty seat" if kind == "empty" else "student"


def view_message(seat: int | None, held: bool, roles: dict[int, dict], view_json: str, version: int = VERSION,
                 room: str | None = None, bot_names: dict[int, str] | None = None) -> str:
    """``view``: ``view_json`` is :meth:`View.to_json` (made once per seat and
    change); a teacher's projector view names its ``room``. Version 2 also
    sends ``bot_names``: the seats whose player the room named after its bot
    (``"Bot 3 (medium)"`` in the view, English), as data for the screen to
    word in its language: ``{"2": {"number": 3, "skill": "medium"}}`` (left
    out when there is none)."""
    head = {"seat": seat, "held": held}
    if room is not None:
        head["room"] = room
    if version >= 2:
        head["seats"] = {str(s): r for s, r in roles.items()}
        if bot_names:
            head["bot_names"] = {str(s): {"number": s + 1, "skill": skill} for s, skill in bot_names.items()}
    else:
        head["roles"] = {str(s): legacy_role(r) for s, r in roles.items()}
    return dumps("view", version, **head)[:-1] + ',"view":' + view_json + "}"


def bot_names(data: dict) -> dict[int, dict]:
    """A ``view`` message's ``bot_names`` as seat -> ``{"number", "skill"}``
    (what is not of that shape is left out; ``{}`` from a host that sends
    none: its views' names are shown as they are)."""
    sent = data.get("bot_names")
    if not isinstance(sent, dict):
        return {}
    return {int(seat): {"number": bot["number"], "skill": bot["skill"]} for seat, bot in sent.items()
            if isinstance(seat, str) and seat.isdigit() and isinstance(bot, dict)
            and type(bot.get("number")) is int and isinstance(bot.get("skill"), str)}


def ack(ref: int, status: str, code: str, reason: str, ms: int | None, version: int = VERSION) -> str:
    """``ack`` of an intent (the table's status and code)."""
    return dumps("ack", version, ref=ref, status=status, code=code, reason=reason, ms=ms)


def error(code: str, reason: str, version: int = VERSION, **data: Any) -> str:
    """``error``: a refused message; ``data`` holds what a screen needs to
    word it (``wait_s``, ``room``, ``name``)."""
    return dumps("error", version, code=code, reason=reason, **data)


#: Why a room closed for a player (``closed.code``).
CLOSED_CODES = ("room_closed", "removed", "host_stopped", "replaced")


def closed(code: str, reason: str, version: int = VERSION) -> str:
    """``closed``: do not reconnect; ``code`` is one of :data:`CLOSED_CODES`
    (``replaced``: the same member joined again on another connection)."""
    return dumps("closed", version, code=code, reason=reason)


def done(ref: int, status: str = "ok", code: str = "", reason: str = "", result: Any = None) -> str:
    """``done``: what became of a teacher's ``op`` (``status`` ``ok`` or
    ``rejected`` with a ``code``); ``result`` is the op's (a new room's code...)."""
    return dumps("done", ref=ref, status=status, code=code, reason=reason, result=result)


def teacher_rooms(rooms: list[str], who: str) -> str:
    """``rooms``: the codes of the rooms this teacher controls (after
    ``teacher``, and whenever one opens or closes); ``who`` is the teacher."""
    return dumps("rooms", rooms=rooms, who=who)


def room_state(state: dict, map_json: str | None = None) -> str:
    """``room``: a teacher's picture of one room (lobby, roles, connections,
    controls' state, refusals); the map once per connection."""
    text = dumps("room", **state)
    return text if map_json is None else text[:-1] + ',"map":' + map_json + "}"


def teacher_hello(nonce: str | None) -> str:
    """``teacher`` (version 3): become a teacher on this connection, proving
    the host's key after the host's ``challenge`` (``nonce``: the client's),
    or (``nonce`` None) by the connection's JupyterHub identity."""
    return dumps("teacher", **({"nonce": nonce} if nonce is not None else {}))


def join(room: str, name: str, nonce: str, rejoin: bool, want_map: bool, key_id: str | None = None) -> str:
    """``join`` (version 3): ``rejoin`` when the client holds the seat's key
    (it proves it after the host's ``challenge``; the key is never sent), with
    the key's ``key_id`` (:func:`.handshake.key_id`)."""
    return dumps("join", room=room, name=name, nonce=nonce, rejoin=rejoin, map=want_map,
                 **({"key_id": key_id} if key_id is not None else {}))


def challenge(nonce: str, proof: str) -> str:
    """``challenge`` (version 3): the host's nonce and its proof that it
    holds the key (:func:`.handshake.proof` with side ``"host"``)."""
    return dumps("challenge", nonce=nonce, proof=proof)


def answer(proof: str) -> str:
    """``proof`` (version 3): the client's answer to a ``challenge``."""
    return dumps("proof", proof=proof)


def intent_message(ref: int, token: str | None, state_id: str, intent: dict, version: int = VERSION) -> str:
    """``intent``; ``token`` None (version 3: the connection proved the key) leaves it out."""
    return dumps("intent", version, ref=ref, **({"token": token} if token is not None else {}),
                 state_id=state_id, intent=intent)


def op(ref: int, command: str, room: str = "", args: dict | None = None) -> str:
    """``op``: a teacher's ``command`` (see :data:`TEACHER_OPS`) on ``room``."""
    return dumps("op", ref=ref, op=command, room=room,
                 args={k: v for k, v in (args or {}).items() if v is not None})


def _peek(text: str | bytes, kind: str) -> dict | None:
    """A client's message of type ``kind`` read cheaply before the host's logic judges it, or None."""
    if not isinstance(text, str) or len(text) > MAX_CLIENT_MESSAGE:
        return None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) and data.get("type") == kind else None


def joined_room(text: str | bytes) -> str | None:
    """The room a client's message joins (``join``, first or again), as sent; None for any other
    message or one that is not JSON (the host's logic judges it). Cheap: a host reads it to find
    which process owns the room (issue 23)."""
    data = _peek(text, "join")
    room = data.get("room") if data is not None else None
    return room if isinstance(room, str) else None


def teacher_by(text: str | bytes) -> str | None:
    """How a client's ``teacher`` message proves who it is: ``"key"`` (the host's teacher key: a
    ``nonce`` or, before version 3, the key itself), ``"hub"`` (its connection's JupyterHub identity);
    None for any other message. Cheap, like :func:`joined_room`: a host reads it to find which
    process owns the teacher's rooms (issue 23)."""
    data = _peek(text, "teacher")
    if data is None:
        return None
    return "key" if data.get("nonce") is not None or data.get("key") is not None else "hub"


RELAY_KINDS = ("open", "text", "close")


def relay(kind: str, conn: str, via: str, text: str = "", **fields: Any) -> str:
    """An envelope between two host processes of one service (issue 23, :mod:`.relay`): a client
    connected to process ``via`` (its connection ``conn``) plays a room another process owns.
    ``kind``: ``open`` (the connection arrived: ``address``, ``user``, ``teacher`` of its peer),
    ``text`` (a message, ``text``, either way), ``close`` (it closed: ``code``, ``reason``).
    ``via`` names the process that sends the envelope; ``down=True`` marks the owner's (to the
    via's socket). Never sent to a client."""
    return json.dumps({"relay": kind, "conn": conn, "via": via, "text": text, **fields},
                      ensure_ascii=False, separators=(",", ":"))


def parse_relay(text: str) -> dict:
    """Read an envelope of :func:`relay`.

    Raises:
        ProtocolError: not one.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("not_json", "a relay envelope is JSON") from None
    if not (isinstance(data, dict) and data.get("relay") in RELAY_KINDS and isinstance(data.get("conn"), str)
            and isinstance(data.get("via"), str) and isinstance(data.get("text"), str)):
        raise ProtocolError("bad_relay", "not a relay envelope")
    return data


def parse_client(text: str | bytes) -> ClientMessage:
    """Read a player's message.

    Raises:
        ProtocolError: anything but a well-formed version-1 message.
    """
    if isinstance(text, bytes):
        raise ProtocolError("not_json", "messages are JSON text frames, not binary")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("not_json", "the message is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("not_an_object", "a message is a JSON object")
    version = data.get("v")
    if version not in VERSIONS or isinstance(version, bool):
        raise ProtocolError("wrong_version", f"this room speaks protocol versions 1 to {VERSION}; "
                                             "update triviador_nb to the teacher's version")
    kind = data.get("type")
    proving = version >= PROVING
    if kind == "join":
        room, name, token = data.get("room"), data.get("name"), data.get("token")
        _need(isinstance(room, str) and len(room) <= 20, "room", "the room code")
        _need(isinstance(name, str), "name", "a name")
        _need(token is None or (isinstance(token, str) and len(token) <= 100), "token", "the seat's token")
        _need(not proving or token is None, "token", "left out: from version 3 the key is proved, never sent")
        nonce, rejoin = data.get("nonce"), data.get("rejoin", False)
        _need(not proving or is_nonce(nonce), "nonce", "16-64 characters of URL-safe base64")
        _need(isinstance(rejoin, bool), "rejoin", "true or false")
        want_map = data.get("map", True)
        _need(isinstance(want_map, bool), "map", "true or false")
        key = data.get("key_id")
        _need(key is None or (proving and is_key_id(key)), "key_id", "16 characters of URL-safe base64")
        return Join(room, clean_name(name), token, want_map, version, nonce if proving else None, rejoin and proving,
                    key if rejoin and proving else None)
    if kind == "proof" and proving:
        given = data.get("proof")
        _need(isinstance(given, str) and len(given) <= 100, "proof", "the answer to the host's challenge")
        return Proof(given)
    if kind == "intent":
        ref, token, state_id, intent = (data.get(k) for k in ("ref", "token", "state_id", "intent"))
        _need(type(ref) is int and 0 <= ref < 2**53, "ref", "a whole number")
        _need((proving and token is None) or (isinstance(token, str) and len(token) <= 100), "token",
              "the seat's token")
        _need(isinstance(state_id, str) and len(state_id) <= 40, "state_id", "the view's state id")
        _need(isinstance(intent, dict), "intent", "an object")
        return Intent(ref, token, state_id, intent)
    if kind == "leave":
        token = data.get("token")
        _need((proving and token is None) or (isinstance(token, str) and len(token) <= 100), "token",
              "the seat's token")
        return Leave(token)
    if kind == "teacher" and version >= 2:
        key, nonce = data.get("key"), data.get("nonce")
        _need(key is None or (isinstance(key, str) and len(key) <= 100), "key", "the host's teacher key")
        _need(not proving or key is None, "key", "left out: from version 3 the key is proved, never sent")
        _need(nonce is None or (proving and is_nonce(nonce)), "nonce", "16-64 characters of URL-safe base64")
        return Teacher(key, nonce)
    if kind == "op" and version >= 2:
        ref, op, room, args = data.get("ref"), data.get("op"), data.get("room", ""), data.get("args", {})
        _need(type(ref) is int and 0 <= ref < 2**53, "ref", "a whole number")
        _need(op in TEACHER_OPS, "op", "one of " + ", ".join(TEACHER_OPS))
        _need(isinstance(room, str) and len(room) <= 20, "room", "a room code")
        _need(isinstance(args, dict), "args", "an object")
        return Op(ref, op, room, _op_args(op, args))
    raise ProtocolError("unknown_type", f"unknown message type {str(kind)[:30]!r}: a player sends "
                                        "join, proof, intent or leave; a teacher also teacher and op")


def _op_args(op: str, args: dict) -> dict:
    """``args`` checked against :data:`TEACHER_OPS` (unknown names are dropped)."""
    checked = {}
    for name, kind in TEACHER_OPS[op].items():
        value = args.get(name)
        if value is None:
            _need(kind.endswith("?") or kind == "seat?", name, f"given for {op}")
            continue
        kind = kind.rstrip("?")
        ok = {"str": lambda v: isinstance(v, str) and len(v) <= 200,
              "int": lambda v: type(v) is int and abs(v) < 10**15,
              "num": lambda v: type(v) in (int, float) and 0 < v < 100,
              "bool": lambda v: isinstance(v, bool),
              "seat": lambda v: type(v) is int and 0 <= v < 100,
              "file": lambda v: (isinstance(v, dict) and isinstance(v.get("name"), str) and len(v["name"]) <= 200
                                 and isinstance(v.get("data"), str))}[kind](value)
        _need(ok, name, {"str": "text", "int": "a whole number", "num": "a number", "bool": "true or false",
                         "seat": "a seat number", "file": "a file: {name, data (base64)}"}[kind])
        checked[name] = value
    return checked


def clean_name(name: str) -> str:
    """A player's name as the room shows it: characters that draw nothing left
    out (:func:`.names.visible`), spaces collapsed, 1-40 printable characters.

    Raises:
        ProtocolError: empty (or only invisible, or no letter, digit or sign), too
            long, holding control characters, or a letter under more than
            :data:`~.names.MAX_STACKED_MARKS` accents.
    """
    text = " ".join(visible(name).split())
    if not text:
        raise ProtocolError("bad_field", "type your name to join")
    if len(text) > MAX_NAME:
        raise ProtocolError("bad_field", f"a name has at most {MAX_NAME} characters")
    if any(not c.isprintable() and c not in "\u200c\u200d" for c in text):
        raise ProtocolError("bad_field", "a name cannot hold control characters")
    if not any(unicodedata.category(c)[0] in "LNS" for c in text):
        raise ProtocolError("bad_field", "type your name to join: a name needs a letter, a digit or a sign")
    if stacked_marks(text) > MAX_STACKED_MARKS:
        raise ProtocolError("bad_field", f"a name has at most {MAX_STACKED_MARKS} accents on one letter")
    return text


def intent_action(seat: int, intent: dict) -> Action:
    """The engine action for ``seat``'s intent (see the module docstring).

    A player's answer is an option or a number: ``null`` is refused
    (``bad_field``) and the answer stays open, so a client that sends
    nothing by mistake has not given up its one answer; only the time
    running out records "no answer" (D3).

    Raises:
        ProtocolError: not one of the intents, or a field of the wrong type.
    """
    kind = intent.get("kind")
    if kind in ("pick", "attack"):
        territory = intent.get("territory")
        _need(isinstance(territory, str) and 0 < len(territory) <= 100, "territory", "a territory id")
        if kind == "pick":
            return Pick(seat, territory)
        wings = intent.get("wings", False)
        _need(isinstance(wings, bool), "wings", "true or false")
        return Attack(seat, territory, wings=wings)
    if kind == "rebuild":
        return Rebuild(seat)
    if kind == "choice":
        option = intent.get("option")
        _need(type(option) is int and 0 <= option <= 3, "option", "0, 1, 2 or 3")  # null is no answer: refused
        return ChoiceAnswer(seat, option)
    if kind == "guess":
        value = intent.get("value")
        _need(type(value) is int and abs(value) < 10**15, "value", "a whole number")  # (the clock gives no answer)
        return GuessAnswer(seat, value)
    raise ProtocolError("bad_field", f"unknown intent {str(kind)[:30]!r}: one of {', '.join(INTENT_KINDS)}")


def action_intent(action: Action) -> dict:
    """The intent that sends ``action`` (the client's side of :func:`intent_action`).

    Raises:
        ValueError: an action a player cannot send (a timeout, a draw).
    """
    if isinstance(action, Pick):
        return {"kind": "pick", "territory": action.territory}
    if isinstance(action, Attack):
        return {"kind": "attack", "territory": action.territory, "wings": action.wings}
    if isinstance(action, Rebuild):
        return {"kind": "rebuild"}
    if isinstance(action, ChoiceAnswer):
        return {"kind": "choice", "option": action.option}
    if isinstance(action, GuessAnswer):
        return {"kind": "guess", "value": action.value}
    raise ValueError(f"a player cannot send {action!r}")


def map_to_plain(game_map: GameMap) -> dict:
    """What a player's screen needs to draw ``game_map``: names, borders,
    geometry, label points and framing (nothing of the game), and where it
    comes from for the line under it (``"builtin"``: a shipped map, made
    with Natural Earth; else the teacher's ``"file"`` name), so every screen
    credits it alike."""
    board = game_map.board
    return {
        "name": board.name, "title": game_map.title, "center": list(game_map.center), "zoom": game_map.zoom,
        "builtin": is_builtin_map(game_map), "file": Path(game_map.source_path or f"{board.name}.geojson").name,
        "bounds": [list(game_map.bounds[0]), list(game_map.bounds[1])],
        "territories": [{"id": t, "name": board.names[t], "borders": sorted(board.adjacency[t]),
                         "label": list(game_map.labels[t]), "geometry": game_map.features[t]["geometry"]}
                        for t in board.territories],
    }


def map_from_plain(data: Any) -> GameMap:
    """Rebuild the map a host sent (:func:`map_to_plain`).

    Raises:
        ProtocolError: the map is not in that shape.
    """
    try:
        territories = data["territories"]
        names = {t["id"]: t["name"] for t in territories}
        board = Board(data["name"], names, {t["id"]: t["borders"] for t in territories})
        features = {t["id"]: {"type": "Feature", "properties": {"id": t["id"], "name": t["name"]},
                              "geometry": t["geometry"]} for t in territories}
        (s, w), (n, e) = data["bounds"]
        return GameMap(board=board, title=str(data["title"]), center=tuple(data["center"]),
                       zoom=float(data["zoom"]), bounds=((s, w), (n, e)),
                       labels={t["id"]: tuple(t["label"]) for t in territories}, features=features,
                       source_path=_sent_source(data))
    except (KeyError, TypeError, ValueError) as error:
        raise ProtocolError("bad_field", f"the room sent a map this screen cannot read ({error})") from None


def _sent_source(data: dict) -> Path:
    """The source a sent map is credited with: a shipped map's own file
    (``"builtin"``), else the file name the teacher's map was read from (a
    host that did not say: the map's name)."""
    file = str(data.get("file") or f"{data['name']}.geojson")
    return builtin_map_dir() / Path(file).name if data.get("builtin", False) else Path(Path(file).name)


def _need(ok: bool, field: str, what: str) -> None:
    if not ok:
        raise ProtocolError("bad_field", f"{field} must be {what}")


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


