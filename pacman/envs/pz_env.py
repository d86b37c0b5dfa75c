"""PettingZoo envs: Pacman and every ghost are agents (turn-based AEC, plus a parallel one).

Agents are ``"pacman_0"``, ``"ghost_1"`` .. ``"ghost_k"``, numbered as in the engine.
Rewards are zero-sum: the score change of a move goes to Pacman, and each ghost gets
minus that change divided by the number of ghosts, so the rewards of a step sum to zero.

Observations follow PettingZoo's classic games: a dict ``{"observation": ...,
"action_mask": ...}``. The observation is the shared encoding of `pacman.envs.encoding`
(``obs_type`` as in the Gymnasium env); the grid has a seventh channel, "self", marking
the observing agent's cell, so one network can play every agent. ``action_mask`` marks
the observing agent's legal actions in the current state (``np.int8``, all zeros once
the game is over). Illegal actions follow the same policy as the Gymnasium env: they
raise under ``strict=True`` and are otherwise replaced by Stop, or by the first legal
action for a ghost (ghosts may not stop).

- `raw_env` / `env`: turn-based (AEC); the turn order is Pacman, ghost 1, .. ghost k.
- `parallel_env`: one step is a full turn: every agent submits an action, and the moves
  are applied in turn order (a ghost's action is checked against the mask it was shown;
  if Pacman's move sent it back to its start, an action no longer legal is replaced).
  The game stops as soon as it is won or lost, so later agents may not move.

Episodes are truncated after ``max_steps`` Pacman moves (once the ghosts have replied).
The game itself has no randomness; ``reset(seed=...)`` seeds the action spaces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from pacman.core.layout import Layout, load_layout
from pacman.core.state import GameState
from pacman.envs._common import Renderer, check_max_steps, check_num_ghosts
from pacman.envs.encoding import (
    ACTIONS,
    GridEncoder,
    action_mask,
    check_obs_type,
    fallback_action,
    grid_space,
    resolve_action,
)
from pacman.envs.observation import make_observation

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["PacmanAECEnv", "PacmanParallelEnv", "env", "parallel_env", "raw_env"]

_METADATA: dict[str, Any] = {
    "render_modes": ["human", "rgb_array", "ansi"],
    "name": "pacman_v0",
    "is_parallelizable": True,
    "render_fps": 10,
}


class _Match:
    """The game, its encoders and spaces: what the AEC and parallel envs share.

    Args:
        render_mode: ``"human"``, ``"rgb_array"``, ``"ansi"`` or ``None``.
        layout: Layout name, ``.lay`` path or `Layout`.
        num_ghosts: How many of the layout's ghosts play (``None``: all).
        max_steps: Pacman moves before truncation (``None``: never).
        obs_type: ``"grid"``, ``"rgb"`` or ``"symbolic"``.
        strict: Raise on illegal actions instead of replacing them.
    """

    metadata: ClassVar[dict[str, Any]] = _METADATA

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        layout: str | Layout = "mediumClassic",
        num_ghosts: int | None = None,
        max_steps: int | None = 1000,
        obs_type: str = "grid",
        strict: bool = False,
    ) -> None:
        if render_mode is not None and render_mode not in _METADATA["render_modes"]:
            modes = ", ".join(_METADATA["render_modes"])
            raise ValueError(f"unknown render_mode {render_mode!r}; expected one of {modes}")
        self.render_mode = render_mode
        self.layout = layout if isinstance(layout, Layout) else load_layout(layout)
        self.num_ghosts = k = check_num_ghosts(num_ghosts, self.layout)
        self.max_steps = check_max_steps(max_steps)
        self.obs_type = check_obs_type(obs_type)
        self.strict = bool(strict)
        self.possible_agents: list[str] = ["pacman_0"] + [f"ghost_{i}" for i in range(1, k + 1)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._encoder = GridEncoder(self.layout, k, extra_channels=1)
        self._renderer = Renderer(self.layout, fps=_METADATA["render_fps"])
        self._observation = make_observation(
            self.obs_type, self._encoder, self._renderer, extra_channels=1
        )
        inner = self._observation.space
        mask = spaces.Box(low=0, high=1, shape=(len(ACTIONS),), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": inner, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(len(ACTIONS)) for a in self.possible_agents}
        self.state_space = grid_space(self.layout, k)
        self._initial = GameState.initial(self.layout, k)  # immutable: reused by every reset
        self._state: GameState = self._initial
        self._encoder.reset(self._initial)
        self._moves = 0
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(5)``, 0 West .. 4 South."""
        return self.action_spaces[agent]

    @property
    def game_state(self) -> GameState:
        """The current `GameState`."""
        return self._state

    def state(self) -> NDArray[np.uint8]:
        """The global state: the six-channel grid of the Gymnasium env."""
        return self._encoder.grid[:-1].copy()

    def _start(self, seed: int | None) -> None:
        if seed is not None:
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        self._state = self._initial
        self._moves = 0
        self._encoder.reset(self._state)

    def _advance(self, state: GameState) -> None:
        self._state = state
        self._encoder.update(state)  # also backs state(), whatever the obs_type

    def _observe(self, agent: str) -> dict[str, Any]:
        i = self.agent_name_mapping[agent]
        state = self._state
        obs = self._observation.observe(state, state.agent_position(i))
        return {"observation": obs, "action_mask": action_mask(state.legal_actions(i))}

    def _zero_sum(self, delta: int) -> dict[str, float]:
        rewards = {"pacman_0": float(delta)}
        if self.num_ghosts:
            share = -delta / self.num_ghosts
            for a in self.possible_agents[1:]:
                rewards[a] = share
        return rewards

    def _truncated(self) -> bool:
        return self.max_steps is not None and self._moves >= self.max_steps

    def render(self) -> str | NDArray[np.uint8] | None:
        """Render the current state in ``render_mode`` (None when no mode was given)."""
        if self.render_mode is None:
            return None
        return self._renderer.render(self._state, self.render_mode)

    def close(self) -> None:
        """Close the window, if one is open."""
        self._renderer.close()


