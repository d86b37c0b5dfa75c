"""Maze layouts: the static world (walls, starts, initial food) shared by every state.

The text format is the classic ``.lay`` one (SPEC §2): ``%`` wall, ``.`` food, ``o``
capsule, ``P`` Pacman, ``G`` or ``1``-``4`` ghost starts, space for an empty cell.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pacman.core.errors import LayoutError
from pacman.core.navigation import Navigation
from pacman.core.types import Position

__all__ = [
    "MAX_LAYOUT_BYTES",
    "MAX_LAYOUT_CELLS",
    "Layout",
    "layout_names",
    "load_layout",
    "load_shipped_layout",
    "shipped_layout_dir",
    "shipped_layout_path",
]

MAX_LAYOUT_CELLS = 4096
"""The most cells (width times height) a layout may have, e.g. 64 x 64.

The engine keeps movement tables per cell and one food bit mask per cell, which grows
with the board: an open 64 x 64 board takes about 55 MB and 0.3 s to prepare, 128 x 128
about 240 MB, and a 400 x 400 board several gigabytes. The largest classic layout has
756 cells.
"""

MAX_LAYOUT_BYTES = 1 << 20
"""The largest layout file `Layout.from_file` reads (1 MiB); a larger one is refused unread."""

_TILES = frozenset("%.oPG1234 ")
_GHOST_KEYS = {"G": 1, "1": 1, "2": 2, "3": 3, "4": 4}


@dataclass(frozen=True, slots=True, eq=False)
class Layout:
    r"""An immutable maze. Build one with `Layout.from_text` or `load_layout`.

    Two layouts compare equal when their boards are equal (the name is ignored).

    >>> lay = Layout.from_text("%%%%%\n%P.G%\n%%%%%")
    >>> lay.width, lay.height, lay.pacman_start, lay.ghost_starts
    (5, 3, (1, 1), ((3, 1),))
    >>> sorted(lay.food)
    [(2, 1)]
    """

    name: str
    """A display name: the layout's name, or its file name without ``.lay``."""
    rows: tuple[str, ...]
    """The board text, top row first, each row stripped of surrounding white space."""
    width: int
    """Number of columns."""
    height: int
    """Number of rows."""
    walls: frozenset[tuple[int, int]]
    """Positions of wall cells."""
    food: frozenset[tuple[int, int]]
    """Positions of the food dots at the start."""
    capsules: tuple[tuple[int, int], ...]
    """Positions of the power capsules at the start, sorted."""
    pacman_start: tuple[int, int]
    """Where Pacman starts."""
    ghost_starts: tuple[tuple[int, int], ...]
    """Ghost start cells in ghost-number order (ghost 1 first)."""
    _nav: Navigation | None = field(default=None, init=False, repr=False)

    @classmethod
    def from_text(cls, text: str, *, name: str = "<text>", source: str | None = None) -> Layout:
        """Parse a layout from its text.

        Args:
            text: The layout in ``.lay`` format.
            name: Display name of the layout.
            source: Where the text came from, used to locate errors; defaults to ``name``.

        Returns:
            The parsed layout.

        Raises:
            LayoutError: If the text is empty, has an unknown character, ragged rows, no
                or several Pacman starts, a border cell that is not a wall, a ghost
                that cannot move, or more than `MAX_LAYOUT_CELLS` cells. The message
                reads ``"source:line:col: problem"``.
        """
        where = source if source is not None else name
        raw_lines = text.splitlines()
        numbered = [(i + 1, line) for i, line in enumerate(raw_lines)]
        while numbered and not numbered[0][1].strip():
            numbered.pop(0)
        while numbered and not numbered[-1][1].strip():
            numbered.pop()
        if not numbered:
            raise LayoutError(f"{where}:1:1: empty layout (no rows)")

        rows: list[str] = []
        width = -1
        width_line = 0
        for line_no, line in numbered:
            row = line.strip()
            offset = len(line) - len(line.lstrip())
            if len(row) > MAX_LAYOUT_CELLS:
                raise LayoutError(
                    f"{where}:{line_no}:1: layout too large: a row of width {len(row)} "
                    f"(at most {MAX_LAYOUT_CELLS} cells in all)"
                )
            for col, ch in enumerate(row):
                if ch not in _TILES:
                    raise LayoutError(
                        f"{where}:{line_no}:{offset + col + 1}: unknown tile {ch!r} "
                        f"(expected one of '%', '.', 'o', 'P', 'G', '1'-'4' or space)"
                    )
            if width < 0:
                width, width_line = len(row), line_no
            elif len(row) != width:
                col = offset + min(len(row), width) + 1  # where the two rows stop agreeing
                raise LayoutError(
                    f"{where}:{line_no}:{col}: ragged row of width {len(row)}; "
                    f"line {width_line} has width {width}"
                )
            rows.append(row)
            if len(rows) * width > MAX_LAYOUT_CELLS:
                raise LayoutError(
                    f"{where}:{line_no}:1: layout too large: {width} x {len(rows)} rows "
                    f"already exceed {MAX_LAYOUT_CELLS} cells (the engine's tables grow "
                    "with the square of the board)"
                )

        height = len(rows)
        walls: set[tuple[int, int]] = set()
        food: set[tuple[int, int]] = set()
        capsules: list[tuple[int, int]] = []
        pacman: tuple[int, int] | None = None
        pacman_at = (0, 0)
        ghosts: list[tuple[int, int, int]] = []
        for r, row in enumerate(rows):
            line_no = numbered[r][0]
            offset = len(numbered[r][1]) - len(numbered[r][1].lstrip())
            y = height - 1 - r
            for x, ch in enumerate(row):
                on_border = x in (0, width - 1) or y in (0, height - 1)
                if on_border and ch != "%":
                    raise LayoutError(
                        f"{where}:{line_no}:{offset + x + 1}: border cell is {ch!r}, "
                        "expected wall '%' (the maze must be closed)"
                    )
                if ch == "%":
                    walls.add((x, y))
                elif ch == ".":
                    food.add((x, y))
                elif ch == "o":
                    capsules.append((x, y))
                elif ch == "P":
                    if pacman is not None:
                        raise LayoutError(
                            f"{where}:{line_no}:{offset + x + 1}: second Pacman start 'P' "
                            f"(the first is at line {pacman_at[0]}, column {pacman_at[1]})"
                        )
                    pacman = (x, y)
                    pacman_at = (line_no, offset + x + 1)
                elif ch in _GHOST_KEYS:
                    ghosts.append((_GHOST_KEYS[ch], x, y))
        if pacman is None:
            first_line = numbered[0][0]
            raise LayoutError(f"{where}:{first_line}:1: no Pacman start 'P' in the layout")
        ghosts.sort()
        ghost_starts = tuple((x, y) for _, x, y in ghosts)
        for number, (x, y) in enumerate(ghost_starts, start=1):
            if all((x + dx, y + dy) in walls for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                line_no, line = numbered[height - 1 - y]
                col = len(line) - len(line.lstrip()) + x + 1
                raise LayoutError(
                    f"{where}:{line_no}:{col}: ghost {number} at {(x, y)} is walled in "
                    "and cannot move"
                )
        return cls(
            name=name,
            rows=tuple(rows),
            width=width,
            height=height,
            walls=frozenset(walls),
            food=frozenset(food),
            capsules=tuple(sorted(capsules)),
            pacman_start=pacman,
            ghost_starts=ghost_starts,
        )

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Layout:
        """Read a layout from a ``.lay`` file.

        Raises:
            LayoutError: If the file cannot be read or is malformed.
        """
        p = Path(path)
        try:
            with p.open("rb") as handle:
                data = handle.read(MAX_LAYOUT_BYTES + 1)
            if len(data) > MAX_LAYOUT_BYTES:
                raise LayoutError(
                    f"{p}: layout file too large (over {MAX_LAYOUT_BYTES} bytes; a layout "
                    f"has at most {MAX_LAYOUT_CELLS} cells)"
                )
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise LayoutError(f"{p}: cannot read layout file: {reason}") from None
        name = p.name[: -len(".lay")] if p.name.endswith(".lay") else p.name
        return cls.from_text(text, name=name, source=str(p))

    @property
    def num_ghosts(self) -> int:
        """How many ghost starts the layout has."""
        return len(self.ghost_starts)

    @property
    def nav(self) -> Navigation:
        """Precomputed movement tables for this layout (built once, on first use)."""
        nav = self._nav
        if nav is None:
            nav = Navigation(self)
            object.__setattr__(self, "_nav", nav)
        return nav

    def is_wall(self, x: float, y: float) -> bool:
        """Whether the cell at ``(x, y)`` is a wall (positions off the board count as walls)."""
        xi, yi = int(x), int(y)
        if not (0 <= xi < self.width and 0 <= yi < self.height):
            return True
        return (xi, yi) in self.walls

    def maze_distance(self, a: Position, b: Position) -> int:
        """Shortest path length between two open cells, walking through the maze.

        Half positions are rounded to the nearest grid point first. Distances are
        computed by breadth-first search once per source cell and cached.

        Raises:
            ValueError: If either position is a wall or off the board.
        """
        return self.nav.maze_distance(a, b)

    def to_text(self) -> str:
        """The layout in ``.lay`` format (one row a line, top row first)."""
        return "\n".join(self.rows) + "\n"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Layout):
            return NotImplemented
        return self.rows == other.rows

    def __hash__(self) -> int:
        return hash(self.rows)

    def __repr__(self) -> str:
        return f"Layout(name={self.name!r}, width={self.width}, height={self.height})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle the text only: the movement tables are rebuilt (once per process and
        # board, see _unpickle) instead of being copied with every pickled state.
        return (_unpickle, (self.name, self.rows))


