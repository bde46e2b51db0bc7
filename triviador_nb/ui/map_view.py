"""The board on an ipyleaflet map: one Polygon and one label Marker per territory.

Measured on ipyleaflet 0.20: changing ``fill_color`` of one ``Polygon`` sends about
70 bytes, while restyling a single ``GeoJSON`` layer re-sends every polygon.
So each territory is its own ``Polygon``; a label is a ``Marker`` whose
``DivIcon`` is cached per distinct content, so a change re-points the marker
at an existing icon instead of sending new HTML. The map has no tile layer:
it renders offline.
"""

from __future__ import annotations

import math
from html import escape
from typing import Callable, Iterable, Mapping

from ipyleaflet import DivIcon, Map, Marker, Polygon

from ..maps import GameMap
from .palette import BORDER, FREE, HIGHLIGHT

LABEL_SIZE = (80, 48)  # pixels (width, height) of a value/castle label, drawn above the label point
NAME_SIZE = (110, 28)  # pixels of a name label, drawn below it


def _ring(ring: list) -> list[tuple[float, float]]:
    return [(lat, lon) for lon, lat in ring]


def leaflet_locations(geometry: Mapping) -> list:
    """GeoJSON ``Polygon``/``MultiPolygon`` coordinates (lon, lat) as Leaflet
    ``locations`` (lat, lon): rings of a polygon, or polygons of rings."""
    if geometry["type"] == "Polygon":
        return [_ring(r) for r in geometry["coordinates"]]
    return [[_ring(r) for r in polygon] for polygon in geometry["coordinates"]]


def _mercator_y(lat: float) -> float:
    """Web Mercator y of a latitude at zoom 0, in 256-pixel tiles' pixels."""
    phi = math.radians(lat)
    return 128 - 128 * math.log(math.tan(math.pi / 4 + phi / 2)) / math.pi


def fit_view(bounds: tuple[tuple[float, float], tuple[float, float]], width_px: float, height_px: float,
             padding_px: float = 16, snap: float = 0.25) -> tuple[tuple[float, float], float]:
    """The centre (lat, lon) and zoom that show ``bounds`` ((south, west),
    (north, east), degrees) whole in a map of ``width_px`` x ``height_px``
    pixels, zoom rounded down to a multiple of ``snap``."""
    (south, west), (north, east) = bounds
    dx = (east - west) / 360 * 256
    dy = _mercator_y(south) - _mercator_y(north)
    scale = min((width_px - 2 * padding_px) / dx, (height_px - 2 * padding_px) / dy)
    zoom = math.floor(math.log2(max(scale, 1e-9)) / snap) * snap
    y_mid = (_mercator_y(south) + _mercator_y(north)) / 2
    lat_mid = math.degrees(2 * math.atan(math.exp((128 - y_mid) * math.pi / 128)) - math.pi / 2)
    return (lat_mid, (west + east) / 2), zoom


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
    return (f'<svg width="{width * 1.3:.0f}" height="29" viewBox="0 0 {width} 22" '
            f'aria-label="{standing} of {total} towers">'
            + "".join(parts) + "</svg>")


def label_html(value: int | None, towers: int | None, total_towers: int, colour: str) -> str:
    """HTML of a territory's changing label: castle (for bases) and value.

    It names no territory, so territories in the same state share one icon.
    """
    castle = castle_svg(towers, total_towers, colour) if towers is not None else ""
    points = f'<div class="tnb-value">{value}</div>' if value else ""
    return f'<div class="tnb-label">{castle}{points}</div>'


def name_html(name: str) -> str:
    """HTML of a territory's fixed name label."""
    return f'<div class="tnb-label tnb-name">{escape(name)}</div>'


