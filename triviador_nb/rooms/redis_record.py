"""A room's game record in a Redis stream, written as it is played (issue 23).

Each room has a stream ``<prefix>:record:<CODE>`` (the code normalised:
``K7PQ45``). Its entries carry one field, ``line``: a line of the room's
journal, exactly as :class:`~triviador_nb.classroom.Journal` writes it to a
file (:mod:`triviador_nb.classroom.journal`): the header with the room's
setup (who sits where, with their seat keys), then ``{"game": ...}``,
``{"entry": ...}`` and ``{"record": ..., "burned": ...}`` lines. So the
stream read back with :func:`read_record` is a journal
(:func:`~triviador_nb.classroom.journal.parse_journal`): the same
:func:`~triviador_nb.classroom.rebuild_games` replays it, and no process
needs a file of its own.

A room brought back from its journal starts its stream again with a new
header: :func:`read_record` reads from the last header on.

The stream holds seat keys and the games' secrets, as a journal file does:
Redis must be the host processes' alone (README, "Several host processes").
"""

from __future__ import annotations

import json
from typing import Any, Callable

from ..classroom.journal import JournalContents, game_lines, header_line, parse_journal, record_lines


def record_key(prefix: str, normalised_code: str) -> str:
    """The stream of a room's record."""
    return f"{prefix}:record:{normalised_code}"


class StreamRecord:
    """Follows a table and hands each new journal line (JSON text) to ``add``, in order.

    Args:
        add: queues one line for the stream (the shared writer keeps the order).
        table: the room's table (:meth:`~triviador_nb.classroom.Table.on_record`).
        setup: the room's journal setup (:meth:`~.room.Room.journal_setup`).
    """

    def __init__(self, add: Callable[[str], None], table: Any, setup: dict):
        self._add = add
        self._put(header_line(table.game, setup))
        for game in table.games:
            for line in game_lines(game):
                self._put(line)
        self._written = len(table.game.record)
        table.on_record(self._changed)

    def _put(self, line: dict) -> None:
        self._add(json.dumps(line, ensure_ascii=False))

    def _changed(self, what: str, game: Any) -> None:
        for line in record_lines(what, game, self._written):
            self._put(line)
        self._written = len(game.record)


def rewrites_in(lines: list[str]) -> int:
    """The undos and corrections in the last game of a room's stream (its ``record`` lines after
    its last ``game`` line): the table taking the room over counts its state ids on from them."""
    start = max((i for i, line in enumerate(lines) if line.startswith('{"game"')), default=0)
    return sum(1 for line in lines[start:] if line.startswith('{"record"'))


def read_record(lines: list[str], code: str) -> JournalContents:
    """The journal a room's stream holds (its ``line`` fields, oldest first), from its last header on.

    Raises:
        JournalError: no header, or not a journal of this version (as a file's).
    """
    start = max((i for i, line in enumerate(lines) if line.startswith('{"journal"')), default=0)
    return parse_journal(("\n".join(lines[start:]) + "\n").encode(), f"the record of room {code}")
