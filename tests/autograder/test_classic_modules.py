"""The classic ``util`` and ``game`` modules and ``state.data`` behave as classic files expect.

SPEC section 8 lists what classic submissions use; each is checked here against its
documented behaviour (written from the description, never from classic code).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacman import GameState
from pacman.classic.state import AgentState, ClassicState, Configuration, Grid

SHIM = Path(__file__).resolve().parents[2] / "pacman" / "classic" / "modules"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"classic_{name}", SHIM / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


util = load("util")
game = load("game")

counts = st.dictionaries(st.sampled_from("abcdef"), st.integers(-50, 50), max_size=6)


@given(counts, counts)
def test_counter_arithmetic_matches_plain_dicts(a: dict[str, int], b: dict[str, int]) -> None:
    ca, cb = util.Counter(a), util.Counter(b)
    keys = set(a) | set(b)
    assert dict(ca + cb) == {k: a.get(k, 0) + b.get(k, 0) for k in keys}
    assert dict(ca - cb) == {k: a.get(k, 0) - b.get(k, 0) for k in keys}
    assert ca * cb == sum(a[k] * b[k] for k in set(a) & set(b))
    assert ca.totalCount() == sum(a.values())
    assert sum([ca, cb]) == ca + cb


def test_counter_defaults_to_zero_and_orders_its_keys() -> None:
    c = util.Counter()
    assert c["missing"] == 0
    c["a"] += 3
    c.incrementAll(["b", "c"], 2)
    c["c"] += 5
    assert c.argMax() == "c"
    assert c.sortedKeys() == ["c", "a", "b", "missing"]
    copy = c.copy()
    copy.normalize()
    assert copy["c"] == pytest.approx(7 / 12)
    assert c["c"] == 7
    c.divideAll(2)
    assert c["a"] == 1.5
    assert util.Counter().argMax() is None


@pytest.mark.parametrize(
    ("cls", "pushed", "popped"),
    [("Stack", [1, 2, 3], [3, 2, 1]), ("Queue", [1, 2, 3], [1, 2, 3])],
)
def test_stack_and_queue_order(cls: str, pushed: list[int], popped: list[int]) -> None:
    box = getattr(util, cls)()
    assert box.isEmpty()
    for item in pushed:
        box.push(item)
    assert [box.pop() for _ in pushed] == popped
    assert box.isEmpty()


def test_priority_queue_pops_lowest_first_and_updates() -> None:
    q = util.PriorityQueue()
    for item, priority in [("c", 3), ("a", 1), ("b", 2), ("a2", 1)]:
        q.push(item, priority)
    q.update("c", 0)  # lower: moves up
    q.update("b", 9)  # higher: left alone
    q.update("d", 5)  # absent: pushed
    assert [q.pop() for _ in range(5)] == ["c", "a", "a2", "b", "d"]
    f = util.PriorityQueueWithFunction(len)
    for word in ["ccc", "a", "bb"]:
        f.push(word)
    assert [f.pop() for _ in range(3)] == ["a", "bb", "ccc"]


def test_small_helpers() -> None:
    assert util.manhattanDistance((0, 0), (2, -3)) == 5
    assert util.nearestPoint((2.5, 0.4)) == (3, 0)
    assert (util.sign(0), util.sign(-1)) == (1, -1)
    assert util.normalize([1, 1, 2]) == [0.25, 0.25, 0.5]
    assert util.sample(util.Counter({"x": 1.0})) == "x"
    assert util.chooseFromDistribution([(1.0, "only")]) == "only"
    assert util.TimeoutFunction(lambda x: x + 1, 1)(1) == 2
    with pytest.raises(NotImplementedError, match="test_small_helpers"):
        util.raiseNotDefined()


def test_actions_between_directions_vectors_and_positions() -> None:
    actions, directions = game.Actions, game.Directions
    assert actions.directionToVector(directions.NORTH, 0.5) == (0.0, 0.5)
    assert actions.vectorToDirection((-1, 0)) == directions.WEST
    assert actions.reverseDirection(directions.EAST) == directions.WEST
    assert actions.getSuccessor((3, 3), directions.SOUTH) == (3.0, 2.0)
    walls = GameState.initial("testClassic").layout
    grid = Grid.from_cells(walls.width, walls.height, walls.walls)
    x, y = walls.pacman_start
    neighbours = actions.getLegalNeighbors((x, y), grid)
    assert (x, y) in neighbours
    assert all(not grid[a][b] for a, b in neighbours)
    config = game.Configuration((x, y), directions.STOP)
    assert directions.STOP in actions.getPossibleActions(config, grid)
    assert config.generateSuccessor((1, 0)).getDirection() == directions.EAST


def test_state_data_holds_the_classic_fields() -> None:
    state = GameState.initial("smallClassic")
    classic: Any = ClassicState(state)
    data = classic.data
    assert len(data.agentStates) == state.num_agents
    pacman = data.agentStates[0]
    assert isinstance(pacman, AgentState)
    assert pacman.isPacman
    assert pacman.getPosition() == state.pacman_position
    assert isinstance(pacman.configuration, Configuration)
    assert data.agentStates[1].scaredTimer == 0
    assert not data.agentStates[1].isPacman
    assert (data.layout.width, data.layout.height) == (state.width, state.height)
    assert data.layout.walls[0][0]
    assert data.food.count() == state.num_food
    assert (data._win, data._lose, data.score) == (False, False, 0)
    assert isinstance(classic.getScore(), float)
    assert isinstance(classic.getGhostStates()[0], game.AgentState)
    assert isinstance(classic.getFood(), game.Grid)


def test_the_less_common_classic_fields() -> None:
    # Seen in classic evaluation functions: copies, the last move's fields, the layout's
    # agent positions and wall test.
    state = GameState.initial("smallClassic")
    classic: Any = ClassicState(state)
    copy = classic.deepCopy()
    assert copy == classic
    assert copy is not classic
    assert hash(copy) == hash(classic)
    data = classic.data
    assert (data._agentMoved, data._foodEaten, data._capsuleEaten) == (None, None, None)
    layout = data.layout
    assert layout.agentPositions[0] == (True, state.pacman_position)
    assert [p for is_pacman, p in layout.agentPositions[1:]] == list(state.layout.ghost_starts)
    assert layout.isWall((0, 0))
    assert not layout.isWall(state.pacman_position)
    assert layout.totalFood == state.num_food
