"""Precomputed movement tables for one layout: the engine's hot paths are table lookups.

Positions are stored inside the engine as ints in *doubled* coordinates,
``p = (2 * y) * stride + 2 * x`` with ``stride = 2 * width``, so that a scared ghost
halfway between two cells (``x + 0.5``) still has an exact integer position. Grid points
have both doubled coordinates even; half points have exactly one odd.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Final

from pacman.core.types import ACTION_ORDER, Direction, Position

if TYPE_CHECKING:
    from pacman.core.layout import Layout

__all__ = ["Navigation"]


GhostEntry = tuple[
    tuple[Direction, ...],
    dict[str, tuple[int, Direction]],
    dict[str, tuple[int, Direction]],
]
"""For a ghost at a point with a facing: (legal actions, full-speed moves, half-speed moves)."""


_CACHED_DISTANCE_ENTRIES: Final = 4_000_000
"""How many distance-table entries a `Navigation` keeps (about 32 MB of list slots).

Each breadth-first table has one entry per doubled-coordinate point; a board small enough
keeps a table for every cell, a large one forgets its tables when the budget is spent, so
memory stays linear in the board whatever the evaluation function asks.
"""


class Navigation:
    """Movement, collision and distance tables for one `Layout`, built once and shared."""

    __slots__ = (
        "_dist",
        "_index",
        "_max_tables",
        "_order",
        "agent_start",
        "bit",
        "ghost",
        "layout",
        "near",
        "pac_legal",
        "pac_move",
        "snap",
        "stride",
        "xy",
    )

    def __init__(self, layout: Layout) -> None:
        """Build every table for ``layout``."""
        w, h = layout.width, layout.height
        stride = 2 * w
        size = 4 * w * h
        walls = layout.walls
        self.layout = layout
        self.stride = stride
        half = {
            Direction.WEST: -1,
            Direction.EAST: 1,
            Direction.NORTH: stride,
            Direction.SOUTH: -stride,
        }

        def p2(x: int, y: int) -> int:
            return 2 * y * stride + 2 * x

        self.xy: list[Position | None] = [None] * size
        self.bit: list[int] = [0] * size
        self.snap: list[int] = list(range(size))
        self.near: list[frozenset[int]] = [frozenset()] * size
        self.pac_legal: list[tuple[Direction, ...]] = [()] * size
        self.pac_move: list[dict[str, tuple[int, Direction | None]]] = [{}] * size
        self.ghost: list[dict[str, GhostEntry]] = [{}] * size
        self._dist: dict[int, list[int]] = {}
        self._order: dict[int, list[tuple[int, int]]] = {}
        self._max_tables = max(16, _CACHED_DISTANCE_ENTRIES // size)

        open_cells = [(x, y) for y in range(h) for x in range(w) if (x, y) not in walls]
        for x, y in open_cells:
            p = p2(x, y)
            self.xy[p] = (x, y)
            self.bit[p] = 1 << (y * w + x)
            self.near[p] = frozenset((p, p - 1, p + 1, p - stride, p + stride))
            pac_legal = tuple(
                d for d in ACTION_ORDER if (x + d.vector[0], y + d.vector[1]) not in walls
            )
            self.pac_legal[p] = pac_legal
            self.pac_move[p] = {
                d: (p + 2 * half[d], d) if d is not Direction.STOP else (p, None) for d in pac_legal
            }
            possible = [d for d in pac_legal if d is not Direction.STOP]
            entries: dict[str, GhostEntry] = {}
            for facing in Direction:
                legal = list(possible)
                if facing.reverse in legal and len(legal) > 1:
                    legal.remove(facing.reverse)
                entries[facing] = (
                    tuple(legal),
                    {d: (p + 2 * half[d], d) for d in legal},
                    {d: (p + half[d], d) for d in legal},
                )
            self.ghost[p] = entries
            # Half points toward each open neighbour (only scared ghosts stop there).
            for d in (Direction.EAST, Direction.NORTH):
                dx, dy = d.vector
                if (x + dx, y + dy) in walls:
                    continue
                m = p + half[d]
                self.xy[m] = (x + dx / 2, y + dy / 2)
                self.near[m] = frozenset((m, m - 1, m + 1, m - stride, m + stride))
                # Rounding half up (classic nearestPoint) snaps to the east/north cell.
                self.snap[m] = m + half[d]
                self.ghost[m] = {
                    f: ((f,), {f: (m + half[f], f)}, {f: (m + half[f], f)}) for f in (d, d.reverse)
                }
        self._index: dict[Position, int] = {xy: p for p, xy in enumerate(self.xy) if xy is not None}
        # Every agent's start cell by agent index: Pacman's first, then the ghosts'
        # (an eaten ghost goes back to its own).
        self.agent_start: tuple[int, ...] = (
            p2(*layout.pacman_start),
            *(p2(x, y) for x, y in layout.ghost_starts),
        )

    def point(self, pos: Position) -> int:
        """The doubled-coordinate index of a board position.

        Raises:
            ValueError: If the position is not an open cell or a half point between two.
        """
        x, y = pos
        p = round(2 * y) * self.stride + round(2 * x)
        if not (0 <= x < self.layout.width and 0 <= y < self.layout.height) or self.xy[p] is None:
            raise ValueError(f"position {pos!r} is not an open cell of layout {self.layout.name!r}")
        return p

    def maze_distance(self, a: Position, b: Position) -> int:
        """Shortest maze path length between two positions (rounded to grid points).

        Returns -1 when no path joins them.

        Raises:
            ValueError: If either position is a wall or off the board.
        """
        pa = self._index.get(a)
        if pa is None:
            pa = self.point(a)
        pb = self._index.get(b)
        if pb is None:
            pb = self.point(b)
        return self._distances(self.snap[pa])[self.snap[pb]]

    def nearest_in(self, p: int, mask: int) -> int:
        """Maze distance from point ``p`` to the closest cell whose bit is set in ``mask``.

        Returns -1 when no such cell is reachable. Cells are tried in breadth-first order
        from ``p``, so the cost is the number of cells nearer than the answer.
        """
        p = self.snap[p]
        order = self._order.get(p)
        if order is None:
            order = sorted(
                ((self.bit[q], d) for q, d in enumerate(self._distances(p)) if d >= 0),
                key=lambda item: item[1],
            )
            if len(self._order) >= self._max_tables:
                self._order.clear()
            self._order[p] = order
        for bit, d in order:
            if mask & bit:
                return d
        return -1

    def _distances(self, start: int) -> list[int]:
        """The maze distance from grid point ``start`` to every point, cached within budget."""
        table = self._dist.get(start)
        if table is None:
            table = self._bfs(start)
            if len(self._dist) >= self._max_tables:
                self._dist.clear()
            self._dist[start] = table
        return table

    def _bfs(self, start: int) -> list[int]:
        stride = self.stride
        dist = [-1] * len(self.xy)
        dist[start] = 0
        queue = deque([start])
        steps = (-2, 2, 2 * stride, -2 * stride)
        while queue:
            p = queue.popleft()
            d = dist[p] + 1
            for step in steps:
                q = p + step
                if 0 <= q < len(dist) and dist[q] < 0 and self.bit[q]:
                    dist[q] = d
                    queue.append(q)
        return dist
