"""The layout stays obvious: no module imports another that imports it back
(directly or round a longer loop), and the pure parts stay pure.

Every ``import`` and ``from ... import`` in the package counts, those inside
functions too (a lazy import is still a circle a reader must untangle).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "triviador_nb"
#: Modules that hold game logic without widgets, tables, clocks or global random.
PURE = ("classroom/table.py", "words.py", "engine/view.py", "engine/plain.py")
FORBIDDEN = {"ipywidgets", "ipyleaflet", "pandas", "time", "datetime", "secrets", "random", "asyncio"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("triviador_nb")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("triviador_nb"):
                continue
            subs = {f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in known}
            found |= subs or {target}
            if subs and len(subs) < len(node.names):
                found.add(target)
    return {m for m in found if m in known and m != name}


def find_circles(graph: dict[str, set[str]]) -> list[str]:
    """Every import circle met by a depth-first walk, as ``a -> b -> a``."""
    circles: list[str] = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                path = trail + [node]
                circles.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, trail + [node])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    return circles


def test_no_module_imports_in_a_circle():
    known = modules()
    assert find_circles({name: imports_of(name, path, known) for name, path in known.items()}) == []


def test_the_circle_check_sees_circles():
    assert find_circles({"a": {"b"}, "b": {"a"}}) == ["a -> b -> a"]
    assert find_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a -> b -> c -> a"]
    assert find_circles({"a": {"b"}, "b": set()}) == []
    known = modules()  # the two circles issue 10 found are gone
    teachers = imports_of("triviador_nb.maps.teachers", known["triviador_nb.maps.teachers"], known)
    assert "triviador_nb.maps.model" in teachers and "triviador_nb.maps" not in teachers
    setup = imports_of("triviador_nb.ui.setup", known["triviador_nb.ui.setup"], known)
    assert "triviador_nb.ui.single_screen" in setup and "triviador_nb.ui" not in setup


def test_the_table_the_view_and_the_words_use_no_widgets_clock_or_global_random():
    problems = []
    for relative in PURE:
        path = PACKAGE / relative
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [(node.module or "").split(".")[0]]
            problems += [f"{relative}:{node.lineno}: imports {n}" for n in names if n in FORBIDDEN]
    assert problems == []
