"""The classic ``game`` module, as multi-agent submissions use it (SPEC section 8).

Only the autograder's worker puts this folder on ``sys.path``, to grade classic
camelCase ``multiAgents.py`` files (see ``util.py`` here). ``Grid``, ``Configuration`` and
``AgentState`` are the classes the classic state view hands out, so a submission's
``isinstance`` checks and constructors agree with what it receives.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pacman.classic.state import AgentState, Configuration, Grid

__all__ = ["Actions", "Agent", "AgentState", "Configuration", "Directions", "Grid"]


class Directions:
    """The action names, as the classic game spells them.

    >>> Directions.REVERSE[Directions.NORTH], Directions.LEFT[Directions.NORTH]
    ('South', 'West')
    """

    NORTH = "North"
    SOUTH = "South"
    EAST = "East"
    WEST = "West"
    STOP = "Stop"
    LEFT: ClassVar[dict[str, str]] = {
        NORTH: WEST, SOUTH: EAST, EAST: NORTH, WEST: SOUTH, STOP: STOP,
    }  # fmt: skip
    RIGHT: ClassVar[dict[str, str]] = {v: k for k, v in LEFT.items()}
    REVERSE: ClassVar[dict[str, str]] = {
        NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST, STOP: STOP,
    }  # fmt: skip


class Actions:
    """Static helpers between directions, vectors and positions.

    >>> Actions.directionToVector(Directions.WEST), Actions.vectorToDirection((0, 1))
    ((-1.0, 0.0), 'North')
    >>> Actions.getSuccessor((1, 1), Directions.EAST)
    (2.0, 1.0)
    """

    _directions: ClassVar[dict[str, tuple[int, int]]] = {
        Directions.NORTH: (0, 1),
        Directions.SOUTH: (0, -1),
        Directions.EAST: (1, 0),
        Directions.WEST: (-1, 0),
        Directions.STOP: (0, 0),
    }
    _directionsAsList: ClassVar[list[tuple[str, tuple[int, int]]]] = list(_directions.items())
    TOLERANCE = 0.001

    @staticmethod
    def reverseDirection(action: str) -> str:
        """The opposite direction (Stop stays Stop)."""
        return Directions.REVERSE.get(action, action)

    @staticmethod
    def vectorToDirection(vector: tuple[float, float]) -> str:
        """The direction a move vector points in (Stop for none)."""
        dx, dy = vector
        if dy > 0:
            return Directions.NORTH
        if dy < 0:
            return Directions.SOUTH
        if dx < 0:
            return Directions.WEST
        if dx > 0:
            return Directions.EAST
        return Directions.STOP

    @staticmethod
    def directionToVector(direction: str, speed: float = 1.0) -> tuple[float, float]:
        """The move of one step of ``speed`` in ``direction``."""
        dx, dy = Actions._directions[direction]
        return (dx * speed, dy * speed)

    @staticmethod
    def getPossibleActions(config: Any, walls: Any) -> list[str]:
        """The directions open from a configuration (one, between two grid points)."""
        x, y = config.pos
        xi, yi = int(x + 0.5), int(y + 0.5)
        if abs(x - xi) + abs(y - yi) > Actions.TOLERANCE:
            return [config.getDirection()]
        return [d for d, (dx, dy) in Actions._directionsAsList if not walls[xi + dx][yi + dy]]

    @staticmethod
    def getLegalNeighbors(position: tuple[float, float], walls: Any) -> list[tuple[int, int]]:
        """The open cells one step from ``position``, the cell itself included."""
        x, y = position
        xi, yi = int(x + 0.5), int(y + 0.5)
        found = []
        for _, (dx, dy) in Actions._directionsAsList:
            nx, ny = xi + dx, yi + dy
            if 0 <= nx < walls.width and 0 <= ny < walls.height and not walls[nx][ny]:
                found.append((nx, ny))
        return found

    @staticmethod
    def getSuccessor(position: tuple[float, float], action: str) -> tuple[float, float]:
        """The position one step from ``position`` in direction ``action``."""
        dx, dy = Actions.directionToVector(action)
        x, y = position
        return (x + dx, y + dy)


class Agent:
    """Base of classic agents: an index and ``getAction(state)``."""

    def __init__(self, index: int = 0) -> None:
        self.index = index

    def getAction(self, state: Any) -> str:
        """Return an action (subclasses implement it).

        Raises:
            NotImplementedError: Always, here.
        """
        raise NotImplementedError(f"{type(self).__name__}.getAction")
