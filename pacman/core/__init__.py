"""The pure rules of the game: no pygame, no gymnasium, no numpy."""

from __future__ import annotations

from pacman.core.errors import (
    AgentError,
    IllegalActionError,
    LayoutError,
    PacmanError,
    RecordError,
    RenderingUnavailableError,
    TerminalStateError,
)
from pacman.core.layout import Layout, layout_names, load_layout
from pacman.core.state import GameState
from pacman.core.types import ACTION_ORDER, PACMAN, Action, Direction, Position

__all__ = [
    "ACTION_ORDER",
    "PACMAN",
    "Action",
    "AgentError",
    "Direction",
    "GameState",
    "IllegalActionError",
    "Layout",
    "LayoutError",
    "PacmanError",
    "Position",
    "RecordError",
    "RenderingUnavailableError",
    "TerminalStateError",
    "layout_names",
    "load_layout",
]
