from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pacman import GameState
from pacman.core.layout import Layout, layout_names
from pacman.core.types import Direction
from pacman.render.frame import (
    BACKGROUND,
    GHOST_COLORS,
    PACMAN_COLOR,
    SCARED_COLOR,
    WALL_COLOR,
    FrameRenderer,
)

ROOT = Path(__file__).resolve().parents[2]

# Pacman at (1, 1), food at (3, 1), capsule at (5, 1), one ghost at (7, 1); a wall
# block of 3 x 3 cells in the middle of the top rows so its centre is solid wall.
BOARD = Layout.from_text(
    "\n".join(
        [
            "%%%%%%%%%%",
            "%.  %%%  %",
            "%   %%%  %",
            "%   %%%  %",
            "%P .o  G %",
            "%%%%%%%%%%",
        ]
    ),
    name="board",
)
CELL = 20


def pixel(frame: np.ndarray, x: float, y: float, dx: int = 0, dy: int = 0) -> tuple[int, ...]:
    """The colour at the centre of board cell (x, y), optionally offset in pixels."""
    px = int(x * CELL + CELL / 2) + dx
    py = int((BOARD.height - 1 - y) * CELL + CELL / 2) + dy
    return tuple(int(v) for v in frame[py, px])


@pytest.fixture
def renderer() -> FrameRenderer:
    return FrameRenderer(BOARD, cell_size=CELL)


@pytest.mark.parametrize(
    ("name", "cell", "bar"),
    [("mediumClassic", 24, True), ("smallClassic", 8, False), ("originalClassic", 30, True)],
)
def test_rgb_array_shape_and_dtype(name: str, cell: int, bar: bool) -> None:
    state = GameState.initial(name)
    r = FrameRenderer(state.layout, cell_size=cell, info_bar=bar)
    frame = r.rgb_array(state)
    w, h = r.size
    assert frame.shape == (h, w, 3)
    assert frame.dtype == np.uint8
    assert w == state.width * cell
    assert (h > state.height * cell) is bar


