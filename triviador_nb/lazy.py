"""Packages whose names are imported when first asked for (PEP 562).

``from triviador_nb.engine import Pick`` then loads the engine's actions
alone, not its game; a student's kernel coming back to its seat loads the
room connection, not the table, the bots and the map (issue 24: "in the
seat within 1 s").
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any, Callable


def lazy_names(package: str, where: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``.

    Args:
        package: the package's ``__name__``.
        where: each public name -> the module that defines it, relative to
            the package (``"client"``, ``"..classroom"``).

    Returns:
        The two functions, to be bound to those names in the package; a name
        once imported is kept in the package's namespace. An unknown name
        raises AttributeError, as for any module.
    """

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = where[name]
        value = getattr(import_module(module if module.startswith(".") else "." + module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__
