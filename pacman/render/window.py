"""The pygame window: watch games, play with the keyboard, replay records.

`PygameWindow` serves two callers. The ``pacman`` command uses it as its display
(``start``/``update``/``should_stop``/``finish``/``close``), animating every move
smoothly over ``frame_time`` seconds and reading the keys:

==============  ===============================================
space           pause / resume
n, right arrow  while paused: play one move
``+`` / ``-``   faster / slower (the new speed shows for a moment)
``?``, h        show / hide this list of keys in the window
q, Esc          stop the game (the summary is still printed)
arrows, WASD    steer Pacman when playing with ``-p KeyboardAgent``
==============  ===============================================

The first game starts with a one-line hint, ``? for keys``.

The Gymnasium environment's ``human`` render mode uses `PygameWindow.show`, which
draws one state, handles events and paces to ``fps`` without blocking otherwise.
Every frame comes from `FrameRenderer`, the same code that makes ``rgb_array``
frames and exported videos. pygame is imported only when a window is created.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from pacman.core.errors import RenderingUnavailableError
from pacman.core.game import GameRecord
from pacman.core.layout import Layout
from pacman.core.state import GameState
from pacman.core.types import Direction
from pacman.render.frame import FrameRenderer, import_pygame

if TYPE_CHECKING:
    import pygame

__all__ = [
    "BASE_CELL_SIZE",
    "INVISIBLE_DRIVERS",
    "PygameWindow",
    "display_problem",
    "open_window",
    "require_visible_display",
]

BASE_CELL_SIZE: Final = 30
"""Pixels per cell at zoom 1 (the classic size), shrunk if the board would not fit."""

_ANIMATION_FPS: Final = 60
_MIN_FRAME_TIME: Final = 0.005
_MAX_FRAME_TIME: Final = 2.0
_SCREEN_SHARE: Final = 0.9
"""At most this share of the desktop's width and height is used by the window."""
_MESSAGE_SECONDS: Final = 1.5
"""How long a short message (the new speed) stays on screen."""
_HINT_SECONDS: Final = 4.0
"""How long the key hint shows at the start."""

HELP_LINES: Final[tuple[str, ...]] = (
    "space  pause / resume",
    "n  one move (paused)",
    "+ / -  faster / slower",
    "? or h  hide keys",
    "q or Esc  stop",
    "arrows, WASD  steer",
)
"""The key help shown by ``?`` or ``h``."""


def display_problem(
    environ: dict[str, str] | None = None, platform: str | None = None
) -> str | None:
    """Why no window can open here, or ``None`` when a display seems available.

    On Linux and the BSDs a window needs an X11 or Wayland display; over SSH and in CI
    there is none. Setting ``SDL_VIDEODRIVER`` (``dummy`` in tests) skips the check.

    >>> display_problem({}, "linux")
    'DISPLAY is not set'
    >>> display_problem({"DISPLAY": ":0"}, "linux") is None
    True
    >>> display_problem({}, "darwin") is None
    True
    """
    env = os.environ if environ is None else environ
    plat = sys.platform if platform is None else platform
    if env.get("SDL_VIDEODRIVER"):
        return None
    unix = plat.startswith(("linux", "freebsd", "openbsd", "netbsd"))
    if unix and not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        return "DISPLAY is not set"
    return None


INVISIBLE_DRIVERS: frozenset[str] = frozenset({"dummy", "offscreen"})
"""SDL video drivers that draw nowhere; the ``pacman`` command shows text with them."""

_KEY_DIRECTIONS: Final[dict[str, Direction]] = {
    "up": Direction.NORTH,
    "w": Direction.NORTH,
    "down": Direction.SOUTH,
    "s": Direction.SOUTH,
    "left": Direction.WEST,
    "a": Direction.WEST,
    "right": Direction.EAST,
    "d": Direction.EAST,
}