class MapView:
    """The map widget for one game map.

    Args:
        game_map: the loaded map (geometry, labels, centre, zoom).
        height: CSS height of the map, e.g. ``"640px"``.

    Attributes:
        map: the ``ipyleaflet.Map`` to display.
        polygons: territory id -> its ``Polygon``.
        labels: territory id -> its value/castle label ``Marker`` (changes).
        names: territory id -> its name label ``Marker`` (fixed).
    """

    def __init__(self, game_map: GameMap, height: str = "clamp(360px, 62vh, 600px)"):
        self.game_map = game_map
        self.map = Map(center=game_map.center, zoom=game_map.zoom, layers=(),
                       scroll_wheel_zoom=False, double_click_zoom=False, attribution_control=False,
                       zoom_snap=0.25, zoom_delta=0.5, layout={"height": height, "width": "100%"})
        for layer in list(self.map.layers):  # no tiles at all: offline
            self.map.remove(layer)
        self.map.add_class("tnb-map")
        self._fitted_size: tuple[float, float] | None = None
        self.map.observe(self._fit, names=["left", "right", "top", "bottom"])
        self._click_handlers: list[Callable[[str], None]] = []
        self._icons: dict[str, DivIcon] = {}
        self.polygons: dict[str, Polygon] = {}
        self.labels: dict[str, Marker] = {}
        self.names: dict[str, Marker] = {}
        for tid in game_map.board.territories:
            polygon = Polygon(locations=leaflet_locations(game_map.features[tid]["geometry"]),
                              color=BORDER, weight=1, opacity=1.0, fill_color=FREE, fill_opacity=0.9,
                              name=tid)
            polygon.on_click(self._click_callback(tid))
            self.polygons[tid] = polygon
            self.labels[tid] = self._marker(tid, self._icon(label_html(None, None, 0, FREE), LABEL_SIZE, bottom=True))
            self.names[tid] = self._marker(tid, DivIcon(html=name_html(game_map.board.names[tid]),
                                                        icon_size=list(NAME_SIZE), icon_anchor=[NAME_SIZE[0] // 2, 0]))
            self.map.add(polygon)
        for marker in (*self.labels.values(), *self.names.values()):
            self.map.add(marker)

    def _fit(self, _change: object = None) -> None:
        """Frame the whole map whenever the browser reports a new map size
        (first render, window resize); a zoom by the user keeps the size and
        is left alone."""
        size = (self.map.right - self.map.left, self.map.bottom - self.map.top)
        if min(size) <= 0 or size == self._fitted_size:
            return
        self._fitted_size = size
        self.map.center, self.map.zoom = fit_view(self.game_map.bounds, *size)

    def on_territory_click(self, handler: Callable[[str], None]) -> None:
        """Call ``handler(territory_id)`` when a territory is clicked (labels let
        clicks through to the territory under them: see ``styles.py``)."""
        self._click_handlers.append(handler)

    def click(self, territory: str) -> None:
        """Simulate a click on ``territory`` exactly as the browser sends one.

        Raises:
            ValueError: ``territory`` is not on this map.
        """
        if territory not in self.polygons:
            raise ValueError(f"there is no territory {territory!r} on this map")
        self.polygons[territory]._handle_mouse_events(None, {"type": "click", "coordinates": list(
            self.game_map.labels[territory])}, [])

    def _click_callback(self, territory: str) -> Callable[..., None]:
        def callback(**event: object) -> None:
            if event.get("type", "click") == "click":
                for handler in self._click_handlers:
                    handler(territory)
        return callback

    def _marker(self, territory: str, icon: DivIcon) -> Marker:
        return Marker(location=self.game_map.labels[territory], draggable=False, keyboard=False, icon=icon)

    def _icon(self, html: str, size: tuple[int, int] = LABEL_SIZE, bottom: bool = True) -> DivIcon:
        """The icon for ``html``, made once and shared: re-pointing a marker at
        an icon the browser already has sends about 100 bytes."""
        icon = self._icons.get(html)
        if icon is None:
            icon = DivIcon(html=html, icon_size=list(size), icon_anchor=[size[0] // 2, size[1] if bottom else 0])
            self._icons[html] = icon
        return icon

    def preload_labels(self, colours: Iterable[str], values: Iterable[int], base_value: int, total_towers: int) -> None:
        """Send the labels a game will show up front (with the first render), so
        each change during play only re-points a marker (~100 bytes).

        Args:
            colours: the players' hex colours.
            values: territory values that occur (e.g. 200 and 400).
            base_value: a base's value (1000), shown with 0..``total_towers`` towers.
        """
        for colour in colours:
            for value in values:
                self._icon(label_html(value, None, total_towers, colour))
            for standing in range(total_towers + 1):
                self._icon(label_html(base_value, standing, total_towers, colour))

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
            icon = self._icon(label_html(values[tid], towers[tid], total_towers, colour or "#bbbbbb"))
            if self.labels[tid].icon is not icon:
                self.labels[tid].icon = icon
