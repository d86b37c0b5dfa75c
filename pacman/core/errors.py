"""The exception hierarchy: every error the engine raises derives from `PacmanError`."""

from __future__ import annotations

__all__ = [
    "AgentError",
    "IllegalActionError",
    "LayoutError",
    "PacmanError",
    "RecordError",
    "RenderingUnavailableError",
    "TerminalStateError",
    "describe_exception",
]


class PacmanError(Exception):
    """Root of all errors raised by this project."""


class LayoutError(PacmanError, ValueError):
    """A layout file or text is malformed, or a layout name is unknown.

    The message names the file, line and column where that makes sense, as
    ``"path:line:col: problem"``.
    """


class IllegalActionError(PacmanError, ValueError):
    """An agent asked for an action that is not legal in the current state."""


class TerminalStateError(PacmanError, RuntimeError):
    """A successor was requested from a state that is already won or lost."""


class AgentError(PacmanError, ValueError):
    """An agent specification is wrong: unknown name, bad argument, unloadable file."""


class RecordError(PacmanError, ValueError):
    """A saved game record cannot be read or replayed.

    It is unreadable, not JSON, malformed, or its moves do not give its recorded scores
    and outcome. The message names the file when there is one (``"path:line:col: problem"``
    for bad JSON).
    """


class RenderingUnavailableError(PacmanError, RuntimeError):
    """Rendering was requested but pygame or a display is not available."""


def describe_exception(exc: BaseException) -> str:
    r"""``"Type: message"`` for an exception from an agent, whatever its ``__str__`` does.

    An agent's exception may fail to print itself (a ``__str__`` that raises) or print
    text that cannot be encoded (a lone surrogate): the description never raises and
    is always plain, encodable text.

    >>> describe_exception(ValueError(chr(0xDCFF)))
    'ValueError: \\udcff'
    """
    name = type(exc).__name__
    try:
        text = str(exc)
    except Exception:  # its __str__ raised
        return f"{name} (its message could not be shown)"
    if not isinstance(text, str):  # pragma: no cover - str() always gives a str
        return name
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return f"{name}: {text}" if text else name