_UNPICKLED: dict[tuple[str, tuple[str, ...]], Layout] = {}
_UNPICKLED_MAX = 64


def _unpickle(name: str, rows: tuple[str, ...]) -> Layout:
    """Rebuild a pickled layout, sharing one object per board within this process.

    States of one game pickled separately (for worker processes) thus unpickle onto a
    single `Layout` and a single set of movement tables.
    """
    key = (name, rows)
    layout = _UNPICKLED.get(key)
    if layout is None:
        if len(_UNPICKLED) >= _UNPICKLED_MAX:
            _UNPICKLED.clear()
        layout = Layout.from_text("\n".join(rows), name=name)
        _UNPICKLED[key] = layout
    return layout


def _builtin_dirs() -> list[Path]:
    package = Path(__file__).resolve().parents[1]
    # Installed: pacman/layouts (mapped from the top-level folder); source tree: ./layouts.
    return [d for d in (package / "layouts", package.parent / "layouts") if d.is_dir()]


def shipped_layout_dir() -> Path | None:
    """The folder of the shipped layouts: ``pacman/layouts`` installed, ``layouts`` in a checkout.

    >>> (shipped_layout_dir() / "mediumClassic.lay").is_file()
    True
    """
    dirs = _builtin_dirs()
    return dirs[0] if dirs else None


