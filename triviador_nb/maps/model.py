"""What a loaded map is, and the helpers both kinds of map file share:
the map's value types and errors, territory lookups and links.

A leaf module: :mod:`triviador_nb.maps` (built maps) and
:mod:`triviador_nb.maps.teachers` (teachers' own GeoJSON) both import it,
and it imports neither.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from triviador_nb.engine.board import Board

K = TypeVar("K")  # a territory key: a feature index or a territory id

LatLon = tuple[float, float]
Link = tuple[str, str, str]
MAP_SUFFIX = ".geojson"
GEOMETRY_TYPES = ("Polygon", "MultiPolygon")
RULE_SET_TERRITORY_COUNTS = (15, 19)  # D15: what the built-in rule sets' tables are made for
# How messages name a loading option: the Python argument, then the command line's.
# The setup form shows its own field's label instead (triviador_nb.ui.setup).
HINT_NAME_PROPERTY = "name_property=..., --name-property"
HINT_LINK = "links=..., --link A=B"
HINT_MERGE = "merge_by_name=True, --merge-by-name"
MERGE_LABEL = "Merge features with the same name"  # the setup form's checkbox for merge_by_name


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
        loaded_with: how to load the map again (a journal keeps it for
            :func:`triviador_nb.resume`): ``{"name": "hungary"}`` for a built
            map, else ``{"path", "name_property", "links", "merge_by_name"}``
            as given to :func:`~triviador_nb.maps.load_map`; empty for a map
            made another way (a room's student receives the map itself).
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
    loaded_with: Mapping[str, Any] = field(default_factory=dict, compare=False)


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


@dataclass(frozen=True)
class DrawSize:
    """How much a map sends to the browser to draw it.

    Attributes:
        territories: polygons drawn (one per territory).
        vertices: points in all their rings.
        geometry_bytes: the outlines as compact JSON, about what the widgets send.
    """

    territories: int
    vertices: int
    geometry_bytes: int


def draw_size(game_map: GameMap) -> DrawSize:
    """The :class:`DrawSize` of ``game_map`` (its outlines as drawn, simplified for teachers' maps)."""
    vertices = size = 0
    for feature in game_map.features.values():
        geometry = feature.get("geometry") or {}
        coordinates = geometry.get("coordinates", [])
        polygons = coordinates if geometry.get("type") == "MultiPolygon" else [coordinates]
        vertices += sum(len(ring) for polygon in polygons for ring in polygon)
        size += len(json.dumps(coordinates, separators=(",", ":")))
    return DrawSize(len(game_map.features), vertices, size)


def normal_name(text: str) -> str:
    """The one normalisation names are matched by when no exact name or id matches.

    Unicode NFKC (``"ﬁ"`` -> ``"fi"``, full-width letters -> ASCII), case
    folded (``"NORD"`` -> ``"nord"``, ``"ß"`` -> ``"ss"``), accents stripped
    (NFKD, combining marks dropped: ``"Île"`` -> ``"ile"``), runs of whitespace
    as one space, trimmed. ``"  Île-de-FRANCE "`` -> ``"ile-de-france"``.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    plain = "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))
    return " ".join(unicodedata.normalize("NFC", plain).split())


class TerritoryLookup:
    """Finds a territory by what a link (or a teacher) calls it.

    In this order, the first that matches wins:

    1. an exact name (as given, trimmed; of a repeated name, the first feature's);
    2. an exact id;
    3. the :func:`normal_name` of a name, when only one territory has it.

    So an id made from a name (``"Ile-de-France"`` for ``"Île de France"``)
    never beats a territory whose exact name that is, and a name in capitals
    (``"NORD"``) never silently picks ``"Nord"`` when both exist.

    Args:
        territories: ``(id, name)`` per feature or territory (either may be None).
    """

    def __init__(self, territories: Sequence[tuple[str | None, str | None]]):
        self._names: dict[str, int] = {}
        self._ids: dict[str, int] = {}
        self._normal: dict[str, list[int]] = {}
        self._spellings: dict[str, dict[str, None]] = {}
        self.names: dict[int, str] = {}  # index -> name, for messages
        for index, (territory, name) in enumerate(territories):
            if territory is not None:
                self._ids.setdefault(territory, index)
            if name is None:
                continue
            self.names[index] = name
            if name not in self._names:
                self._names[name] = index
                self._normal.setdefault(normal_name(name), []).append(index)
            self._spellings.setdefault(normal_name(name), {})[name] = None

    def find(self, text: str) -> int | list[int] | None:
        """The territory's index; a list of indices when only the normal form
        matches and several territories share it; None when nothing matches."""
        text = text.strip()
        for exact in (self._names, self._ids):
            if text in exact:
                return exact[text]
        matches = self._normal.get(normal_name(text), [])
        if len(matches) == 1:
            return matches[0]
        return matches or None

    def collisions(self) -> list[list[str]]:
        """Groups of different names with one :func:`normal_name` (e.g.
        ``["Nord", "NORD"]``), in the order the names first appear."""
        return [list(group) for group in self._spellings.values() if len(group) > 1]


def collision_warning(groups: list[list[str]], limit: int = 3) -> str | None:
    """One warning for names that differ only in case, accents, Unicode form or spacing."""
    if not groups:
        return None
    shown = "; ".join(" and ".join(_shown_name(n, group) for n in group) for group in groups[:limit])
    more = f" and {len(groups) - limit} more" if len(groups) > limit else ""
    return (f"names that differ only in case, accents or spacing: {shown}{more}; they stay different "
            f"territories, and a link must name one of them exactly")


def _shown_name(name: str, group: list[str]) -> str:
    """``"Genève"``, with the code points of its letters beyond ASCII when another name of ``group``
    looks the same (the same text in another Unicode form, NFC and NFD):
    ``"Genève" (è = U+00E8)`` and ``"Genève" (è = U+0065 U+0300)``."""
    same = [n for n in group if n != name and unicodedata.normalize("NFC", n) == unicodedata.normalize("NFC", name)]
    if not same:
        return f'"{name}"'
    letters: list[str] = []
    for char in name:  # a combining mark joins the letter before it
        if letters and unicodedata.combining(char):
            letters[-1] += char
        else:
            letters.append(char)
    spelt = ", ".join(f"{letter} = {' '.join(f'U+{ord(c):04X}' for c in letter)}"
                      for letter in dict.fromkeys(letters) if not letter.isascii())
    form = "NFC" if unicodedata.is_normalized("NFC", name) else "NFD" if unicodedata.is_normalized("NFD", name) else ""
    return f'"{name}" ({spelt}{", " + form if form else ""})'


def resolve_links(
    links: Iterable[Any] | None, lookup: TerritoryLookup, absent: Mapping[str, str] | None = None
) -> tuple[list[tuple[int, int, str, str]], list[str], list[str]]:
    """Resolve links given as pairs (or ``(a, b, note)``) of names or ids
    (matched as :class:`TerritoryLookup` says). ``absent``: names of features
    left out of the map, each with why (e.g. ``features[9], an empty
    MultiPolygon``), for a link that names one.

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
        found = {end: lookup.find(end) for end in dict.fromkeys((a, b))}
        for end, match in found.items():
            if match is None and absent and end.strip() in absent:
                errors.append(f'{who}: "{end}" is not on the map: {absent[end.strip()]}')
            elif match is None:
                errors.append(f'{who}: unknown territory "{end}" (not a territory name or id)')
            elif isinstance(match, list):
                group = [lookup.names[i] for i in match]
                spellings = " and ".join(_shown_name(name, group) for name in group)
                errors.append(f'{who}: "{end}" matches {spellings}, which differ only in case, accents or spacing; '
                              "use the exact name")
        if not all(isinstance(match, int) for match in found.values()):
            continue
        index_a, index_b = found[a], found[b]
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


# --- validation of built maps: each function returns a list of problems ------


