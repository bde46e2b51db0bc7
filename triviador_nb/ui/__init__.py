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
from types import ModuleType

from ..lazy import lazy_names

_WHERE = {"play": "single_screen", "resume": "single_screen", "setup": "setup", "GameSetup": "setup",
          "host": "teacher", "teach": "teacher", "HostScreen": "teacher", "join": "joining",
          "StudentScreen": "student", "GameApp": "app", "LoopClock": "..classroom", "ManualClock": "..classroom",
          "resolve_bank": "..banks", "resolve_map": "..maps"}

__all__ = ["play", "resume", "setup", "host", "teach", "join", "GameApp", "GameSetup", "HostScreen", "StudentScreen",
           "LoopClock", "ManualClock", "resolve_bank", "resolve_map"]


__getattr__, __dir__ = lazy_names(__name__, _WHERE)


class _Package(ModuleType):
    """``triviador_nb.ui.setup`` is the form's function: importing the module
    of that name (``ui/setup.py``) must not put the module in its place."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _WHERE and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
