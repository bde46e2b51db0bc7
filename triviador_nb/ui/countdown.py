"""The question panel's countdown: a number and a bar that the browser counts down itself.

The kernel sent the seconds left once a second (a bar and a number: two
messages, about 130 bytes a second, 12-14% of what the single screen sent,
benchmarks/screen_traffic.py). :class:`Countdown` is sent the seconds left
when a timer starts, stops (a pause) or goes on (Resume), and the browser
counts down from there to the whole second, as the 3-2-1 does
(:mod:`.get_ready`). The kernel's screen still follows the deadline every
0.25 s (:meth:`Countdown.follow`): that keeps its copy of ``value`` current
(what tests read) without sending it; it is sent again only when the time
left grows (a timer the table gave time back, e.g. an undo) or the count
stops or goes on.

The words come from the kernel (``words``: ``"{seconds} s"`` in the screen's
language); the label keeps the class ``tnb-timer`` the page's CSS sizes.
"""

from __future__ import annotations

import anywidget
import traitlets

_ESM = r"""
function draw(model, el, state) {
  const total = model.get("max");
  const running = model.get("running");
  const left = running ? Math.max(0, model.get("value") - (performance.now() - state.since) / 1000)
                       : model.get("value");
  const shown = Math.max(0, Math.round(left));
  state.label.textContent = total > 0 ? model.get("words").replace("{seconds}", String(shown)) : "";
  const share = total > 0 ? Math.min(1, shown / total) : 0;
  state.fill.style.width = (100 * share).toFixed(1) + "%";
  state.fill.className = "tnb-timer-fill tnb-timer-" + (shown <= 3 ? "danger" : shown <= total / 2 ? "warning" : "info");
}

export default {
  initialize({ model }) {
    model.on("msg:custom", (message) => {
      if (typeof message === "number") {  // a timer of that many seconds starts (0: none), as start() and clear() set it
        const seconds = message;
        model.set({ max: seconds, value: seconds, running: seconds > 0, serial: model.get("serial") + 1 });
      }  // in this page only: the kernel has it already
    });
  },
  render({ model, el }) {
    el.classList.add("tnb-countdown");
    el.innerHTML = '<div class="tnb-timer"></div><div class="tnb-timer-bar"><div class="tnb-timer-fill"></div></div>';
    const state = { since: performance.now(), label: el.querySelector(".tnb-timer"),
                    fill: el.querySelector(".tnb-timer-fill") };
    const restart = () => { state.since = performance.now(); draw(model, el, state); };
    const timer = setInterval(() => draw(model, el, state), 200);
    const events = "change:value change:max change:running change:serial change:words";
    model.on(events, restart);
    restart();
    return () => { clearInterval(timer); model.off(events, restart); };
  },
};
"""

_CSS = """
.tnb-countdown { width: 100%; }
.tnb-timer-bar { width: 100%; height: 14px; background: #e6e6e6; border-radius: 2px; overflow: hidden; margin: 2px 0; }
.tnb-timer-fill { height: 100%; transition: width 1s linear; }
.tnb-timer-info { background: #2196f3; }
.tnb-timer-warning { background: #ff9800; }
.tnb-timer-danger { background: #f44336; }
"""


class Countdown(anywidget.AnyWidget):
    """Seconds left on a timer, drawn as ``"12 s"`` over a bar.

    Attributes:
        max: the timer's length in seconds (0: no timer, nothing shown).
        value: seconds left when last set (the kernel's copy follows the deadline, see the module).
        running: the browser counts down (False: paused, run out or cleared).
        serial: grows with each timer started or cleared, so one of the same length counts from its start.
        words: the label, ``{seconds}`` standing for the whole seconds left.
    """

    _esm = _ESM
    _css = _CSS
    max = traitlets.Float(0.0).tag(sync=True)
    value = traitlets.Float(0.0).tag(sync=True)
    running = traitlets.Bool(False).tag(sync=True)
    serial = traitlets.Int(0).tag(sync=True)
    words = traitlets.Unicode("{seconds} s").tag(sync=True)

    def start(self, seconds: float, words: str) -> None:
        """A new timer of ``seconds``, running (one message, its content the number: 36 bytes where the
        changed state took about 105; the whole state when the words changed)."""
        self._go(float(seconds), words)

    def _go(self, seconds: float, words: str) -> None:
        """``max`` and ``value`` become ``seconds`` (0: no timer), running when above 0, in a new
        ``serial``: a custom message the browser applies to its copy (the kernel's copy is set
        unsent), or the whole changed state when the words changed."""
        same_words = words == self.words
        state = {"max": seconds, "value": seconds, "running": seconds > 0, "serial": self.serial + 1, "words": words}
        with self._lock_property(**state):
            self.max, self.value, self.running, self.serial, self.words = state.values()
        if same_words:
            self.send(seconds)  # the content is the number itself
        else:
            self.send_state(list(state))

    def follow(self, seconds: float, running: bool = True) -> None:
        """The deadline says ``seconds`` are left: sent only when the count starts or stops (a pause,
        Resume) or the time left grew by more than half a second; else the browser counts it down itself."""
        seconds = max(0.0, seconds)
        if running != self.running or seconds > self.value + 0.5:
            with self._lock_property(value=seconds, running=running):
                self.value, self.running = seconds, running
            self.send_state(["value", "running"])
            return
        with self._lock_property(value=seconds):  # the browser counts it down itself
            self.value = seconds

    def clear(self) -> None:
        """No timer: nothing shown (one message, its content ``0.0``, when one was shown)."""
        if self.max:
            self._go(0.0, self.words)

    @property
    def label(self) -> str:
        """The label as the browser shows it when ``value`` is current ("" with no timer): what tests read."""
        return self.words.replace("{seconds}", f"{max(0.0, self.value):.0f}") if self.max > 0 else ""
