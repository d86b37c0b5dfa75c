"""The one drawing path: a game state painted on a pygame-ce Surface.

`FrameRenderer` draws the classic look (black background, blue maze outline, white
dots, yellow Pacman, coloured ghosts with eyes, blue scared ghosts) onto any Surface.
The window blits its frames, `rgb_array` reads the pixels for the environments, and
video export encodes them. Nothing here needs a display: every Surface is off-screen.

The maze never changes during a game, so it is drawn once into a cached Surface and
each frame starts by blitting it; a mediumClassic frame then costs a few milliseconds
(see ``python -m benchmarks.export``).

pygame is imported when a renderer is created, not when this module is imported, so
code that only names the class (an environment without a render mode) stays light.
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, Final

from pacman.core.errors import RenderingUnavailableError
from pacman.core.layout import Layout
from pacman.core.state import GameState
from pacman.core.types import Direction

if TYPE_CHECKING:
    import numpy
    import pygame

__all__ = [
    "BACKGROUND",
    "CAPSULE_COLOR",
    "DEFAULT_CELL_SIZE",
    "FOOD_COLOR",
    "GHOST_COLORS",
    "MAX_FRAME_SIDE",
    "PACMAN_COLOR",
    "SCARED_COLOR",
    "SCARED_FLASH_COLOR",
    "WALL_COLOR",
    "FrameRenderer",
    "import_pygame",
]

Color = tuple[int, int, int]

DEFAULT_CELL_SIZE: Final = 24
"""Pixels per board cell when no size is given (mediumClassic: 480 x 292 pixels)."""

MAX_FRAME_SIDE: Final = 4096
"""The widest and tallest frame drawn; far larger sizes crash pygame (issue 13)."""

BACKGROUND: Final[Color] = (0, 0, 0)
WALL_COLOR: Final[Color] = (0, 51, 255)
FOOD_COLOR: Final[Color] = (255, 255, 255)
CAPSULE_COLOR: Final[Color] = (255, 255, 255)
PACMAN_COLOR: Final[Color] = (255, 255, 61)
GHOST_COLORS: Final[tuple[Color, ...]] = (
    (229, 0, 0),
    (255, 140, 210),
    (0, 220, 230),
    (250, 150, 20),
    (40, 200, 90),
    (150, 60, 230),
)
"""Ghost colours by ghost number (ghost 1 is red), repeating for more ghosts."""
SCARED_COLOR: Final[Color] = (36, 36, 230)
SCARED_FLASH_COLOR: Final[Color] = (235, 235, 255)
EYE_WHITE: Final[Color] = (255, 255, 255)
PUPIL_COLOR: Final[Color] = (20, 20, 110)
SCARED_FACE_COLOR: Final[Color] = (255, 200, 170)
TEXT_COLOR: Final[Color] = PACMAN_COLOR
INFO_COLOR: Final[Color] = (200, 200, 200)
OVERLAY_COLOR: Final[tuple[int, int, int, int]] = (0, 200, 120, 90)
"""Shade of the cells a search touched (RGBA; alpha-blended over the maze)."""

FLASH_BELOW: Final = 12
"""A scared ghost flashes once its timer drops below this many moves."""

_FACING_DEGREES: Final[dict[Direction, float]] = {
    Direction.EAST: 0.0,
    Direction.NORTH: 90.0,
    Direction.WEST: 180.0,
    Direction.SOUTH: 270.0,
    Direction.STOP: 0.0,
}


def import_pygame() -> Any:
    """Import pygame-ce quietly (no banner) and return the module.

    Raises:
        RenderingUnavailableError: If pygame-ce is not installed.
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError as exc:
        raise RenderingUnavailableError(
            f"pygame-ce is not installed ({exc}); install it with: pip install pygame-ce"
        ) from None
    return pygame


