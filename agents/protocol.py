"""The interfaces agents and the autograder program against, independent of the engine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, Self, TypeAlias, runtime_checkable

__all__ = ["Agent", "EvaluationFn", "GameStateLike"]


@runtime_checkable
class GameStateLike(Protocol):
    """What the search algorithms need from a game state.

    `pacman.GameState` implements it, and so does the autograder's small explicit game
    tree, so the same search code runs on both.
    """

    @property
    def num_agents(self) -> int:
        """Number of agents; agent 0 moves first and maximises."""
        ...

    def legal_actions(self, agent: int) -> Sequence[Any]:
        """The actions ``agent`` may take, in the order searches must visit them."""
        ...

    def successor(self, agent: int, action: Any) -> Self:
        """The state after ``agent`` plays ``action``."""
        ...

    def is_terminal(self) -> bool:
        """Whether the game is over (a win or a loss)."""
        ...


EvaluationFn: TypeAlias = Callable[[Any], float]
"""An evaluation function: a plain callable from a state to its value for Pacman."""


@runtime_checkable
class Agent(Protocol):
    """Anything that picks an action for its agent index in a game state."""

    def get_action(self, state: Any) -> Any:
        """Return one of ``state.legal_actions(index)`` for this agent's index."""
        ...
