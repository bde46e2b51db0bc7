"""The map's CSS: ``MAP_CSS`` comes with every map (``MapView.widget``), so a
map shown on its own (a preview, ``maps.ipynb``) looks as it does in a game.

Its labels are sized to the map: ``cqw`` is a hundredth of the width of the
box the map sits in (``.tnb-board`` is a CSS size container), so names are
12 px on a 560 px map and 19 px on a projector's 1,100 px one.
"""

from .label_layout import CASTLE_LINE_EM, name_font_css, points_font_css
from .palette import SEA, TEXT

MAP_CSS = f"""
<style>
.tnb-sr-only {{ position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }}  /* said by a screen reader, never drawn */
.tnb-board {{ container-type: inline-size; }}
.tnb-board > .tnb-map.leaflet-widgets {{ flex: 0 0 auto; }}
.tnb-map.leaflet-container, .tnb-map .leaflet-container {{ background: {SEA}; border-radius: 8px; }}
.tnb-map .leaflet-div-icon {{ background: transparent; border: none; pointer-events: none; overflow: visible; }}
.tnb-map .tnb-label {{ position: absolute; left: 0; transform: translateX(-50%); width: max-content;
  text-align: center; line-height: 1.05; pointer-events: auto; cursor: pointer; color: {TEXT};
  font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif;
  text-shadow: 0 0 3px #fff, 0 0 3px #fff, 0 0 3px #fff; }}
.tnb-map .tnb-points {{ bottom: 0; display: flex; flex-direction: column; align-items: center;
  font-size: {points_font_css()}; }}
.tnb-map .tnb-points .tnb-castle-svg {{ height: {CASTLE_LINE_EM:g}em; width: auto; }}
.tnb-map .tnb-value {{ font-weight: bold; }}
.tnb-map .tnb-mark {{ display: inline-block; min-width: 1.05em; margin-right: 0.18em; padding: 0 0.12em;
  border: 0.14em solid; border-radius: 0.3em; background: #fff; font-size: 0.8em; line-height: 1.05em; }}
.tnb-map .tnb-name {{ top: 1px; white-space: nowrap; font-size: calc(var(--tnb-scale, 1) * {name_font_css()});
  line-height: 1.0; }}  /* --tnb-scale: a name the layout made smaller (label_layout.Placement.scale) */
.tnb-map .tnb-shapes path {{ vector-effect: non-scaling-stroke; }}  /* a big map's shapes, scaled to the
  map's zoom (board_layer.BoardLooks.scale): outlines 1 px (4 px choosable) whatever the scale */
.tnb-map .tnb-names-layer .tnb-name {{ pointer-events: none; }}  /* one layer of names (a big map): a click
  on a name reaches the territory's shape under it (map_view.NAME_LAYER_LIMIT) */
</style>
"""
