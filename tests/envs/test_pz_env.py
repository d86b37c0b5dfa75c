from __future__ import annotations

import copy
import random
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

from pacman import GameState, IllegalActionError, Layout
from pacman.envs import PacmanAECEnv, PacmanParallelEnv, env, parallel_env, raw_env
from pacman.envs.encoding import action_index, fallback_action

CORRIDOR = Layout.from_text(
    """
%%%%%%%
%P...G%
%%%%%%%
""",
    name="corridor",
)


@pytest.fixture(autouse=True)
def _quiet_pettingzoo_hints() -> Iterator[None]:
    # api_test warns that dict observations are not plain arrays (the classic-games style).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize(
    ("layout", "num_ghosts", "obs_type"),
    [
        ("smallClassic", None, "grid"),
        ("smallClassic", None, "symbolic"),
        ("smallClassic", 0, "grid"),  # Pacman alone
        ("trickyClassic", None, "symbolic"),  # four ghosts
    ],
)
def test_api_test(layout: str, num_ghosts: int | None, obs_type: str) -> None:
    api_test(env(layout=layout, num_ghosts=num_ghosts, obs_type=obs_type), num_cycles=200)


def test_api_test_raw_env_rgb() -> None:
    api_test(raw_env(layout="testClassic", obs_type="rgb"), num_cycles=20)


@pytest.mark.parametrize(
    ("layout", "num_ghosts", "obs_type"),
    [
        ("smallClassic", None, "grid"),
        ("smallClassic", None, "symbolic"),
        ("smallClassic", 0, "symbolic"),
        ("trickyClassic", None, "grid"),
    ],
)
def test_parallel_api_test(layout: str, num_ghosts: int | None, obs_type: str) -> None:
    penv = parallel_env(layout=layout, num_ghosts=num_ghosts, obs_type=obs_type)
    parallel_api_test(penv, num_cycles=200)


def test_seed_test() -> None:
    seed_test(lambda: env(layout="smallClassic"), num_cycles=200)


def test_render_test() -> None:
    render_test(lambda render_mode=None: env(layout="testClassic", render_mode=render_mode))


def same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b)
    return bool(a == b)


def parallel_rollout(seed: int, cycles: int = 200) -> list[Any]:
    """Actions sampled from the env's own (seeded) action spaces with the masks."""
    penv = parallel_env(layout="smallClassic", max_steps=80)
    obs, infos = penv.reset(seed=seed)
    trace: list[Any] = [obs, infos]
    for _ in range(cycles):
        if not penv.agents:
            obs, infos = penv.reset()
            trace += [obs, infos]
        actions = {a: penv.action_space(a).sample(obs[a]["action_mask"]) for a in penv.agents}
        obs, rewards, terms, truncs, infos = penv.step(actions)
        trace += [actions, obs, rewards, terms, truncs, infos]
    return trace


def test_parallel_same_seed_same_rollout() -> None:
    # PettingZoo's parallel_seed_test has a known bug; this is the same check done right:
    # the seed passed to reset seeds the action spaces, so rollouts repeat exactly.
    first, second = parallel_rollout(7), parallel_rollout(7)
    assert same(dict(enumerate(first)), dict(enumerate(second)))
    assert not same(dict(enumerate(first)), dict(enumerate(parallel_rollout(8))))


def test_agents_are_named_like_the_engine_indices() -> None:
    aec = raw_env(layout="mediumClassic")
    assert aec.possible_agents == ["pacman_0", "ghost_1", "ghost_2"]
    assert raw_env(layout="mediumClassic", num_ghosts=1).possible_agents == ["pacman_0", "ghost_1"]
    assert isinstance(aec, PacmanAECEnv)
    assert isinstance(parallel_env(layout="smallClassic"), PacmanParallelEnv)


def test_aec_turns_rewards_and_observations() -> None:
    aec = raw_env(layout="smallClassic")
    aec.reset(seed=0)
    obs = aec.observe("pacman_0")
    assert obs["observation"].shape == (7, 7, 20)
    assert obs["action_mask"].tolist() == [1, 1, 1, 0, 0]
    # the "self" plane marks the observer's own cell
    assert np.argwhere(obs["observation"][6]).tolist() == [[5, 9]]
    ghost_obs = aec.observe("ghost_1")["observation"]
    assert np.argwhere(ghost_obs[6]).tolist() == [[1, 8]]
    assert np.array_equal(aec.state(), obs["observation"][:6])
    order = []
    for _ in range(6):
        order.append(aec.agent_selection)
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
        assert sum(aec.rewards.values()) == pytest.approx(0)
    assert order == ["pacman_0", "ghost_1", "ghost_2"] * 2
    assert aec.rewards["pacman_0"] == 0  # the ghosts' moves do not change the score
    aec.step(0)  # Pacman West onto food: +10 - 1
    assert aec.rewards == {"pacman_0": 9.0, "ghost_1": -4.5, "ghost_2": -4.5}


def test_aec_game_end_and_dead_steps() -> None:
    aec = env(layout=CORRIDOR)
    aec.reset(seed=0)
    for _ in range(2):
        aec.step(2)  # Pacman East, onto food
        aec.step(0)  # the ghost West: caught on the second turn
    assert all(aec.terminations.values())
    assert aec.unwrapped.game_state.is_lose()
    _, _reward, term, _, _ = aec.last()
    assert term
    for _agent in aec.agent_iter():
        aec.step(None)
    assert aec.agents == []


