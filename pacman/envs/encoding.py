"""State -> observation arrays and action masks, shared by the Gymnasium and PettingZoo envs.

Conventions used by every observation:

- **Actions** are the integers ``0 .. 4`` for West, Stop, East, North, South: the index
  into `ACTIONS`, which is the engine's legal-action order (SPEC §3).
- **Grids** are indexed ``[channel, row, col]``. Row 0 is the *top* row of the layout
  (the first text line), so ``row = height - 1 - y`` and ``col = x``; printing a channel
  shows the maze as the ``.lay`` file does.
- **Half positions.** A scared ghost moves half a cell per move and may sit at ``x.5``
  or ``y.5``. It is drawn in the cell it would snap to: coordinates are rounded half up,
  toward the east and north neighbour, as the engine snaps a ghost when its scared timer
  runs out (and as the text display draws it).

The grid is kept in one `GridEncoder` per env and updated incrementally: the walls
channel is written once, and each step only rewrites the cells of agents that moved and
of the food or capsule that was eaten.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from gymnasium import spaces

from pacman.core.errors import IllegalActionError
from pacman.core.layout import Layout
from pacman.core.rules import SCARED_TIME
from pacman.core.state import GameState
from pacman.core.types import ACTION_ORDER, Direction, Position

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "ACTIONS",
    "ACTION_NAMES",
    "CHANNELS",
    "OBS_TYPES",
    "GridEncoder",
    "action_index",
    "action_mask",
    "check_obs_type",
    "fallback_action",
    "grid_space",
    "parse_action",
    "resolve_action",
    "symbolic_observation",
    "symbolic_space",
]

ACTIONS: Final[tuple[Direction, ...]] = ACTION_ORDER
"""Action ``i`` of the ``Discrete(5)`` action space is ``ACTIONS[i]``: West, Stop, East,
North, South (the engine's legal-action order)."""
ACTION_NAMES: Final = tuple(a.value for a in ACTIONS)
"""The names of the five actions, in action-index order."""
_INDEX: Final[dict[str, int]] = {a.value: i for i, a in enumerate(ACTIONS)}

CHANNELS: Final = ("walls", "food", "capsules", "pacman", "ghosts", "scared_ghosts")
"""The channels of the grid observation, in order."""
OBS_TYPES: Final = ("grid", "rgb", "symbolic")
"""The observation types the envs accept (``obs_type=``)."""

_WALLS, _FOOD, _CAPSULES, _PACMAN_CH, _GHOSTS, _SCARED = range(6)
_SCORE_MIN: Final = -(2**31)
_SCORE_MAX: Final = 2**31 - 1
_MASKS: dict[tuple[Direction, ...], NDArray[np.int8]] = {}


def action_index(action: Direction | str) -> int:
    """The action index (0-4) of a direction.

    >>> action_index("North")
    3
    """
    return _INDEX[action]


def action_mask(legal: tuple[Direction, ...]) -> NDArray[np.int8]:
    """The ``int8`` mask of length 5 with a 1 at the index of every legal action.

    A template per legal tuple is cached, so building a mask costs a dictionary lookup
    and a copy (every call returns a new array the caller may keep or change).

    >>> action_mask((Direction.STOP, Direction.NORTH)).tolist()
    [0, 1, 0, 1, 0]
    """
    mask = _MASKS.get(legal)
    if mask is None:
        mask = np.zeros(len(ACTIONS), dtype=np.int8)
        for a in legal:
            mask[_INDEX[a]] = 1
        mask.flags.writeable = False
        _MASKS[legal] = mask
    return mask.copy()


def _as_index(action: Any) -> int | None:
    """``action`` as an int when it is an integer (not a bool), else ``None``."""
    if type(action) is int:  # the common case first
        return action
    if isinstance(action, bool | np.bool_):
        return None
    if isinstance(action, int | np.integer):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)  # a 0-d integer array, as policies' predict() returns
    return None


