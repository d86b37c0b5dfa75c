from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import pacman
from agents import DirectionalGhost, RandomGhost
from pacman import GameState, IllegalActionError, Layout, TerminalStateError
from pacman.envs import PacmanEnv

ROOT = Path(__file__).resolve().parents[2]

CORRIDOR = Layout.from_text(
    """
%%%%%%%
%P...G%
%%%%%%%
""",
    name="corridor",
)


def make(**kwargs: Any) -> gym.Env[Any, Any]:
    kwargs.setdefault("layout", "smallClassic")
    return gym.make("pacman/Pacman-v0", **kwargs)


def rollout(env: gym.Env[Any, Any], seed: int, steps: int) -> list[tuple[Any, ...]]:
    """Random legal actions drawn from their own generator: (obs, reward, term, trunc, info)."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    out: list[tuple[Any, ...]] = [(obs, 0, False, False, info)]
    for _ in range(steps):
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        obs, reward, term, trunc, info = env.step(action)
        out.append((obs, reward, term, trunc, info))
        if term or trunc:
            obs, info = env.reset()
            out.append((obs, 0, False, False, info))
    return out


def same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b)
    return bool(a == b) and type(a) is type(b)


@pytest.mark.parametrize("obs_type", ["grid", "symbolic", "rgb"])
def test_check_env_passes(obs_type: str) -> None:
    check_env(make(obs_type=obs_type).unwrapped, skip_render_check=obs_type != "grid")


def test_make_with_a_layout_name() -> None:
    env = make()
    obs, info = env.reset(seed=0)
    assert isinstance(env.unwrapped, PacmanEnv)
    assert obs.shape == (6, 7, 20)
    assert obs.dtype == np.uint8
    assert info["action_mask"].dtype == np.int8
    assert info["action_mask"].tolist() == [1, 1, 1, 0, 0]  # West, Stop, East


@pytest.mark.parametrize("obs_type", ["grid", "symbolic"])
@pytest.mark.parametrize("ghost_policy", ["directional", "random"])
def test_same_seed_same_actions_same_rollout(obs_type: str, ghost_policy: str) -> None:
    first = rollout(make(obs_type=obs_type, ghost_policy=ghost_policy, max_steps=60), 3, 150)
    second = rollout(make(obs_type=obs_type, ghost_policy=ghost_policy, max_steps=60), 3, 150)
    assert same(first, second)
    other = rollout(make(obs_type=obs_type, ghost_policy=ghost_policy, max_steps=60), 4, 150)
    assert not same(first, other)


def ghost_moves(env: Any, steps: int) -> list[tuple[Any, ...]]:
    """The ghosts' positions after each of ``steps`` Stop moves (one game, at most)."""
    out = []
    for _ in range(steps):
        env.step(1)
        out.append(env.unwrapped.state.ghost_positions)
        if env.unwrapped.state.is_terminal():
            break
    return out


@pytest.mark.parametrize("ghost_policy", ["random", RandomGhost])
def test_a_seed_fixes_the_games_after_it_and_unseeded_resets_go_on(ghost_policy: Any) -> None:
    env = make(ghost_policy=ghost_policy, layout="openClassic")
    env.reset(seed=7)
    first = ghost_moves(env, 30)
    env.reset()
    second = ghost_moves(env, 30)
    assert first != second  # the ghosts' generators went on: a new game
    env.reset(seed=7)
    assert ghost_moves(env, 30) == first  # a seed starts the same series again
    env.reset()
    assert ghost_moves(env, 30) == second
    fresh = make(ghost_policy=ghost_policy, layout="openClassic")
    fresh.reset(seed=9)
    ghost_moves(fresh, 10)
    fresh.reset(seed=7)  # whatever came before the seed
    assert ghost_moves(fresh, 30) == first
    fresh.reset()
    assert ghost_moves(fresh, 30) == second


@pytest.mark.parametrize(
    ("name", "cls"), [("directional", DirectionalGhost), ("random", RandomGhost)]
)
def test_memoised_builtin_ghosts_play_like_the_agents(name: str, cls: Any) -> None:
    # The env memoises the built-in ghosts' distributions; a plain factory does not.
    builtin = rollout(make(ghost_policy=name), 11, 300)
    plain = rollout(make(ghost_policy=cls), 11, 300)
    assert same(builtin, plain)


class _Draws:
    """A generator stand-in that returns the given draws in turn."""

    def __init__(self, draws: list[float]) -> None:
        self._draws = iter(draws)

    def random(self) -> float:
        return next(self._draws)


