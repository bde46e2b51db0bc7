"""The board on an ipyleaflet map: one Polygon and one label Marker per territory, and its name
(one Marker each, or on a map of more than :data:`NAME_LAYER_LIMIT` territories one Marker for all).
On a map of more than :data:`BOARD_LAYER_LIMIT` territories the shapes are one layer too, and a label
Marker is made only once its label shows something (see :data:`BOARD_LAYER_LIMIT`).

Measured on ipyleaflet 0.20: changing ``fill_color`` of one ``Polygon`` sends about
70 bytes, while restyling a single ``GeoJSON`` layer re-sends every polygon.
So each territory is its own ``Polygon``; a label is a ``Marker`` whose
``DivIcon`` is cached per distinct content, so a change re-points the marker
at an existing icon instead of sending new HTML. The map has no tile layer:
it renders offline.

The board stays put, as a board game's does (measured in JupyterLab and Voila,
Chromium): a map that can be dragged turns a click during which the page
scrolls into a drag (the click is lost), and a focusable map (Leaflet's
``keyboard``) takes focus on mouse-down and scrolls the page 40-300 px before
mouse-up, so the click lands on another territory. The map therefore neither
drags, zooms nor takes focus. Its size is fixed in CSS: ipyleaflet's own CSS
gives the map ``flex: 1 1 auto``, so in a column it grew with the side panel
(600 px to 1,077 px); here its height is set outright, never stretched, and
its width follows the map's shape, so the territories fill it.

Territory names and the labels' spoken words (``aria-label``) are in the
language the map view is made in (:mod:`triviador_nb.i18n`).
"""

from __future__ import annotations

import math
from html import escape
from typing import Callable, Iterable, Mapping

import ipywidgets as w
import numpy as np
import shapely
import shapely.geometry
from ipyleaflet import DivIcon, LayerGroup, Map, Marker, Polygon

from ..i18n import MAP, TERRITORY, _, current_language, ngettext, pgettext, speaking
from ..maps import GameMap
from .board_layer import BoardLooks, shapes_svg
from .browser_input import BrowserInput
from .cells import close_widgets
from .label_layout import AREA_LIMIT, Placement, place_names, wrapped_lines
from .palette import BORDER, FREE, HIGHLIGHT
from .map_styles import MAP_CSS
from .territory_lookup import TerritoryLookup

# The game map's height: as tall as fits beside JupyterLab's menus and the
# game's title: 420 px on a 720 px projector, 600 px at 900, and the window's
# height on a 1080 px projector too (780 px: it stopped at 660 and left 40 %
# of the screen empty below the map: issue 24).
GAME_MAP_HEIGHT = "max(320px, calc(100vh - 300px))"
# Of the game's width at most: 62 %, or on a wide screen all but 520 px (the side panel's question and
# options need no more), so that a wide country's board can grow to that height (1,271 px for Hungary).
GAME_MAP_SHARE = "max(62%, calc(100% - 520px))"
ZERO = [0, 0]  # labels are drawn by CSS around their point (styles.py), so their icons have no size
# Bounded kernel work on big maps (benchmarks/big_maps.py): laying the names out is about linear in the
# territories but grows with how crowded they are (0.5 s for 434 on a 725 px board, 15 s for 2,328).
RELAYOUT_LIMIT = 150  # up to this many territories, names move again around new castles (a base click)
LAYOUT_LIMIT = 1000  # up to this many, names are laid out when the board is fitted; above, CSS places them
# Above this many territories the names are one layer (one marker, one icon: benchmarks/map_render.py), placed
# in pixels from the map's corner at the fitted zoom (the board neither pans nor zooms); a click on a name
# passes to the shape under it, which on such a map is the name's own territory (names are not moved there).
NAME_LAYER_LIMIT = 1000
# Above this many territories the shapes are one layer as well (issue 25, issue 29 item 5: 2,328 Polygons and
# 2,328 label Markers sent 4,677 messages, 5.34 MiB): one SVG in one marker at the map's north-west corner, in
# pixels at a fixed zoom, scaled by CSS to the map's (a refit sends one number: board_layer.py); a look
# changes through a small widget's message (BoardLooks), and a click on the map is turned into the territory
# under it (territory_lookup.py). A label (castle, value) gets its Marker only once it shows something, in one
# of LABEL_GROUPS groups, so that adding one re-sends a short list of layers, not the map's whole list.
BOARD_LAYER_LIMIT = 1000
LABEL_GROUPS = 48
SHAPES_ZOOM_AHEAD = 2
OUTLINES = ((BORDER, 1, ""), (BORDER, 4, ""), (HIGHLIGHT, 5, "8 6"))  # plain, choosable, contested


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