class PygameWindow:
    """A window showing games of one layout at a time.

    Args:
        layout: The board to size the window for; ``None`` sizes it on the first state.
        zoom: Scale factor over the classic 30-pixel cells (the window still shrinks
            to fit the screen).
        fps: Frame-rate cap of `show` (0 for no cap).
        frame_time: Seconds each move takes on screen in `update` (0: as fast as
            possible).
        overlay: Shade the cells the Pacman agent's search touched on its last move,
            and show how many states it generated.
        title: Window caption.

    Raises:
        RenderingUnavailableError: If pygame-ce is missing or no display is available.
    """

    def __init__(
        self,
        layout: Layout | None = None,
        *,
        zoom: float = 1.0,
        fps: float = 30.0,
        frame_time: float = 0.1,
        overlay: bool = False,
        title: str = "Pacman",
    ) -> None:
        if not zoom > 0:
            raise ValueError(f"zoom must be > 0, got {zoom!r}")
        self._pg = require_visible_display()
        self.zoom = zoom
        self.fps = fps
        self.frame_time = max(0.0, frame_time)
        self._base_frame_time = self.frame_time
        self.overlay = overlay
        self.title = title
        self._layout: Layout | None = None
        self._renderer: FrameRenderer | None = None
        self._screen: pygame.Surface | None = None
        self._clock = self._pg.time.Clock()
        self._stop = False
        self._paused = False
        self._step = False
        self._turn = 0
        self._state: GameState | None = None
        self._cells: set[tuple[int, int]] = set()
        self._shown_cells: frozenset[tuple[int, int]] = frozenset()
        self._generated: int | None = None
        self._searcher: Any = None
        self._keyboard: list[Any] = []
        self._closed = False
        self._help = False
        self._message = ""
        self._message_until = 0.0
        self._hinted = False
        if layout is not None:
            self._open(layout)

    # -------------------------------------------------------------- window

    def _open(self, layout: Layout) -> FrameRenderer:
        """Create (or resize) the window for ``layout`` and return its renderer."""
        if self._renderer is not None and self._layout == layout:
            return self._renderer
        pg = self._pg
        cell = max(4, round(BASE_CELL_SIZE * self.zoom))
        sizes = pg.display.get_desktop_sizes()
        if sizes:
            max_w, max_h = (int(v * _SCREEN_SHARE) for v in sizes[0])
            while cell > 4:
                w, h = FrameRenderer(layout, cell_size=cell).size
                if w <= max_w and h <= max_h:
                    break
                cell -= 1
        renderer = FrameRenderer(layout, cell_size=cell)
        try:
            self._screen = pg.display.set_mode(renderer.size)
        except pg.error as exc:
            raise RenderingUnavailableError(f"cannot open a window: {exc}") from None
        pg.display.set_caption(f"{self.title} - {layout.name}")
        self._layout, self._renderer = layout, renderer
        return renderer

    @property
    def renderer(self) -> FrameRenderer | None:
        """The renderer of the current layout (``None`` before the first state)."""
        return self._renderer

    @property
    def is_closed(self) -> bool:
        """Whether the user closed the window (or `close` was called)."""
        return self._closed

    def _present(
        self,
        state: GameState,
        previous: GameState | None,
        progress: float,
        dying: float | None = None,
    ) -> None:
        renderer = self._open(state.layout)
        assert self._screen is not None
        renderer.draw(
            self._screen,
            state,
            previous=previous,
            progress=progress,
            overlay=self._shown_cells if self.overlay else None,
            generated=self._generated if self.overlay else None,
            turn=self._turn,
            dying=dying,
        )
        lines = self.messages()
        if lines:
            self._draw_box(lines)
        self._pg.display.flip()

    def messages(self) -> list[str]:
        """The lines shown over the board now: the key help, PAUSED, a short message."""
        if self._help:
            return list(HELP_LINES)
        lines = ["PAUSED"] if self._paused else []
        if self._message and time.perf_counter() < self._message_until:
            lines.append(self._message)
        return lines

    def _say(self, message: str, seconds: float = _MESSAGE_SECONDS) -> None:
        self._message = message
        self._message_until = time.perf_counter() + seconds

    def _draw_box(self, lines: list[str]) -> None:
        """``lines`` centred in a dark box over the top of the board, fit to its width."""
        assert self._renderer is not None
        assert self._screen is not None
        pg = self._pg
        renderer = self._renderer
        w = renderer.size[0]
        labels = [renderer.fitted_label(line, (255, 255, 255), w - 8) for line in lines]
        height = sum(label.get_height() for label in labels) + 8
        if height > renderer.board_height:  # a low board: shrink the lines to fit it
            factor = max(0.1, (renderer.board_height - 8) / (height - 8))
            labels = [
                renderer.fitted_label(line, (255, 255, 255), int(label.get_width() * factor))
                for line, label in zip(lines, labels, strict=True)
            ]
            height = sum(label.get_height() for label in labels) + 8
        box_w = min(w, max(label.get_width() for label in labels) + 8)
        box = pg.Surface((box_w, height), pg.SRCALPHA)
        box.fill((0, 0, 0, 200))
        left = (w - box_w) // 2
        top = min(renderer.cell_size, max(0, renderer.board_height - height))
        self._screen.blit(box, (left, top))
        y = top + 4
        for label in labels:
            self._screen.blit(label, ((w - label.get_width()) // 2, y))
            y += label.get_height()

    def screenshot(self) -> pygame.Surface:
        """A copy of what the window shows now.

        Raises:
            RenderingUnavailableError: If nothing was drawn yet.
        """
        if self._screen is None:
            raise RenderingUnavailableError("the window has not drawn anything yet")
        return self._screen.copy()

    # -------------------------------------------------------------- events

    def poll(self) -> None:
        """Handle pending window events (keys, close button); never blocks."""
        if self._closed:
            return
        pg = self._pg
        for event in pg.event.get():
            if event.type == pg.QUIT:
                self._stop = True
            elif event.type == pg.KEYDOWN:
                self._key(pg.key.name(event.key), event.key)

    def _key(self, name: str, key: int) -> None:
        pg = self._pg
        if key in (pg.K_q, pg.K_ESCAPE):
            self._stop = True
        elif key == pg.K_SPACE:
            self._paused = not self._paused
        elif key == pg.K_n or (key == pg.K_RIGHT and self._paused):
            if self._paused:
                self._step = True
        elif key in (pg.K_PLUS, pg.K_EQUALS, pg.K_KP_PLUS):
            self.frame_time = max(_MIN_FRAME_TIME, self.frame_time / 1.5) if self.frame_time else 0
            self._say(self.speed_text())
        elif key in (pg.K_MINUS, pg.K_KP_MINUS):
            self.frame_time = min(_MAX_FRAME_TIME, max(_MIN_FRAME_TIME * 4, self.frame_time * 1.5))
            self._say(self.speed_text())
        elif key in (pg.K_h, pg.K_QUESTION, pg.K_SLASH):
            self._help = not self._help
        elif name in _KEY_DIRECTIONS:
            for agent in self._keyboard:
                agent.press(_KEY_DIRECTIONS[name])

    def speed_text(self) -> str:
        """The speed against the starting one, as shown after ``+`` or ``-``: ``"speed x2"``.

        >>> window = PygameWindow.__new__(PygameWindow)
        >>> window._base_frame_time, window.frame_time = 0.1, 0.05
        >>> window.speed_text()
        'speed x2'
        """
        if self.frame_time <= 0:
            return "speed: fastest"
        base = self._base_frame_time or _MIN_FRAME_TIME
        shown = f"{base / self.frame_time:.2f}".rstrip("0").rstrip(".")
        limit = " (fastest)" if self.frame_time <= _MIN_FRAME_TIME else ""
        limit = " (slowest)" if self.frame_time >= _MAX_FRAME_TIME else limit
        return f"speed x{shown}{limit}"

    @property
    def help_shown(self) -> bool:
        """Whether the key help is on screen (``?`` or ``h`` toggles)."""
        return self._help

    @property
    def paused(self) -> bool:
        """Whether the game is paused (space toggles)."""
        return self._paused

    # ------------------------------------------------- display protocol (CLI)

    def attach(self, agents: Iterable[Any]) -> None:
        """Connect the game's agents: keyboard agents get keys, searchers the overlay."""
        self._keyboard = []
        self._searcher = None
        for index, agent in enumerate(agents):
            if callable(getattr(agent, "bind", None)) and hasattr(agent, "press"):
                agent.bind(self)
                self._keyboard.append(agent)
            if index == 0 and self.overlay and hasattr(agent, "observe"):
                agent.observe = self._observe
                self._searcher = agent

    def _observe(self, state: Any) -> None:
        position = getattr(state, "pacman_position", None)
        if position is not None:
            self._cells.add((int(position[0]), int(position[1])))

    def start(self, state: GameState) -> None:
        """Show the start of a game."""
        self._turn = 0
        self._state = state
        self._cells.clear()
        self._shown_cells = frozenset()
        self._generated = None
        if not self._hinted:
            self._hinted = True
            self._say("? for keys", _HINT_SECONDS)
        self.poll()
        self._present(state, None, 1.0)

    def update(self, before: GameState, agent: int, action: Direction, after: GameState) -> None:
        """Animate one move over ``frame_time`` seconds."""
        if agent == 0:
            self._turn += 1
            if self.overlay:
                self._shown_cells = frozenset(self._cells)
                self._cells.clear()
                result = getattr(self._searcher, "last_result", None)
                self._generated = getattr(result, "generated", None)
        self._state = after
        if self._closed:
            return
        start = time.perf_counter()
        while self.frame_time > 0 and not self._stop:
            progress = (time.perf_counter() - start) / self.frame_time
            if progress >= 1.0:
                break
            self._present(after, before, progress)
            self._clock.tick(_ANIMATION_FPS)
            self.poll()
        self._present(after, None, 1.0)
        self.poll()

    def should_stop(self) -> bool:
        """Whether to end the game now; blocks here while the game is paused."""
        self.poll()
        while self._paused and not self._stop and not self._step and not self._closed:
            if self._state is not None:
                self._present(self._state, None, 1.0)
            self._clock.tick(30)
            self.poll()
        self._step = False
        return self._stop or self._closed

    def finish(self, state: GameState, record: GameRecord) -> None:
        """Show the final position for a moment (any key or closing skips the wait)."""
        final = self._state if self._state is not None else state
        if self._closed:
            return
        if final.is_lose():
            self._die(final)
        self._present(final, None, 1.0, dying=1.0 if final.is_lose() else None)
        linger = min(2.0, 10 * self.frame_time)
        end = time.perf_counter() + linger
        pg = self._pg
        while time.perf_counter() < end and not self._stop:
            events = pg.event.get()
            if any(e.type in (pg.QUIT, pg.KEYDOWN) for e in events):
                self._stop = any(e.type == pg.QUIT for e in events) or self._stop
                break
            self._clock.tick(30)

    def _die(self, final: GameState) -> None:
        """Pacman's death: the mouth opens until Pacman is gone (8 move times, at most 1 s)."""
        duration = min(1.0, 8 * self.frame_time)
        start = time.perf_counter()
        while not self._stop and not self._closed:
            dying = (time.perf_counter() - start) / duration if duration > 0 else 1.0
            self._present(final, None, 1.0, dying=min(1.0, dying))
            if dying >= 1.0:
                break
            self._clock.tick(_ANIMATION_FPS)
            self.poll()

    def close(self) -> None:
        """Close the window (safe to call twice)."""
        if self._closed:
            return
        self._closed = True
        self._screen = None
        self._renderer = None
        self._pg.display.quit()

    # --------------------------------------------------- environment (human)

    def show(self, state: GameState) -> None:
        """Draw ``state``, handle events and wait to keep to ``fps``."""
        if self._closed:
            return
        self._state = state
        self.poll()
        self._present(state, None, 1.0)
        if self.fps > 0:
            self._clock.tick(self.fps)

    def __deepcopy__(self, memo: dict[int, Any]) -> PygameWindow:
        raise TypeError("a window cannot be copied")


def require_visible_display() -> Any:
    """Initialise pygame's display and return the pygame module, if a window can show.

    Without a usable display SDL quietly falls back to its ``offscreen`` driver (for
    instance when ``DISPLAY`` names a server that does not answer), and a window would
    play unseen: that counts as no display here, unless ``SDL_VIDEODRIVER`` asked for
    that driver on purpose (tests do).

    Raises:
        RenderingUnavailableError: If no window can be shown.
    """
    problem = display_problem()
    if problem is not None:
        raise RenderingUnavailableError(problem)
    pg = import_pygame()
    try:
        pg.display.init()
    except pg.error as exc:
        raise RenderingUnavailableError(f"cannot open a window: {exc}") from None
    driver = pg.display.get_driver()
    if driver in INVISIBLE_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
        pg.display.quit()
        shown = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or "none"
        raise RenderingUnavailableError(
            f"no usable display (display {shown!r} did not answer; SDL fell back to {driver})"
        )
    return pg


def open_window(
    *, zoom: float = 1.0, frame_time: float = 0.1, overlay: bool = False
) -> PygameWindow:
    """The window display of the ``pacman`` command.

    SDL's ``dummy`` and ``offscreen`` video drivers show nothing, so with those the
    command is better off with the text display: this raises, and the caller falls
    back (`PygameWindow` itself works with them, for tests and environments).

    Args:
        zoom: Scale factor over the classic 30-pixel cells.
        frame_time: Seconds each move takes on screen.
        overlay: Shade the cells the Pacman agent's search touched.

    Raises:
        RenderingUnavailableError: If no visible window can open here.
    """
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver.lower() in INVISIBLE_DRIVERS:
        raise RenderingUnavailableError(f"SDL_VIDEODRIVER={driver} shows no window")
    return PygameWindow(zoom=zoom, frame_time=frame_time, overlay=overlay)
