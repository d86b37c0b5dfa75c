"""The classic camelCase state API (SPEC §8) over our states, for classic submissions.

A classic ``multiAgents.py`` calls ``getLegalActions``, ``generateSuccessor``,
``getFood().asList()``, ``getGhostStates()[i].scaredTimer`` and so on. `ClassicState`
wraps any state the worker hands to a student (a grader-answered proxy, a tree proxy
or a local state) and offers those names; successors are wrapped in turn, so counting
still happens in the grader.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = [
    "AgentState",
    "AgentStateView",
    "ClassicState",
    "Configuration",
    "Grid",
    "agent_state",
    "classic_evaluation",
]


class Grid:
    """A classic boolean grid indexed ``grid[x][y]``.

    >>> g = Grid(3, 2)
    >>> g[0][1] = True
    >>> g[0][1], g[1][1], g.count(), g.asList()
    (True, False, 1, [(0, 1)])
    """

    def __init__(self, width: int, height: int, initialValue: bool = False) -> None:
        self.width = width
        self.height = height
        self.data = [[initialValue] * height for _ in range(width)]

    @classmethod
    def from_cells(cls, width: int, height: int, cells: Iterable[tuple[int, int]]) -> Grid:
        """A grid whose listed cells are true."""
        grid = cls(width, height)
        for x, y in cells:
            grid.data[x][y] = True
        return grid

    def __getitem__(self, x: int) -> list[bool]:
        return self.data[x]

    def __setitem__(self, x: int, column: list[bool]) -> None:
        self.data[x] = column

    def asList(self, key: bool = True) -> list[tuple[int, int]]:
        """The cells whose value is ``key``, by column then row."""
        return [
            (x, y) for x in range(self.width) for y in range(self.height) if self.data[x][y] == key
        ]

    def count(self, item: bool = True) -> int:
        """How many cells hold ``item``."""
        return sum(column.count(item) for column in self.data)

    def copy(self) -> Grid:
        """An independent copy."""
        g = Grid(self.width, self.height)
        g.data = [column[:] for column in self.data]
        return g

    def deepCopy(self) -> Grid:
        """An independent copy (as `copy`)."""
        return self.copy()

    def shallowCopy(self) -> Grid:
        """A grid sharing this one's cells."""
        g = Grid(self.width, self.height)
        g.data = self.data
        return g

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and self.data == other.data

    def __hash__(self) -> int:
        return hash(tuple(map(tuple, self.data)))

    def __str__(self) -> str:
        rows = (
            "".join("T" if self.data[x][y] else "F" for x in range(self.width))
            for y in range(self.height - 1, -1, -1)
        )
        return "\n".join(rows)


class Configuration:
    """Where an agent is and which way it faces (classic ``game.Configuration``)."""

    def __init__(self, pos: tuple[float, float], direction: str) -> None:
        self.pos = pos
        self.direction = direction

    def getPosition(self) -> tuple[float, float]:
        """The position ``(x, y)``."""
        return self.pos

    def getDirection(self) -> str:
        """The direction it faces."""
        return self.direction

    def isInteger(self) -> bool:
        """Whether it stands on a grid point."""
        x, y = self.pos
        return x == int(x) and y == int(y)

    def generateSuccessor(self, vector: tuple[float, float]) -> Configuration:
        """The configuration after moving by ``vector`` (Stop keeps the facing)."""
        x, y = self.pos
        dx, dy = vector
        direction = self.direction
        if dy > 0:
            direction = "North"
        elif dy < 0:
            direction = "South"
        elif dx < 0:
            direction = "West"
        elif dx > 0:
            direction = "East"
        return Configuration((x + dx, y + dy), direction)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Configuration):
            return NotImplemented
        return self.pos == other.pos and self.direction == other.direction

    def __hash__(self) -> int:
        return hash((self.pos, self.direction))

    def __repr__(self) -> str:
        return f"(x,y)={self.pos}, {self.direction}"