def pixel_xy(lat: float, lon: float, zoom: float) -> tuple[float, float]:
    """Web Mercator pixel position of (lat, lon) at ``zoom`` (256-pixel tiles)."""
    scale = 2 ** zoom
    return (lon + 180) / 360 * 256 * scale, _mercator_y(lat) * scale


def pixel_areas(game_map: GameMap, zoom: float) -> dict[str, shapely.Geometry]:
    """Territory id -> its shape in Web Mercator pixels at ``zoom`` (as :func:`pixel_xy`)."""
    scale = 2 ** zoom

    def to_pixels(lon_lat: np.ndarray) -> np.ndarray:
        lon, lat = lon_lat[:, 0], np.radians(np.clip(lon_lat[:, 1], -85.05, 85.05))
        y = 128 - 128 * np.log(np.tan(np.pi / 4 + lat / 2)) / np.pi
        return np.column_stack(((lon + 180) / 360 * 256 * scale, y * scale))

    return {t: shapely.transform(shapely.geometry.shape(game_map.features[t]["geometry"]), to_pixels)
            for t in game_map.board.territories}


def _extent_px(bounds: tuple[tuple[float, float], tuple[float, float]]) -> tuple[float, float]:
    """Width and height of ``bounds`` in pixels at zoom 0."""
    (south, west), (north, east) = bounds
    return (east - west) / 360 * 256, _mercator_y(south) - _mercator_y(north)


def fit_view(bounds: tuple[tuple[float, float], tuple[float, float]], width_px: float, height_px: float,
             padding_px: float = 16, snap: float = 0.25) -> tuple[tuple[float, float], float]:
    """The centre (lat, lon) and zoom that show ``bounds`` ((south, west),
    (north, east), degrees) whole in a map of ``width_px`` x ``height_px``
    pixels, zoom rounded down to a multiple of ``snap``."""
    (south, west), (north, east) = bounds
    dx, dy = _extent_px(bounds)
    scale = min((width_px - 2 * padding_px) / dx, (height_px - 2 * padding_px) / dy)
    zoom = math.floor(math.log2(max(scale, 1e-9)) / snap) * snap
    y_mid = (_mercator_y(south) + _mercator_y(north)) / 2
    lat_mid = math.degrees(2 * math.atan(math.exp((128 - y_mid) * math.pi / 128)) - math.pi / 2)
    return (lat_mid, (west + east) / 2), zoom


def view_aspect(bounds: tuple[tuple[float, float], tuple[float, float]]) -> float:
    """Width over height of ``bounds`` ((south, west), (north, east), degrees)
    as the map draws them (Web Mercator), kept within 0.5-2.5 so that a very
    tall or very wide country still gets a usable board."""
    dx, dy = _extent_px(bounds)
    return min(2.5, max(0.5, dx / dy)) if dy > 0 else 1.0


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
    spoken = ngettext("{standing} of {total} tower", "{standing} of {total} towers", total).format(
        standing=standing, total=total)
    return (f'<svg class="tnb-castle-svg" width="{width * 1.3:.0f}" height="29" viewBox="0 0 {width} 22" '
            f'aria-label="{escape(spoken)}">'
            + "".join(parts) + "</svg>")


def label_html(value: int | None, towers: int | None, total_towers: int, colour: str, mark: str = "") -> str:
    """HTML of a territory's changing label: castle (for bases) and value,
    drawn above the label point; ``mark`` (the owner's seat number, the
    number on the scoreboard) beside the value is a cue that does not need
    colour (issue 12: accessibility).

    It names no territory, so territories in the same state share one icon.
    """
    castle = castle_svg(towers, total_towers, colour) if towers is not None else ""
    spoken = _("player {number}").format(number=mark)
    owner = (f'<span class="tnb-mark" style="border-color:{colour}" aria-label="{escape(spoken)}">'
             f'{escape(mark)}</span>') if mark else ""
    points = f'<div class="tnb-value">{owner}{value}</div>' if value else ""
    return f'<div class="tnb-label tnb-points">{castle}{points}</div>'


