from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman import Direction, GameState, IllegalActionError, Layout, load_layout
from pacman.envs.encoding import (
    ACTIONS,
    CHANNELS,
    GridEncoder,
    action_index,
    action_mask,
    fallback_action,
    grid_space,
    resolve_action,
    symbolic_observation,
    symbolic_space,
)

TINY = Layout.from_text(
    """
%%%%%%%
%P.o.G%
%.%%%.%
%.....%
%%%%%%%
""",
    name="tiny",
)


def from_scratch(state: GameState) -> np.ndarray:
    """The grid built cell by cell from the public accessors (the reference)."""
    h, w = state.height, state.width
    grid = np.zeros((len(CHANNELS), h, w), dtype=np.uint8)
    for x, y in state.walls:
        grid[0, h - 1 - y, x] = 1
    for x, y in state.iter_food():
        grid[1, h - 1 - y, x] = 1
    for x, y in state.capsules:
        grid[2, h - 1 - y, x] = 1
    px, py = state.pacman_position
    grid[3, h - 1 - int(py), int(px)] = 1
    for i, (gx, gy) in enumerate(state.ghost_positions, start=1):
        ch = 5 if state.is_scared(i) else 4
        grid[ch, h - 1 - int(gy + 0.5), int(gx + 0.5)] += 1
    return grid


def test_action_order_is_the_engine_legal_order() -> None:
    assert [a.value for a in ACTIONS] == ["West", "Stop", "East", "North", "South"]
    assert [action_index(a) for a in ACTIONS] == [0, 1, 2, 3, 4]


def test_row_zero_is_the_top_text_line() -> None:
    enc = GridEncoder(TINY, 1)
    state = GameState.initial(TINY)
    enc.reset(state)
    grid = enc.observation()
    assert grid.shape == (6, 5, 7)
    walls = ["".join("%" if v else " " for v in row) for row in grid[0]]
    assert walls == [
        r.replace(".", " ").replace("o", " ").replace("P", " ").replace("G", " ") for r in TINY.rows
    ]
    assert grid[3, 1, 1] == 1  # Pacman at (1, 3): row 5 - 1 - 3 = 1
    assert grid[4, 1, 5] == 1  # the ghost at (5, 3)
    assert grid[2, 1, 3] == 1  # the capsule at (3, 3)


@pytest.mark.parametrize(
    ("position", "cell"),
    [
        ((1, 1), (3, 1)),
        ((1.5, 1), (3, 2)),
        ((1, 1.5), (2, 1)),
        ((5, 3), (1, 5)),
        ((4.5, 3), (1, 5)),
    ],
)
def test_half_positions_show_in_the_east_or_north_cell(
    position: tuple[float, float], cell: tuple[int, int]
) -> None:
    assert GridEncoder(TINY, 1).cell_of(position) == cell


