"""The autograder: grades student search agents against reference trees and real games.

Run it as ``autograder`` (or ``python -m autograder``). It is laid out by layer:

- `autograder.algorithms`: the table of graded algorithms everything else derives from;
  `autograder.tree` (explicit game trees), `autograder.diagram`, `autograder.results`;
- `autograder.reading`: case files (TOML trees and games, classic ``.test`` files);
- `autograder.grading`: tree tests, game traces, evaluation games, the bug catalogue, the
  suite, and the grader's side of the worker;
- `autograder.sandbox`: what runs in the worker process next to the student's code, and
  the only part of the autograder a submission may import;
- `autograder.reports`: text, JSON and Gradescope reports; `autograder.cli`.

The names below are loaded on first use rather than with the package: the worker imports
this package (for `autograder.sandbox`) and must not load the grader's modules with it.

>>> from autograder import BUGS
>>> "depth-per-agent" in BUGS
True
"""

from __future__ import annotations

# `python -m` puts the current folder first on the import path. When that folder is not
# this project's (a student's folder, say), a file there named like a module we import
# (argparse.py, typing.py, ...) would be imported in its place: drop the folder first.
import os as _os
import sys as _sys

if (
    _sys.argv[:1] == ["-m"]
    and _sys.path
    and _sys.path[0] in ("", _os.getcwd())
    and not __file__.startswith(_os.getcwd() + _os.sep)
):
    del _sys.path[0]

import importlib
from typing import Any

__all__ = [
    "ALGORITHMS",
    "BUGS",
    "MultiAgentSearchAgent",
    "diagnose",
    "generate_tree_solutions",
    "load_tree_cases",
]

_EXPORTS = {
    "ALGORITHMS": "autograder.algorithms",
    "BUGS": "autograder.grading.catalogue",
    "MultiAgentSearchAgent": "autograder.sandbox.student",
    "diagnose": "autograder.grading.catalogue",
    "generate_tree_solutions": "autograder.grading.trees",
    "load_tree_cases": "autograder.reading.case_folders",
}
"""Each exported name and the module that defines it."""


def __getattr__(name: str) -> Any:
    """Load an exported name from its module on first use."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'autograder' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
