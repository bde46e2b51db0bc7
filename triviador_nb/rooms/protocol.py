"""The room protocol, version 1: JSON messages between a room host and its players.

Every message is one WebSocket text frame holding a JSON object with ``"v": 1``
and a ``"type"``. The full description, with examples, is in
``docs/rooms-protocol.md``; this module is its one implementation, used by the
host and by the client alike.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine import Action, Attack, ChoiceAnswer, GuessAnswer, Pick, Rebuild
from ..engine.board import Board
from ..maps import GameMap

VERSION = 1
MAX_CLIENT_MESSAGE = 8 * 1024  # bytes: the longest intent is well under 1 KiB
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
    room: str
    name: str
    token: str | None = None
    want_map: bool = True


@dataclass(frozen=True)
class Intent:
    ref: int
    token: str
    state_id: str
    intent: dict


@dataclass(frozen=True)
class Leave:
    token: str


ClientMessage = Join | Intent | Leave


def dumps(kind: str, **fields: Any) -> str:
    """One protocol message as text: ``{"v": 1, "type": kind, **fields}``."""
    return json.dumps({"v": VERSION, "type": kind, **fields}, ensure_ascii=False, separators=(",", ":"))


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
    if data.get("v") != VERSION or isinstance(data.get("v"), bool):
        raise ProtocolError("wrong_version", f"this room speaks protocol version {VERSION}; "
                                             "update triviador_nb to the teacher's version")
    kind = data.get("type")
    if kind == "join":
        room, name, token = data.get("room"), data.get("name"), data.get("token")
        _need(isinstance(room, str) and len(room) <= 20, "room", "the room code")
        _need(isinstance(name, str), "name", "a name")
        _need(token is None or (isinstance(token, str) and len(token) <= 100), "token", "the seat's token")
        want_map = data.get("map", True)
        _need(isinstance(want_map, bool), "map", "true or false")
        return Join(room, clean_name(name), token, want_map)
    if kind == "intent":
        ref, token, state_id, intent = (data.get(k) for k in ("ref", "token", "state_id", "intent"))
        _need(type(ref) is int and 0 <= ref < 2**53, "ref", "a whole number")
        _need(isinstance(token, str) and len(token) <= 100, "token", "the seat's token")
        _need(isinstance(state_id, str) and len(state_id) <= 40, "state_id", "the view's state id")
        _need(isinstance(intent, dict), "intent", "an object")
        return Intent(ref, token, state_id, intent)
    if kind == "leave":
        token = data.get("token")
        _need(isinstance(token, str) and len(token) <= 100, "token", "the seat's token")
        return Leave(token)
    raise ProtocolError("unknown_type", f"unknown message type {str(kind)[:30]!r}: a player sends "
                                        "join, intent or leave")


def clean_name(name: str) -> str:
    """A player's name as the room shows it: spaces collapsed, 1-40 printable characters.

    Raises:
        ProtocolError: empty, too long, or holding control characters.
    """
    text = " ".join(name.split())
    if not text:
        raise ProtocolError("bad_field", "type your name to join")
    if len(text) > MAX_NAME:
        raise ProtocolError("bad_field", f"a name has at most {MAX_NAME} characters")
    if any(not c.isprintable() for c in text):
        raise ProtocolError("bad_field", "a name cannot hold control characters")
    return text


def intent_action(seat: int, intent: dict) -> Action:
    """The engine action for ``seat``'s intent (see the module docstring).

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
        _need(option is None or (type(option) is int and 0 <= option <= 3), "option", "0, 1, 2 or 3")
        return ChoiceAnswer(seat, option)
    if kind == "guess":
        value = intent.get("value")
        _need(value is None or (type(value) is int and abs(value) < 10**15), "value", "a whole number")
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
    geometry, label points and framing (nothing of the game)."""
    board = game_map.board
    return {
        "name": board.name, "title": game_map.title, "center": list(game_map.center), "zoom": game_map.zoom,
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
                       source_path=Path(f"{data['name']}.geojson"))
    except (KeyError, TypeError, ValueError) as error:
        raise ProtocolError("bad_field", f"the room sent a map this screen cannot read ({error})") from None


def _need(ok: bool, field: str, what: str) -> None:
    if not ok:
        raise ProtocolError("bad_field", f"{field} must be {what}")


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