@settings(max_examples=25, deadline=None)
@given(
    layout=st.sampled_from(["smallClassic", "mediumClassic", "trickyClassic", "powerClassic"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_incremental_and_reset_grids_equal_the_grid_built_from_scratch(
    layout: str, seed: int
) -> None:
    # Random games pass through eaten food, eaten capsules, scared half-speed ghosts,
    # eaten ghosts respawning and several ghosts sharing a cell.
    rng = random.Random(seed)
    state = GameState.initial(layout)
    enc = GridEncoder(state.layout, state.num_ghosts)
    enc.reset(state)
    agent = 0
    for _ in range(600):
        if state.is_terminal():
            break
        state = state.successor(agent, rng.choice(state.legal_actions(agent)))
        agent = (agent + 1) % state.num_agents
        enc.update(state)
        expected = from_scratch(state)
        np.testing.assert_array_equal(enc.grid, expected)
        fresh = GridEncoder(state.layout, state.num_ghosts)
        fresh.reset(state)  # a mid-game state (scared or eaten ghosts, gone capsules)
        np.testing.assert_array_equal(fresh.grid, expected)
    assert grid_space(state.layout, state.num_ghosts).contains(enc.observation())


def test_observation_is_a_copy() -> None:
    state = GameState.initial(TINY)
    enc = GridEncoder(TINY, 1)
    enc.reset(state)
    first = enc.observation()
    enc.update(state.successor(0, Direction.EAST))
    assert first[3, 1, 1] == 1
    assert enc.grid[3, 1, 1] == 0


def test_self_plane_marks_only_the_observer() -> None:
    state = GameState.initial(TINY)
    enc = GridEncoder(TINY, 1, extra_channels=1)
    enc.reset(state)
    obs = enc.observation(mark=state.agent_position(1))
    assert obs.shape == (7, 5, 7)
    assert np.argwhere(obs[6]).tolist() == [[1, 5]]
    assert not enc.grid[6].any()


@pytest.mark.parametrize(
    ("legal", "expected"),
    [
        ((Direction.STOP,), [0, 1, 0, 0, 0]),
        ((Direction.WEST, Direction.STOP, Direction.SOUTH), [1, 1, 0, 0, 1]),
        ((), [0, 0, 0, 0, 0]),
    ],
)
def test_action_mask(legal: tuple[Direction, ...], expected: list[int]) -> None:
    mask = action_mask(legal)
    assert mask.dtype == np.int8
    assert mask.tolist() == expected
    mask[0] = 7  # every call returns a fresh array
    assert action_mask(legal).tolist() == expected


@pytest.mark.parametrize(
    ("agent", "action", "played", "illegal"),
    [
        (0, 2, Direction.EAST, False),  # legal
        (0, 0, Direction.STOP, True),  # wall: Pacman stops
        (0, np.int64(3), Direction.STOP, True),
        (1, 2, Direction.WEST, True),  # ghosts cannot stop: first legal action
        (1, 1, Direction.WEST, True),
        (1, 0, Direction.WEST, False),
    ],
)
def test_illegal_action_policy(
    agent: int, action: object, played: Direction, illegal: bool
) -> None:
    state = GameState.initial(TINY)
    assert resolve_action(state, agent, action, strict=False) == (played, illegal)
    if illegal:
        with pytest.raises(IllegalActionError, match=rf"illegal action .* for agent {agent}"):
            resolve_action(state, agent, action, strict=True)


@pytest.mark.parametrize("action", [5, -1, 1.5, "North", None])
def test_action_outside_the_space_is_an_error(action: object) -> None:
    with pytest.raises(IllegalActionError, match="not in Discrete"):
        resolve_action(GameState.initial(TINY), 0, action, strict=False)


def test_fallback_prefers_stop() -> None:
    assert fallback_action((Direction.WEST, Direction.STOP)) is Direction.STOP
    assert fallback_action((Direction.NORTH, Direction.SOUTH)) is Direction.NORTH


def test_symbolic_observation_fits_its_space() -> None:
    layout = load_layout("mediumClassic")
    state = GameState.initial(layout).successor(0, Direction.WEST)
    enc = GridEncoder(layout, 2)
    enc.reset(state)
    obs = symbolic_observation(state, enc.grid)
    assert symbolic_space(layout, 2).contains(obs)
    assert obs["pacman_position"].tolist() == list(state.pacman_position)
    assert obs["pacman_direction"] == 0  # West
    assert obs["score"].tolist() == [state.score]
    assert obs["food"].sum() == state.num_food


def test_reset_to_the_start_again_or_to_another_state() -> None:
    # The first reset is kept as a snapshot; later resets restore it or encode afresh.
    start = GameState.initial("mediumClassic")
    enc = GridEncoder(start.layout, start.num_ghosts)
    enc.reset(start)
    rng = random.Random(1)
    state = start
    for _ in range(40):
        if state.is_terminal():
            break
        for agent in range(state.num_agents):
            if not state.is_terminal():
                state = state.successor(agent, rng.choice(state.legal_actions(agent)))
        enc.update(state)
    enc.reset(start)
    np.testing.assert_array_equal(enc.grid, from_scratch(start))
    enc.reset(state)
    np.testing.assert_array_equal(enc.grid, from_scratch(state))
    nxt = state if state.is_terminal() else state.successor(0, state.legal_actions(0)[0])
    enc.update(nxt)
    np.testing.assert_array_equal(enc.grid, from_scratch(nxt))
    enc.reset(start)
    enc.update(start.successor(0, Direction.WEST))
    np.testing.assert_array_equal(enc.grid, from_scratch(start.successor(0, Direction.WEST)))


def test_scared_ghost_at_a_half_position() -> None:
    layout = Layout.from_text("%%%%%%%\n%Po  G%\n%%%%%%%", name="capsule")
    state = GameState.initial(layout)
    enc = GridEncoder(layout, 1)
    enc.reset(state)
    state = state.successor(0, Direction.EAST)  # eats the capsule: the ghost is scared
    enc.update(state)
    assert enc.grid[2].sum() == 0
    assert enc.grid[5, 1, 5] == 1
    state = state.successor(1, Direction.WEST)  # half speed: from x = 5 to x = 4.5
    assert state.agent_position(1) == (4.5, 1)
    enc.update(state)
    assert enc.grid[5, 1, 5] == 1  # 4.5 rounds up to column 5
    assert enc.grid[4].sum() == 0
    np.testing.assert_array_equal(enc.grid, from_scratch(state))
