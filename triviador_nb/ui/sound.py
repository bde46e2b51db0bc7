"""Sound cues, off by default: one switch turns them on (issue 24).

Three cues, each a small WAV shipped in the package
(``triviador_nb/ui/sounds/``, made by ``tools/make_cues.py``): ``open`` when a
question opens, ``almost`` when its time is almost up (:data:`ALMOST_S`
seconds left), ``reveal`` when its result is shown. :class:`Cues` decides
from the views a screen shows (and its countdown) when each is due;
:class:`Sound` is the switch and the player.

The browser plays them: it blocks sound until the person clicks the page,
so the switch is drawn by this widget and its click opens the page's audio
(a Web Audio context made in the click). Turning it on makes the kernel send
the three files once, as binary buffers over the widget's own connection
(about 50 KB: nothing is fetched from the network, and nothing is sent while
sound is off). Each cue is then a message of a few bytes, ``{"play":
"open"}``, which the browser plays from the files it holds; while the switch
is off no cue message is sent. A page that loads the widget with the switch
on (a reload) turns it off, since it cannot play before a click.
"""

from __future__ import annotations

import uuid
from importlib import resources

import anywidget
import traitlets

from ..engine.view import View
from ..i18n import _

CUES = ("open", "almost", "reveal")  #: the cues, each a file ``sounds/<cue>.wav``
ALMOST_S = 5.0  #: seconds left when the "almost up" cue plays


def cue_file(name: str) -> bytes:
    """The WAV bytes of cue ``name`` from the package.

    Raises:
        ValueError: not one of :data:`CUES`.
    """
    if name not in CUES:
        raise ValueError(f"there is no sound cue {name!r}: the cues are {', '.join(CUES)}")
    return (resources.files(__package__) / "sounds" / f"{name}.wav").read_bytes()


_ESM = r"""
// a loudspeaker, with waves when on (drawn: an emoji needs a font the projector may not have)
const SPEAKER = '<svg class="tnb-sound-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">'
  + '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const WAVES = '<path d="M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13" stroke="currentColor" stroke-width="2" '
  + 'fill="none" stroke-linecap="round"/>';
const MUTED = '<path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';

function label(model, button) {
  const on = model.get("on");
  button.innerHTML = SPEAKER + (on ? WAVES : MUTED) + "</svg> ";
  button.append(on ? model.get("label_on") : model.get("label_off"));
  button.setAttribute("aria-checked", on ? "true" : "false");
  button.classList.toggle("tnb-sound-on", on);
}

const pages = new Map();  // the widget's key -> its audio in this page (shared by its views)

function audioOf(model) {
  const key = model.get("key");
  if (!pages.has(key)) pages.set(key, { context: null, buffers: {}, views: [] });
  return pages.get(key);
}

export default {
  initialize({ model }) {
    const audio = audioOf(model);
    if (model.get("on")) {  // a page loaded (or reloaded) with sound on cannot play before a click: say it is off
      model.set("on", false);
      model.save_changes();
    }
    const decode = async () => {
      const files = model.get("files") || {};
      if (!audio.context) return;
      for (const [name, data] of Object.entries(files)) {
        if (audio.buffers[name]) continue;
        const bytes = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
        audio.buffers[name] = await audio.context.decodeAudioData(bytes);
        audio.sizes = { ...(audio.sizes || {}), [name]: data.byteLength };
      }
    };
    audio.decode = decode;
    model.on("change:files", decode);
    model.on("msg:custom", async (message) => {
      if (!message.play || !model.get("on") || !audio.context) return;
      await decode();
      const buffer = audio.buffers[message.play];
      if (!buffer) return;
      const source = audio.context.createBufferSource();
      source.buffer = buffer;
      source.connect(audio.context.destination);
      source.start();
      audio.played = [...(audio.played || []), message.play];
      for (const el of audio.views || []) {  // what was played, from how many bytes (read by the browser test)
        el.dataset.played = audio.played.join(" ");
        el.dataset.sizes = JSON.stringify(audio.sizes);
      }
    });
  },
  render({ model, el }) {
    const audio = audioOf(model);
    audio.views = [...(audio.views || []), el];
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tnb-sound-switch";
    button.setAttribute("role", "switch");
    button.addEventListener("click", () => {
      const on = !model.get("on");
      if (on && !audio.context) {
        const Context = window.AudioContext || window.webkitAudioContext;
        audio.context = new Context();  // made in the click: the browser lets this page play sound
      }
      if (audio.context && audio.context.state === "suspended") audio.context.resume();
      model.set("on", on);
      model.save_changes();
      label(model, button);
      audio.decode();
    });
    el.appendChild(button);
    const relabel = () => label(model, button);
    model.on("change:on change:label_on change:label_off", relabel);
    relabel();
    return () => {
      model.off("change:on change:label_on change:label_off", relabel);
      audio.views = audio.views.filter((view) => view !== el);
    };
  },
};
"""