def names_layer_html(names: Mapping[str, str], offsets: Mapping[str, tuple[float, float]]) -> str:
    """HTML of every territory's name in one icon: each at its ``offsets`` (x, y pixels from the
    icon's corner), drawn below that point as :func:`name_html` draws one; the names let clicks pass
    to the map (class ``tnb-names-layer``, styles.py)."""
    parts = [f'<div class="tnb-label tnb-name" data-territory="{escape(tid)}" '
             f'style="left:{x:.1f}px;top:{y + 1:.1f}px">{escape(names[tid])}</div>'
             for tid, (x, y) in offsets.items()]
    return f'<div class="tnb-names-layer">{"".join(parts)}</div>'


def name_html(territory: str, name: str, place: Placement = Placement()) -> str:
    """HTML of a territory's name label, drawn below the label point, or
    where ``place`` moves it (:mod:`.label_layout`); ``data-territory`` lets
    a browser test find the territory by its id.

    The name is broken into the lines the layout measured
    (:func:`.label_layout.wrapped_lines`) and the browser wraps no further:
    a name the browser wrapped took a box as wide as its whole wrap width
    (64 px for "Bács-" / "Kiskun" where the layout counted 42), and that
    box covered the score labels beside it."""
    scale = f"--tnb-scale: {place.scale:g}; " if place.scale != 1.0 else ""
    style = (f' style="{scale}transform: translate(calc(-50% + {place.dx:g}em), {place.dy:g}em)"'
             if place.moved else "")
    # a line broken at a space keeps it (the browser drops it at the line's end): the text stays the name
    lines = wrapped_lines(name, place.wrap)
    text = "<br>".join(escape(line) + ("" if line.endswith("-") or k == len(lines) - 1 else " ")
                       for k, line in enumerate(lines))
    return f'<div class="tnb-label tnb-name" data-territory="{escape(territory)}"{style}>{text}</div>'


