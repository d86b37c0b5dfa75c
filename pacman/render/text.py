"""Text rendering of a state (the ``ansi`` render mode and the ``-t`` display)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from typing import Any, Final, TextIO

from pacman.core.record import GameRecord
from pacman.core.state import GameState
from pacman.core.types import Direction

__all__ = ["NullDisplay", "TextDisplay", "render_text"]

_PACMAN_CHARS = {
    Direction.NORTH: "v",
    Direction.SOUTH: "^",
    Direction.WEST: ">",
    Direction.EAST: "<",
    Direction.STOP: "<",
}


def render_text(state: GameState) -> str:
    """The board as text, followed by a status line.

    ``%`` walls, ``.`` food, ``o`` capsules, Pacman as a mouth facing its direction
    (``<`` ``>`` ``^`` ``v``), ``G`` ghosts and ``S`` scared ghosts.

    >>> from pacman import GameState
    >>> print(render_text(GameState.initial("trappedClassic")))
    %%%%%%%%
    %   < G%
    %G%%%%%%
    %....  %
    %%%%%%%%
    score: 0  food: 4  playing
    """
    w, h = state.width, state.height
    grid = [["%" if (x, y) in state.walls else " " for x in range(w)] for y in range(h)]
    for x, y in state.iter_food():
        grid[y][x] = "."
    for x, y in state.capsules:
        grid[y][x] = "o"
    for ghost in range(1, state.num_agents):
        gx, gy = state.agent_position(ghost)
        grid[int(gy + 0.5)][int(gx + 0.5)] = "S" if state.is_scared(ghost) else "G"
    px, py = state.pacman_position
    grid[int(py)][int(px)] = _PACMAN_CHARS[state.agent_direction(0)]
    status = "win" if state.is_win() else "lose" if state.is_lose() else "playing"
    lines = ["".join(row) for row in reversed(grid)]
    lines.append(f"score: {state.score}  food: {state.num_food}  {status}")
    return "\n".join(lines)


class NullDisplay:
    """Shows nothing (``-q``); a `Display`."""

    def attach(self, agents: Iterable[Any]) -> None:
        """Ignore the agents."""

    def start(self, state: GameState) -> None:
        """Begin a game."""

    def update(self, before: GameState, agent: int, action: Direction, after: GameState) -> None:
        """Show one move."""

    def should_stop(self) -> bool:
        """Whether the user asked to stop (never, here)."""
        return False

    def finish(self, state: GameState, record: GameRecord) -> None:
        """End a game."""

    def close(self) -> None:
        """Release resources."""


class TextDisplay(NullDisplay):
    """Prints the board after every full turn (``-t``), pausing ``frame_time`` seconds.

    On a terminal the board is redrawn in place (ANSI cursor home and clear); into a
    pipe or a file each board is printed below the last, so logs stay readable.

    Args:
        frame_time: Seconds to wait after each printed board.
        stream: Where to print (standard output by default).
        in_place: Redraw in place; by default, when ``stream`` is a terminal.
        header: A line kept above the board when redrawing in place (a note that the
            screen clearing would otherwise wipe, such as why no window opened).
    """

    def __init__(
        self,
        frame_time: float = 0.0,
        stream: TextIO | None = None,
        *,
        in_place: bool | None = None,
        header: str | None = None,
    ) -> None:
        self.frame_time = frame_time
        self.stream = stream if stream is not None else sys.stdout
        self.in_place = _is_terminal(self.stream) if in_place is None else in_place
        self.header = header

    def start(self, state: GameState) -> None:
        """Print the start position (on a terminal: on a cleared screen)."""
        if self.in_place:
            self.stream.write(CLEAR_SCREEN)
            if self.header:
                print(self.header, file=self.stream)
        print(render_text(state), file=self.stream, flush=True)

    def update(self, before: GameState, agent: int, action: Direction, after: GameState) -> None:
        """Print the board once every agent has moved, or when the game ends."""
        if agent == after.num_agents - 1 or after.is_terminal():
            if self.in_place:
                self.stream.write(CURSOR_HOME)
                if self.header:
                    print(self.header, file=self.stream)
                print(render_text(after), end=CLEAR_BELOW + "\n", file=self.stream, flush=True)
            else:
                print(file=self.stream)
                print(render_text(after), file=self.stream, flush=True)
            if self.frame_time > 0:
                time.sleep(self.frame_time)


CURSOR_HOME: Final = "\x1b[H"
"""ANSI: move the cursor to the top left corner."""
CLEAR_SCREEN: Final = "\x1b[H\x1b[2J"
"""ANSI: clear the terminal."""
CLEAR_BELOW: Final = "\x1b[J"
"""ANSI: clear from the cursor to the end of the screen."""


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
