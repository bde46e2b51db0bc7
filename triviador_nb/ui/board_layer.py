"""A big map's territories as one layer: one SVG of every shape, and a tiny widget for their looks.

Each territory as its own ipyleaflet ``Polygon`` costs a widget of about 1.3 KB and a message to open it:
2,328 territories sent 2,328 messages and 2.85 MiB at the first render (benchmarks/map_render.py). Above
``map_view.BOARD_LAYER_LIMIT`` territories the map view draws them instead as:

- :func:`shapes_svg`: one ``<svg>`` with a ``<path class="tN">`` per territory (N its index in the board's
  order), in pixels from the map's north-west corner at a zoom fixed when the map view is made, put in one
  ``DivIcon`` at that corner and scaled to the map's zoom by CSS (:attr:`BoardLooks.scale`: a refit sends
  one number, the board neither pans nor zooms otherwise); it lets every click through
  (``pointer-events: none``) to the map, whose click is turned into the territory under it
  (:mod:`.territory_lookup`);
- :class:`BoardLooks`: a widget holding each territory's look that differs from a free one's (fill colour,
  outline), drawn as a ``<style>`` block scoped to that map. A change of look is a custom message of
  about 30 bytes a territory (the SVG is never sent again for it) once a page has drawn the widget (before,
  the whole state); the widget's state keeps every look, so a view opened later (a reloaded page) draws
  the board as it is.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import anywidget
import numpy as np
import shapely
import traitlets

_ESM = r"""
function css(model) {
  const scope = model.get("scope");
  const outlines = model.get("outlines");
  const rules = [`.${scope} .tnb-shapes>g{transform:scale(${model.get("scale")});transform-origin:0 0}`];
  for (const [index, [fill, kind]] of Object.entries(model.get("looks"))) {
    const [stroke, width, dash] = outlines[kind];
    rules.push(`.${scope} .tnb-shapes .t${index}{fill:${fill};stroke:${stroke};stroke-width:${width}px;` +
               `stroke-dasharray:${dash || "none"}}`);
  }
  return rules.join("\n");
}

export default {
  initialize({ model }) {
    model.on("msg:custom", (message) => {
      if (!message.looks) return;
      const looks = { ...model.get("looks") };
      for (const [index, look] of Object.entries(message.looks)) {
        if (look === null) delete looks[index]; else looks[index] = look;
      }
      model.set("looks", looks);  // in this page only: the kernel has it already
    });
  },
  render({ model, el }) {
    el.classList.add("tnb-board-looks");
    const style = document.createElement("style");
    el.appendChild(style);
    const draw = () => { style.textContent = css(model); };
    draw();
    model.send({ ready: true });  // this page applies changes now: the kernel may send them as messages
    const events = "change:looks change:outlines change:scope change:scale";
    model.on(events, draw);
    return () => model.off(events, draw);
  },
};
"""


class BoardLooks(anywidget.AnyWidget):
    """The looks of a big map's territories that differ from a free one's, as CSS (see the module).

    Attributes:
        scope: the CSS class of the map whose shapes these are (one map's looks never style another's).
        scale: how much bigger the shapes are drawn than the SVG's pixels: ``2 ** (map zoom - the zoom
            the SVG was made at)``, so that a refitted map re-sends this number, not the SVG (outlines keep
            their width: ``vector-effect: non-scaling-stroke``, styles.py).
        outlines: the outline kinds, ``[colour, width px, dashes ("" for none)]``; a look names one by index.
        looks: territory index (as a string, JSON's keys) -> ``[fill colour, outline kind]``; a territory
            left out is drawn as the SVG says (free, plain outline).
    """

    _esm = _ESM
    _css = ".tnb-board-looks { display: none; }"
    scope = traitlets.Unicode("").tag(sync=True)
    scale = traitlets.Float(1.0).tag(sync=True)
    outlines = traitlets.List().tag(sync=True)
    looks = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: object):
        super().__init__(**kwargs)
        self._ready = False
        self.on_msg(self._from_browser)

    def _from_browser(self, _widget: object, content: object, _buffers: object) -> None:
        """A page drew the widget: from now on its model applies the changes' messages. Its state is sent
        whole once more, since a message sent before a page's model could take it may have been lost
        (anywidget loads the script after the model is made: anywidget issue 803)."""
        if isinstance(content, dict) and content.get("ready") is True:
            self._ready = True
            self.send_state("looks")

    def change(self, changes: Mapping[int, Sequence | None]) -> None:
        """Give each territory index in ``changes`` its new look (None: the free, plain one), in one
        message of only those territories; the kernel's ``looks`` follows unsent (the browser applies the
        message to its own copy). Until a page has drawn the widget, the whole state is sent instead."""
        if not changes:
            return
        sent = {str(index): (list(look) if look is not None else None) for index, look in changes.items()}
        looks = dict(self.looks)
        for key, look in sent.items():
            if look is None:
                looks.pop(key, None)
            else:
                looks[key] = look
        if self.comm is None or not self._ready:  # closed, or no page sure to take a message: the state
            self.looks = looks
            return
        self.send({"looks": sent})
        self._unsent = True  # not ipywidgets' property lock: it compares the whole state, 16 ms at 2,328 looks
        try:
            self.looks = looks
        finally:
            self._unsent = False

    _unsent = False

    def _should_send_property(self, key: str, value: object) -> bool:
        return not (key == "looks" and self._unsent) and super()._should_send_property(key, value)


def _ring_path(coordinates: np.ndarray) -> str:
    points = coordinates[:-1] if len(coordinates) > 1 and (coordinates[0] == coordinates[-1]).all() else coordinates
    flat = np.round(points, 1).ravel().tolist()
    pairs = " ".join(f"{x:g},{y:g}" for x, y in zip(flat[::2], flat[1::2]))
    return f"M{pairs}Z"


def path_data(shape: shapely.Geometry, x0: float, y0: float) -> str:
    """SVG path data (``d``) of a polygon or multipolygon in pixels, moved by (-``x0``, -``y0``): every
    ring closed, drawn with ``fill-rule: evenodd`` so holes stay holes."""
    rings = []
    for polygon in getattr(shape, "geoms", [shape]):
        if polygon.is_empty or polygon.geom_type != "Polygon":
            continue
        for ring in (polygon.exterior, *polygon.interiors):
            rings.append(_ring_path(np.asarray(ring.coords)[:, :2] - (x0, y0)))
    return "".join(rings)


def shapes_svg(shapes: Mapping[str, shapely.Geometry], order: list[str], x0: float, y0: float,
               fill: str, border: str, fill_opacity: float = 0.9) -> str:
    """HTML of one ``<svg>`` drawing every territory of ``order`` from ``shapes`` (pixels at the map's
    zoom, as ``map_view.pixel_areas``) with (``x0``, ``y0``) at its corner: a path of class ``tN`` for the
    N-th territory, filled ``fill`` with a 1 px ``border`` outline (as a free territory's ``Polygon``);
    :class:`BoardLooks` restyles a path by its class. Clicks pass through it."""
    paths = "".join(f'<path class="t{index}" d="{path_data(shapes[tid], x0, y0)}"/>' for index, tid in enumerate(order))
    return (f'<svg class="tnb-shapes" width="1" height="1" style="position:absolute;left:0;top:0;overflow:visible;'
            f'pointer-events:none"><g fill="{fill}" fill-opacity="{fill_opacity:g}" fill-rule="evenodd" '
            f'stroke="{border}" stroke-width="1" stroke-linejoin="round" stroke-linecap="round">{paths}</g></svg>')