class MapView:
    """The map widget for one game map.

    Args:
        game_map: the loaded map (geometry, labels, centre, zoom).
        height: CSS height of the map, e.g. ``"260px"`` for a preview; None
            (the game) for a board of :data:`GAME_MAP_HEIGHT` at most, as wide
            as the map's shape asks and :data:`GAME_MAP_SHARE` of the row at
            most, never stretched by what stands beside it.
        note: a small line under the map (the map data's credit).
        language: the language of the territory names and labels (None:
            the one in use where the map view is made).

    Attributes:
        widget: what to display: the map and its :class:`BrowserInput`, in a
            box whose width the map's name labels are sized to.
        map: the ``ipyleaflet.Map``.
        aspect: the map's width over its height (:func:`view_aspect`).
        polygons: territory id -> its ``Polygon``; empty on a map of more than :data:`BOARD_LAYER_LIMIT`
            territories, whose shapes are the one marker ``shapes_layer`` styled by ``looks``.
        labels: territory id -> its value/castle label ``Marker`` (changes); on a map of more than
            :data:`BOARD_LAYER_LIMIT` territories only those whose label has shown something.
        shapes_layer: that marker, or None.
        looks: the :class:`.BoardLooks` of that map's territories, or None.
        names: territory id -> its name label ``Marker`` (fixed); empty on a map of more than
            :data:`NAME_LAYER_LIMIT` territories, whose names are the one marker ``name_layer``.
        name_layer: that marker, or None.
        language: the language of its words.
    """

    def __init__(self, game_map: GameMap, height: str | None = None, note: str = "", language: str | None = None):
        self.game_map = game_map
        with speaking(language or current_language()) as self.language:
            # the names shown: laid out again from the browser's size reports, outside any screen's language
            self._shown_names = {tid: pgettext(TERRITORY, name) for tid, name in game_map.board.names.items()}
        self.aspect = view_aspect(game_map.bounds)
        if height is None:  # the game's board: its width is the container's (100cqw), see styles.py
            box = {"width": f"min({GAME_MAP_SHARE}, calc({GAME_MAP_HEIGHT} * {self.aspect:.3f}))"}
            height = f"min({GAME_MAP_HEIGHT}, calc(100cqw / {self.aspect:.3f}))"
        else:
            box = {"width": "100%"}
        self.map = Map(center=game_map.center, zoom=game_map.zoom, layers=(),
                       dragging=False, keyboard=False, zoom_control=False, box_zoom=False, touch_zoom=False,
                       scroll_wheel_zoom=False, double_click_zoom=False, inertia=False, attribution_control=False,
                       zoom_snap=0.25, zoom_delta=0.5,
                       layout={"height": height, "min_height": "0", "width": "100%", "flex": "0 0 auto"})
        for layer in list(self.map.layers):  # no tiles at all: offline
            self.map.remove(layer)
        self.map.add_class("tnb-map")
        credit = [w.HTML(f'<div class="tnb-note" style="font-size:12px">{escape(note)}</div>')] if note else []
        with speaking(self.language):  # what a screen reader says of the drawing (it cannot read the shapes)
            spoken = ngettext("Map of {map}: {n} territory. To choose one without the mouse, type its name in "
                              "the Territory box beside the map, then press Enter.",
                              "Map of {map}: {n} territories. To choose one without the mouse, type its name in "
                              "the Territory box beside the map, then press Enter.",
                              len(game_map.board)).format(map=pgettext(MAP, game_map.title), n=len(game_map.board))
        self.spoken = w.HTML(f'<div class="tnb-sr-only">{escape(spoken)}</div>')
        board = len(game_map.board) > BOARD_LAYER_LIMIT
        # the shapes' SVG is made once, at a zoom a little past the first (0.1 px there is 0.025 px at the
        # first zoom), and scaled by CSS to the map's zoom
        self._shapes_zoom = self.map.zoom + SHAPES_ZOOM_AHEAD
        self.looks = BoardLooks(scope=f"tnb-b{self.map.model_id}", outlines=[list(o) for o in OUTLINES],
                                scale=2 ** -SHAPES_ZOOM_AHEAD) if board else None
        if self.looks is not None:
            self.map.add_class(self.looks.scope)
        self.widget = w.VBox([w.HTML(MAP_CSS), self.spoken, self.map, *credit, BrowserInput(),
                              *([self.looks] if self.looks is not None else [])],
                             layout={**box, "flex": "0 0 auto"})
        self.widget.add_class("tnb-board")
        self._fitted_size: tuple[float, float] | None = None
        self._bases: frozenset[str] = frozenset()  # territories drawn with a castle, for the name layout
        self.map.observe(self._fit, names=["left", "right", "top", "bottom"])
        self._click_handlers: list[Callable[[str], None]] = []
        self._icons: dict[str, DivIcon] = {}
        self._icons_by_state: dict[tuple, DivIcon] = {}
        self.polygons: dict[str, Polygon] = {}
        self.labels: dict[str, Marker] = {}
        self.names: dict[str, Marker] = {}
        self._drawn: dict[str, tuple] = {}  # territory -> (fill, outline, label state) as last sent
        big = len(game_map.board) > NAME_LAYER_LIMIT
        (_south, west), (north, _east) = game_map.bounds
        self.name_layer = Marker(location=(north, west), draggable=False, keyboard=False,
                                 icon=DivIcon(html=self._names_layer_html(), icon_size=ZERO, icon_anchor=ZERO)) \
            if big else None
        self._index = {tid: index for index, tid in enumerate(game_map.board.territories)}
        self._label_groups: dict[int, LayerGroup] = {}
        self.shapes_layer: Marker | None = None
        self._lookup: TerritoryLookup | None = None
        if board:
            # under every other marker (markers stack by latitude, and a refitted icon is put in again last)
            self.shapes_layer = Marker(location=(north, west), draggable=False, keyboard=False,
                                       z_index_offset=-1_000_000,
                                       icon=DivIcon(html=self._shapes_layer_html(), icon_size=ZERO, icon_anchor=ZERO))
            self._lookup = TerritoryLookup({t: game_map.features[t]["geometry"] for t in game_map.board.territories})
            self.map.on_interaction(self._map_clicked)
        for tid in game_map.board.territories:
            if not board:
                polygon = Polygon(locations=leaflet_locations(game_map.features[tid]["geometry"]),
                                  color=BORDER, weight=1, opacity=1.0, fill_color=FREE, fill_opacity=0.9,
                                  dash_array="", name=tid)
                polygon.on_click(self._click_callback(tid))
                self.polygons[tid] = polygon
                self.labels[tid] = self._marker(tid, self._icon(label_html(None, None, 0, FREE)))
                # a click on a territory's name or castle is a click on the territory, wherever the name lies
                # (its middle can be over a neighbour or the sea): students click names (issue 24)
                self.labels[tid].on_click(self._click_callback(tid))
            if not big:
                self.names[tid] = self._marker(tid, DivIcon(html=name_html(tid, self._shown_names[tid]),
                                                            icon_size=ZERO, icon_anchor=ZERO))
                self.names[tid].on_click(self._click_callback(tid))
        # all layers in one change: Map.add re-sends the whole layer list each time (quadratic: 40 MB for
        # 434 territories); the order is the same, polygons under the labels and names
        names = (self.name_layer,) if self.name_layer is not None else tuple(self.names.values())
        shapes = (self.shapes_layer,) if self.shapes_layer is not None else tuple(self.polygons.values())
        self.map.layers = (*self.map.layers, *shapes, *self.labels.values(), *names)

    def _names_layer_html(self) -> str:
        """Every name, in pixels from the map's north-west corner at the map's zoom."""
        zoom = self.map.zoom
        (_south, west), (north, _east) = self.game_map.bounds
        x0, y0 = pixel_xy(north, west, zoom)
        offsets = {}
        for tid, (lat, lon) in self.game_map.labels.items():
            x, y = pixel_xy(lat, lon, zoom)
            offsets[tid] = (x - x0, y - y0)
        return names_layer_html(self._shown_names, offsets)

    def _shapes_layer_html(self) -> str:
        """Every territory's shape, in pixels from the map's north-west corner at the zoom the shapes are
        made at (``looks.scale`` scales them to the map's)."""
        (_south, west), (north, _east) = self.game_map.bounds
        x0, y0 = pixel_xy(north, west, self._shapes_zoom)
        return shapes_svg(pixel_areas(self.game_map, self._shapes_zoom), self.game_map.board.territories, x0, y0,
                          FREE, BORDER)

    def _fit(self, _change: object = None) -> None:
        """Frame the whole map whenever the browser reports a new map size
        (first render, window resize); a zoom by the user keeps the size and
        is left alone."""
        size = (self.map.right - self.map.left, self.map.bottom - self.map.top)
        if min(size) <= 0 or size == self._fitted_size:
            return
        self._fitted_size = size
        self.map.center, self.map.zoom = fit_view(self.game_map.bounds, *size)
        if self.name_layer is not None:  # one icon: the names in pixels at the new zoom
            old = self.name_layer.icon
            html = self._names_layer_html()
            if old.html != html:
                self.name_layer.icon = DivIcon(html=html, icon_size=ZERO, icon_anchor=ZERO)
                old.close()
        if self.looks is not None:  # the shapes, made at another zoom, scaled to this one (one number sent)
            self.looks.scale = 2 ** (self.map.zoom - self._shapes_zoom)
        self._place_names()

    def _place_names(self) -> None:
        """Move names off each other and off the castles for the fitted map
        size (:mod:`.label_layout`); only names whose place changed are sent.
        Not on maps of more than :data:`LAYOUT_LIMIT` territories."""
        if self._fitted_size is None or len(self._index) > LAYOUT_LIMIT or not self.names:
            return
        points = {t: pixel_xy(lat, lon, self.map.zoom) for t, (lat, lon) in self.game_map.labels.items()}
        names = self._shown_names
        areas = pixel_areas(self.game_map, self.map.zoom) if len(points) <= AREA_LIMIT else None
        for tid, place in place_names(points, names, self._fitted_size[0], self._bases, areas).items():
            html = name_html(tid, names[tid], place)
            old = self.names[tid].icon
            if old.html != html:
                self.names[tid].icon = DivIcon(html=html, icon_size=ZERO, icon_anchor=ZERO)
                old.close()

    def close(self) -> None:
        """Close every widget of the map, the label icons kept for later included."""
        close_widgets(self.widget, list(self._icons.values()), list(self.labels.values()))

    def on_territory_click(self, handler: Callable[[str], None]) -> None:
        """Call ``handler(territory_id)`` when a territory is clicked: on its
        shape, its name or its castle and value (the labels' text takes the
        click, see ``styles.py``; the space around it lets clicks through)."""
        self._click_handlers.append(handler)

    def click(self, territory: str) -> None:
        """Simulate a click on ``territory`` exactly as the browser sends one.

        Raises:
            ValueError: ``territory`` is not on this map.
        """
        if territory not in self._index:
            raise ValueError(f"there is no territory {territory!r} on this map")
        if self.shapes_layer is not None:  # no shape of its own: the map's click at the label point
            self.map._handle_leaflet_event(None, {"event": "interaction", "type": "click", "coordinates": list(
                self.game_map.labels[territory])}, [])
            return
        self.polygons[territory]._handle_mouse_events(None, {"type": "click", "coordinates": list(
            self.game_map.labels[territory])}, [])

    def look(self, territory: str) -> tuple[str, tuple[str, int, str]]:
        """``(fill colour, (outline colour, width px, dashes))`` of ``territory`` as sent to the browser
        (its ``Polygon``'s traits, or on a big map its :class:`.BoardLooks` state); dashes "" for none."""
        if self.looks is None:
            polygon = self.polygons[territory]
            return polygon.fill_color, (polygon.color, polygon.weight, polygon.dash_array)
        fill, kind = self.looks.looks.get(str(self._index[territory]), (FREE, 0))
        return fill, OUTLINES[kind]

    def _map_clicked(self, **event: object) -> None:
        """A click on a big map's board (its shapes let clicks through): the territory under it, if any."""
        coordinates = event.get("coordinates")
        if event.get("type") != "click" or self._lookup is None or not isinstance(coordinates, (list, tuple)) \
                or len(coordinates) != 2:
            return
        territory = self._lookup.at(float(coordinates[0]), float(coordinates[1]))
        if territory is not None:
            for handler in self._click_handlers:
                handler(territory)

    def _click_callback(self, territory: str) -> Callable[..., None]:
        def callback(**event: object) -> None:
            if event.get("type", "click") == "click":
                for handler in self._click_handlers:
                    handler(territory)
        return callback

    def _marker(self, territory: str, icon: DivIcon) -> Marker:
        return Marker(location=self.game_map.labels[territory], draggable=False, keyboard=False, icon=icon)

    def _icon(self, html: str) -> DivIcon:
        """The icon for ``html``, made once and shared: re-pointing a marker at
        an icon the browser already has sends about 100 bytes."""
        icon = self._icons.get(html)
        if icon is None:
            icon = DivIcon(html=html, icon_size=ZERO, icon_anchor=ZERO)
            self._icons[html] = icon
        return icon

    def preload_labels(self, colours: Iterable[str], values: Iterable[int], base_value: int, total_towers: int) -> None:
        """Send the labels a game will show up front (with the first render), so
        each change during play only re-points a marker (~100 bytes).

        Args:
            colours: the players' hex colours, in seat order (seat 1 first:
                the labels carry the seat's number too).
            values: territory values that occur (e.g. 200 and 400).
            base_value: a base's value (1000), shown with 0..``total_towers`` towers.
        """
        with speaking(self.language):
            for seat, colour in enumerate(colours):
                mark = str(seat + 1)
                for value in values:
                    self._icon(label_html(value, None, total_towers, colour, mark))
                for standing in range(total_towers + 1):
                    self._icon(label_html(base_value, standing, total_towers, colour, mark))

    def show(self, owners: Mapping[str, str | None], values: Mapping[str, int],
             towers: Mapping[str, int | None], total_towers: int,
             choosable: Iterable[str] = (), contested: str | None = None,
             marks: Mapping[str, str] | None = None) -> None:
        """Colour and label every territory; only what changed reaches the browser.

        Args:
            owners: territory id -> owner's hex colour, or None when free.
            values: territory id -> points (0 hides the number).
            towers: territory id -> towers standing for bases, None otherwise.
            total_towers: towers of a full castle (3).
            choosable: territories the player may click now (outlined).
            contested: the territory under attack (thick dashed outline).
            marks: territory id -> its owner's seat number ("1"...), shown
                beside the value as a cue that needs no colour.
        """
        self._show(owners, values, towers, total_towers, set(choosable), contested, marks)

    def _show(self, owners: Mapping[str, str | None], values: Mapping[str, int],
              towers: Mapping[str, int | None], total_towers: int, choosable: set[str], contested: str | None,
              marks: Mapping[str, str] | None) -> None:
        bases = frozenset(t for t, standing in towers.items() if standing is not None)
        if bases != self._bases:
            self._bases = bases
            if len(self._index) <= RELAYOUT_LIMIT:
                self._place_names()
        marks = marks or {}
        if self.looks is not None:
            self._show_board(owners, values, towers, total_towers, choosable, contested, marks)
            return
        drawn = self._drawn
        plain = (BORDER, 1, "")
        for tid, polygon in self.polygons.items():
            colour = owners[tid]
            # "" for no dashes: ipyleaflet drops a None, and the dashes of an earlier attack would stay
            # a choosable territory's outline differs from a plain one by its weight alone: one property
            # travels when the choice opens and closes (its colour too cost 20 bytes a territory each time)
            outline = (HIGHLIGHT, 5, "8 6") if tid == contested else (BORDER, 4, "") if tid in choosable \
                else plain
            state = (colour or FREE, outline, (values[tid], towers[tid], total_towers, colour or "#bbbbbb",
                                               marks.get(tid, "")))
            if drawn.get(tid) == state:  # compared as plain tuples: reading traits costs 2,328 x 8 lookups
                continue
            drawn[tid] = state
            if polygon.fill_color != state[0] or (polygon.color, polygon.weight, polygon.dash_array) != outline:
                with polygon.hold_sync():  # what changed in one message, not one per property
                    polygon.fill_color = state[0]
                    polygon.color, polygon.weight, polygon.dash_array = outline
            icon = self._label_icon(state[2])
            if self.labels[tid].icon is not icon:
                self.labels[tid].icon = icon

    def _label_icon(self, label: tuple) -> DivIcon:
        icon = self._icons_by_state.get(label)
        if icon is None:  # the label's HTML (and its words) made once per state, not per territory and render
            with speaking(self.language):  # only then: finding the language's catalogue costs ~5 ms
                icon = self._icons_by_state[label] = self._icon(label_html(*label))
        return icon

    def _show_board(self, owners: Mapping[str, str | None], values: Mapping[str, int],
                    towers: Mapping[str, int | None], total_towers: int, choosable: set[str], contested: str | None,
                    marks: Mapping[str, str]) -> None:
        """:meth:`show` on a map of more than :data:`BOARD_LAYER_LIMIT` territories: the looks that changed
        in one message of :class:`.BoardLooks`; a label's Marker made when it first shows something."""
        drawn = self._drawn
        looks: dict[int, list | None] = {}
        new_labels: dict[int, list[Marker]] = {}
        for tid, index in self._index.items():
            colour = owners[tid]
            kind = 2 if tid == contested else 1 if tid in choosable else 0
            label = (values[tid], towers[tid], total_towers, colour or "#bbbbbb", marks.get(tid, ""))
            state = (colour or FREE, kind, label)
            old = drawn.get(tid)
            if old == state:
                continue
            drawn[tid] = state
            if old is None or old[:2] != state[:2]:  # compared with what the browser has (a free look: none)
                look = None if state[:2] == (FREE, 0) else list(state[:2])
                if self.looks.looks.get(str(index)) != look:
                    looks[index] = look
            marker = self.labels.get(tid)
            if marker is None:
                if not values[tid] and towers[tid] is None:  # nothing to show: no marker yet
                    continue
                marker = self.labels[tid] = self._marker(tid, self._label_icon(label))
                marker.on_click(self._click_callback(tid))
                new_labels.setdefault(index % LABEL_GROUPS, []).append(marker)
            elif marker.icon is not (icon := self._label_icon(label)):
                marker.icon = icon
        self.looks.change(looks)
        new_groups = []
        for group_index, markers in sorted(new_labels.items()):
            group = self._label_groups.get(group_index)
            if group is None:
                group = self._label_groups[group_index] = LayerGroup(layers=tuple(markers))
                new_groups.append(group)
            else:
                group.layers = (*group.layers, *markers)
        if new_groups:  # under the names, as every label is on a small map
            names = (self.name_layer,) if self.name_layer is not None else ()
            kept = tuple(layer for layer in self.map.layers if layer is not self.name_layer)
            self.map.layers = (*kept, *new_groups, *names)
