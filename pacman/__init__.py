"""Pacman multi-agent environment: engine, agents' world, rendering and RL wrappers.

Importing ``pacman`` is cheap: it loads the pure-Python engine only. The Gymnasium env
``pacman/Pacman-v0`` is registered as soon as Gymnasium is imported, before or after.
"""

from __future__ import annotations

# `python -m` puts the current folder first on the import path. When that folder is not
# this project's (a student's folder, say), a file there named like a module we import
# (argparse.py, typing.py, ...) would be imported in its place: drop the folder first.
import os as _os
import sys as _sys

if (
    _sys.argv[:1] == ["-m"]
    and _sys.path
    and _sys.path[0] in ("", _os.getcwd())
    and not __file__.startswith(_os.getcwd() + _os.sep)
):
    del _sys.path[0]

from pacman import _gym_registration
from pacman.core import *  # noqa: F403
from pacman.core import __all__ as _core_all

__all__ = list(_core_all)
__version__ = "0.1.0"

_gym_registration.install()
