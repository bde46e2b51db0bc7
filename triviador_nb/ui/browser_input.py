"""What the browser sends to the kernel: map clicks and answer keys, never hover.

ipyleaflet (0.20) sends every ``click dblclick mousedown mouseup mouseover
mouseout mousemove contextmenu preclick`` of the map and of each layer to the
kernel, unconditionally (``leaflet_events`` in jupyter-leaflet's ``Layer.ts``
and ``Map.ts``; no option turns it off). Measured in JupyterLab: 200 mouse
sweeps over a game map sent 6,632 messages (4.3 MB) and cost 10.3 s of kernel
CPU. :class:`BrowserInput` is a tiny anywidget whose script stops those mouse
events, except ``click``, before Leaflet sees them, for every element inside a
``.tnb-map``: Leaflet still turns a click into a territory click, and nothing
else reaches the kernel. The game map does not drag, zoom or take keyboard
focus (see ``map_view.py``), so Leaflet needs no other mouse event. Stopping
``mousedown`` also keeps JupyterLab from activating (and scrolling to) the
cell under a click on the map.

Inside a question panel it also makes the keyboard answer, reading the
panel's own controls: while the option buttons are enabled, keys 1-4 and A-D
press them (the button's own click handler runs, so nothing is special about
a key); when the number box becomes enabled (a guess question opens) it takes
focus at once, and a digit typed anywhere else on the page goes into it.
Those keys are taken from JupyterLab's command mode: "1" there would turn the
game's cell into a heading and wipe the game from the screen. Only while the
question panel is on screen, and never from someone typing in an editor or a
text box: a teacher writing in another cell keeps the focus and every key. Nothing is
decided here: the kernel takes an answer only while it is open.

A game screen that appears (after Run All, or at Start on a student's screen
and the projector) is scrolled to the top of the window, unless the person
at the page scrolls, clicks or types first (issue 24: after Run All the game
was 491-1,661 px out of view).
"""

from __future__ import annotations

import anywidget

_ESM = r"""
const QUIET = ["mousedown", "mouseup", "mouseover", "mouseout", "mousemove", "dblclick", "contextmenu"];

function quietMaps() {
  if (window.__tnbQuietMaps) return;
  window.__tnbQuietMaps = true;
  const stop = (event) => {
    const target = event.target;
    if (target instanceof Element && target.closest(".tnb-map")) event.stopPropagation();
  };
  for (const type of QUIET) window.addEventListener(type, stop, true);
}

function typing(target) {
  return target instanceof Element &&
    target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']") !== null;
}

function usable(element) {
  return element !== null && element !== undefined && !element.disabled && element.offsetParent !== null;
}

function onScreen(element) {
  const r = element.getBoundingClientRect();
  return r.width > 0 && r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
}

// A game that appears (Run All, a student's screen at Start, the projector at Start) is brought into view,
// its top at the top of the window, unless the person at the page scrolls, clicks or types after it
// appeared: after Run All the game was 500-1,700 px out of view and a student hunted for Start (issue 24).
const LOOKS_S = [0.6, 2.0, 4.5];  // Run All goes on running (and scrolling to) the cells below for a while

function intoView(el) {
  const root = el.closest(".tnb-view-whole") ?? el.closest(".tnb-root");  // a student's screen: its room line too
  if (root === null || root.dataset.tnbSeen) return;
  root.dataset.tnbSeen = "1";
  let touched = false;
  const touch = () => { touched = true; };
  const events = ["pointerdown", "keydown", "wheel", "touchstart"];
  for (const type of events) window.addEventListener(type, touch, { capture: true, passive: true });
  for (const at of LOOKS_S) {
    setTimeout(() => {
      if (touched || !root.isConnected) return;
      const box = root.getBoundingClientRect();
      if (box.top < -4 || box.top > window.innerHeight * 0.25) root.scrollIntoView({ block: "start" });
    }, at * 1000);
  }
  setTimeout(() => { for (const type of events) window.removeEventListener(type, touch, { capture: true }); },
             LOOKS_S[LOOKS_S.length - 1] * 1000 + 100);
}

function render({ model, el }) {
  quietMaps();
  el.classList.add("tnb-browser-input");
  let panel = null;
  let observer = null;
  let boxWasUsable = false;
  const guessBox = () => panel?.querySelector(".tnb-guess input");

  const focusNewGuess = () => {
    const box = guessBox();
    const now = usable(box);
    // not while someone types elsewhere (a teacher in another cell), nor into a game out of view
    if (now && !boxWasUsable && document.activeElement !== box && !typing(document.activeElement) && onScreen(panel)) {
      box.focus({ preventScroll: true });
    }
    boxWasUsable = now;
  };
  const attach = (tries) => {  // the view is put into the page after render()
    panel = el.isConnected ? el.closest(".tnb-question") : null;
    if (panel === null) {
      if (tries > 0 && !el.isConnected) requestAnimationFrame(() => attach(tries - 1));
      return;
    }
    intoView(el);
    observer = new MutationObserver(focusNewGuess);
    observer.observe(panel, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled", "style", "class"] });
    focusNewGuess();
  };
  attach(600);

  const onKey = (event) => {
    if (panel === null || !el.isConnected || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target) || event.key.length !== 1 || !onScreen(panel)) return;
    const buttons = [...panel.querySelectorAll("button.tnb-choice")].filter(usable);
    if (buttons.length === 4) {
      const index = "1234".includes(event.key) ? "1234".indexOf(event.key) : "abcd".indexOf(event.key.toLowerCase());
      if (index < 0) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      buttons[index].click();
      return;
    }
    const box = guessBox();
    if (usable(box) && /[0-9]/.test(event.key)) {
      event.stopImmediatePropagation();  // the digit goes into the box, not to a shortcut
      box.focus({ preventScroll: true });
    }
  };
  window.addEventListener("keydown", onKey, true);
  return () => {
    window.removeEventListener("keydown", onKey, true);
    observer?.disconnect();
  };
}

export default { render };
"""

_CSS = ".tnb-browser-input { display: none; }"


class BrowserInput(anywidget.AnyWidget):
    """An invisible widget that filters what the page sends, and, placed in
    a question panel, answers by keyboard (module docstring). It has no
    state: everything it does follows the page."""

    _esm = _ESM
    _css = _CSS
