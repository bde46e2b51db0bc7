"""The notebook UI: :func:`play` starts a game against bots on a real map
(:func:`resume` brings it back from its journal after a kernel restart);
:func:`setup` shows a form that starts them; :func:`host` opens rooms for
students on their own kernels, and :func:`join` is a student's way in."""

from __future__ import annotations

from ..banks import resolve_bank
from ..classroom import LoopClock, ManualClock
from ..maps import resolve_map
from .app import GameApp
from .setup import GameSetup, setup
from .single_screen import play, resume
from .student import StudentScreen, join
from .teacher import HostScreen, host, teach

__all__ = ["play", "resume", "setup", "host", "teach", "join", "GameApp", "GameSetup", "HostScreen", "StudentScreen", "LoopClock", "ManualClock", "resolve_bank", "resolve_map"]