def test_memoised_draws_at_and_above_the_cumulative_sums_pick_as_the_ghost_does() -> None:
    # Edges of the inlined sampler: a draw equal to a cumulative sum, just above one, and
    # above the last sum (which rounding can leave below 1) must pick what the ghost picks.
    from agents.ghosts import classic_table
    from pacman.envs.gym_env import _MemoGhost

    state = GameState.initial(pacman.load_layout("mediumClassic"))
    for _ in range(3):
        state = state.successor(0, state.legal_actions(0)[0])
        for i in (1, 2):
            state = state.successor(i, state.legal_actions(i)[0])
    ghost = DirectionalGhost(1, random.Random(0))
    _, cumulative = classic_table(ghost.distribution(state))
    draws = [0.0, *cumulative, *(c + 1e-12 for c in cumulative), 1.0, 2.0]
    memo = _MemoGhost(DirectionalGhost(1, _Draws(draws)), {})  # type: ignore[arg-type]
    plain = DirectionalGhost(1, _Draws(draws))  # type: ignore[arg-type]
    picks = [memo.get_action(state) for _ in draws]
    assert picks == [plain.get_action(state) for _ in draws]
    assert len(set(picks)) == len(cumulative)  # every action was drawn at least once


def test_reward_is_the_score_change_and_the_game_is_followed_exactly() -> None:
    env = make(layout="mediumClassic")
    _, info = env.reset(seed=5)
    rng = random.Random(5)
    state = env.unwrapped.state
    for _ in range(200):
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        _, reward, term, _, info = env.step(action)
        new = env.unwrapped.state
        assert reward == new.score - state.score
        assert info["score"] == new.score
        assert term == new.is_terminal()
        if term:
            assert info["action_mask"].tolist() == [0, 1, 0, 0, 0]  # Stop only, never empty
            break
        assert new.legal_actions(0) == tuple(
            a for i, a in enumerate(pacman.ACTION_ORDER) if info["action_mask"][i]
        )
        state = new


def test_win_terminates_with_the_win_bonus() -> None:
    env = make(layout=CORRIDOR, num_ghosts=0)
    env.reset(seed=0)
    rewards = [env.step(2)[1] for _ in range(2)]
    _, reward, term, trunc, _ = env.step(2)
    assert rewards == [9, 9]
    assert (reward, term, trunc) == (509, True, False)
    assert env.unwrapped.state.is_win()


def test_lose_terminates() -> None:
    env = make(layout=CORRIDOR, ghost_policy="random")
    env.reset(seed=0)
    results = [env.step(2) for _ in range(2)]
    assert results[-1][2] is True
    assert env.unwrapped.state.is_lose()
    assert results[-1][1] == 9 - 500  # the ghost caught Pacman on the food
    with pytest.raises(TerminalStateError, match="call reset"):
        env.step(1)


def test_truncated_at_max_steps() -> None:
    env = make(num_ghosts=0, max_steps=3)
    env.reset(seed=0)
    flags = [env.step(1)[2:4] for _ in range(3)]
    assert flags == [(False, False), (False, False), (False, True)]


def test_illegal_action_is_played_as_stop_or_raises_when_strict() -> None:
    env = make(num_ghosts=0)
    env.reset(seed=0)
    start = env.unwrapped.state.pacman_position
    _, reward, _, _, info = env.step(3)  # North is a wall at the start
    assert info["illegal_action"] is True
    assert env.unwrapped.state.pacman_position == start
    assert reward == -1
    strict = make(num_ghosts=0, strict=True)
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"illegal action 3 \(North\) for agent 0"):
        strict.step(3)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"layout": "noSuchLayout"}, "noSuchLayout: no such layout"),
        ({"num_ghosts": 5}, "num_ghosts must be between 0 and 2"),
        ({"num_ghosts": -1}, "num_ghosts must be between 0 and 2"),
        ({"ghost_policy": "smart"}, "unknown ghost_policy 'smart'"),
        ({"max_steps": 0}, "max_steps must be an int >= 1"),
        ({"obs_type": "pixels"}, "unknown obs_type 'pixels'"),
        ({"render_mode": "video"}, "unknown render_mode 'video'"),
    ],
)
def test_bad_arguments_give_one_clear_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PacmanEnv(**{"layout": "smallClassic", **kwargs})


def test_step_before_reset_is_an_error() -> None:
    with pytest.raises(gym.error.ResetNeeded):
        PacmanEnv(layout="smallClassic").step(1)


