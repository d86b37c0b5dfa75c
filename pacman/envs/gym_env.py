"""The single-agent Gymnasium env: Pacman learns, the ghosts play built-in policies."""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Final, Protocol, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from agents.ghosts import DirectionalGhost, RandomGhost, classic_table
from pacman.core.errors import TerminalStateError
from pacman.core.layout import Layout, load_layout
from pacman.core.state import GameState
from pacman.core.types import Direction
from pacman.envs._common import Renderer, check_max_steps, check_num_ghosts
from pacman.envs.encoding import ACTIONS, GridEncoder, action_mask, check_obs_type, resolve_action
from pacman.envs.observation import make_observation

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["GHOST_POLICIES", "GhostFactory", "GhostPolicy", "PacmanEnv"]

_CACHE_LIMIT: Final = 200_000
_STOP_ONLY: Final = (Direction.STOP,)
_N_ACTIONS: Final = len(ACTIONS)


class GhostPolicy(Protocol):
    """What a ghost needs: an action for its index in a state."""

    def get_action(self, state: GameState) -> Direction:
        """Return one of ``state.legal_actions(index)``."""
        ...


GhostFactory = Callable[[int, random.Random], GhostPolicy]
"""Builds the policy of ghost ``index`` with its own seeded generator, e.g. `RandomGhost`."""


_GHOST_CLASSES: Final[dict[str, GhostFactory]] = {
    "directional": DirectionalGhost,
    "random": RandomGhost,
}


GHOST_POLICIES: Final = ("directional", "random")
"""Names accepted by ``ghost_policy``: `agents.DirectionalGhost` and `agents.RandomGhost`."""


class _MemoGhost:
    """A built-in ghost whose action distribution is memoised; same draws, same actions.

    A built-in ghost's distribution is a pure function of a few features of the state
    (its ``memo_key``), so it is computed once per distinct key and then sampled the way
    the classic sampler does (`agents.players.sample_table`: one draw from the ghost's
    own generator, the first cumulative sum that reaches it): the actions are identical
    to calling the ghost (a test checks it), at a fraction of the cost.
    """

    __slots__ = ("_cache", "_ghost", "_key", "_rng")

    def __init__(self, ghost: RandomGhost | DirectionalGhost, cache: dict[Hashable, Any]) -> None:
        self._ghost = ghost
        self._key = ghost.memo_key
        self._cache = cache  # key -> the classic sampler's precomputed table
        self._rng = ghost.rng  # (not a bound .random: deepcopy would share that one)

    def _miss(self, state: GameState, key: Hashable) -> Any:
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        actions, cumulative = classic_table(self._ghost.distribution(state))
        # The last action once more: a draw above the last sum (rounding) picks it too.
        table = (actions + actions[-1:], cumulative)
        self._cache[key] = table
        return table

    def get_action(self, state: GameState) -> Direction:
        key = self._key(state)
        table = self._cache.get(key)
        if table is None:
            table = self._miss(state, key)
        # sample_table inlined (the hot path): one draw, the first cumulative sum reaching it.
        actions, cumulative = table
        return actions[bisect_left(cumulative, self._rng.random())]  # type: ignore[no-any-return]


