"""The board on an ipyleaflet map: one Polygon and one label Marker per territory.

Measured (DESIGN.md): changing ``fill_color`` of one ``Polygon`` sends about
70 bytes, while restyling a single ``GeoJSON`` layer re-sends every polygon.
So each territory is its own ``Polygon``; a label is a ``Marker`` whose
``DivIcon`` is cached per distinct content, so a change re-points the marker
at an existing icon instead of sending new HTML. The map has no tile layer:
it renders offline.
"""

from __future__ import annotations

from html import escape
from typing import Callable, Iterable, Mapping

from ipyleaflet import DivIcon, Map, Marker, Polygon

from ..maps import GameMap
from .palette import BORDER, FREE, HIGHLIGHT

LABEL_SIZE = (110, 52)  # pixels (width, height) of a territory label


def _ring(ring: list) -> list[tuple[float, float]]:
    return [(lat, lon) for lon, lat in ring]


def leaflet_locations(geometry: Mapping) -> list:
    """GeoJSON ``Polygon``/``MultiPolygon`` coordinates (lon, lat) as Leaflet
    ``locations`` (lat, lon): rings of a polygon, or polygons of rings."""
    if geometry["type"] == "Polygon":
        return [_ring(r) for r in geometry["coordinates"]]
    return [[_ring(r) for r in polygon] for polygon in geometry["coordinates"]]


def castle_svg(standing: int, total: int, colour: str) -> str:
    """A small castle drawing: ``standing`` of ``total`` towers upright in
    ``colour``, fallen ones as grey rubble (D8: fallen towers stay fallen)."""
    parts = []
    for i in range(total):
        x = 2 + i * 12
        if i < standing:
            parts.append(f'<rect x="{x}" y="4" width="9" height="16" fill="{colour}" stroke="#222" stroke-width="1.2"/>'
                         f'<rect x="{x}" y="1" width="3" height="4" fill="{colour}" stroke="#222" stroke-width="1"/>'
                         f'<rect x="{x + 6}" y="1" width="3" height="4" fill="{colour}" stroke="#222" stroke-width="1"/>')
        else:
            parts.append(f'<path d="M{x} 20 L{x + 2} 15 L{x + 5} 17 L{x + 7} 14 L{x + 9} 20 Z" fill="#9a9a9a" '
                         'stroke="#444" stroke-width="1"/>')
    width = 4 + total * 12
    return (f'<svg width="{width}" height="22" viewBox="0 0 {width} 22" aria-label="{standing} of {total} towers">'
            + "".join(parts) + "</svg>")


def label_html(name: str, value: int | None, towers: int | None, total_towers: int, colour: str) -> str:
    """HTML of a territory label: castle (for bases), value and name."""
    castle = castle_svg(towers, total_towers, colour) if towers is not None else ""
    points = f'<div class="tnb-value">{value}</div>' if value else ""
    return f'<div class="tnb-label">{castle}{points}<div class="tnb-name">{escape(name)}</div></div>'


class MapView:
    """The map widget for one game map.

    Args:
        game_map: the loaded map (geometry, labels, centre, zoom).
        height: CSS height of the map, e.g. ``"640px"``.

    Attributes:
        map: the ``ipyleaflet.Map`` to display.
        polygons: territory id -> its ``Polygon``.
        labels: territory id -> its label ``Marker``.
    """

    def __init__(self, game_map: GameMap, height: str = "560px"):
        self.game_map = game_map
        self.map = Map(center=game_map.center, zoom=game_map.zoom, layers=(),
                       scroll_wheel_zoom=False, double_click_zoom=False, attribution_control=False,
                       zoom_snap=0.25, zoom_delta=0.5, layout={"height": height, "width": "100%"})
        for layer in list(self.map.layers):  # no tiles at all: offline
            self.map.remove(layer)
        self.map.add_class("tnb-map")
        self._click_handlers: list[Callable[[str], None]] = []
        self._icons: dict[str, DivIcon] = {}
        self.polygons: dict[str, Polygon] = {}
        self.labels: dict[str, Marker] = {}
        for tid in game_map.board.territories:
            polygon = Polygon(locations=leaflet_locations(game_map.features[tid]["geometry"]),
                              color=BORDER, weight=1, opacity=1.0, fill_color=FREE, fill_opacity=0.9,
                              name=tid)
            polygon.on_click(self._click_callback(tid))
            marker = Marker(location=game_map.labels[tid], draggable=False, keyboard=False, icon=self._icon(label_html(
                                game_map.board.names[tid], None, None, 0, FREE)))
            self.polygons[tid] = polygon
            self.labels[tid] = marker
            self.map.add(polygon)
        for marker in self.labels.values():
            self.map.add(marker)

    def on_territory_click(self, handler: Callable[[str], None]) -> None:
        """Call ``handler(territory_id)`` when a territory is clicked (labels let
        clicks through to the territory under them: see ``styles.py``)."""
        self._click_handlers.append(handler)

    def click(self, territory: str) -> None:
        """Simulate a click on ``territory`` exactly as the browser sends one."""
        self.polygons[territory]._handle_mouse_events(None, {"type": "click", "coordinates": list(
            self.game_map.labels[territory])}, [])

    def _click_callback(self, territory: str) -> Callable[..., None]:
        def callback(**event: object) -> None:
            if event.get("type", "click") == "click":
                for handler in self._click_handlers:
                    handler(territory)
        return callback

    def _icon(self, html: str) -> DivIcon:
        icon = self._icons.get(html)
        if icon is None:
            icon = DivIcon(html=html, icon_size=list(LABEL_SIZE), icon_anchor=[LABEL_SIZE[0] // 2, LABEL_SIZE[1] // 2])
            self._icons[html] = icon
        return icon

    def show(self, owners: Mapping[str, str | None], values: Mapping[str, int],
             towers: Mapping[str, int | None], total_towers: int,
             choosable: Iterable[str] = (), contested: str | None = None) -> None:
        """Colour and label every territory; only what changed reaches the browser.

        Args:
            owners: territory id -> owner's hex colour, or None when free.
            values: territory id -> points (0 hides the number).
            towers: territory id -> towers standing for bases, None otherwise.
            total_towers: towers of a full castle (3).
            choosable: territories the player may click now (outlined).
            contested: the territory under attack (thick dashed outline).
        """
        choosable = set(choosable)
        for tid, polygon in self.polygons.items():
            colour = owners[tid]
            polygon.fill_color = colour or FREE
            if tid == contested:
                polygon.color, polygon.weight, polygon.dash_array = HIGHLIGHT, 5, "8 6"
            elif tid in choosable:
                polygon.color, polygon.weight, polygon.dash_array = HIGHLIGHT, 4, None
            else:
                polygon.color, polygon.weight, polygon.dash_array = BORDER, 1, None
            name = self.game_map.board.names[tid]
            icon = self._icon(label_html(name, values[tid], towers[tid], total_towers, colour or "#bbbbbb"))
            if self.labels[tid].icon is not icon:
                self.labels[tid].icon = icon
