"""Gymnasium and PettingZoo environments for Pacman.

- ``gymnasium.make("pacman/Pacman-v0", layout="smallClassic")``: the single-agent env
  `PacmanEnv` (registered when ``pacman`` is imported).
- `env`, `raw_env`, `parallel_env`: the multi-agent PettingZoo envs, in PettingZoo's
  convention (``from pacman.envs import parallel_env``), also as the versioned module
  ``from pacman.envs import pacman_v0; pacman_v0.env()``.

Submodules are imported on first use, so importing this package stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pacman.envs.gym_env import PacmanEnv
    from pacman.envs.pz_env import (
        PacmanAECEnv,
        PacmanParallelEnv,
        env,
        parallel_env,
        raw_env,
    )

__all__ = ["PacmanAECEnv", "PacmanEnv", "PacmanParallelEnv", "env", "parallel_env", "raw_env"]

_WHERE = {
    "PacmanEnv": "pacman.envs.gym_env",
    "PacmanAECEnv": "pacman.envs.pz_env",
    "PacmanParallelEnv": "pacman.envs.pz_env",
    "env": "pacman.envs.pz_env",
    "parallel_env": "pacman.envs.pz_env",
    "raw_env": "pacman.envs.pz_env",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'pacman.envs' has no attribute {name!r}")
