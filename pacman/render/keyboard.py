"""Play Pacman yourself: arrow keys or WASD in the pygame window.

The agent steers the way the arcade game feels: Pacman keeps going in the direction it
is moving, and the last direction you pressed is remembered and taken at the first
cell where it is possible, so you can press a turn just before a junction.
"""

from __future__ import annotations

from typing import Any

from pacman.core.errors import RenderingUnavailableError
from pacman.core.state import GameState
from pacman.core.types import Direction

__all__ = ["KeyboardAgent"]


class KeyboardAgent:
    """Pacman controlled from the keyboard of a `PygameWindow`.

    The window feeds it key presses (`press`); `get_action` then chooses:

    1. the last direction pressed, if it is legal here;
    2. otherwise the direction Pacman is already moving in, if legal;
    3. otherwise Stop (Pacman waits at a wall until you choose a way).

    >>> from pacman import GameState
    >>> agent = KeyboardAgent()
    >>> agent.bind(None)  # no window: only keys given through press()
    >>> state = GameState.initial("mediumClassic")
    >>> agent.get_action(state)
    <Direction.STOP: 'Stop'>
    >>> agent.press(Direction.WEST)
    >>> agent.get_action(state)
    <Direction.WEST: 'West'>
    >>> agent.press(Direction.NORTH)  # a wall above: keep going West for now
    >>> agent.get_action(state.successor(0, "West"))
    <Direction.WEST: 'West'>

    Args:
        index: The agent index it plays (0, Pacman).
    """

    def __init__(self, index: int = 0) -> None:
        self.index = index
        self.wanted: Direction | None = None
        """The last direction pressed (kept until another is pressed)."""
        self._window: Any = None
        self._bound = False

    def bind(self, window: Any) -> None:
        """Take keys from ``window`` (anything with a ``poll()`` method, or ``None``)."""
        self._window = window
        self._bound = True

    def press(self, direction: Direction) -> None:
        """Record a key press for ``direction``."""
        self.wanted = Direction(direction)

    def get_action(self, state: GameState) -> Direction:
        """The move for this turn, following the last key pressed.

        Raises:
            RenderingUnavailableError: If no window feeds this agent keys (``-q``/``-t``).
        """
        if not self._bound:
            raise RenderingUnavailableError(
                "KeyboardAgent needs the pygame window; run pacman without -q or -t"
            )
        if self._window is not None:
            self._window.poll()
        legal = state.legal_actions(self.index)
        if self.wanted is not None and self.wanted in legal:
            return self.wanted
        current = state.agent_direction(self.index)
        if current is not Direction.STOP and current in legal:
            return current
        return Direction.STOP

    def __repr__(self) -> str:
        return "KeyboardAgent()"
