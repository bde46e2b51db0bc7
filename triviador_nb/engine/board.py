"""The board: territories and which of them border each other.

A :class:`Board` is the engine's whole view of a map - ids, display names and
adjacency. Geometry lives with the map loader (``triviador_nb.maps``); the
engine needs none of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from types import MappingProxyType
from typing import Mapping


class BoardError(ValueError):
    """A board is malformed (unknown neighbour, asymmetric adjacency, ...)."""


@dataclass(frozen=True, init=False)
class Board:
    """An immutable set of territories with symmetric adjacency.

    Args:
        name: the map's name, e.g. ``"hungary"``.
        names: territory id -> display name, in board order (e.g.
            ``{"HU-PE": "Pest", ...}``).
        adjacency: territory id -> ids it borders. Must be symmetric and
            mention only known ids; a territory never borders itself.

    Raises:
        BoardError: listing every problem found, when the adjacency is not
            symmetric, names unknown ids, or a territory borders itself.
    """

    name: str
    territories: tuple[str, ...]
    names: Mapping[str, str]
    adjacency: Mapping[str, frozenset[str]]

    def __init__(self, name: str, names: Mapping[str, str], adjacency: Mapping[str, object]):
        problems: list[str] = []
        ids = tuple(names)
        known = set(ids)
        adj: dict[str, frozenset[str]] = {}
        for t in ids:
            neighbours = frozenset(adjacency.get(t, ()))
            for n in sorted(neighbours - known):
                problems.append(f"{t}: unknown neighbour {n!r}")
            if t in neighbours:
                problems.append(f"{t}: borders itself")
            adj[t] = neighbours & known - {t}
        for t in sorted(set(adjacency) - known):
            problems.append(f"adjacency names unknown territory {t!r}")
        for t in ids:
            for n in sorted(adj[t]):
                if t not in adj[n]:
                    problems.append(f"{t} borders {n} but {n} does not border {t}")
        if problems:
            raise BoardError(f"board {name!r}: " + "; ".join(problems))
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "territories", ids)
        object.__setattr__(self, "names", MappingProxyType(dict(names)))
        object.__setattr__(self, "adjacency", MappingProxyType(adj))
        object.__setattr__(self, "_independent_sets", {})  # size -> sets, computed once

    def __reduce__(self):
        # the mapping proxies cannot be pickled; rebuild from plain dicts
        return (Board, (self.name, dict(self.names), {t: sorted(n) for t, n in self.adjacency.items()}))

    def __deepcopy__(self, memo: dict) -> "Board":
        return self  # immutable: a copied game shares its board

    def __len__(self) -> int:
        return len(self.territories)

    def borders(self, a: str, b: str) -> bool:
        """True when territories ``a`` and ``b`` share a border."""
        return b in self.adjacency[a]

    def neighbours_of_set(self, owned: frozenset[str] | set[str]) -> frozenset[str]:
        """Territories bordering any of ``owned`` and not in it."""
        out: set[str] = set()
        for t in owned:
            out |= self.adjacency[t]
        return frozenset(out - set(owned))

    def independent_sets(self, size: int) -> list[tuple[str, ...]]:
        """Every set of ``size`` mutually non-adjacent territories, in board order.

        Used to draw bases that never border each other (D15) on small boards
        (see :data:`triviador_nb.engine.bases.ENUMERATE_UP_TO`): for the
        built-in maps (<= 20 territories, size <= 4) a few thousand sets,
        computed once per board and size.
        """
        cache = self._independent_sets
        if size not in cache:
            cache[size] = tuple(
                combo
                for combo in combinations(self.territories, size)
                if not any(self.borders(a, b) for a, b in combinations(combo, 2))
            )
        return list(cache[size])
