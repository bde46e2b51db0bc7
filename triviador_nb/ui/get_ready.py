"""The 3-2-1 before the first question (issue 24), drawn from the table's get-ready.

The table owns the get-ready (``classroom.table``: Start, then
``get_ready_s`` seconds, then the first prompt and its timer); every screen
is sent the seconds left in its view (``View.get_ready_s``). This small
anywidget shows them big: the kernel sends the seconds left once (and again
when they change: a view sent later, a hold), and the browser counts down
from there to the whole second (3, 2, 1), so a screen sends one message for
the whole get-ready, not one a second. When the table puts the first prompt,
the view's ``get_ready_s`` is 0 and the box goes.
"""

from __future__ import annotations

import math

import anywidget
import traitlets

from ..engine.view import View
from ..i18n import _

_ESM = r"""
function draw(model, el, state) {
  const seconds = model.get("seconds");
  el.style.display = seconds > 0 ? "" : "none";
  if (!(seconds > 0)) return;
  const running = model.get("running");
  const left = running ? Math.max(0, seconds - (performance.now() - state.since) / 1000) : seconds;
  const shown = Math.max(1, Math.ceil(left - 1e-6));
  el.querySelector(".tnb-ready-title").textContent = model.get("title");
  el.querySelector(".tnb-ready-number").textContent = String(shown);
}

export default {
  render({ model, el }) {
    el.classList.add("tnb-ready");
    el.setAttribute("role", "status");
    el.innerHTML = '<div class="tnb-ready-title"></div><div class="tnb-ready-number"></div>';
    const state = { since: performance.now() };
    const restart = () => { state.since = performance.now(); draw(model, el, state); };
    const timer = setInterval(() => draw(model, el, state), 100);
    model.on("change:seconds change:running change:serial", restart);
    restart();
    return () => { clearInterval(timer); model.off("change:seconds change:running change:serial", restart); };
  },
};
"""


class GetReady(anywidget.AnyWidget):
    """The get-ready box: "Get ready!" and a big 3, 2, 1.

    Attributes:
        seconds: seconds left of the get-ready when the view was made (0: the box is hidden).
        running: the seconds count down (False while the teacher holds the game).
        serial: grows with every get-ready, so a new one counts from its start
            even when its seconds equal the last one's.
        title: the words above the number, in the screen's language.
    """

    _esm = _ESM
    _css = """
    .tnb-ready { text-align: center; border: 3px solid #E69F00; background: #FFF3C4; border-radius: 12px;
      padding: 8px; margin: 6px 0; }
    .tnb-ready-title { font-size: 30px; font-weight: bold; }
    .tnb-ready-number { font-size: 120px; font-weight: bold; line-height: 1; color: #A03800; }
    """
    seconds = traitlets.Float(0.0).tag(sync=True)
    running = traitlets.Bool(True).tag(sync=True)
    serial = traitlets.Int(0).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)

    def show(self, view: View) -> None:
        """Follow ``view``'s get-ready (one message when it starts, changes or ends)."""
        seconds = view.get_ready_s if view.started and not view.is_over else 0.0
        with self.hold_sync():
            if seconds > 0 and not self.seconds:
                self.serial += 1
                self.title = _("Get ready!")
            if seconds > 0 or self.seconds > 0:  # with no get-ready shown, a pause changes nothing here
                self.running = not view.paused
            self.seconds = seconds

    @property
    def number(self) -> int:
        """The number the box shows when the view arrives (0: hidden): what tests read."""
        return 0 if self.seconds <= 0 else max(1, math.ceil(self.seconds - 1e-6))
