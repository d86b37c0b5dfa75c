"""Reading the flat TOML case files of game traces and evaluation games, with checked types.

Every problem is a `CaseFormatError` naming the file and the line of the offending key.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from agents.players import DirectionalGhost, RandomGhost
from autograder.results import CaseFormatError

__all__ = ["GHOSTS", "read_case_table"]

GHOSTS: Final[dict[str, type]] = {"DirectionalGhost": DirectionalGhost, "RandomGhost": RandomGhost}
"""Ghost agents a case may name."""


def _line_of(text: str, key: str) -> int:
    found = re.search(rf"^\s*{re.escape(key)}\s*=", text, re.MULTILINE)
    return text.count("\n", 0, found.start()) + 1 if found else 1


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
            unknown key or a value of the wrong type.
    """
    optional = optional or {}
    lists = lists or {}
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseFormatError(f"{path}:1: cannot read case file: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise CaseFormatError(f"{path}:1: not valid TOML: {exc}") from None

    def check(key: str, value: Any, kind: type) -> Any:
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise CaseFormatError(
                f"{path}:{_line_of(text, key)}: {key} must be a {kind.__name__}, got {value!r}"
            )
        return value

    values: dict[str, Any] = {}
    for key, kind in required.items():
        if key not in data:
            raise CaseFormatError(f"{path}:1: missing key {key!r}")
        values[key] = check(key, data[key], kind)
    for key, kind in optional.items():
        if key in data:
            values[key] = check(key, data[key], kind)
    for key, kind in lists.items():
        if key in data:
            if not isinstance(data[key], list):
                raise CaseFormatError(f"{path}:{_line_of(text, key)}: {key} must be a list")
            values[key] = tuple(check(key, v, kind) for v in data[key])
    for key in data:
        if key not in required and key not in optional and key not in lists:
            raise CaseFormatError(f"{path}:{_line_of(text, key)}: unknown key {key!r}")
    if "ghosts" in values and values["ghosts"] not in GHOSTS:
        raise CaseFormatError(
            f"{path}:{_line_of(text, 'ghosts')}: unknown ghosts {values['ghosts']!r}; "
            f"known: {', '.join(GHOSTS)}"
        )
    return values
