"""Loading an agent file: the one loader of ``path/to/file.py`` for the game and the grader.

The ``pacman`` command, ``pacman eval`` and the autograder's worker all run a student's
file the same way: its own folder first on the import path (so it imports its helper
modules), the classic ``util`` and ``game`` modules last (so a classic file runs
unchanged, and the student's own ``util.py`` wins), then executed as a fresh module.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from pacman.classic import MODULES

__all__ = ["STUDENT_FILES", "import_file"]

STUDENT_FILES: tuple[str, ...] = ("multi_agents.py", "multiAgents.py")
"""The names of a student's file (ours, then the classic one), looked for in a folder."""


def import_file(path: str | Path, module_name: str) -> ModuleType:
    """Execute the Python file ``path`` as the module ``module_name`` and return it.

    The module is registered in `sys.modules` before it runs, as `import` does, so
    classes defined in it can be pickled and refer to their module.

    Args:
        path: The file to load.
        module_name: The name it gets in `sys.modules`.

    Returns:
        The executed module.

    Raises:
        ImportError: If the file cannot be loaded as a Python module.
        Exception: Whatever executing the file raises (a `SyntaxError`, its own errors).
    """
    resolved = Path(path).resolve()
    folder = str(resolved.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    if MODULES not in sys.path:
        sys.path.append(MODULES)
    spec = importlib.util.spec_from_file_location(module_name, resolved)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
