"""Pacman multi-agent environment: engine, agents' world, rendering and RL wrappers.

Importing ``pacman`` is cheap: it loads the pure-Python engine only. The Gymnasium env
``pacman/Pacman-v0`` is registered as soon as Gymnasium is imported, before or after.
"""

from __future__ import annotations

from pacman import _gym_registration
from pacman.core import *  # noqa: F403
from pacman.core import __all__ as _core_all

__all__ = list(_core_all)
__version__ = "0.1.0"

_gym_registration.install()
