"""The argument parser shared by the project's commands: usage errors in one line."""

from __future__ import annotations

import argparse
from typing import NoReturn

__all__ = ["Parser"]


class Parser(argparse.ArgumentParser):
    """An `argparse.ArgumentParser` whose usage errors are one line and exit status 2.

    The standard parser prints its whole usage block before the error; with a dozen
    flags that buries the one line that matters. Here it is
    ``"prog: error: <what is wrong> (see prog --help)"``.
    """

    def error(self, message: str) -> NoReturn:
        """Print the problem in one line and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")
