"""Pieces the Gymnasium and PettingZoo envs share: argument checks and rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np
from gymnasium import logger as gym_logger
from gymnasium import spaces

from pacman.core.errors import RenderingUnavailableError
from pacman.core.layout import Layout
from pacman.core.state import GameState
from pacman.render.frame import FrameRenderer
from pacman.render.text import render_text
from pacman.render.window import PygameWindow

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["OBS_CELL_SIZE", "Renderer", "check_max_steps", "check_num_ghosts"]

OBS_CELL_SIZE: Final = 8
"""Pixels per board cell of the ``"rgb"`` observation (frames without the info bar)."""


def check_num_ghosts(num_ghosts: int | None, layout: Layout) -> int:
    """The number of ghosts that play: all the layout has when ``None``.

    Raises:
        ValueError: If ``num_ghosts`` is not an int between 0 and the layout's count.
    """
    if num_ghosts is None:
        return layout.num_ghosts
    if isinstance(num_ghosts, bool) or not isinstance(num_ghosts, int | np.integer):
        raise ValueError(f"num_ghosts must be an int or None, got {num_ghosts!r}")
    if not 0 <= num_ghosts <= layout.num_ghosts:
        raise ValueError(
            f"num_ghosts must be between 0 and {layout.num_ghosts} "
            f"(the ghosts of layout {layout.name!r}), got {num_ghosts!r}"
        )
    return int(num_ghosts)


def check_max_steps(max_steps: int | None) -> int | None:
    """Validate ``max_steps`` (a positive int, or ``None`` for no limit).

    Raises:
        ValueError: If it is not.
    """
    if max_steps is None:
        return None
    if isinstance(max_steps, bool) or not isinstance(max_steps, int | np.integer) or max_steps < 1:
        raise ValueError(f"max_steps must be an int >= 1 or None, got {max_steps!r}")
    return int(max_steps)


class Renderer:
    """The render modes of the envs, with pygame imported only when a frame is needed.

    ``ansi`` uses `pacman.render.text.render_text`; ``rgb_array`` and the ``"rgb"``
    observation use `pacman.render.frame.FrameRenderer`; ``human`` uses
    `pacman.render.window.PygameWindow`; without a display (or without pygame) ``human``
    warns once and then draws nothing, so headless checkers and training runs go on. The
    window is never copied with the env.

    Args:
        layout: The layout every state will be on.
        fps: Frame rate of the human window.
    """

    def __init__(self, layout: Layout, *, fps: int) -> None:
        self.layout = layout
        self.fps = fps
        self._frame: Any = None
        self._obs_frame: Any = None
        self._window: Any = None
        self._headless = False  # True once a window could not be opened (warned once)

    def render(self, state: GameState, mode: str) -> str | NDArray[np.uint8] | None:
        """Render ``state`` in ``mode`` (``"ansi"``, ``"rgb_array"`` or ``"human"``)."""
        if mode == "ansi":
            return render_text(state) + "\n"
        if mode == "rgb_array":
            if self._frame is None:
                self._frame = _frame_class()(self.layout)
            return self._frame.rgb_array(state)  # type: ignore[no-any-return]
        if self._window is None:
            if self._headless:
                return None
            try:
                self._window = _window_class()(self.layout, fps=self.fps)
            except RenderingUnavailableError as exc:
                # As Gymnasium's own envs do without a display: say it once, then play on
                # without a window (``human`` returns None either way).
                self._headless = True
                _warn_headless_once(exc)
                return None
        self._window.show(state)
        return None

    def rgb_array(self, state: GameState) -> NDArray[np.uint8]:
        """The ``"rgb"`` observation of ``state``: a small frame without the info bar."""
        return self._observation_frame().rgb_array(state)  # type: ignore[no-any-return]

    def observation_space(self) -> spaces.Box:
        """The ``Box`` of the ``"rgb"`` observation."""
        width, height = self._observation_frame().size
        return spaces.Box(low=0, high=255, shape=(height, width, 3), dtype=np.uint8)

    def _observation_frame(self) -> Any:
        if self._obs_frame is None:
            self._obs_frame = _frame_class()(self.layout, cell_size=OBS_CELL_SIZE, info_bar=False)
        return self._obs_frame

    def close(self) -> None:
        """Close the window if one was opened."""
        if self._window is not None:
            self._window.close()
            self._window = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Renderer:
        copied = Renderer(self.layout, fps=self.fps)
        memo[id(self)] = copied  # the env and its observation strategy share one renderer
        return copied

    def __getstate__(self) -> dict[str, Any]:
        return {"layout": self.layout, "fps": self.fps}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(data["layout"], fps=data["fps"])  # type: ignore[misc]


_headless_warned = False


def _warn_headless_once(problem: Exception) -> None:
    """One warning per process that ``human`` draws nothing (copies and vector envs too)."""
    global _headless_warned
    if not _headless_warned:
        _headless_warned = True
        gym_logger.warn(f"render_mode='human' shows no window: {problem}; rendering is off")


def _frame_class() -> Any:
    # pygame itself is imported when a frame is made (RenderingUnavailableError without it).
    return FrameRenderer


def _window_class() -> Any:
    return PygameWindow
