"""The notebook UI: :func:`play` starts a game against bots on a real map;
:func:`setup` shows a form that starts them."""

from __future__ import annotations

from ..banks import resolve_bank
from ..classroom import LoopClock, ManualClock
from ..maps import resolve_map
from .app import GameApp
from .setup import GameSetup, setup
from .single_screen import play

__all__ = ["play", "setup", "GameApp", "GameSetup", "LoopClock", "ManualClock", "resolve_bank", "resolve_map"]