def parse_action(agent: int, action: Any) -> Direction:
    """The direction of an action index.

    Accepted: a Python int, a NumPy integer, or a 0-d NumPy integer array, in ``0 .. 4``
    (what ``Discrete(5).contains`` accepts). Everything else is refused, bools and floats
    such as ``1.0`` included, rather than silently truncated.

    Raises:
        IllegalActionError: If ``action`` is not an integer in ``0 .. 4``.
    """
    i = _as_index(action)
    if i is None or not 0 <= i < len(ACTIONS):
        shown = repr(action)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        shown = " ".join(shown.split())
        kind = type(action).__name__
        raise IllegalActionError(
            f"action {shown} ({kind}) for agent {agent} is not in Discrete(5): expected an "
            f"int 0..4 ({', '.join(f'{n} {a}' for n, a in enumerate(ACTION_NAMES))})"
        )
    return ACTIONS[i]


def fallback_action(legal: tuple[Direction, ...]) -> Direction:
    """What an illegal action is replaced by: Stop if legal, else the first legal action.

    >>> fallback_action((Direction.WEST, Direction.STOP)), fallback_action((Direction.EAST,))
    (<Direction.STOP: 'Stop'>, <Direction.EAST: 'East'>)
    """
    return Direction.STOP if Direction.STOP in legal else legal[0]


def resolve_action(
    state: GameState, agent: int, action: Any, *, strict: bool
) -> tuple[Direction, bool]:
    """Turn an action index into the direction to play, applying the illegal-action policy.

    Policy: an index outside ``0 .. 4`` is always an error. A legal action is played as
    is. An illegal one raises under ``strict``; otherwise it is replaced by Stop when
    Stop is legal (always, for Pacman) and by the first legal action in the order West,
    Stop, East, North, South when it is not (ghosts may not stop).

    Args:
        state: The state the agent moves in (not terminal).
        agent: The agent's index (0 is Pacman).
        action: An int or NumPy integer, the action index.
        strict: Raise on an illegal action instead of replacing it.

    Returns:
        The direction to play and whether the requested action was illegal.

    Raises:
        IllegalActionError: If ``action`` is not an action index, or is illegal under
            ``strict``.
    """
    direction = parse_action(agent, action)
    legal = state.legal_actions(agent)
    if direction in legal:
        return direction, False
    if strict:
        raise IllegalActionError(
            f"illegal action {action_index(direction)} ({direction.value}) for agent "
            f"{agent} at {state.agent_position(agent)}; legal: "
            f"{[action_index(a) for a in legal]} ({', '.join(a.value for a in legal)})"
        )
    return fallback_action(legal), True


def grid_space(layout: Layout, num_ghosts: int, *, extra_channels: int = 0) -> spaces.Box:
    """The ``Box`` of the grid observation: ``uint8``, shape ``(channels, height, width)``.

    Walls, food, capsules and Pacman are 0/1; the two ghost channels count the ghosts in
    a cell (up to ``num_ghosts``); extra channels (the PettingZoo "self" plane) are 0/1.
    """
    n = len(CHANNELS) + extra_channels
    high = np.ones((n, layout.height, layout.width), dtype=np.uint8)
    high[_GHOSTS] = high[_SCARED] = max(1, num_ghosts)
    return spaces.Box(low=0, high=high, dtype=np.uint8)


def _cell_table(layout: Layout) -> dict[Position, int]:
    """Flat cell index ``row * width + col`` of every open cell and half position."""
    w, h = layout.width, layout.height
    table: dict[Position, int] = {}
    for x in range(w):
        for y in range(h):
            if (x, y) in layout.walls:
                continue
            table[(x, y)] = (h - 1 - y) * w + x
            for dx, dy in ((0.5, 0), (0, 0.5)):
                # A half point rounds half up: it shows in the east / north cell.
                table[(x - dx, y - dy)] = (h - 1 - y) * w + x
    return table


