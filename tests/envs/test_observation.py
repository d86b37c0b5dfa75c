"""The observation strategy is chosen once from ``obs_type`` (issue 12 item 5)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from pacman import load_layout
from pacman.envs import PacmanEnv, parallel_env
from pacman.envs._common import Renderer
from pacman.envs.encoding import GridEncoder
from pacman.envs.observation import (
    GridObservation,
    RgbObservation,
    SymbolicObservation,
    make_observation,
)

LAYOUT = load_layout("smallClassic")


@pytest.mark.parametrize(
    ("obs_type", "cls"),
    [("grid", GridObservation), ("symbolic", SymbolicObservation), ("rgb", RgbObservation)],
)
def test_each_obs_type_has_its_strategy_and_the_env_its_space(obs_type: str, cls: type) -> None:
    strategy = make_observation(obs_type, GridEncoder(LAYOUT, 2), Renderer(LAYOUT, fps=10))
    assert isinstance(strategy, cls)
    env = PacmanEnv(layout=LAYOUT, obs_type=obs_type)
    assert env.observation_space == strategy.space
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)


def test_unknown_obs_type_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown obs_type 'pixels'"):
        make_observation("pixels", GridEncoder(LAYOUT, 2), Renderer(LAYOUT, fps=10))


def test_the_env_does_not_look_at_obs_type_after_init() -> None:
    env = PacmanEnv(layout=LAYOUT, obs_type="grid")
    env.reset(seed=0)
    env.obs_type = "rgb"  # too late: the strategy was chosen in __init__
    obs, *_ = env.step(1)
    assert obs.shape == (6, LAYOUT.height, LAYOUT.width)


def test_parallel_grid_strategy_marks_each_agent() -> None:
    penv = parallel_env(layout=LAYOUT)
    observations, _ = penv.reset(seed=0)
    for i, agent in enumerate(penv.agents):
        plane = observations[agent]["observation"][-1]
        assert int(plane.sum()) == 1
        x, y = penv.game_state.agent_position(i)
        assert plane[LAYOUT.height - 1 - int(y), int(x)] == 1


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
@pytest.mark.parametrize("obs_type", ["grid", "symbolic", "rgb"])
def test_a_copied_env_observes_through_its_own_encoder(how: str, obs_type: str) -> None:
    env = PacmanEnv(layout=LAYOUT, obs_type=obs_type, num_ghosts=0)
    env.reset(seed=0)
    twin = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    env.step(0)  # West moves the original only
    a, *_ = env.step(1)
    b, *_ = twin.step(1)
    if obs_type == "symbolic":
        assert a["pacman_position"].tolist() != b["pacman_position"].tolist()
    else:
        assert not np.array_equal(a, b)
