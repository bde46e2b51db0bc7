"""An HTML widget that sends only the changed middle of its value.

The single screen's lines (status, "n of m answered", the place line, the
question's header, text and feedback, the countdown's seconds) change a few
characters at a time, yet an ``ipywidgets.HTML`` sends its whole value, wrapper
markup included, every time (benchmarks/screen_traffic.py: 130-230 bytes a
message, most of a move). :class:`SplicedHTML` is a drop-in for it: setting
``value`` sends splices ``[at, cut, put]`` - at ``at``, drop ``cut``
characters and insert ``put`` - for the parts that changed (a class and a
text apart, :func:`splices`), when that message is shorter than the whole
value's, in a custom message (its content the list of splices itself) the browser applies to its copy; the kernel's copy is updated as the
browser's is (ipywidgets' property lock: the value the browser has is not sent
again), so a page that loads the widget later gets the whole value. Offsets
count UTF-16 code units, as JavaScript strings do.

The browser draws it as ``ipywidgets.HTML`` does (``widget-html`` around a
``widget-html-content``), so the page's CSS applies unchanged.
"""

from __future__ import annotations

import json
from difflib import SequenceMatcher

import anywidget
import traitlets

_ESM = r"""
export default {
  initialize({ model }) {
    model.on("msg:custom", (message) => {
      if (Array.isArray(message)) {  // the splices themselves: no key around them (12 bytes a message)
        let value = model.get("value");
        for (const [at, cut, put] of message) {  // last first: each leaves the offsets before it
          value = value.slice(0, at) + put + value.slice(at + cut);
        }
        model.set("value", value);  // in this page only: the kernel has it already
      }
    });
  },
  render({ model, el }) {
    el.classList.add("widget-inline-hbox", "widget-html");
    const content = document.createElement("div");
    content.className = "widget-html-content";
    el.appendChild(content);
    const draw = () => { content.innerHTML = model.get("value"); };
    draw();
    model.on("change:value", draw);
    return () => model.off("change:value", draw);
  },
};
"""

SPLICE = 12  # about what a splice costs in JSON beyond its text ('[22, 128, ""], '): shorter runs kept are re-sent
DIFF_LIMIT = 4000  # longer values are compared by their common start and end only (difflib is quadratic)


def _size(message: dict) -> int:
    """Bytes of ``message`` as Jupyter sends it (JSON, UTF-8)."""
    return len(json.dumps(message, ensure_ascii=False).encode("utf-8"))


def _units(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (JavaScript's string length)."""
    return len(text.encode("utf-16-le")) // 2


def splice(old: str, new: str) -> tuple[int, int, str]:
    """``(at, cut, put)`` turning ``old`` into ``new``, offsets in UTF-16 code units:
    ``new == old[:at] + put + old[at + cut:]`` (counted in code units)."""
    limit = min(len(old), len(new))
    start = 0
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[-1 - end] == new[-1 - end]:
        end += 1
    put = new[start:len(new) - end]
    return _units(old[:start]), _units(old[start:len(old) - end]), put


def splices(old: str, new: str) -> list[tuple[int, int, str]]:
    """The splices turning ``old`` into ``new``, last first (so each one's offsets, in UTF-16 code
    units, hold when those after it were applied); unchanged runs shorter than :data:`SPLICE`
    characters are sent again rather than split around."""
    if len(old) > DIFF_LIMIT or len(new) > DIFF_LIMIT:
        return [splice(old, new)]
    merged: list[list[int]] = []  # [old_start, old_end, new_start, new_end]
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if merged and i1 - merged[-1][1] < SPLICE:
            merged[-1][1], merged[-1][3] = i2, j2
        else:
            merged.append([i1, i2, j1, j2])
    return [(_units(old[:i1]), _units(old[i1:i2]), new[j1:j2]) for i1, i2, j1, j2 in reversed(merged)]


class SplicedHTML(anywidget.AnyWidget):
    """An ``HTML`` widget whose changes travel as splices (see the module).

    Attributes:
        value: the HTML shown (the caller escapes any text in it).
    """

    _esm = _ESM
    value = traitlets.Unicode("").tag(sync=True)

    def notify_change(self, change: dict) -> None:
        name, old, new = change.get("name"), change.get("old"), change.get("new")
        if (name != "value" or self.comm is None or self._holding_sync or "value" in self._property_lock
                or not isinstance(old, str) or not isinstance(new, str)):
            super().notify_change(change)
            return
        message = [list(part) for part in splices(old, new)]  # the content is the list: no key around it
        if _size({"method": "custom", "content": message}) >= _size(
                {"method": "update", "state": {"value": new}, "buffer_paths": []}):  # no shorter: send it whole
            super().notify_change(change)
            return
        self.send(message)
        with self._lock_property(value=new):  # the browser has it now: the kernel's copy follows unsent
            super().notify_change(change)