# PettingZoo ships no type information, so its base classes are Any to mypy.
class PacmanAECEnv(_Match, AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """Turn-based Pacman: Pacman, then ghost 1 .. k, each an agent (see the module doc).

    Takes the arguments of `env` (layout, num_ghosts, max_steps, obs_type, strict,
    render_mode).
    """

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game with Pacman to move."""
        self._start(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent`` sees now (the whole board; see the module doc)."""
        return self._observe(agent)

    def step(self, action: Any) -> None:
        """Play ``action`` for the agent to move (``None`` for an agent that is done).

        Raises:
            IllegalActionError: If ``action`` is not in ``0 .. 4``, or is illegal under
                ``strict``.
            ValueError: If no agent is left to act (the game is over and every agent
                has stepped out, or `reset` was never called).
        """
        if not self.agents:
            raise ValueError(
                "no agent is left to act (the game is over, or reset() was never called); "
                "call reset() to start a new game"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        i = self.agent_name_mapping[agent]
        state = self._state
        direction, illegal = resolve_action(state, i, action, strict=self.strict)
        after = state.successor(i, direction)
        self._advance(after)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = self._zero_sum(after.score - state.score)
        self.infos = {a: {} for a in self.agents}
        self.infos[agent]["illegal_action"] = illegal
        nxt = (i + 1) % len(self.possible_agents)
        if i == 0:
            self._moves += 1
        if after.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        elif nxt == 0 and self._truncated():
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[nxt]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class PacmanParallelEnv(_Match, ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """Pacman with every agent acting each step; moves applied in turn order.

    Takes the same arguments as `PacmanAECEnv` (see the module doc for the semantics).
    """

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        """Start a new game; returns every agent's observation and info."""
        self._start(seed)
        self.agents = self.possible_agents[:]
        if self.render_mode == "human":
            self.render()
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, Any]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply every agent's action in turn order (Pacman first).

        Raises:
            ValueError: If the game is over, or an agent's action is missing.
            IllegalActionError: If an action is not in ``0 .. 4``, or is illegal under
                ``strict``.
        """
        if not self.agents:
            raise ValueError("the game is over; call reset() to start a new one")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"no action for agent(s) {', '.join(missing)}")
        start = state = self._state
        infos: dict[str, dict[str, Any]] = {}
        for i, agent in enumerate(self.agents):
            if state.is_terminal():
                infos[agent] = {"illegal_action": False}
                continue
            # Checked against the mask the agent was shown (the state at the step's start).
            direction, illegal = resolve_action(start, i, actions[agent], strict=self.strict)
            legal = state.legal_actions(i)
            if direction not in legal:
                direction = fallback_action(legal)
            state = state.successor(i, direction)
            infos[agent] = {"illegal_action": illegal}
        self._advance(state)
        self._moves += 1
        rewards = self._zero_sum(state.score - start.score)
        terminated = state.is_terminal()
        truncated = not terminated and self._truncated()
        terms = dict.fromkeys(self.agents, terminated)
        truncs = dict.fromkeys(self.agents, truncated)
        observations = {a: self._observe(a) for a in self.agents}
        if terminated or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terms, truncs, infos


def raw_env(**kwargs: Any) -> PacmanAECEnv:
    """The turn-based env without wrappers.

    Keyword arguments: ``layout`` (name, ``.lay`` path or `Layout`), ``num_ghosts``
    (``None``: all), ``max_steps`` (Pacman moves before truncation, ``None``: never),
    ``obs_type`` (``"grid"``, ``"rgb"`` or ``"symbolic"``), ``strict`` (raise on illegal
    actions) and ``render_mode`` (``"human"``, ``"rgb_array"``, ``"ansi"``).

    Raises:
        TypeError: On an argument it does not take, naming the ones it does.
    """
    _check_kwargs("raw_env", kwargs)
    return PacmanAECEnv(**kwargs)


_KWARGS: Final = ("layout", "num_ghosts", "max_steps", "obs_type", "strict", "render_mode")


def _check_kwargs(function: str, kwargs: dict[str, Any]) -> None:
    unknown = sorted(set(kwargs) - set(_KWARGS))
    if not unknown:
        return
    why = (
        " (here every ghost is an agent of its own, so there is no ghost policy)"
        if "ghost_policy" in unknown
        else ""
    )
    raise TypeError(
        f"{function}() got unknown arguments {', '.join(unknown)}{why}; "
        f"it takes: {', '.join(_KWARGS)}"
    )


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """The turn-based env with PettingZoo's standard checks (out-of-bounds, call order).

    Takes the keyword arguments of `raw_env`.
    """
    wrapped: AECEnv[str, dict[str, Any], int] = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(**kwargs: Any) -> PacmanParallelEnv:
    """The parallel env (one step = a full turn); takes the keyword arguments of `raw_env`."""
    _check_kwargs("parallel_env", kwargs)
    return PacmanParallelEnv(**kwargs)
