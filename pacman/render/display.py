"""What the ``pacman`` command shows a game on: the `Display` protocol.

`NullDisplay` (``-q``), `TextDisplay` (``-t``) and `PygameWindow` (the default) all
implement it; the command drives whichever one the flags chose through these methods
only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

from pacman.core.record import GameRecord
from pacman.core.state import GameState
from pacman.core.types import Direction

__all__ = ["Display"]


@runtime_checkable
class Display(Protocol):
    """Shows games as they are played, one after another."""

    def attach(self, agents: Iterable[Any]) -> None:
        """Meet the agents of the next game (a keyboard agent reads keys from a window)."""

    def start(self, state: GameState) -> None:
        """Begin a game at ``state``."""

    def update(self, before: GameState, agent: int, action: Direction, after: GameState) -> None:
        """Show one move: ``agent`` played ``action`` from ``before``, giving ``after``."""

    def should_stop(self) -> bool:
        """Whether the user asked to stop the game (closed the window, pressed Escape)."""

    def finish(self, state: GameState, record: GameRecord) -> None:
        """End a game at its final ``state``."""

    def close(self) -> None:
        """Release whatever the display holds (the window)."""