class AgentState:
    """One agent as the classic ``game.AgentState``: start, configuration, scared timer."""

    def __init__(self, startConfiguration: Configuration, isPacman: bool) -> None:
        self.start = startConfiguration
        self.configuration: Configuration | None = startConfiguration
        self.isPacman = isPacman
        self.scaredTimer = 0
        self.numCarrying = 0
        self.numReturned = 0

    def getPosition(self) -> tuple[float, float] | None:
        """The agent's position (``None`` when it is off the board)."""
        return None if self.configuration is None else self.configuration.getPosition()

    def getDirection(self) -> str:
        """The direction it last moved in."""
        return "Stop" if self.configuration is None else self.configuration.getDirection()

    def copy(self) -> AgentState:
        """An independent copy."""
        other = AgentState(self.start, self.isPacman)
        other.configuration = self.configuration
        other.scaredTimer = self.scaredTimer
        other.numCarrying, other.numReturned = self.numCarrying, self.numReturned
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AgentState):
            return NotImplemented
        return (self.configuration, self.scaredTimer) == (other.configuration, other.scaredTimer)

    def __hash__(self) -> int:
        return hash((self.configuration, self.scaredTimer))


def agent_state(state: Any, index: int) -> AgentState:
    """Agent ``index`` of ``state`` as a classic `AgentState`."""
    layout = state.layout
    start = layout.pacman_start if index == 0 else layout.ghost_starts[index - 1]
    view = AgentState(Configuration(start, "Stop"), index == 0)
    view.configuration = Configuration(
        state.agent_position(index), str(state.agent_direction(index))
    )
    view.scaredTimer = state.scared_timer(index)
    return view


AgentStateView = AgentState
"""The name this module used to give agent states (kept for callers)."""


class _LayoutView:
    """``state.data.layout``: the board's size, walls, food and capsules."""

    def __init__(self, state: Any) -> None:
        self.width = state.width
        self.height = state.height
        self.walls = Grid.from_cells(state.width, state.height, state.walls)
        layout = state.layout
        self.food = Grid.from_cells(state.width, state.height, layout.food)
        self.capsules = list(layout.capsules)
        self.numGhosts = len(layout.ghost_starts)
        self.agentPositions = [(True, layout.pacman_start)] + [
            (False, start) for start in layout.ghost_starts
        ]
        self.totalFood = len(layout.food)

    def getNumGhosts(self) -> int:
        """How many ghost starts the board has."""
        return int(self.numGhosts)

    def isWall(self, pos: tuple[int, int]) -> bool:
        """Whether the cell ``(x, y)`` is a wall."""
        x, y = pos
        return bool(self.walls[x][y])


class _StateData:
    """``state.data``: the classic game state's fields, read from our state."""

    def __init__(self, state: Any) -> None:
        self.agentStates = [agent_state(state, i) for i in range(state.num_agents)]
        self.layout = _LayoutView(state)
        self.food = Grid.from_cells(state.width, state.height, state.food_positions())
        self.capsules = list(state.capsules)
        self.score = state.score
        self._win = bool(state.is_win())
        self._lose = bool(state.is_lose())
        # Our states do not keep what the last move did; None is the classic value of a
        # state no move has led to yet.
        self._agentMoved: int | None = None
        self._foodEaten: tuple[int, int] | None = None
        self._foodAdded: tuple[int, int] | None = None
        self._capsuleEaten: tuple[int, int] | None = None
        self.scoreChange = 0