class GridEncoder:
    """The multi-channel grid of one game, updated in place as the game moves on.

    `reset` writes every channel from a state; `update` brings the grid to a later
    state of the same game by rewriting only the cells that changed. `observation`
    returns a copy, so observations already handed out never change.

    Args:
        layout: The layout of the game.
        num_ghosts: How many ghosts play.
        extra_channels: Additional all-zero channels after the standard six (for the
            PettingZoo "self" plane, set on the copy by the caller).
    """

    def __init__(self, layout: Layout, num_ghosts: int, *, extra_channels: int = 0) -> None:
        self.layout = layout
        self.num_ghosts = num_ghosts
        w, h = layout.width, layout.height
        self._area = area = w * h
        self._channels = len(CHANNELS) + extra_channels
        # A bytearray is the master copy (item writes are cheap); the array is a view on it.
        self._buf = bytearray(self._channels * area)
        self.grid: NDArray[np.uint8] = np.frombuffer(self._buf, dtype=np.uint8).reshape(
            self._channels, h, w
        )
        self._cell = _cell_table(layout)
        # Buffer indices by engine point (`GameState.points`) in the Pacman, ghosts and
        # scared-ghosts channels: `_encode` and `update` (the hot path) both read these.
        points = layout.nav.xy
        cells = [-1 if xy is None else self._cell[xy] for xy in points]
        self._pacman_at = [_PACMAN_CH * area + c for c in cells]
        self._ghost_at = [_GHOSTS * area + c for c in cells]
        self._scared_at = [_SCARED * area + c for c in cells]
        self._food_cell = [(h - 1 - i // w) * w + i % w for i in range(area)]
        for x, y in layout.walls:
            self._buf[_WALLS * area + (h - 1 - y) * w + x] = 1
        self._food = 0
        self._pacman = -1
        self._ghosts: list[int] = []
        self._snapshot: tuple[GameState, bytes, int, int, tuple[int, ...]] | None = None

    def __getstate__(self) -> dict[str, Any]:
        # The array is a view on the bytearray; copies and pickles must keep it one.
        return {k: v for k, v in self.__dict__.items() if k != "grid"}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self.grid = np.frombuffer(self._buf, dtype=np.uint8).reshape(
            self._channels, self.layout.height, self.layout.width
        )

    def reset(self, state: GameState) -> None:
        """Write every dynamic channel from ``state`` (the walls channel never changes).

        The first state reset to (an env's start state) is kept as a snapshot, so that
        resetting to it again is a single copy.
        """
        snap = self._snapshot
        if snap is not None and snap[0] == state:
            self._buf[:] = snap[1]
            self._food, self._pacman, ghosts = snap[2], snap[3], snap[4]
            self._ghosts = list(ghosts)
            return
        self._encode(state)
        if snap is None:
            self._snapshot = (
                state,
                bytes(self._buf),
                self._food,
                self._pacman,
                tuple(self._ghosts),
            )

    def _encode(self, state: GameState) -> None:
        buf, area = self._buf, self._area
        buf[area:] = bytes(len(buf) - area)
        self._food = 0
        self._set_food(state.food_bitmask)
        w, h = self.layout.width, self.layout.height
        for x, y in state.capsules:
            buf[_CAPSULES * area + (h - 1 - y) * w + x] = 1
        points = state.points
        self._pacman = self._pacman_at[points[0]]
        buf[self._pacman] = 1
        self._ghosts = []
        for point, timer in zip(points[1:], state.scared_timers, strict=True):
            idx = (self._scared_at if timer else self._ghost_at)[point]
            buf[idx] += 1
            self._ghosts.append(idx)

    def update(self, state: GameState) -> None:
        """Bring the grid from the last encoded state to ``state``, a later state of the game.

        Food bits are compared exactly; a capsule can only disappear under Pacman, so
        only Pacman's new cell is checked for one.
        """
        buf = self._buf
        food = state.food_bitmask
        if food != self._food:
            self._set_food(food)
        points = state.points
        pac = self._pacman_at[points[0]]
        if pac != self._pacman:
            buf[self._pacman] = 0
            buf[pac] = 1
            self._pacman = pac
            cap = pac + (_CAPSULES - _PACMAN_CH) * self._area
            if buf[cap]:
                buf[cap] = 0
        ghosts = self._ghosts
        if ghosts:
            at, scared_at = self._ghost_at, self._scared_at
            for i, timer in enumerate(state.scared_timers):
                idx = (scared_at if timer else at)[points[i + 1]]
                old = ghosts[i]
                if idx != old:
                    buf[old] -= 1
                    buf[idx] += 1
                    ghosts[i] = idx

    def _set_food(self, food: int) -> None:
        buf, base, cells = self._buf, _FOOD * self._area, self._food_cell
        diff = food ^ self._food
        while diff:
            low = diff & -diff
            diff ^= low
            i = low.bit_length() - 1
            buf[base + cells[i]] = 1 if food & low else 0
        self._food = food

    def observation(self, mark: Position | None = None) -> NDArray[np.uint8]:
        """A copy of the current grid.

        Args:
            mark: A position to set to 1 in the last channel of the copy (the
                PettingZoo "self" plane: where the observing agent is).
        """
        obs = self.grid.copy()
        if mark is not None:
            row, col = divmod(self._cell[mark], self.layout.width)
            obs[-1, row, col] = 1
        return obs

    def cell_of(self, position: Position) -> tuple[int, int]:
        """The ``(row, col)`` grid cell that shows ``position`` (half positions round up).

        >>> from pacman import load_layout
        >>> enc = GridEncoder(load_layout("testClassic"), 0)
        >>> enc.cell_of((1, 1)), enc.cell_of((1.5, 1))
        ((8, 1), (8, 2))
        """
        i = self._cell[position]
        return divmod(i, self.layout.width)


def symbolic_space(layout: Layout, num_ghosts: int) -> spaces.Dict:
    """The ``Dict`` space of the symbolic observation (see `symbolic_observation`)."""
    w, h, k = layout.width, layout.height, num_ghosts
    top = np.array([w - 1, h - 1], dtype=np.float32)
    plane = spaces.Box(low=0, high=1, shape=(h, w), dtype=np.uint8)
    return spaces.Dict(
        {
            "pacman_position": spaces.Box(low=0, high=top, dtype=np.float32),
            "pacman_direction": spaces.Discrete(len(ACTIONS)),
            "ghost_positions": spaces.Box(
                low=0, high=np.tile(top, (k, 1)).reshape(k, 2), dtype=np.float32
            ),
            "ghost_directions": spaces.Box(
                low=0, high=len(ACTIONS) - 1, shape=(k,), dtype=np.int64
            ),
            "scared_timers": spaces.Box(low=0, high=SCARED_TIME, shape=(k,), dtype=np.int64),
            "food": plane,
            "capsules": plane,
            "walls": plane,
            "score": spaces.Box(low=_SCORE_MIN, high=_SCORE_MAX, shape=(1,), dtype=np.int64),
        }
    )


def symbolic_observation(state: GameState, grid: NDArray[np.uint8]) -> dict[str, Any]:
    """The symbolic observation of ``state``: positions in board coordinates, plus planes.

    Keys: ``pacman_position`` ``(x, y)`` and ``ghost_positions`` (one ``(x, y)`` row per
    ghost; ``y`` counts from the bottom, ghosts may sit at half positions), the facing
    directions as action indices (``pacman_direction``, ``ghost_directions``),
    ``scared_timers``, the ``food``, ``capsules`` and ``walls`` planes in grid
    ``(row, col)`` convention, and the ``score``.

    Args:
        state: The state to describe.
        grid: The current grid of the same state (from a `GridEncoder`), whose planes
            are copied.
    """
    k = state.num_ghosts
    ghosts = state.ghost_positions
    return {
        "pacman_position": np.array(state.pacman_position, dtype=np.float32),
        "pacman_direction": np.int64(_INDEX[state.agent_direction(0)]),
        "ghost_positions": np.array(ghosts, dtype=np.float32).reshape(k, 2),
        "ghost_directions": np.array(
            [_INDEX[state.agent_direction(i)] for i in range(1, k + 1)], dtype=np.int64
        ),
        "scared_timers": np.array(state.scared_timers, dtype=np.int64),
        "food": grid[_FOOD].copy(),
        "capsules": grid[_CAPSULES].copy(),
        "walls": grid[_WALLS].copy(),
        "score": np.array([state.score], dtype=np.int64),
    }


def check_obs_type(obs_type: str, allowed: Sequence[str] = OBS_TYPES) -> str:
    """Validate an ``obs_type`` argument.

    Raises:
        ValueError: If it is not one of ``allowed``.
    """
    if obs_type not in allowed:
        raise ValueError(f"unknown obs_type {obs_type!r}; expected one of {', '.join(allowed)}")
    return obs_type
