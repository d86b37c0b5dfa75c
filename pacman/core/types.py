"""Basic value types shared by the whole engine: directions, positions, agent ids."""

from __future__ import annotations

from enum import StrEnum
from typing import Final, TypeAlias

__all__ = [
    "ACTION_ORDER",
    "PACMAN",
    "Action",
    "Direction",
    "Position",
]

Position: TypeAlias = tuple[float, float]
"""An ``(x, y)`` board position: ``x`` counts columns from the left, ``y`` rows from the bottom.

Grid points are ints; a scared ghost moving at half speed can sit at ``x.5``.
"""

PACMAN: Final = 0
"""Agent index of Pacman; ghosts are ``1 .. num_agents - 1``."""


class Direction(StrEnum):
    """A move, as a ``str`` enum whose values are the classic action names.

    Because it subclasses ``str``, a member compares and hashes equal to its value, so
    code written against the classic strings keeps working:

    >>> Direction.NORTH == "North"
    True
    >>> Direction("West").vector
    (-1, 0)
    >>> Direction.EAST.reverse
    <Direction.WEST: 'West'>
    """

    NORTH = "North"
    SOUTH = "South"
    EAST = "East"
    WEST = "West"
    STOP = "Stop"

    @property
    def vector(self) -> tuple[int, int]:
        """The ``(dx, dy)`` unit step of this direction (``(0, 0)`` for Stop)."""
        return _VECTORS[self]

    @property
    def reverse(self) -> Direction:
        """The opposite direction; Stop is its own reverse."""
        return _REVERSE[self]


Action: TypeAlias = Direction
"""Actions in the Pacman game are directions."""

ACTION_ORDER: Final[tuple[Direction, ...]] = (
    Direction.WEST,
    Direction.STOP,
    Direction.EAST,
    Direction.NORTH,
    Direction.SOUTH,
)
"""The order in which legal actions are listed (SPEC §3); node counts depend on it."""

_VECTORS: Final[dict[Direction, tuple[int, int]]] = {
    Direction.NORTH: (0, 1),
    Direction.SOUTH: (0, -1),
    Direction.EAST: (1, 0),
    Direction.WEST: (-1, 0),
    Direction.STOP: (0, 0),
}

_REVERSE: Final[dict[Direction, Direction]] = {
    Direction.NORTH: Direction.SOUTH,
    Direction.SOUTH: Direction.NORTH,
    Direction.EAST: Direction.WEST,
    Direction.WEST: Direction.EAST,
    Direction.STOP: Direction.STOP,
}
