"""The scoreboard as widgets: each player's line in parts that reach the browser only when they change.

One HTML table for the whole scoreboard was sent again on every move (about
4 KB with the castle drawings: 55% of what the single screen sent,
benchmarks/screen_traffic.py), though a move changes one or two of its
parts: whose turn it is, a score, a territory count. Here each player's line
is a box of four small HTML widgets (name, status, castle, score) whose
values are set only when they differ, and the turn and "out of the game"
are CSS classes of the lines' box (``tnb-acting-2``, ``tnb-out-3``: line 2 acts, line 3 is
out), so the turn passing sends one short class list.
"""

from __future__ import annotations

from typing import Mapping

import ipywidgets as w

from ..engine.view import View
from .panels import PlayerRow, scoreboard_rows
from .spliced_html import SplicedHTML


class Scoreboard:
    """The players' lines (:func:`~.panels.scoreboard_rows`), one box each.

    Attributes:
        widget: the ``VBox`` to display (class ``tnb-scores``), holding the box of the lines.
    """

    def __init__(self) -> None:
        # the lines' box carries only the turn's classes, inside the box of class tnb-scores: passing the
        # turn sends ["tnb-acting-2"], not the constant "tnb-scores" with it (14 bytes of most moves)
        self._board = w.VBox(layout={"width": "100%"})
        self.widget = w.VBox([self._board], layout={"width": "100%"})
        self.widget.add_class("tnb-scores")
        self._lines: list[tuple[w.HBox, tuple[SplicedHTML, SplicedHTML, SplicedHTML, w.HTML]]] = []
        self._rows: list[PlayerRow] = []

    def show(self, view: View, roles: Mapping[int, str]) -> None:
        """Show ``view``'s players; only the parts that changed are sent."""
        rows = scoreboard_rows(view, roles)
        while len(self._lines) < len(rows):
            who, status, castle, score = SplicedHTML(), SplicedHTML(), SplicedHTML(), w.HTML()
            castle.add_class("tnb-castle")
            score.add_class("tnb-score")
            line = w.HBox([w.VBox([who, status], layout={"flex": "1 1 auto"}), castle, score],
                          layout={"width": "100%", "align_items": "center"})
            line.add_class("tnb-player")
            self._lines.append((line, (who, status, castle, score)))
        if len(self._board.children) != len(rows):
            self._board.children = tuple(line for line, _parts in self._lines[:len(rows)])
        # whose turn it is and who is out: classes of the whole board (one message when the turn passes,
        # where a class on each line changed sent two), drawn on the lines by CSS (styles.py)
        classes = tuple(f"{kind}-{place + 1}" for place, row in enumerate(rows) for kind in row.classes[1:])
        if tuple(self._board._dom_classes) != classes:
            self._board._dom_classes = classes
        for (_line, (who, status, castle, score)), row in zip(self._lines, rows):
            who.value, status.value, castle.value, score.value = row.who, row.status, row.castle, row.score
        self._rows = rows

    @property
    def value(self) -> str:
        """The scoreboard's HTML as shown, every line's parts in order (what tests read)."""
        return "".join(f'<div class="{" ".join(row.classes)}">{row.who}{row.status}{row.castle}'
                       f'<b class="tnb-score">{row.score}</b></div>' for row in self._rows)