def test_aec_truncation_after_max_steps_full_turns() -> None:
    aec = raw_env(layout="smallClassic", max_steps=2)
    aec.reset(seed=0)
    for _ in range(5):
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
        assert not any(aec.truncations.values())
    aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    assert all(aec.truncations.values())


def test_illegal_actions() -> None:
    aec = raw_env(layout="smallClassic")
    aec.reset(seed=0)
    aec.step(3)  # North into a wall: Stop
    assert aec.infos["pacman_0"] == {"illegal_action": True}
    aec.step(1)  # a ghost may not stop: its first legal action instead
    assert aec.infos["ghost_1"] == {"illegal_action": True}
    strict = raw_env(layout="smallClassic", strict=True)
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"illegal action 3 .North. for agent 0"):
        strict.step(3)
    with pytest.raises(IllegalActionError, match="not in Discrete"):
        strict.step(9)


def test_parallel_step_is_a_full_turn_in_turn_order() -> None:
    penv = parallel_env(layout=CORRIDOR)
    penv.reset(seed=0)
    _, rewards, terms, _, _ = penv.step({"pacman_0": 2, "ghost_1": 0})
    assert rewards == {"pacman_0": 9.0, "ghost_1": -9.0}
    assert terms == {"pacman_0": False, "ghost_1": False}
    # Pacman East onto food, then the ghost West onto Pacman's cell: lost this turn.
    _obs, rewards, terms, _truncs, _infos = penv.step({"pacman_0": 2, "ghost_1": 0})
    expected = GameState.initial(CORRIDOR)
    for _ in range(2):
        expected = expected.successor(0, "East").successor(1, "West")
    assert penv.game_state == expected
    assert rewards == {"pacman_0": 9.0 - 500, "ghost_1": 491.0}
    assert terms == {"pacman_0": True, "ghost_1": True}
    assert penv.agents == []
    with pytest.raises(ValueError, match="call reset"):
        penv.step({})


def test_parallel_missing_action() -> None:
    penv = parallel_env(layout="smallClassic")
    penv.reset(seed=0)
    with pytest.raises(ValueError, match=r"no action for agent.*ghost_2"):
        penv.step({"pacman_0": 1, "ghost_1": 0})


def test_parallel_truncation() -> None:
    penv = parallel_env(layout="smallClassic", max_steps=2)
    obs, _ = penv.reset(seed=0)
    for expected in (False, True):
        actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in penv.agents}
        obs, _, _, truncs, _ = penv.step(actions)
        assert all(v is expected for v in truncs.values())
    assert penv.agents == []


def test_parallel_ghost_sent_home_mid_turn_is_not_an_illegal_action() -> None:
    # When Pacman eats a scared ghost, the ghost's action (legal under the mask it was
    # shown) may not be legal at its start cell: it is replaced, even under strict.
    replaced = 0
    for seed in range(70, 80):  # random games; seed 78 reaches that case
        rng = random.Random(seed)
        penv = parallel_env(layout="powerClassic", strict=True, max_steps=300)
        obs, _ = penv.reset(seed=0)
        expected = penv.game_state
        while penv.agents:
            legal = [expected.legal_actions(i) for i in range(expected.num_agents)]
            chosen = [rng.choice(acts) for acts in legal]
            actions = {a: action_index(chosen[i]) for i, a in enumerate(penv.agents)}
            for a, i in actions.items():
                assert obs[a]["action_mask"][i] == 1
            obs, _, _, _, infos = penv.step(actions)
            assert not any(info["illegal_action"] for info in infos.values())
            for i, direction in enumerate(chosen):
                if expected.is_terminal():
                    break
                if direction not in expected.legal_actions(i):
                    replaced += 1
                    direction = fallback_action(expected.legal_actions(i))
                expected = expected.successor(i, direction)
            assert penv.game_state == expected
    assert replaced >= 1


def test_a_copied_parallel_env_continues_exactly_like_the_original() -> None:
    penv = parallel_env(layout="mediumClassic")
    obs, _ = penv.reset(seed=0)
    penv.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in penv.agents})
    twin = copy.deepcopy(penv)
    for _ in range(20):
        if not penv.agents:
            break
        actions = {a: penv.action_space(a).sample() for a in penv.agents}
        assert same(dict(enumerate(penv.step(actions))), dict(enumerate(twin.step(actions))))
    assert np.array_equal(penv.state(), twin.state())


@pytest.mark.parametrize("mode", ["ansi", "rgb_array", "human", None])
def test_parallel_render_modes(mode: str | None) -> None:
    penv = parallel_env(layout="testClassic", render_mode=mode)
    obs, _ = penv.reset(seed=0)
    penv.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in penv.agents})
    frame = penv.render()
    if mode == "ansi":
        assert isinstance(frame, str)
        assert frame.startswith("%%%%%")
    elif mode == "rgb_array":
        assert isinstance(frame, np.ndarray)
        assert frame.shape[2] == 3
    else:
        assert frame is None
    penv.close()


@pytest.mark.parametrize("make", [env, raw_env, parallel_env])
def test_unknown_arguments_are_named_with_the_ones_it_takes(make: Any) -> None:
    with pytest.raises(TypeError, match=r"unknown arguments ghost_policy \(here every ghost is"):
        make(layout="smallClassic", ghost_policy="random")
    with pytest.raises(TypeError, match=r"unknown arguments bogus; it takes: layout, num_ghosts"):
        make(bogus=1)
