"""The notebook UI: :func:`play` starts a game against bots on a real map
(:func:`resume` brings it back from its journal after a kernel restart);
:func:`setup` shows a form that starts them; :func:`host` opens rooms for
students on their own kernels, and :func:`join` is a student's way in.

Each name is imported when first asked for, so a student's
``from triviador_nb.ui import join`` loads the student's screen alone, not
the setup form, the reports and the banks (issue 24: a restarted kernel is
back in its seat sooner).
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType

_WHERE = {"play": "single_screen", "resume": "single_screen", "setup": "setup", "GameSetup": "setup",
          "host": "teacher", "teach": "teacher", "HostScreen": "teacher", "join": "student",
          "StudentScreen": "student", "GameApp": "app", "LoopClock": "..classroom", "ManualClock": "..classroom",
          "resolve_bank": "..banks", "resolve_map": "..maps"}

__all__ = ["play", "resume", "setup", "host", "teach", "join", "GameApp", "GameSetup", "HostScreen", "StudentScreen",
           "LoopClock", "ManualClock", "resolve_bank", "resolve_map"]


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'triviador_nb.ui' has no attribute {name!r}")
    module = _WHERE[name]
    value = getattr(import_module(module if module.startswith("..") else "." + module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(ModuleType):
    """``triviador_nb.ui.setup`` is the form's function: importing the module
    of that name (``ui/setup.py``) must not put the module in its place."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _WHERE and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