class Sound(anywidget.AnyWidget):
    """The sound switch and the player of the cues.

    Attributes:
        on: the switch (off by default; the person's click turns it on).
        files: cue -> its WAV bytes, sent once when the switch is first on.
        label_on, label_off: the switch's words, in the screen's language.
        sent: the cues sent to the browser so far, in order (what tests read).
    """

    _esm = _ESM
    _css = """
    .tnb-sound-switch { font-size: 16px; padding: 4px 12px; border-radius: 16px; border: 2px solid #555;
      background: #fff; color: #1B1B1B; cursor: pointer; white-space: nowrap; display: inline-flex;
      align-items: center; gap: 6px; }
    .tnb-sound-switch.tnb-sound-on { border-color: #0077BB; background: #EAF3FA; font-weight: bold; }
    """
    on = traitlets.Bool(False).tag(sync=True)
    files = traitlets.Dict().tag(sync=True)
    label_on = traitlets.Unicode("").tag(sync=True)
    label_off = traitlets.Unicode("").tag(sync=True)
    key = traitlets.Unicode("").tag(sync=True)  # names this widget's audio in the page (sent when it opens)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(label_on=_("Sound on"), label_off=_("Sound off"), key=uuid.uuid4().hex, **kwargs)
        self.sent: list[str] = []
        self.observe(self._switched, "on")

    def _switched(self, change: dict) -> None:
        if change["new"] and not self.files:
            self.files = {name: cue_file(name) for name in CUES}

    def play(self, name: str) -> bool:
        """Ask the browser to play cue ``name``; nothing is sent while the
        switch is off. Returns whether it was sent.

        Raises:
            ValueError: not one of :data:`CUES`.
        """
        if name not in CUES:
            raise ValueError(f"there is no sound cue {name!r}: the cues are {', '.join(CUES)}")
        if not self.on:
            return False
        self.send({"play": name})
        self.sent.append(name)
        return True


class Cues:
    """When each cue is due, from the views a screen shows and its countdown.

    Args:
        sound: the switch and player the cues go to.
    """

    def __init__(self, sound: Sound):
        self.sound = sound
        self._opened = ""  # the state id of the question whose "open" cue has played
        self._almost = ""  # the state id whose "almost" cue has played
        self._revealed: int | None = None  # the event index of the result whose cue has played

    def follow(self, view: View, held: bool = False) -> None:
        """A new view: ``open`` when a question is put, ``reveal`` when a
        result shows (not when the teacher holds the game: ``held``)."""
        if not view.started or view.is_over or held:
            return
        if view.paused:
            if view.reveal is not None and view.reveal.index != self._revealed:
                self._revealed = view.reveal.index
                self.sound.play("reveal")
        elif view.question is not None and view.get_ready_s <= 0 and view.state_id != self._opened:
            self._opened = view.state_id
            self.sound.play("open")

    def tick(self, state_id: str, seconds_left: float) -> None:
        """The countdown of prompt ``state_id``: ``almost`` once when :data:`ALMOST_S` or fewer seconds are left."""
        if 0 < seconds_left <= ALMOST_S and state_id != self._almost:
            self._almost = state_id
            self.sound.play("almost")
