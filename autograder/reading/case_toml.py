"""Reading the flat TOML case files of game traces and evaluation games, with checked types.

Every problem is a `CaseFormatError` naming the file, line and column of the offending
key (`pacman.tomlfile.TomlFile`, the reader shared with tree cases and eval configs).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from agents.ghosts import DirectionalGhost, RandomGhost
from autograder.results import CaseFormatError
from pacman.core.layout import Layout, load_shipped_layout, shipped_layout_path
from pacman.tomlfile import TomlFile

__all__ = ["GHOSTS", "case_layout", "read_case_table"]

GHOSTS: Final[dict[str, type]] = {"DirectionalGhost": DirectionalGhost, "RandomGhost": RandomGhost}
"""Ghost agents a case may name."""


def read_case_table(
    path: Path,
    required: Mapping[str, type],
    optional: Mapping[str, type] | None = None,
    lists: Mapping[str, type] | None = None,
) -> dict[str, Any]:
    """Read ``path`` and check its keys: ``required`` and ``optional`` scalars, ``lists``.

    Ints are accepted where floats are asked for; a ``ghosts`` key must name one of
    `GHOSTS`.

    Returns:
        The values by key (lists as tuples), optional keys only when present.

    Raises:
        CaseFormatError: If the file is unreadable, not TOML, misses a key, has an
            unknown key or a value of the wrong type (``path:line:col: ...``).
    """
    optional = optional or {}
    lists = lists or {}
    doc = TomlFile.read(path, CaseFormatError, "case file")
    doc.check_keys([*required, *optional, *lists], required)
    values: dict[str, Any] = {}
    for key, kind in [*required.items(), *optional.items()]:
        if key in doc.data:
            values[key] = doc.get(key, kind)
    for key, kind in lists.items():
        if key in doc.data:
            items = doc.get(key, list)
            values[key] = tuple(doc.check(key, v, kind) for v in items)
    if "ghosts" in values and values["ghosts"] not in GHOSTS:
        raise doc.fail("ghosts", f"unknown ghosts {values['ghosts']!r}; known: {', '.join(GHOSTS)}")
    return values


def case_layout(name: str, case_path: Path) -> Layout:
    """The board a case names: a shipped layout, or a file beside the case file.

    Never a file of the current folder, which is the student's when grading: a board
    named like ours there must not replace the one the test is graded on.

    Raises:
        LayoutError: If neither exists or the file is malformed.
    """
    if shipped_layout_path(name) is not None:
        return load_shipped_layout(name)
    beside = case_path.parent / name
    if beside.is_file():
        return Layout.from_file(beside)
    return load_shipped_layout(name)  # raises, listing the shipped layouts
