"""Pacman multi-agent environment: engine, agents' world, rendering and RL wrappers."""

from __future__ import annotations

from pacman.core import *  # noqa: F403
from pacman.core import __all__ as _core_all

__all__ = list(_core_all)
__version__ = "0.1.0"
