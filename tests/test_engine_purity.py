"""The engine stays pure (docs/design.md, point 1): no widgets, no pandas, no clock,
no global random - only the game's own seeded ``random.Random``."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "triviador_nb" / "engine"
FORBIDDEN_MODULES = {"ipywidgets", "ipyleaflet", "pandas", "time", "datetime", "secrets"}
GLOBAL_RANDOM_CALLS = {"random", "choice", "choices", "shuffle", "randint", "sample", "uniform", "randrange",
                       "gauss", "seed"}


def test_importing_the_engine_loads_no_widgets_or_pandas():
    # (the standard library itself imports time, so only the third-party modules are checked here;
    # the source check below covers the engine's own imports)
    code = "import sys, triviador_nb.engine; print([m for m in ('ipywidgets', 'ipyleaflet', 'pandas') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_engine_source_imports_nothing_forbidden_and_calls_no_global_random():
    problems = []
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [(node.module or "").split(".")[0]]
                if node.module == "random":
                    problems.append(f"{path.name}:{node.lineno}: from random import ...")
            else:
                names = []
            problems += [f"{path.name}:{node.lineno}: imports {n}" for n in names if n in FORBIDDEN_MODULES]
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "random"
                    and node.func.attr in GLOBAL_RANDOM_CALLS):
                problems.append(f"{path.name}:{node.lineno}: random.{node.func.attr}() uses the global RNG")
    assert problems == []


ROOMS = ENGINE.parent / "rooms"


def test_rooms_word_nothing_and_draw_nothing():
    """Issue 22: the room protocol carries codes and data; words are made on
    the screen, so ``rooms/`` imports neither the translations nor widgets,
    and no module but ``protocol.py`` writes protocol JSON."""
    problems = []
    for path in sorted(ROOMS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level and (node.module or "").split(".")[0] in ("i18n", "ui"):
                problems.append(f"{path.name}:{node.lineno}: imports ..{node.module}")
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] in ("ipywidgets", "ipyleaflet")
                                                    for a in node.names):
                problems.append(f"{path.name}:{node.lineno}: imports widgets")
            if path.name != "protocol.py" and isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and '"type":' in node.value.replace(" ", ""):
                problems.append(f"{path.name}:{node.lineno}: builds a protocol message by hand")
    assert problems == []
