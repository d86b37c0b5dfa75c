"""The classic Berkeley layer: running camelCase ``multiAgents.py`` files unchanged.

One layer for the autograder's worker, the ``pacman`` command and ``pacman eval``
(SPEC section 8): `state.ClassicState` gives our states the classic camelCase methods
and ``state.data``, `ClassicAgent` lets a classic agent play our games, and the folder
`MODULES` holds the classic ``util`` and ``game`` modules that such files import (put on
the import path after the file's own folder, so the student's own ``util.py`` wins).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from pacman.classic.state import ClassicState, classic_evaluation, unwrap

__all__ = [
    "CLASSIC_FUNCTION_NAMES",
    "MODULES",
    "ClassicAgent",
    "ClassicState",
    "classic_evaluation",
    "is_classic",
    "unwrap",
]

MODULES: Final = str(Path(__file__).with_name("modules"))
"""The folder of the classic ``util`` and ``game`` modules."""

CLASSIC_FUNCTION_NAMES: Final = {"better_evaluation": "betterEvaluationFunction"}
"""Our names of the functions a student writes, and their classic camelCase spelling."""


def is_classic(cls: type) -> bool:
    """Whether an agent class is written to the classic API (``getAction``, no ``get_action``)."""
    return not hasattr(cls, "get_action") and hasattr(cls, "getAction")


class ClassicAgent:
    """A classic agent made to play our games: its calls get classic camelCase states."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.index = getattr(agent, "index", 0)

    def register_initial_state(self, state: Any) -> None:
        """Call the agent's ``registerInitialState``, if it has one."""
        register = getattr(self.agent, "registerInitialState", None)
        if callable(register):
            register(ClassicState(state))

    def get_action(self, state: Any) -> Any:
        """The agent's ``getAction`` on the classic view of ``state``."""
        return self.agent.getAction(ClassicState(state))

    def __repr__(self) -> str:
        return type(self.agent).__name__
