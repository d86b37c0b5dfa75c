"""One reader for the project's hand-written TOML files, with ``path:line:col`` messages.

The ``pacman eval`` config files, the autograder's tree cases and its game and evaluation
cases all read a flat TOML table with known keys. `TomlFile` parses one and checks its
keys and value types, so the same typo reads the same way in all of them: every problem
is one line starting with ``path:line:col`` (the key's place, or the place TOML's own
parser names), raised as the caller's error class.

>>> doc = TomlFile(chr(10).join(['games = 3', 'layouts = ["a"]']), "eval.toml", ValueError)
>>> doc.get("games", int), doc.at("layouts")
(3, 'eval.toml:2:1')
>>> doc.check_keys(["games"])
Traceback (most recent call last):
...
ValueError: eval.toml:2:1: unknown key 'layouts' (known: games)
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import Any, Final

__all__ = ["TomlFile", "describe_kinds"]

_KIND_NAMES: Final[dict[type, str]] = {
    int: "a whole number",
    float: "a number",
    str: "a string",
    bool: "true or false",
    list: "a list",
    dict: "a table",
}
_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)")
_HEADER = re.compile(r"\s*\[\[?[^\],]+\]\]?\s*(#.*)?$")
_KEY = re.compile(r"\s*([A-Za-z0-9_-]+)\s*=")
_MISSING: Final = object()

ErrorFactory = Callable[[str], Exception]
"""Makes the caller's exception from a one-line message."""


def describe_kinds(kinds: Iterable[type]) -> str:
    """The kinds of value a key takes, in words.

    >>> describe_kinds([int, float])
    'a whole number or a number'
    """
    return " or ".join(_KIND_NAMES.get(k, k.__name__) for k in kinds)


class TomlFile:
    """A parsed TOML file that knows where each top-level key is written."""

    def __init__(self, text: str, path: str | Path, error: ErrorFactory) -> None:
        """Parse ``text``, read from ``path``.

        Raises:
            Exception: ``error(...)`` if the text is not valid TOML, at the place TOML's
                parser names.
        """
        self.path = str(path)
        self.text = text
        self.error = error
        try:
            self.data: dict[str, Any] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            found = _POSITION.search(str(exc))
            message = _POSITION.sub("", str(exc))
            place = f"{found.group(1)}:{found.group(2)}" if found else "1:1"
            raise error(f"{self.path}:{place}: not valid TOML: {message}") from None
        except RecursionError:  # arrays or tables nested thousands deep
            raise error(f"{self.path}:1:1: not valid TOML: nested too deeply") from None
        self._places = self._key_places(text)

    @classmethod
    def read(cls, path: str | Path, error: ErrorFactory, what: str = "file") -> TomlFile:
        """Read and parse the file at ``path``.

        Args:
            path: The file.
            error: Makes the caller's exception from a message.
            what: What the file is, for the message when it cannot be read
                (``"config file"``).

        Raises:
            Exception: ``error(...)`` if the file cannot be read as UTF-8 or is not TOML.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise error(f"{path}: cannot read {what}: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise error(f"{path}: cannot read {what}: {exc}") from None
        return cls(text, path, error)

    @staticmethod
    def _key_places(text: str) -> dict[str, tuple[int, int]]:
        """Line and column (1-based) of the first ``key =`` of each top-level key.

        Lines inside multi-line strings and after the first ``[table]`` header are not
        top-level keys.
        """
        places: dict[str, tuple[int, int]] = {}
        open_quote = ""
        for number, line in enumerate(text.splitlines(), 1):
            if open_quote:
                if line.count(open_quote) % 2 == 1:
                    open_quote = ""
                continue
            if _HEADER.match(line):
                break
            found = _KEY.match(line)
            if found:
                places.setdefault(found.group(1), (number, found.start(1) + 1))
            open_quote = next((q for q in ("'''", '"""') if line.count(q) % 2 == 1), "")
        return places

    def line(self, key: str) -> int:
        """The line ``key`` is written on (1 when it is not written)."""
        return self._places.get(key, (1, 1))[0]

    def at(self, key: str | None = None) -> str:
        """``path:line:col`` of ``key`` (the file's start for ``None`` or a missing key)."""
        line, col = self._places.get(key, (1, 1)) if key is not None else (1, 1)
        return f"{self.path}:{line}:{col}"

    def fail(self, key: str | None, message: str) -> Exception:
        """The caller's exception for a problem with ``key``, to raise."""
        return self.error(f"{self.at(key)}: {message}")

    def check_keys(
        self,
        known: Collection[str],
        required: Iterable[str] = (),
        hints: Mapping[str, str] | None = None,
    ) -> None:
        """Refuse an unknown key, then a missing required one.

        Args:
            known: Every key the file may have.
            required: Keys it must have.
            hints: Text added to the message of a missing key.

        Raises:
            Exception: ``error(...)`` for the first unknown or missing key.
        """
        for key in self.data:
            if key not in known:
                names = ", ".join(sorted(known))
                raise self.fail(key, f"unknown key {key!r} (known: {names})")
        for key in required:
            if key not in self.data:
                hint = (hints or {}).get(key, "")
                raise self.fail(None, f"missing key {key!r}{hint}")

    def get(self, key: str, *kinds: type, default: Any = _MISSING) -> Any:
        """The value of ``key``, checked to be one of ``kinds``.

        A whole number is accepted (and converted) where a float is asked for; true and
        false are not numbers.

        Raises:
            Exception: ``error(...)`` if the value has another type, or the key is
                missing and has no ``default``.
        """
        if key not in self.data:
            if default is _MISSING:
                raise self.fail(None, f"missing key {key!r}")
            return default
        return self.check(key, self.data[key], *kinds)

    def check(self, key: str, value: Any, *kinds: type) -> Any:
        """``value`` (written at ``key``) checked to be one of ``kinds``.

        Raises:
            Exception: ``error(...)`` if it has another type.
        """
        if isinstance(value, bool):
            ok = bool in kinds
        elif isinstance(value, int) and float in kinds and int not in kinds:
            return float(value)
        else:
            ok = isinstance(value, kinds)
        if not ok:
            raise self.fail(key, f"{key} must be {describe_kinds(kinds)}, got {value!r}")
        return value