class FrameRenderer:
    """Paints game states of one layout onto pygame Surfaces.

    Args:
        layout: The board every state drawn will be on.
        cell_size: Pixels per board cell (at least 4).
        info_bar: Whether to draw the score bar under the board.

    Raises:
        ValueError: If ``cell_size`` is smaller than 4.
        RenderingUnavailableError: If pygame-ce is not installed.
    """

    def __init__(
        self, layout: Layout, *, cell_size: int = DEFAULT_CELL_SIZE, info_bar: bool = True
    ) -> None:
        if isinstance(cell_size, bool) or not isinstance(cell_size, int) or cell_size < 4:
            raise ValueError(f"cell_size must be an int >= 4, got {cell_size!r}")
        self._pg = import_pygame()
        self.layout = layout
        self.cell_size = cell_size
        self.info_bar = info_bar
        self.board_height = layout.height * cell_size
        self._row_height = max(14, round(cell_size * 1.1))
        w, h = layout.width * cell_size, self.board_height + 2 * self._row_height
        if max(w, h) > MAX_FRAME_SIDE:  # checked before any pygame call: huge sizes crash it
            raise ValueError(
                f"a {w}x{h}-pixel frame of {layout.name} is too large (at most "
                f"{MAX_FRAME_SIDE} pixels a side): use a smaller zoom or cell size"
            )
        self._pad = max(3, cell_size // 4)
        self._font: Any = None
        self._text_cache: dict[tuple[str, Color], pygame.Surface] = {}
        self.bar_rows = 0
        """Lines of the info bar: 2 when the widest texts do not fit beside each other."""
        if info_bar:
            self.bar_rows = 1 if self._fits_one_row(layout.width * cell_size) else 2
        self.bar_height = self._row_height * self.bar_rows
        self._size = (layout.width * cell_size, self.board_height + self.bar_height)
        self._maze: pygame.Surface | None = None
        self._dot: pygame.Surface | None = None
        self._capsule: pygame.Surface | None = None
        self._shade: pygame.Surface | None = None
        self._scratch: pygame.Surface | None = None

    @property
    def size(self) -> tuple[int, int]:
        """The frame's ``(width, height)`` in pixels (board plus info bar)."""
        return self._size

    # ------------------------------------------------------------- geometry

    def _center(self, x: float, y: float) -> tuple[float, float]:
        """Pixel centre of board position ``(x, y)`` (``y`` counts rows from the bottom)."""
        c = self.cell_size
        return (x * c + c / 2, (self.layout.height - 1 - y) * c + c / 2)

    # -------------------------------------------------------- static layers

    def _maze_layer(self) -> pygame.Surface:
        """The background and maze outline, drawn once and cached."""
        if self._maze is None:
            pg = self._pg
            surf = pg.Surface(self._size)
            surf.fill(BACKGROUND)
            line = max(1, round(self.cell_size / 12))
            radius = max(line + 1, round(self.cell_size * 0.18))
            self._wall_shape(surf, WALL_COLOR, radius)
            self._wall_shape(surf, BACKGROUND, radius - line)
            self._maze = surf
        return self._maze

    def _wall_shape(self, surf: pygame.Surface, color: Color, r: int) -> None:
        """Fill the union of tubes of half-width ``r`` joining neighbouring wall cells.

        Drawing this shape in the wall colour and then a thinner one in the background
        colour leaves the classic outline: single walls become a tube with two lines,
        blocks of wall become one outlined blob, and free ends are rounded.
        """
        pg = self._pg
        walls = self.layout.walls
        c = self.cell_size
        for x, y in walls:
            cx, cy = (round(v) for v in self._center(x, y))
            east, west = (x + 1, y) in walls, (x - 1, y) in walls
            north, south = (x, y + 1) in walls, (x, y - 1) in walls
            rad = max(0, r)
            pg.draw.rect(
                surf,
                color,
                pg.Rect(cx - r, cy - r, 2 * r + 1, 2 * r + 1),
                border_top_left_radius=rad if not (north or west) else 0,
                border_top_right_radius=rad if not (north or east) else 0,
                border_bottom_left_radius=rad if not (south or west) else 0,
                border_bottom_right_radius=rad if not (south or east) else 0,
            )
            if east:
                pg.draw.rect(surf, color, pg.Rect(cx, cy - r, c + 1, 2 * r + 1))
            if north:
                pg.draw.rect(surf, color, pg.Rect(cx - r, cy - c, 2 * r + 1, c + 1))
            if east and north and (x + 1, y + 1) in walls:
                pg.draw.rect(surf, color, pg.Rect(cx, cy - c, c + 1, c + 1))

    def _sprites(self) -> tuple[pygame.Surface, pygame.Surface, pygame.Surface]:
        """Food dot, capsule and overlay shade, pre-rendered once."""
        if self._dot is None or self._capsule is None or self._shade is None:
            pg = self._pg
            c = self.cell_size
            dot = pg.Surface((c, c), pg.SRCALPHA)
            pg.draw.circle(dot, FOOD_COLOR, (c / 2, c / 2), max(1.5, c * 0.1))
            cap = pg.Surface((c, c), pg.SRCALPHA)
            pg.draw.circle(cap, CAPSULE_COLOR, (c / 2, c / 2), max(2.5, c * 0.27))
            shade = pg.Surface((c, c), pg.SRCALPHA)
            shade.fill(OVERLAY_COLOR)
            self._dot, self._capsule, self._shade = dot, cap, shade
        return self._dot, self._capsule, self._shade

    def label(self, text: str, color: Color) -> pygame.Surface:
        """``text`` rendered in the info-bar font (cached; do not draw on the result)."""
        key = (text, color)
        surf = self._text_cache.get(key)
        if surf is None:
            if self._font is None:
                pg = self._pg
                if not pg.font.get_init():
                    pg.font.init()
                self._font = pg.font.Font(None, max(12, round(self._row_height * 0.8)))
            surf = self._font.render(text, True, color)
            if len(self._text_cache) > 256:
                self._text_cache.clear()
            self._text_cache[key] = surf
        return surf

    def fitted_label(self, text: str, color: Color, width: int) -> pygame.Surface:
        """`label`, scaled down if need be to be at most ``width`` pixels wide."""
        surface = self.label(text, color)
        if surface.get_width() <= width:
            return surface
        return _shrink(self._pg, surface, max(1, width) / surface.get_width())

    # --------------------------------------------------------------- drawing

    def draw(
        self,
        surface: pygame.Surface,
        state: GameState,
        *,
        previous: GameState | None = None,
        progress: float = 1.0,
        overlay: Collection[tuple[int, int]] | None = None,
        generated: int | None = None,
        turn: int | None = None,
        dying: float | None = None,
    ) -> None:
        """Paint ``state`` onto ``surface`` (at its top-left corner).

        Args:
            surface: Any Surface at least `size` big (off-screen or a window).
            state: The state to draw.
            previous: The state before the last move; with ``progress < 1`` agents are
                drawn part way between their old and new cells (smooth animation).
            progress: How far the move from ``previous`` to ``state`` has gone, 0 to 1.
            overlay: Board cells to shade (the cells a search touched).
            generated: A count of generated states to show in the info bar.
            turn: The turn number to show in the info bar.
            dying: In a lost game, how far Pacman's death has gone, 0 to 1: the mouth
                opens until Pacman is gone (``None``: the still picture of a loss).
        """
        c = self.cell_size
        progress = min(1.0, max(0.0, progress))
        surface.blit(self._maze_layer(), (0, 0))
        dot, capsule, shade = self._sprites()
        top = self.layout.height - 1
        if overlay:
            surface.blits([(shade, (x * c, (top - y) * c)) for x, y in overlay], False)
        # Food disappears once Pacman is half way into its cell.
        shown = previous if previous is not None and progress < 0.5 else state
        food = [(dot, (x * c, (top - y) * c)) for x, y in shown.iter_food()]
        food += [(capsule, (x * c, (top - y) * c)) for x, y in shown.capsules]
        surface.blits(food, False)
        for ghost in range(1, state.num_agents):
            self._draw_ghost(surface, state, ghost, self._where(state, previous, ghost, progress))
        at = self._where(state, previous, 0, progress)
        self._draw_pacman(surface, state, at, progress, dying)
        if self.info_bar:
            self._draw_info(surface, state, generated, turn)

    def _where(
        self, state: GameState, previous: GameState | None, agent: int, progress: float
    ) -> tuple[float, float]:
        """Pixel centre of ``agent``, interpolated from ``previous`` when it just moved."""
        x, y = state.agent_position(agent)
        if previous is not None and progress < 1.0 and agent < previous.num_agents:
            px, py = previous.agent_position(agent)
            if abs(px - x) + abs(py - y) <= 1.0:  # a respawn jumps, it does not glide
                x = px + (x - px) * progress
                y = py + (y - py) * progress
        return self._center(x, y)

    def _draw_pacman(
        self,
        surface: pygame.Surface,
        state: GameState,
        at: tuple[float, float],
        progress: float,
        dying: float | None = None,
    ) -> None:
        pg = self._pg
        cx, cy = at
        r = self.cell_size * 0.48
        if state.is_lose():
            # A lost game shows Pacman as a closing wedge, as the arcade's death does.
            mouth = 150.0 if dying is None else 40.0 + 140.0 * min(1.0, max(0.0, dying))
            if mouth >= 179.0:
                return
        else:
            mouth = 8.0 + 32.0 * (0.5 + 0.5 * math.cos(2 * math.pi * progress))
        facing = _FACING_DEGREES[state.agent_direction(0)]
        points: list[tuple[float, float]] = [(cx, cy)]
        steps = 20
        span = 360.0 - 2 * mouth
        for i in range(steps + 1):
            a = math.radians(facing + mouth + span * i / steps)
            points.append((cx + r * math.cos(a), cy - r * math.sin(a)))
        pg.draw.polygon(surface, PACMAN_COLOR, points)

    def _draw_ghost(
        self, surface: pygame.Surface, state: GameState, ghost: int, at: tuple[float, float]
    ) -> None:
        pg = self._pg
        cx, cy = at
        r = self.cell_size * 0.46
        timer = state.scared_timer(ghost)
        if timer > 0:
            flash = timer < FLASH_BELOW and (timer // 2) % 2 == 0
            body = SCARED_FLASH_COLOR if flash else SCARED_COLOR
        else:
            body = GHOST_COLORS[(ghost - 1) % len(GHOST_COLORS)]
        points = _ghost_outline(cx, cy, r)
        pg.draw.polygon(surface, body, points)
        if timer > 0:
            face = (230, 40, 40) if body == SCARED_FLASH_COLOR else SCARED_FACE_COLOR
            for side in (-1, 1):
                pg.draw.circle(surface, face, (cx + side * 0.33 * r, cy - 0.2 * r), 0.13 * r + 0.5)
            mouth = [
                (cx + (i / 4 - 0.5) * 1.1 * r, cy + 0.35 * r + (0.1 * r if i % 2 else -0.05 * r))
                for i in range(5)
            ]
            pg.draw.lines(surface, face, False, mouth, max(1, round(r / 10)))
            return
        dx, dy = state.agent_direction(ghost).vector
        for side in (-1, 1):
            ex, ey = cx + side * 0.36 * r, cy - 0.22 * r
            pg.draw.ellipse(
                surface,
                EYE_WHITE,
                pg.Rect(ex - 0.26 * r, ey - 0.32 * r, 0.52 * r + 1, 0.64 * r + 1),
            )
            pg.draw.circle(
                surface, PUPIL_COLOR, (ex + dx * 0.12 * r, ey - dy * 0.14 * r), 0.14 * r + 0.5
            )

    def _fits_one_row(self, width: int) -> bool:
        """Whether the score and the longest usual status fit on one line ``width`` wide.

        They fit if they need shrinking by no more than `_ONE_ROW_SHRINK`.
        """
        score = self.label(_WIDEST_SCORE, TEXT_COLOR).get_width()
        info = self.label(_WIDEST_INFO, INFO_COLOR).get_width()
        return width - 2 * self._pad - self._gap() >= (score + info) * _ONE_ROW_SHRINK

    def _gap(self) -> int:
        return 2 * self._pad

    def _info_texts(
        self, state: GameState, generated: int | None, turn: int | None
    ) -> list[tuple[str, Color]]:
        parts = []
        if turn is not None:
            parts.append(f"TURN {turn}")
        if generated is not None:
            parts.append(f"GENERATED {generated:,}")
        if state.is_win():
            parts.append("WIN")
        elif state.is_lose():
            parts.append("GAME OVER")
        texts = [(f"SCORE: {state.score}", TEXT_COLOR)]
        if parts:
            texts.append(("   ".join(parts), INFO_COLOR))
        return texts

    def _info_surfaces(
        self, state: GameState, generated: int | None, turn: int | None
    ) -> list[tuple[str, pygame.Surface, pygame.Rect]]:
        """The info bar's texts, each scaled down if need be, and where they go."""
        pg = self._pg
        w = self._size[0]
        room = w - 2 * self._pad
        top = self.board_height
        texts = self._info_texts(state, generated, turn)
        surfaces = [self.label(text, color) for text, color in texts]
        if self.bar_rows == 1:
            widths = [s.get_width() for s in surfaces]
            gap = self._gap() if len(surfaces) > 1 else 0
            if sum(widths) + gap > room:
                factor = (room - gap) / sum(widths)
                surfaces = [_shrink(pg, s, factor) for s in surfaces]
            rows = [0] * len(surfaces)
        else:
            surfaces = [
                _shrink(pg, s, room / s.get_width()) if s.get_width() > room else s
                for s in surfaces
            ]
            rows = list(range(len(surfaces)))
        placed = []
        for i, (surf, row) in enumerate(zip(surfaces, rows, strict=True)):
            mid = top + self._row_height * (row + 0.5)
            x = self._pad if i == 0 else w - self._pad - surf.get_width()
            rect = surf.get_rect(left=x, centery=round(mid))
            placed.append((texts[i][0], surf, rect))
        return placed

    def info_layout(
        self, state: GameState, *, generated: int | None = None, turn: int | None = None
    ) -> list[tuple[str, pygame.Rect]]:
        """The info bar's texts and their rectangles, as `draw` places them.

        The score goes left and the status (turn, states generated, WIN / GAME OVER)
        right; on boards too narrow for both on one line the status takes a second
        line, and a text still too wide is scaled down to fit the frame.
        """
        if not self.info_bar:
            return []
        return [(text, rect) for text, _, rect in self._info_surfaces(state, generated, turn)]

    def _draw_info(
        self, surface: pygame.Surface, state: GameState, generated: int | None, turn: int | None
    ) -> None:
        pg = self._pg
        surface.fill(BACKGROUND, pg.Rect(0, self.board_height, self._size[0], self.bar_height))
        surface.blits(
            [(surf, rect) for _, surf, rect in self._info_surfaces(state, generated, turn)]
        )

    # ---------------------------------------------------------------- pixels

    def render(self, state: GameState, **kwargs: Any) -> pygame.Surface:
        """Draw ``state`` on this renderer's own off-screen Surface and return it.

        The Surface is reused by the next call; copy it to keep a frame. Keyword
        arguments are those of `draw`.
        """
        if self._scratch is None:
            self._scratch = self._pg.Surface(self._size)
        self.draw(self._scratch, state, **kwargs)
        return self._scratch

    def rgb_bytes(self, state: GameState, **kwargs: Any) -> bytes:
        """The frame of ``state`` as packed RGB bytes, rows top to bottom."""
        return bytes(self._pg.image.tobytes(self.render(state, **kwargs), "RGB"))

    def rgb_array(self, state: GameState) -> numpy.ndarray:
        """The frame of ``state`` as a ``(height, width, 3)`` ``uint8`` array (a new one).

        >>> from pacman import GameState
        >>> frame = FrameRenderer(GameState.initial("smallClassic").layout, cell_size=8)
        >>> frame.rgb_array(GameState.initial("smallClassic")).shape
        (70, 160, 3)
        """
        import numpy as np

        w, h = self._size
        data = bytearray(self._pg.image.tobytes(self.render(state), "RGB"))
        return np.frombuffer(data, dtype=np.uint8).reshape(h, w, 3)


_WIDEST_SCORE: Final = "SCORE: -9999"
_WIDEST_INFO: Final = "TURN 9999   GAME OVER"
_ONE_ROW_SHRINK: Final = 0.6
"""The info bar keeps one line if its widest texts need shrinking by no more than this."""


def _shrink(pg: Any, surface: pygame.Surface, factor: float) -> pygame.Surface:
    """``surface`` scaled by ``factor`` (< 1), smoothly."""
    w = max(1, int(surface.get_width() * factor))
    h = max(1, int(surface.get_height() * factor))
    return pg.transform.smoothscale(surface, (w, h))  # type: ignore[no-any-return]


def _ghost_outline(cx: float, cy: float, r: float) -> Sequence[tuple[float, float]]:
    """A ghost's body: a round head over a straight body with a three-wave skirt."""
    head_y = cy - 0.1 * r
    points = [
        (cx + r * math.cos(math.radians(a)), head_y - r * math.sin(math.radians(a)))
        for a in range(180, -1, -15)
    ]
    bottom = cy + r
    points.append((cx + r, bottom))
    waves = 3
    width = 2 * r
    for i in range(1, 2 * waves + 1):
        x = cx + r - width * i / (2 * waves)
        y = bottom - (0.28 * r if i % 2 else 0.0)
        points.append((x, y))
    return points