class PacmanEnv(gym.Env[Any, np.int64]):
    """Pacman against built-in ghosts on a classic maze.

    ## Description

    The classic Pacman game of the Berkeley AI course, exactly (SPEC §3-5): Pacman eats
    the food while the ghosts chase it; a power capsule makes the ghosts edible for 40
    ghost moves. The agent controls Pacman; after each of its moves every ghost makes
    one move with a built-in policy (`agents.DirectionalGhost` by default).

    ## Action Space

    ``Discrete(5)``: 0 West, 1 Stop, 2 East, 3 North, 4 South (the engine's
    legal-action order). ``info["action_mask"]`` (``np.int8``, length 5) marks the legal
    actions of the state just observed, and `action_masks` returns the same as ``bool``;
    Stop is always legal. The mask is never empty: after a win or a loss it marks Stop
    only, so masked sampling keeps working in vector envs, whose autoreset ignores that
    next action (``step`` itself raises `TerminalStateError` until `reset`). A truncated
    step's mask is the legal actions of its (still playable) state. An
    illegal action (a move into a wall) is played as Stop and reported in
    ``info["illegal_action"]``; with ``strict=True`` it raises `IllegalActionError`.

    ## Observation Space

    Board cells are indexed ``(row, col)`` with row 0 the *top* row of the maze (as in
    the ``.lay`` file): ``row = height - 1 - y``, ``col = x``. A scared ghost halfway
    between two cells shows in the east or north one (coordinates rounded half up).

    - ``obs_type="grid"`` (default): ``Box(0, high, (6, height, width), uint8)``, channels
      walls, food, capsules, Pacman, ghosts (not scared), scared ghosts; the ghost
      channels count the ghosts in a cell, the others are 0/1.
    - ``obs_type="rgb"``: ``Box(0, 255, (8 * height, 8 * width, 3), uint8)``, the board
      drawn by the frame renderer at 8 pixels per cell, without the score bar.
    - ``obs_type="symbolic"``: a ``Dict`` with ``pacman_position`` and
      ``ghost_positions`` in board ``(x, y)`` coordinates (``y`` from the bottom, ghosts
      may be at ``.5``), ``pacman_direction`` and ``ghost_directions`` as action
      indices, ``scared_timers``, the ``food``, ``capsules`` and ``walls`` planes
      ``(height, width)`` in grid convention, and ``score``. The underlying
      `GameState` is also available as ``env.unwrapped.state``.

    ## Starting State

    The layout's start: Pacman and the first ``num_ghosts`` ghosts on their start
    cells, all food and capsules in place, score 0. The ghosts' random generators are
    seeded from ``reset(seed=...)`` and go on from game to game until the next seed.

    ## Reward

    The change in game score over the step (Pacman's move plus the ghosts' replies):
    -1 per move, +10 per food dot, +200 per scared ghost eaten, +500 for clearing the
    board, -500 when caught.

    ## Episode End

    Terminated when Pacman eats the last food (win) or is caught by a ghost that is not
    scared (lose). Truncated after ``max_steps`` Pacman moves.

    ## Arguments

    ```python
    gymnasium.make("pacman/Pacman-v0", layout="mediumClassic", num_ghosts=None,
                   ghost_policy="directional", max_steps=1000, obs_type="grid",
                   strict=False, render_mode=None)
    ```

    - ``layout``: a shipped layout name (``pacman --list-layouts``), a ``.lay`` path, or
      a `Layout`.
    - ``num_ghosts``: how many of the layout's ghosts play (``None``: all of them).
    - ``ghost_policy``: ``"directional"``, ``"random"``, or a callable
      ``(index, rng) -> policy`` returning an object with ``get_action(state)``.
    - ``max_steps``: Pacman moves before truncation (``None``: never truncate). Through
      ``gymnasium.make`` the env is also wrapped in ``TimeLimit`` at
      ``spec.max_episode_steps`` (1000, the same step); pass ``max_episode_steps=`` to
      ``make`` as well for longer episodes.
    - ``obs_type``: ``"grid"``, ``"rgb"`` or ``"symbolic"``.
    - ``strict``: raise on illegal actions instead of playing Stop.
    - ``render_mode``: ``"human"`` (pygame window), ``"rgb_array"`` or ``"ansi"`` (text).

    ## Version History

    - v0: Initial version.
    """

    metadata = {
        "render_modes": ["human", "rgb_array", "ansi"],
        "render_fps": 10,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        layout: str | Layout = "mediumClassic",
        num_ghosts: int | None = None,
        ghost_policy: str | GhostFactory = "directional",
        max_steps: int | None = 1000,
        obs_type: str = "grid",
        strict: bool = False,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = ", ".join(self.metadata["render_modes"])
            raise ValueError(f"unknown render_mode {render_mode!r}; expected one of {modes}")
        self.layout = layout if isinstance(layout, Layout) else load_layout(layout)
        self.num_ghosts = check_num_ghosts(num_ghosts, self.layout)
        if isinstance(ghost_policy, str):
            if ghost_policy not in _GHOST_CLASSES:
                raise ValueError(
                    f"unknown ghost_policy {ghost_policy!r}; expected one of "
                    f"{', '.join(GHOST_POLICIES)} or a callable (index, rng) -> ghost"
                )
            self._factory: GhostFactory = _GHOST_CLASSES[ghost_policy]
            self._memoise = True
        elif callable(ghost_policy):
            self._factory = ghost_policy
            self._memoise = False
        else:
            raise ValueError(f"ghost_policy must be a name or a callable, got {ghost_policy!r}")
        self.max_steps = check_max_steps(max_steps)
        self.obs_type = check_obs_type(obs_type)
        self.strict = bool(strict)
        self.render_mode = render_mode

        self.action_space = spaces.Discrete(len(ACTIONS))
        self._encoder = GridEncoder(self.layout, self.num_ghosts)
        self._renderer = Renderer(self.layout, fps=self.metadata["render_fps"])
        self._observation = make_observation(self.obs_type, self._encoder, self._renderer)
        self.observation_space: spaces.Space[Any] = self._observation.space

        self._memo: dict[Hashable, Any] = {}
        self._initial = GameState.initial(self.layout, self.num_ghosts)  # immutable: reused
        self._state: GameState | None = None
        # Each ghost's index and its get_action, bound once per game for step's loop.
        self._moves: list[tuple[int, Callable[[GameState], Direction]]] = []
        self._rngs: list[random.Random] = []  # the ghosts' generators, one per ghost
        self._steps = 0

    @property
    def state(self) -> GameState:
        """The current game state (for classical agents and debugging).

        Raises:
            gymnasium.error.ResetNeeded: Before the first `reset`.
        """
        if self._state is None:
            raise gym.error.ResetNeeded("call reset() before using the env")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start a new game; ``seed`` seeds the ghosts' generators.

        Each ghost has a generator of its own, seeded from the env's ``np_random`` at a
        ``reset`` with a seed (and at the first one); a ``reset`` without a seed lets them
        go on where the last game left them, as ``np_random`` does. So a seed fixes every
        game that follows it, and starting a game costs no generator seeding.
        """
        super().reset(seed=seed)
        rngs = self._rngs
        if seed is not None or not rngs:
            # One raw 64-bit draw per ghost from the env's generator (cheaper than integers()).
            seeds = self.np_random.bit_generator.random_raw(self.num_ghosts).tolist()
            rngs = self._rngs = [random.Random(ghost_seed) for ghost_seed in seeds]
        ghosts: list[GhostPolicy] = []
        for i, rng in enumerate(rngs, start=1):
            ghost = self._factory(i, rng)
            if self._memoise:
                assert isinstance(ghost, RandomGhost | DirectionalGhost)
                ghost = _MemoGhost(ghost, self._memo)
            ghosts.append(ghost)
        self._moves = [(i, ghost.get_action) for i, ghost in enumerate(ghosts, start=1)]
        state = self._initial
        self._state = state
        self._steps = 0
        self._encoder.reset(state)
        if self.render_mode == "human":
            self.render()
        return self._observe(state), {
            "action_mask": action_mask(state.legal_actions(0)),
            "score": 0,
            "illegal_action": False,
        }

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play Pacman's ``action`` and every ghost's reply.

        Raises:
            IllegalActionError: If ``action`` is not in ``0 .. 4``, or is illegal under
                ``strict``.
            TerminalStateError: If the game is over (call `reset`).
        """
        state = self._state
        if state is None:
            raise gym.error.ResetNeeded("call reset() before using the env")
        if state.is_terminal():
            raise TerminalStateError("the game is over; call reset() to start a new one")
        # Fast path for the common case, a legal plain int; resolve_action does the rest.
        if type(action) is int and 0 <= action < _N_ACTIONS:
            direction = ACTIONS[action]
            illegal = direction not in state.legal_actions(0)
            if illegal:
                direction, illegal = resolve_action(state, 0, action, strict=self.strict)
        else:
            direction, illegal = resolve_action(state, 0, action, strict=self.strict)
        before = state.score
        state = state.successor(0, direction)
        for i, get_action in self._moves:
            if state.is_terminal():
                break
            state = state.successor(i, get_action(state))
        self._state = state
        self._steps = steps = self._steps + 1
        self._observation.update(state)
        terminated = state.is_terminal()
        truncated = not terminated and self.max_steps is not None and steps >= self.max_steps
        if self.render_mode == "human":
            self.render()
        score = state.score
        info = {
            "action_mask": action_mask(state.legal_actions(0) or _STOP_ONLY),
            "score": score,
            "illegal_action": illegal,
        }
        return self._observation.observe(state), score - before, terminated, truncated, info

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions now, as a ``bool`` array of shape ``(5,)``.

        The convention of maskable policy libraries (sb3-contrib's ``MaskablePPO`` calls
        ``env.action_masks()``): the same actions as ``info["action_mask"]`` of the last
        `reset` or `step`, Stop only once the game is over.

        Raises:
            gymnasium.error.ResetNeeded: Before the first `reset`.
        """
        return action_mask(self.state.legal_actions(0) or _STOP_ONLY).astype(np.bool_)

    def _observe(self, state: GameState) -> Any:
        return self._observation.observe(state)

    def render(self) -> str | NDArray[np.uint8] | None:
        """Render the current state in ``render_mode`` (None when no mode was given)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass one to make()")
            return None
        return self._renderer.render(self.state, self.render_mode)

    def close(self) -> None:
        """Close the window, if one is open."""
        self._renderer.close()
