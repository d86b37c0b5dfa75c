"""``python -m autograder`` and ``python -m pacman`` in a folder of look-alike modules.

A student's folder may hold files named like modules the grader imports; with ``python
-m`` the current folder comes first on the import path, so such a file used to be
imported into the grader (as root, even with ``--run-as``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHADOWS = ["argparse", "typing", "json", "random", "textwrap", "dataclasses", "enum"]


@pytest.mark.parametrize("command", [["autograder", "--version"], ["pacman", "--version"]])
def test_modules_in_the_current_folder_do_not_shadow_ours(
    tmp_path: Path, command: list[str]
) -> None:
    for name in SHADOWS:
        (tmp_path / f"{name}.py").write_text(f"raise SystemExit('shadowed by {name}.py')\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", *command],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "shadowed" not in done.stdout + done.stderr
    assert done.returncode == 0, done.stderr
