"""The argument parser shared by the project's commands: usage errors in one line."""

from __future__ import annotations

import argparse
import difflib
from typing import NoReturn

__all__ = ["Parser"]

_UNRECOGNIZED = "unrecognized arguments: "


class Parser(argparse.ArgumentParser):
    """An `argparse.ArgumentParser` whose usage errors are one line and exit status 2.

    The standard parser prints its whole usage block before the error; with a dozen
    flags that buries the one line that matters. Here it is
    ``"prog: error: <what is wrong> (see prog --help)"``, and a mistyped flag gets the
    closest known flags as a hint (``--layot``: did you mean --layout?).
    """

    def error(self, message: str) -> NoReturn:
        """Print the problem in one line and exit with status 2."""
        self.exit(
            2, f"{self.prog}: error: {message}{self._hint(message)} (see {self.prog} --help)\n"
        )

    def _hint(self, message: str) -> str:
        if not message.startswith(_UNRECOGNIZED):
            return ""
        flags = [w for w in message[len(_UNRECOGNIZED) :].split() if w.startswith("-")]
        if not flags:
            return ""
        typed = flags[0].split("=", 1)[0]
        known = [s for action in self._actions for s in action.option_strings]
        close = difflib.get_close_matches(typed, known, n=3, cutoff=0.6)
        return f"; did you mean {', '.join(close)}?" if close else ""