class ClassicState:
    """A state with the classic camelCase methods; compares and hashes as the state."""

    __slots__ = ("_data", "_kids", "state")

    def __init__(self, state: Any) -> None:
        self.state = state
        self._kids: dict[tuple[Any, Any], ClassicState] = {}
        self._data: _StateData | None = None

    @property
    def data(self) -> _StateData:
        """The classic ``state.data``: ``agentStates``, ``layout``, ``food``, ``score``..."""
        if self._data is None:
            self._data = _StateData(self.state)
        return self._data

    def getLegalActions(self, agentIndex: int = 0) -> list[str]:
        """The agent's legal actions as strings, in legal order."""
        return [str(a) for a in self.state.legal_actions(agentIndex)]

    def generateSuccessor(self, agentIndex: int, action: str) -> ClassicState:
        """The state after ``agentIndex`` plays ``action`` (wrapped too)."""
        # Always ask the wrapped state: its proxy counts a repeat in a later decision.
        inner = self.state.successor(agentIndex, action)
        key = (agentIndex, action)
        child = self._kids.get(key)
        if child is None or child.state is not inner:
            child = ClassicState(inner)
            self._kids[key] = child
        return child

    def getNumAgents(self) -> int:
        """Number of agents, Pacman included."""
        return int(self.state.num_agents)

    def isWin(self) -> bool:
        """Whether Pacman has won."""
        return bool(self.state.is_win())

    def isLose(self) -> bool:
        """Whether Pacman has lost."""
        return bool(self.state.is_lose())

    def deepCopy(self) -> ClassicState:
        """A copy (states never change, so it is the same state)."""
        return ClassicState(self.state)

    def getScore(self) -> float:
        """The score, as a float."""
        return float(self.state.score)

    def getLegalPacmanActions(self) -> list[str]:
        """Pacman's legal actions."""
        return self.getLegalActions(0)

    def generatePacmanSuccessor(self, action: str) -> ClassicState:
        """The state after Pacman plays ``action``."""
        return self.generateSuccessor(0, action)

    def getPacmanPosition(self) -> tuple[float, float]:
        """Pacman's position."""
        return self.state.pacman_position  # type: ignore[no-any-return]

    def getPacmanState(self) -> AgentState:
        """Pacman as an agent state."""
        return agent_state(self.state, 0)

    def getGhostStates(self) -> list[AgentState]:
        """Every ghost as an agent state, ghost 1 first."""
        return [agent_state(self.state, i) for i in range(1, self.state.num_agents)]

    def getGhostState(self, agentIndex: int) -> AgentState:
        """Ghost ``agentIndex`` as an agent state."""
        return agent_state(self.state, agentIndex)

    def getGhostPosition(self, agentIndex: int) -> tuple[float, float]:
        """Ghost ``agentIndex``'s position."""
        return self.state.agent_position(agentIndex)  # type: ignore[no-any-return]

    def getGhostPositions(self) -> list[tuple[float, float]]:
        """Every ghost's position, ghost 1 first."""
        return list(self.state.ghost_positions)

    def getFood(self) -> Grid:
        """The remaining food as a grid."""
        s = self.state
        return Grid.from_cells(s.width, s.height, s.food_positions())

    def getWalls(self) -> Grid:
        """The walls as a grid."""
        s = self.state
        return Grid.from_cells(s.width, s.height, s.walls)

    def getCapsules(self) -> list[tuple[int, int]]:
        """The remaining capsules' positions."""
        return list(self.state.capsules)

    def getNumFood(self) -> int:
        """How many food dots are left."""
        return int(self.state.num_food)

    def hasFood(self, x: int, y: int) -> bool:
        """Whether there is food at ``(x, y)``."""
        return bool(self.state.has_food(x, y))

    def hasWall(self, x: int, y: int) -> bool:
        """Whether ``(x, y)`` is a wall."""
        return bool(self.state.has_wall(x, y))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ClassicState):
            return bool(self.state == other.state)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"ClassicState({self.state!r})"


def unwrap(state: Any) -> Any:
    """The state inside a `ClassicState` (anything else unchanged)."""
    return state.state if isinstance(state, ClassicState) else state


def classic_evaluation(evaluate: Callable[[Any], float]) -> Callable[[Any], float]:
    """Our evaluation function made callable on `ClassicState` objects."""

    def evaluation_function(state: Any) -> float:
        return float(evaluate(unwrap(state)))  # a float, as classic getScore() returns

    return evaluation_function
