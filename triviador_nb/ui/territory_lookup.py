"""Which territory a click on the map fell in, when the territories are not layers of their own.

A big map's shapes are one picture (:mod:`.board_layer`) that lets clicks through to the map; the map's
click gives a latitude and longitude, and :class:`TerritoryLookup` finds the territory whose drawn shape
holds that point, with a shapely ``STRtree`` built once (a lookup costs microseconds at 3,231 territories).
"""

from __future__ import annotations

from typing import Mapping

import shapely
import shapely.geometry


class TerritoryLookup:
    """Territory ids by the point they hold.

    Args:
        geometries: territory id -> its GeoJSON geometry (longitude, latitude), as drawn.
    """

    def __init__(self, geometries: Mapping[str, Mapping]):
        self._ids = list(geometries)
        shapes = [shapely.geometry.shape(geometry) for geometry in geometries.values()]
        shapely.prepare(shapes)
        self._shapes = shapes
        self._tree = shapely.STRtree(shapes)

    def at(self, lat: float, lon: float) -> str | None:
        """The territory whose shape holds (``lat``, ``lon``) in degrees (on a shared border, the first
        in the map's order), or None outside every territory (the sea)."""
        hits = self._tree.query(shapely.Point(lon, lat), predicate="intersects")
        return self._ids[int(min(hits))] if len(hits) else None