@pytest.mark.parametrize(
    "call",
    [lambda env: env.step(1), lambda env: env.render()],
    ids=["step", "render"],
)
def test_the_made_env_enforces_reset_first_without_order_enforcing(
    call: Callable[[gym.Env[Any, Any]], object],
) -> None:
    # The spec leaves OrderEnforcing out (one call less per step): the env's own check
    # must then give the same error that wrapper would have.
    env = gym.make("pacman/Pacman-v0", layout="smallClassic", render_mode="ansi")
    assert env.spec is not None
    assert not env.spec.order_enforce
    with pytest.raises(gym.error.ResetNeeded):
        call(env)


def test_observation_spaces_are_documented_shapes() -> None:
    env = make(obs_type="rgb")
    obs, _ = env.reset(seed=0)
    assert obs.shape == (7 * 8, 20 * 8, 3)
    assert env.observation_space.contains(obs)
    sym = make(obs_type="symbolic").reset(seed=0)[0]
    assert sym["ghost_positions"].shape == (2, 2)
    assert sym["food"].shape == (7, 20)


@pytest.mark.parametrize("mode", ["ansi", "rgb_array", "human"])
def test_render_modes(mode: str) -> None:
    env = make(render_mode=mode)
    env.reset(seed=0)
    env.step(1)
    frame = env.render()
    if mode == "ansi":
        assert isinstance(frame, str)
        assert "score: -1" in frame
    elif mode == "rgb_array":
        assert isinstance(frame, np.ndarray)
        assert frame.dtype == np.uint8
        assert frame.ndim == 3
        assert frame.shape[2] == 3
    else:
        assert frame is None
    env.close()
    assert env.metadata["render_fps"] > 0


def test_ansi_render_is_the_text_display() -> None:
    from pacman.render.text import render_text

    env = make(render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == render_text(GameState.initial("smallClassic")) + "\n"


def test_make_vec_masked_sampling_across_autoresets() -> None:
    envs = gym.make_vec("pacman/Pacman-v0", num_envs=2, layout="smallClassic")
    rng = np.random.default_rng(0)
    episodes = 0
    try:
        _, infos = envs.reset(seed=3)
        for _ in range(120):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
            _, _, term, trunc, infos = envs.step(actions)
            episodes += int(np.sum(term | trunc))
    finally:
        envs.close()
    assert episodes >= 2  # random Pacman dies quickly: several autoresets happened


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec(mode: str) -> None:
    envs = gym.make_vec(
        "pacman/Pacman-v0", num_envs=2, vectorization_mode=mode, layout="smallClassic"
    )
    try:
        obs, infos = envs.reset(seed=1)
        assert obs.shape == (2, 6, 7, 20)
        assert infos["action_mask"].shape == (2, 5)
        for _ in range(5):
            masks = infos["action_mask"]
            actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
            obs, rewards, _term, _trunc, infos = envs.step(actions)
        assert rewards.shape == (2,)
    finally:
        envs.close()


def test_no_pygame_without_a_render_mode() -> None:
    code = (
        "import sys, gymnasium, pacman\n"
        "env = gymnasium.make('pacman/Pacman-v0', layout='smallClassic', render_mode='ansi')\n"
        "env.reset(seed=0); env.step(1); env.render()\n"
        "print('pygame' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


@settings(max_examples=15, deadline=None)
@given(
    layout=st.sampled_from(["testClassic", "trickyClassic", "powerClassic", "openClassic"]),
    num_ghosts=st.integers(0, 4),
    obs_type=st.sampled_from(["grid", "symbolic"]),
    seed=st.integers(0, 2**31),
)
def test_every_observation_is_in_the_space(
    layout: str, num_ghosts: int, obs_type: str, seed: int
) -> None:
    num_ghosts = min(num_ghosts, pacman.load_layout(layout).num_ghosts)
    env = make(layout=layout, num_ghosts=num_ghosts, obs_type=obs_type, max_steps=100)
    for obs, reward, _, _, info in rollout(env, seed, 150):
        assert env.observation_space.contains(obs)
        assert info["action_mask"].dtype == np.int8
        assert isinstance(reward, int)


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_env_continues_exactly_like_the_original(how: str) -> None:
    env = make(layout="mediumClassic").unwrapped
    rollout(env, 2, 10)
    twin = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    assert same(rollout_from_here(env, 9, 100), rollout_from_here(twin, 9, 100))


def rollout_from_here(env: Any, seed: int, steps: int) -> list[tuple[Any, ...]]:
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        if env.state.is_terminal():
            break
        out.append(env.step(rng.randrange(5)))
    return out