def shipped_layout_path(name: str) -> Path | None:
    """The file of the shipped layout called ``name`` (``.lay`` optional), if there is one.

    Only the package's own layouts count, never a file in the current folder.
    """
    stem = name[:-4] if name.endswith(".lay") else name
    if not stem or os.sep in stem or "/" in stem:
        return None
    for d in _builtin_dirs():
        candidate = d / f"{stem}.lay"
        if candidate.is_file():
            return candidate
    return None


def load_shipped_layout(name: str) -> Layout:
    """Load the shipped layout called ``name``, whatever files the current folder holds.

    The autograder loads its boards this way: a student's folder may hold a file named
    like a layout, and it must not replace the board a test is graded on.

    Raises:
        LayoutError: If no shipped layout has that name.
    """
    path = shipped_layout_path(name)
    if path is None:
        known = ", ".join(layout_names())
        raise LayoutError(f"{name}: no shipped layout of that name (shipped: {known})")
    return Layout.from_file(path)


def layout_names() -> list[str]:
    """Names of the layouts shipped with the package, sorted."""
    names: set[str] = set()
    for d in _builtin_dirs():
        if d.is_dir():
            names.update(p.name[:-4] for p in d.iterdir() if p.name.endswith(".lay"))
    return sorted(names)


def load_layout(name_or_path: str | os.PathLike[str]) -> Layout:
    """Load a shipped layout by name (``"mediumClassic"``) or a ``.lay`` file by path.

    A string that names an existing file is read as a path; otherwise it is looked up
    among the shipped layouts, with or without the ``.lay`` suffix.

    Raises:
        LayoutError: If the layout does not exist or is malformed.
    """
    path = Path(name_or_path)
    if path.is_file():
        return Layout.from_file(path)
    name = str(name_or_path)
    stem = name[:-4] if name.endswith(".lay") else name
    if os.sep not in stem and "/" not in stem:
        for d in _builtin_dirs():
            candidate = d / f"{stem}.lay"
            if candidate.is_file():
                return Layout.from_file(candidate)
    names = layout_names()
    close = difflib.get_close_matches(stem, names, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    known = ", ".join(names)
    raise LayoutError(f"{name}: no such layout file or shipped layout{hint} (shipped: {known})")
