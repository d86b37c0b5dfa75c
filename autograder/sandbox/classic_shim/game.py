"""The part of the classic ``game`` module that multi-agent submissions use.

Only the autograder's worker puts this folder on ``sys.path``, to grade classic
camelCase ``multiAgents.py`` files (see ``util.py`` here).
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = ["Agent", "Directions"]


class Directions:
    """The action names, as the classic game spells them.

    >>> Directions.REVERSE[Directions.NORTH]
    'South'
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
