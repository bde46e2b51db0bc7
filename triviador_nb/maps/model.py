"""What a loaded map is, and the helpers both kinds of map file share:
the map's value types and errors, territory lookups and links.

A leaf module: :mod:`triviador_nb.maps` (built maps) and
:mod:`triviador_nb.maps.teachers` (teachers' own GeoJSON) both import it,
and it imports neither.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from triviador_nb.engine.board import Board

K = TypeVar("K")  # a territory key: a feature index or a territory id

LatLon = tuple[float, float]
Link = tuple[str, str, str]
MAP_SUFFIX = ".geojson"
GEOMETRY_TYPES = ("Polygon", "MultiPolygon")
RULE_SET_TERRITORY_COUNTS = (15, 19)  # D15: what the built-in rule sets' tables are made for


class MapError(ValueError):
    """A map cannot be loaded. ``problems`` lists every problem found, one per item."""

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = problems or [message]


class MapWarning(UserWarning):
    """A map loads but something about it deserves a look (e.g. D15's territory count)."""


@dataclass(frozen=True)
class GameMap:
    """A loaded map.

    Attributes:
        board: territory ids (in file order), display names and adjacency
            (land borders and links).
        title: human-readable map title, e.g. ``"Hungary"``.
        center: ``(lat, lon)`` in degrees where the map view starts.
        zoom: Leaflet zoom level that frames the whole map in a ~900x600 px view.
        bounds: ``((south, west), (north, east))`` in degrees.
        labels: territory id -> ``(lat, lon)`` in degrees, a point inside the
            territory for its castle icon and value text.
        features: territory id -> the GeoJSON Feature dict (for teachers' own
            maps: normalised, with ``properties`` id, name, neighbours, label
            and a 2-D geometry).
        source_path: the file the map was read from.
        links: ``(id_a, id_b, note)`` for each link between territories that
            share no land border (sea links of built maps, ``links=`` given to
            :func:`load_map`); both ends border each other in ``board``.
        warnings: things worth a look that do not stop the map loading.
    """

    board: Board
    title: str
    center: LatLon
    zoom: float
    bounds: tuple[LatLon, LatLon]
    labels: Mapping[str, LatLon]
    features: Mapping[str, dict]
    source_path: Path
    links: tuple[Link, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class MapCheck:
    """What :func:`check_map` found in a file.

    Attributes:
        path: the file checked.
        errors: every problem that stops the map loading, one per item, e.g.
            ``features[3] "Pest": invalid geometry: Self-intersection[19.1 47.2]``.
        warnings: problems that do not stop it loading.
        game_map: the loaded map when there are no errors, else None.
        computed: True for a teacher's own map (adjacency etc. computed),
            False for a built map (read as stored).
    """

    path: Path
    errors: tuple[str, ...]
    warnings: tuple[str, ...]
    game_map: GameMap | None
    computed: bool = False

    @property
    def ok(self) -> bool:
        return not self.errors


def territory_lookup(territories: Sequence[tuple[str | None, str | None]]) -> dict[str, int]:
    """Index of each territory by id, then by exact name, then by case-folded name.

    ``territories`` lists ``(id, name)`` per feature (either may be None).
    An id wins over a name; a case-folded name only counts when unique.
    """
    lookup: dict[str, int] = {}
    folded: dict[str, list[int]] = {}
    for index, (_, name) in enumerate(territories):
        if name is not None:
            folded.setdefault(name.casefold(), []).append(index)
    for key, indices in folded.items():
        if len(indices) == 1:
            lookup[key] = indices[0]
    for index, (_, name) in reversed(list(enumerate(territories))):
        if name is not None:
            lookup[name] = index  # the first feature of a duplicated name wins
    for index, (territory, _) in reversed(list(enumerate(territories))):
        if territory is not None:
            lookup[territory] = index
    return lookup


def resolve_links(
    links: Iterable[Any] | None, lookup: Mapping[str, int]
) -> tuple[list[tuple[int, int, str, str]], list[str], list[str]]:
    """Resolve links given as pairs (or ``(a, b, note)``) of names or ids.

    Returns:
        ``(pairs, errors, warnings)``: pairs as ``(index_a, index_b, note,
        description)`` of feature indices; errors such as
        ``links[1] ("Island", "Atlantis"): unknown territory "Atlantis"``.
    """
    pairs: list[tuple[int, int, str, str]] = []
    errors: list[str] = []
    notes: list[str] = []
    if links is None:
        return pairs, errors, notes
    if isinstance(links, (str, bytes, Mapping)):
        return pairs, ["links must be a list of pairs of territory names or ids"], notes
    seen: dict[frozenset[int], str] = {}
    for k, link in enumerate(links):
        if (
            isinstance(link, (str, bytes))
            or not isinstance(link, Sequence)
            or len(link) not in (2, 3)
            or not all(isinstance(end, str) for end in link)
        ):
            errors.append(f"links[{k}]: a link is a pair of territory names or ids (optionally with a note), "
                          f"not {link!r}")
            continue
        a, b = link[0], link[1]
        note = link[2] if len(link) == 3 else ""
        who = f'links[{k}] ("{a}", "{b}")'
        unknown = [end for end in dict.fromkeys((a, b)) if _lookup(lookup, end) is None]
        for end in unknown:
            errors.append(f'{who}: unknown territory "{end}" (not a territory name or id)')
        if unknown:
            continue
        index_a, index_b = _lookup(lookup, a), _lookup(lookup, b)
        if index_a == index_b:
            errors.append(f"{who}: links a territory to itself")
            continue
        key = frozenset((index_a, index_b))
        if key in seen:
            notes.append(f"{who}: the same link as {seen[key]}")
            continue
        seen[key] = who
        pairs.append((index_a, index_b, note, who))
    return pairs, errors, notes


def add_links(pairs: Iterable[tuple[K, K, str, str]], neighbours: Mapping[K, set[K]],
              names: Mapping[K, str]) -> tuple[list[tuple[K, K, str]], list[str]]:
    """Make the ends of each resolved link (:func:`resolve_links`) neighbours.

    Args:
        pairs: ``(a, b, note, description)`` with territory keys (indices or ids).
        neighbours: each territory's neighbours; changed in place.
        names: each territory's name, for notes.

    Returns:
        ``(added, notes)``: the links added as ``(a, b, note)``, and a note for
        each link between territories that already border each other.
    """
    added: list[tuple[K, K, str]] = []
    notes: list[str] = []
    for a, b, note, description in pairs:
        if b in neighbours[a]:
            notes.append(f'{description}: "{names[a]}" and "{names[b]}" already border each other')
            continue
        neighbours[a].add(b)
        neighbours[b].add(a)
        added.append((a, b, note))
    return added, notes


def _lookup(lookup: Mapping[str, int], end: str) -> int | None:
    end = end.strip()
    found = lookup.get(end)
    return lookup.get(end.casefold()) if found is None else found


# --- validation of built maps: each function returns a list of problems ------


