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

__all__ = ["AgentStateView", "ClassicState", "Grid", "classic_evaluation"]


class Grid:
    """A classic boolean grid indexed ``grid[x][y]``.

    >>> g = Grid(3, 2, [(0, 1), (2, 0)])
    >>> g[0][1], g[1][1], g.count(), g.asList()
    (True, False, 2, [(0, 1), (2, 0)])
    """

    def __init__(self, width: int, height: int, cells: Iterable[tuple[int, int]] = ()) -> None:
        self.width = width
        self.height = height
        self.data = [[False] * height for _ in range(width)]
        for x, y in cells:
            self.data[x][y] = True

    def __getitem__(self, x: int) -> list[bool]:
        return self.data[x]

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

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and self.data == other.data

    def __hash__(self) -> int:
        return hash(tuple(map(tuple, self.data)))


class _Configuration:
    __slots__ = ("direction", "pos")

    def __init__(self, pos: tuple[float, float], direction: str) -> None:
        self.pos = pos
        self.direction = direction

    def getPosition(self) -> tuple[float, float]:
        return self.pos

    def getDirection(self) -> str:
        return self.direction


class AgentStateView:
    """One agent as the classic ``AgentState``: position, direction, ``scaredTimer``."""

    def __init__(self, state: Any, index: int) -> None:
        self.index = index
        self.scaredTimer = state.scared_timer(index)
        self.configuration = _Configuration(
            state.agent_position(index), str(state.agent_direction(index))
        )
        layout = state.layout
        start = layout.pacman_start if index == 0 else layout.ghost_starts[index - 1]
        self.start = _Configuration(start, "Stop")
        self.isPacman = index == 0

    def getPosition(self) -> tuple[float, float]:
        """The agent's position."""
        return self.configuration.pos

    def getDirection(self) -> str:
        """The direction it last moved in."""
        return self.configuration.direction


class ClassicState:
    """A state with the classic camelCase methods; compares and hashes as the state."""

    __slots__ = ("_kids", "state")

    def __init__(self, state: Any) -> None:
        self.state = state
        self._kids: dict[tuple[Any, Any], ClassicState] = {}

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

    def getPacmanState(self) -> AgentStateView:
        """Pacman as an agent state."""
        return AgentStateView(self.state, 0)

    def getGhostStates(self) -> list[AgentStateView]:
        """Every ghost as an agent state, ghost 1 first."""
        return [AgentStateView(self.state, i) for i in range(1, self.state.num_agents)]

    def getGhostState(self, agentIndex: int) -> AgentStateView:
        """Ghost ``agentIndex`` as an agent state."""
        return AgentStateView(self.state, agentIndex)

    def getGhostPosition(self, agentIndex: int) -> tuple[float, float]:
        """Ghost ``agentIndex``'s position."""
        return self.state.agent_position(agentIndex)  # type: ignore[no-any-return]

    def getGhostPositions(self) -> list[tuple[float, float]]:
        """Every ghost's position, ghost 1 first."""
        return list(self.state.ghost_positions)

    def getFood(self) -> Grid:
        """The remaining food as a grid."""
        s = self.state
        return Grid(s.width, s.height, s.food_positions())

    def getWalls(self) -> Grid:
        """The walls as a grid."""
        s = self.state
        return Grid(s.width, s.height, s.walls)

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
