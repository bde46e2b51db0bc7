"""The game's log beside the map, sending only its new lines.

The log shows the latest events, newest first. As one HTML value it was
sent whole on every move (9 lines, 500-850 bytes: the largest part of a move
once the scoreboard sent only its changes, benchmarks/screen_traffic.py).
:class:`EventLog` is a small anywidget: when the lines shown are new ones on
top of those shown before, only the new lines travel, as [kind, text] pairs
in a custom message (``[lines shown, [kind, text], ...]``) that the browser adds to the top; the kernel's copy of ``lines`` is updated
as the browser's is (ipywidgets' property lock: the value the browser has
already is not sent again), so a page that loads the widget later gets every
line. Any other change (a new game, an undo) sends the lines whole.
"""

from __future__ import annotations

import re
from typing import Sequence

import anywidget
import traitlets

_ESM = r"""
function draw(model, el) {
  el.innerHTML = '<ul class="tnb-log">' + model.get("lines").join("") + "</ul>";
}

export default {
  initialize({ model }) {
    model.on("msg:custom", (message) => {
      if (Array.isArray(message)) {  // [lines shown, [kind, text], ...]: the lines' own markup is made here
        const [keep, ...pairs] = message;
        const added = pairs.map(([kind, text]) => '<li class="tnb-ev-' + kind + '">' + text + "</li>");
        const kept = model.get("lines").slice(0, keep - added.length);
        model.set("lines", [...added, ...kept]);  // in this page only: the kernel has it already
      }
    });
  },
  render({ model, el }) {
    draw(model, el);
    const redraw = () => draw(model, el);
    model.on("change:lines", redraw);
    return () => model.off("change:lines", redraw);
  },
};
"""


# a line as panels.log_lines makes it: its kind and text travel alone (the browser adds the markup)
_LINE = re.compile(r'<li class="tnb-ev-([a-z_-]+)">(.*)</li>', re.DOTALL)


class EventLog(anywidget.AnyWidget):
    """The log's lines, newest first, each an HTML ``<li>`` (its text escaped by the caller).

    Attributes:
        lines: the lines shown.
    """

    _esm = _ESM
    lines = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def show(self, lines: Sequence[str]) -> None:
        """Show ``lines``; when they are new lines on top of the ones shown, only those are sent."""
        lines, old = list(lines), list(self.lines)
        if lines == old:
            return
        added = next((count for count in range(1, len(lines)) if lines[count:] == old[:len(lines) - count]), 0)
        pairs = [_LINE.fullmatch(line) for line in lines[:added]]
        if not added or not old or not all(pairs):
            self.lines = lines
            return
        self.send([len(lines), *(list(pair.groups()) for pair in pairs)])  # a bare list: no keys to send
        with self._lock_property(lines=lines):  # the browser has them now: the kernel's copy follows unsent
            self.lines = lines

    @property
    def value(self) -> str:
        """The log's HTML as the browser draws it (what tests read)."""
        return f'<ul class="tnb-log">{"".join(self.lines)}</ul>'
