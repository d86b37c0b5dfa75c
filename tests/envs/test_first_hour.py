"""What an RL researcher meets first (issue 13): headless checkers, ``make`` ids, masks,
the versioned PettingZoo module and bad actions."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import pacman  # noqa: F401  (registers pacman/Pacman-v0)
from pacman import GameState, IllegalActionError, Layout
from pacman.envs import PacmanEnv, raw_env

ROOT = Path(__file__).resolve().parents[2]

CORRIDOR = Layout.from_text(
    """
%%%%%%%
%P...G%
%%%%%%%
""",
    name="corridor",
)


def run_headless(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter with no display at all (no DISPLAY, no SDL driver)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    }
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-W", "always", "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


def test_checkers_pass_headless_with_human_mode_and_one_warning() -> None:
    done = run_headless(
        "import gymnasium as gym, pacman\n"
        "from gymnasium.utils.env_checker import check_env\n"
        "from pettingzoo.test import render_test\n"
        "from pacman.envs import pacman_v0\n"
        "check_env(gym.make('pacman/Pacman-v0', layout='smallClassic').unwrapped)\n"
        "env = gym.make('pacman/Pacman-v0', layout='smallClassic', render_mode='human')\n"
        "check_env(env.unwrapped)\n"
        "env.reset(seed=0)\n"
        "for _ in range(5): env.step(1)\n"
        "render_test(lambda render_mode=None: pacman_v0.env(layout='smallClassic',"
        " render_mode=render_mode))\n"
        "print('passed')\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "passed"
    warned = [line for line in done.stderr.splitlines() if "Warning: " in line]
    # One warning in all, although three envs (and check_env's copies) wanted a window.
    assert [line for line in warned if "shows no window" in line] == warned[-1:], done.stderr
    assert len([line for line in warned if "shows no window" in line]) == 1
    assert "DISPLAY is not set" in warned[-1]


def test_human_without_display_renders_nothing_after_one_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pacman.core.errors import RenderingUnavailableError
    from pacman.envs import _common

    def no_window() -> Any:
        def fail(*args: Any, **kwargs: Any) -> Any:
            raise RenderingUnavailableError("DISPLAY is not set")

        return fail

    monkeypatch.setattr(_common, "_window_class", no_window)
    monkeypatch.setattr(_common, "_headless_warned", False)
    env = PacmanEnv(layout="smallClassic", render_mode="human")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.reset(seed=0)
        for _ in range(3):
            env.step(1)
        assert env.render() is None
    assert [str(w.message) for w in caught] == [
        "\x1b[33mWARN: render_mode='human' shows no window: DISPLAY is not set; "
        "rendering is off\x1b[0m"
    ]


def test_module_prefix_make_registers_the_env_in_a_fresh_process() -> None:
    done = run_headless(
        "import gymnasium as gym\n"
        "env = gym.make('pacman:pacman/Pacman-v0', layout='smallClassic')\n"
        "print(env.spec.max_episode_steps, type(env.unwrapped).__name__)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1000", "PacmanEnv"]


def test_spec_max_episode_steps_matches_the_env_default() -> None:
    env = gym.make("pacman/Pacman-v0", layout="smallClassic")
    assert env.spec is not None
    assert env.spec.max_episode_steps == 1000 == env.unwrapped.max_steps  # type: ignore[attr-defined]


def test_final_step_mask_stop_only_after_a_win_or_loss() -> None:
    env = PacmanEnv(layout=CORRIDOR)  # Pacman walks east into the ghost's mouth
    env.reset(seed=0)
    terminated = False
    info: dict[str, Any] = {}
    while not terminated:
        _, _, terminated, truncated, info = env.step(2)
        assert not truncated
    assert info["action_mask"].tolist() == [0, 1, 0, 0, 0]
    assert env.action_masks().tolist() == [False, True, False, False, False]


def test_truncated_step_mask_is_the_legal_actions_of_its_state() -> None:
    env = gym.make("pacman/Pacman-v0", layout="smallClassic", num_ghosts=0, max_steps=3)
    env.reset(seed=0)
    for _ in range(3):
        _, _, terminated, truncated, info = env.step(1)
    assert truncated
    assert not terminated
    assert info["action_mask"].tolist() == [1, 1, 1, 0, 0]  # West, Stop, East at the start


@pytest.mark.parametrize("obs_type", ["grid", "symbolic"])
def test_action_masks_is_the_info_mask_as_bools(obs_type: str) -> None:
    env = gym.make("pacman/Pacman-v0", layout="smallClassic", obs_type=obs_type)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    for _ in range(200):
        masks = env.unwrapped.action_masks()  # type: ignore[attr-defined]
        assert masks.dtype == np.bool_
        assert masks.shape == (5,)
        assert masks.tolist() == info["action_mask"].astype(bool).tolist()
        action = int(rng.choice(np.flatnonzero(masks)))
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset()


def test_action_masks_before_reset_is_an_error() -> None:
    with pytest.raises(gym.error.ResetNeeded):
        PacmanEnv(layout="smallClassic").action_masks()


def test_versioned_pettingzoo_module() -> None:
    from pettingzoo.utils import BaseWrapper

    from pacman.envs import PacmanAECEnv, PacmanParallelEnv, pacman_v0

    wrapped = pacman_v0.env(layout="smallClassic")
    assert isinstance(wrapped, BaseWrapper)
    assert isinstance(wrapped.unwrapped, PacmanAECEnv)
    assert isinstance(pacman_v0.raw_env(layout="smallClassic"), PacmanAECEnv)
    par = pacman_v0.parallel_env(layout="smallClassic")
    assert isinstance(par, PacmanParallelEnv)
    assert par.metadata["name"] == "pacman_v0"
    observations, _ = par.reset(seed=0)
    assert set(observations) == {"pacman_0", "ghost_1", "ghost_2"}


_NOT_AN_ACTION = [
    (float("inf"), "inf (float)"),
    (float("nan"), "nan (float)"),
    (True, "True (bool)"),
    (False, "False (bool)"),
    (np.bool_(True), "(bool)"),
    (1.5, "1.5 (float)"),
    (2.0, "2.0 (float)"),
    (np.float64(2.0), "(float64)"),
    ("North", "'North' (str)"),
    ("2", "'2' (str)"),
    (None, "None (NoneType)"),
    (5, "5 (int)"),
    (-1, "-1 (int)"),
    (np.int64(9), "(int64)"),
    (np.array([2]), "(ndarray)"),
    ([2], "[2] (list)"),
    (2**70, "(int)"),
    ("x" * 500, "... (str)"),
]


@pytest.mark.parametrize(("action", "shown"), _NOT_AN_ACTION)
def test_gym_step_refuses_a_non_action_in_one_line(action: Any, shown: str) -> None:
    env = PacmanEnv(layout="smallClassic")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError) as caught:
        env.step(action)
    message = str(caught.value)
    assert "\n" not in message
    assert len(message) < 200
    assert shown in message
    assert "is not in Discrete(5): expected an int 0..4 (0 West, 1 Stop" in message
    assert env.state == GameState.initial(env.layout, env.num_ghosts)  # nothing was played


@pytest.mark.parametrize(
    "action",
    [2, np.int64(2), np.int8(2), np.uint16(2), np.array(2), np.array(2, dtype=np.uint8)],
    ids=["int", "int64", "int8", "uint16", "0d-int64", "0d-uint8"],
)
def test_gym_step_accepts_numpy_integers(action: Any) -> None:
    env = PacmanEnv(layout="smallClassic", num_ghosts=0)
    env.reset(seed=0)
    start = env.state.pacman_position
    _, _, _, _, info = env.step(action)
    assert info["illegal_action"] is False
    assert env.state.pacman_position == (start[0] + 1, start[1])  # moved East


def _play_out(game: Any) -> None:
    game.reset(seed=0)
    for agent in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0])
        game.step(action)
        del agent


@pytest.mark.parametrize("action", [0, 1, None, "x"])
def test_raw_env_step_after_every_agent_is_gone_is_a_clear_error(action: Any) -> None:
    game = raw_env(layout=CORRIDOR, max_steps=5)
    _play_out(game)
    assert game.agents == []
    with pytest.raises(ValueError, match=r"^no agent is left to act .*call reset\(\)") as caught:
        game.step(action)
    assert "\n" not in str(caught.value)


def test_raw_env_step_before_reset_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no agent is left to act"):
        raw_env(layout="smallClassic").step(0)
