"""Rooms: students playing from their own kernels, the teacher's kernel hosting.

- :mod:`.codes`: room codes (``K7-PQ45``) and the port they name.
- :mod:`.protocol`: the versioned JSON messages (``docs/rooms-protocol.md``).
- :mod:`.host`: :class:`RoomHost`, serving rooms from its own thread and loop.
- :mod:`.client`: :class:`RoomClient`, a student's connection.
- :mod:`.store`: room records behind one small interface.
- :mod:`.guard`: rate limits against floods and code guessing.

No widgets here: the screens are in ``triviador_nb.ui`` (``host()``, ``join()``).
"""

from .client import JoinError, RemoteSource, RoomClient, room_url
from .codes import CodeError
from .host import Room, RoomHost

__all__ = ["CodeError", "JoinError", "RemoteSource", "Room", "RoomClient", "RoomHost", "room_url"]