def test_known_cells_have_their_colours(renderer: FrameRenderer) -> None:
    frame = renderer.rgb_array(GameState.initial(BOARD))
    assert pixel(frame, 1, 1) == PACMAN_COLOR
    assert pixel(frame, 3, 1) == (255, 255, 255)  # food dot
    assert pixel(frame, 4, 1) == (255, 255, 255)  # capsule
    assert pixel(frame, 4, 1, dx=4) == (255, 255, 255)  # capsules are bigger than dots
    assert pixel(frame, 3, 1, dx=4) == BACKGROUND
    assert pixel(frame, 2, 1) == BACKGROUND  # empty corridor
    assert pixel(frame, 7, 1, dy=5) == GHOST_COLORS[0]
    # Walls are drawn as outlines: the middle of a solid block is background, and the
    # outline runs between the block and the corridor.
    assert pixel(frame, 5, 3) == BACKGROUND
    column = [tuple(int(v) for v in frame[py, 4 * CELL + CELL // 2]) for py in range(CELL * 4)]
    assert WALL_COLOR in column


def test_scared_ghost_differs_from_normal(renderer: FrameRenderer) -> None:
    state = GameState.initial(BOARD)
    for agent, action in [(0, "East"), (1, "North"), (0, "East"), (1, "North")]:
        state = state.successor(agent, action)
    normal = state
    scared = state.successor(0, Direction.EAST)  # onto the capsule
    assert scared.is_scared(1)
    assert not normal.is_scared(1)
    a = renderer.rgb_array(normal)
    b = renderer.rgb_array(scared)
    gx, gy = scared.agent_position(1)
    assert pixel(a, gx, gy, dy=5) == GHOST_COLORS[0]
    assert pixel(b, gx, gy, dy=5) == SCARED_COLOR
    assert not np.array_equal(a, b)


def test_rgb_array_returns_a_fresh_writable_array(renderer: FrameRenderer) -> None:
    state = GameState.initial(BOARD)
    a = renderer.rgb_array(state)
    a[:] = 7
    b = renderer.rgb_array(state)
    assert pixel(b, 1, 1) == PACMAN_COLOR


def test_in_between_frame_moves_pacman_part_way(renderer: FrameRenderer) -> None:
    start = GameState.initial(BOARD)
    after = start.successor(0, Direction.EAST)
    pg = pytest.importorskip("pygame")
    surf = pg.Surface(renderer.size)
    renderer.draw(surf, after, previous=start, progress=0.5)
    frame = np.frombuffer(pg.image.tobytes(surf, "RGB"), dtype=np.uint8).reshape(
        renderer.size[1], renderer.size[0], 3
    )
    assert pixel(frame, 1.5, 1) == PACMAN_COLOR


def test_overlay_shades_cells(renderer: FrameRenderer) -> None:
    pg = pytest.importorskip("pygame")
    state = GameState.initial(BOARD)
    surf = pg.Surface(renderer.size)
    renderer.draw(surf, state, overlay=[(2, 1)], generated=42)
    frame = np.frombuffer(pg.image.tobytes(surf, "RGB"), dtype=np.uint8).reshape(
        renderer.size[1], renderer.size[0], 3
    )
    assert pixel(frame, 2, 1) != BACKGROUND
    assert pixel(frame, 6, 1) == BACKGROUND


@pytest.mark.parametrize("cell", [0, 3, -1, 2.5, True])
def test_bad_cell_size_is_rejected(cell: object) -> None:
    with pytest.raises(ValueError, match="cell_size"):
        FrameRenderer(BOARD, cell_size=cell)  # type: ignore[arg-type]


def test_importing_engine_and_agents_never_imports_pygame() -> None:
    code = (
        "import sys; import pacman, pacman.core, pacman.cli, pacman.render, "
        "pacman.render.text, pacman.render.frame, pacman.render.window, "
        "pacman.render.keyboard, pacman.render.export, agents;"
        "print('pygame' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


POCKET = Layout.from_text(
    "\n".join(["%%%%%%%%%%", "%Po.  %  %", "%%%%%%%G %", "%%%%%%%%%%"]), name="pocket"
)


def test_scared_ghosts_flash_as_their_timer_runs_out() -> None:
    from pacman.render.frame import FLASH_BELOW, SCARED_FLASH_COLOR

    renderer = FrameRenderer(POCKET, cell_size=CELL)
    state = GameState.initial(POCKET).successor(0, Direction.EAST)  # capsule: ghost scared
    colours = {}
    while state.is_scared(1):
        state = state.successor(1, state.legal_actions(1)[0])
        timer = state.scared_timer(1)
        if timer:
            frame = renderer.rgb_array(state)
            x, y = state.agent_position(1)
            px = int(x * CELL + CELL / 2)
            py = int((POCKET.height - 1 - y) * CELL + CELL / 2) + 5
            colours[timer] = tuple(int(v) for v in frame[py, px])
        state = state.successor(0, Direction.STOP)
    assert colours[39] == SCARED_COLOR
    assert colours[FLASH_BELOW] == SCARED_COLOR
    late = [colours[t] for t in range(1, FLASH_BELOW)]
    assert SCARED_FLASH_COLOR in late
    assert SCARED_COLOR in late


@settings(max_examples=25, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=4), max_size=40))
@example(choices=[1, 0, 3, 0, 1, 0, 2, 0, 3])  # lost game, facing South: a narrow wedge
def test_pacman_is_drawn_where_the_state_says(choices: list[int]) -> None:
    renderer = FrameRenderer(BOARD, cell_size=CELL)
    state = GameState.initial(BOARD)
    for i, choice in enumerate(choices):
        agent = i % state.num_agents
        legal = state.legal_actions(agent)
        if not legal:
            break
        state = state.successor(agent, legal[choice % len(legal)])
    frame = renderer.rgb_array(state)
    assert frame.shape == (renderer.size[1], renderer.size[0], 3)
    x, y = state.pacman_position
    # Straight behind the mouth is always Pacman's body (drawn last, on top), even in a
    # lost game, where the body shrinks to a narrow wedge. Stop faces East. Pixel rows grow
    # downwards, so "behind" is (-dx, +dy) in pixels.
    dx, dy = state.agent_direction(0).vector
    if (dx, dy) == (0, 0):
        dx = 1
    assert pixel(frame, x, y, dx=-3 * dx, dy=3 * dy) == PACMAN_COLOR


class _Status:
    """Just what the info bar reads from a state, at the extremes of its texts."""

    def __init__(self, state: GameState, score: int, outcome: str) -> None:
        self._state = state
        self.score = score
        self._outcome = outcome

    def is_win(self) -> bool:
        return self._outcome == "win"

    def is_lose(self) -> bool:
        return self._outcome == "lose"

    def __getattr__(self, name: str) -> object:
        return getattr(self._state, name)


@pytest.mark.parametrize("name", layout_names())
@pytest.mark.parametrize("cell", [4, 12, 24, 30])
@pytest.mark.parametrize(
    ("score", "outcome", "turn", "generated"),
    [
        (544, "win", 51, None),  # the testClassic case of issue 13
        (-9999, "lose", 9999, None),
        (12345, "win", 99999, 1_234_567),  # the window's search overlay
        (0, "playing", None, None),
    ],
)
def test_info_bar_texts_fit_apart_inside_the_frame(
    name: str, cell: int, score: int, outcome: str, turn: int | None, generated: int | None
) -> None:
    state = GameState.initial(name)
    r = FrameRenderer(state.layout, cell_size=cell)
    status = _Status(state, score, outcome)
    placed = r.info_layout(status, turn=turn, generated=generated)  # type: ignore[arg-type]
    assert placed[0][0] == f"SCORE: {score}"
    assert len(placed) == (1 if turn is None and outcome == "playing" else 2)
    w, h = r.size
    for text, rect in placed:
        assert rect.left >= 0, text
        assert rect.right <= w, text
        assert rect.top >= r.board_height, text
        assert rect.bottom <= h, text
    rects = [rect for _, rect in placed]
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            assert not a.colliderect(b), placed
    r.render(status, turn=turn, generated=generated)  # type: ignore[arg-type]


def test_narrow_board_puts_the_status_on_a_second_line() -> None:
    narrow = FrameRenderer(GameState.initial("testClassic").layout, cell_size=30)
    wide = FrameRenderer(GameState.initial("mediumClassic").layout, cell_size=30)
    assert (narrow.bar_rows, wide.bar_rows) == (2, 1)
    assert narrow.bar_height == 2 * wide.bar_height


def test_a_frame_too_large_is_refused_before_pygame_draws() -> None:
    with pytest.raises(ValueError, match=r"too large \(at most 4096 pixels a side\)"):
        FrameRenderer(GameState.initial("mediumClassic").layout, cell_size=3000)


def _lost_state() -> GameState:
    import random

    rng = random.Random(3)
    state = GameState.initial("trappedClassic")
    while True:
        for agent in range(state.num_agents):
            state = state.successor(agent, rng.choice(state.legal_actions(agent)))
            if state.is_lose():
                return state
            if state.is_win():
                state = GameState.initial("trappedClassic")
                break


@pytest.mark.parametrize(
    ("dying", "pacman_shown"), [(None, True), (0.0, True), (0.5, True), (1.0, False)]
)
def test_death_animation_opens_the_mouth_until_pacman_is_gone(
    dying: float | None, pacman_shown: bool
) -> None:
    state = _lost_state()
    r = FrameRenderer(state.layout, cell_size=24)
    frame = r.rgb_array(state) if dying is None else None
    surface = r.render(state, dying=dying)
    pixels = np.frombuffer(r._pg.image.tobytes(surface, "RGB"), dtype=np.uint8).reshape(-1, 3)
    yellow = int(np.all(pixels == PACMAN_COLOR, axis=1).sum())
    assert (yellow > 0) is pacman_shown
    if frame is not None:
        assert frame.shape[:2] == (r.size[1], r.size[0])
