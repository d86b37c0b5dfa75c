"""The versioned PettingZoo module, in PettingZoo's usual style.

>>> from pacman.envs import pacman_v0
>>> game = pacman_v0.env(layout="smallClassic")  # turn-based, with the standard wrappers
>>> raw = pacman_v0.raw_env(layout="smallClassic")  # turn-based, unwrapped
>>> par = pacman_v0.parallel_env(layout="smallClassic")  # one step = a full turn

The ``_v0`` suffix is the env's version, as in ``pistonball_v6``: a change that alters
observations, rewards or dynamics gets a new module, and this one keeps its behaviour.
See `pacman.envs.pz_env` for the agents, observations and rewards.
"""

from __future__ import annotations

from pacman.envs.pz_env import PacmanAECEnv, PacmanParallelEnv, env, parallel_env, raw_env

__all__ = ["PacmanAECEnv", "PacmanParallelEnv", "env", "parallel_env", "raw_env"]
