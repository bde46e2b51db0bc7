"""Rooms: students playing from their own kernels, the teacher's kernel hosting.

- :mod:`.codes`: room codes (``K7-PQ45``) and the port they name.
- :mod:`.protocol`: the versioned JSON messages (``docs/rooms-protocol.md``).
- :mod:`.rooms`: :class:`Rooms`, the rooms' logic (lobbies, seats, keys,
  limits, tables, teachers) on a clock it is given, with no transport.
- :mod:`.host`: :class:`RoomHost`, serving the rooms over WebSockets from its own thread and loop.
- :mod:`.client`: :class:`RoomClient`, a student's connection.
- :mod:`.store`: room records behind one small interface.
- :mod:`.guard`: rate limits against floods and code guessing.

No widgets here: the screens are in ``triviador_nb.ui`` (``host()``, ``join()``).
"""

from ..lazy import lazy_names

from .codes import CodeError

_WHERE = {"JoinError": "client", "RoomClient": "client", "room_url": "client", "RoomHost": "host", "Room": "rooms",
          "RoomError": "rooms", "Rooms": "rooms"}


__all__ = ["CodeError", "JoinError", "Room", "RoomClient", "RoomError", "RoomHost", "Rooms",
           "room_url"]

# each name is imported when first asked for: a student's kernel needs the client alone, not the host, its rooms
# and their banks (issue 24)
__getattr__, __dir__ = lazy_names(__name__, _WHERE)
