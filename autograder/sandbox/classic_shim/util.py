"""The part of the classic ``util`` module that multi-agent submissions use.

Only the autograder's worker puts this folder on ``sys.path`` (last, so a ``util.py``
beside the submission wins), to grade classic camelCase ``multiAgents.py`` files.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

__all__ = ["lookup", "manhattanDistance", "raiseNotDefined"]


def manhattanDistance(xy1: tuple[float, float], xy2: tuple[float, float]) -> float:
    """The Manhattan distance between two points.

    >>> manhattanDistance((1, 2), (4, 0))
    5
    """
    return abs(xy1[0] - xy2[0]) + abs(xy1[1] - xy2[1])


def raiseNotDefined() -> None:
    """Raise an error naming the caller that is not written yet.

    Raises:
        NotImplementedError: Always.
    """
    caller = sys._getframe(1).f_code.co_name
    raise NotImplementedError(f"{caller} is not implemented yet")


def lookup(name: str, namespace: Mapping[str, Any]) -> Any:
    """The object called ``name`` in ``namespace`` (a module's globals).

    Raises:
        KeyError: If there is none.
    """
    if name in namespace:
        return namespace[name]
    raise KeyError(f"{name!r} is not defined in the submission")
