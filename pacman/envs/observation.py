"""The observation strategies: ``obs_type`` is turned into one of them once, in ``__init__``.

Each strategy knows its space, how to follow the game (`Observation.update`) and how to
build an observation (`Observation.observe`); the envs never look at ``obs_type`` again.

- `GridObservation` (``"grid"``): the channels of the `GridEncoder`, plus the PettingZoo
  "self" plane when the encoder has the extra channel.
- `SymbolicObservation` (``"symbolic"``): positions, directions, timers, planes, score.
- `RgbObservation` (``"rgb"``): a small rendered frame; it needs no grid.
"""

from __future__ import annotations

from typing import Any, Protocol

from gymnasium import spaces

from pacman.core.state import GameState
from pacman.core.types import Position
from pacman.envs._common import Renderer
from pacman.envs.encoding import (
    GridEncoder,
    check_obs_type,
    grid_space,
    symbolic_observation,
    symbolic_space,
)

__all__ = [
    "GridObservation",
    "Observation",
    "RgbObservation",
    "SymbolicObservation",
    "make_observation",
]


class Observation(Protocol):
    """How an env turns its game into observations (one object per env)."""

    space: spaces.Space[Any]
    """The observation space (before any PettingZoo action-mask dict around it)."""

    def update(self, state: GameState) -> None:
        """Follow the game to ``state``, a later state of the same game."""
        ...

    def observe(self, state: GameState, mark: Position | None = None) -> Any:
        """The observation of ``state``, the state last passed to `update` or reset.

        ``mark`` is the observing agent's position (the PettingZoo "self" plane); the
        strategies without such a plane ignore it.
        """
        ...


class GridObservation:
    """``obs_type="grid"``: a copy of the encoder's grid (see `GridEncoder`)."""

    __slots__ = ("_encoder", "space", "update")

    def __init__(self, encoder: GridEncoder, extra_channels: int) -> None:
        self._encoder = encoder
        self.space: spaces.Space[Any] = grid_space(
            encoder.layout, encoder.num_ghosts, extra_channels=extra_channels
        )
        self.update = encoder.update

    def observe(self, state: GameState, mark: Position | None = None) -> Any:
        """A copy of the grid, with ``mark`` set in the "self" plane if there is one."""
        if mark is None:
            return self._encoder.grid.copy()  # the Gymnasium env's hot path: one call less
        return self._encoder.observation(mark)

    def __getstate__(self) -> dict[str, Any]:
        return {"encoder": self._encoder, "space": self.space}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self._encoder = data["encoder"]
        self.space = data["space"]
        self.update = self._encoder.update


class SymbolicObservation:
    """``obs_type="symbolic"``: see `symbolic_observation` (its planes come from the grid)."""

    __slots__ = ("_encoder", "space", "update")

    def __init__(self, encoder: GridEncoder) -> None:
        self._encoder = encoder
        self.space: spaces.Space[Any] = symbolic_space(encoder.layout, encoder.num_ghosts)
        self.update = encoder.update

    def observe(self, state: GameState, mark: Position | None = None) -> Any:
        """The symbolic dict of ``state`` (``mark`` is not used)."""
        return symbolic_observation(state, self._encoder.grid)

    def __getstate__(self) -> dict[str, Any]:
        return {"encoder": self._encoder, "space": self.space}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self._encoder = data["encoder"]
        self.space = data["space"]
        self.update = self._encoder.update


class RgbObservation:
    """``obs_type="rgb"``: the board drawn at 8 pixels per cell, without the score bar."""

    __slots__ = ("_renderer", "space")

    def __init__(self, renderer: Renderer) -> None:
        self._renderer = renderer
        self.space: spaces.Space[Any] = renderer.observation_space()

    def update(self, state: GameState) -> None:
        """Nothing to follow: each frame is drawn from the state itself."""

    def observe(self, state: GameState, mark: Position | None = None) -> Any:
        """The frame of ``state`` (``mark`` is not used)."""
        return self._renderer.rgb_array(state)

    def __getstate__(self) -> dict[str, Any]:
        return {"renderer": self._renderer, "space": self.space}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self._renderer = data["renderer"]
        self.space = data["space"]


def make_observation(
    obs_type: str, encoder: GridEncoder, renderer: Renderer, *, extra_channels: int = 0
) -> Observation:
    """The strategy for ``obs_type`` (``"grid"``, ``"symbolic"`` or ``"rgb"``).

    Args:
        obs_type: The env's ``obs_type`` argument.
        encoder: The env's grid encoder (grid and symbolic observations read it).
        renderer: The env's renderer (rgb observations draw with it).
        extra_channels: Channels after the standard six in the grid space (1 for the
            PettingZoo "self" plane).

    Raises:
        ValueError: If ``obs_type`` is unknown.
    """
    obs_type = check_obs_type(obs_type)
    if obs_type == "grid":
        return GridObservation(encoder, extra_channels)
    if obs_type == "symbolic":
        return SymbolicObservation(encoder)
    return RgbObservation(renderer)
