from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(code: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return proc.stdout.strip()


@pytest.mark.parametrize(
    "imports", ["import pacman; import gymnasium", "import gymnasium; import pacman"]
)
def test_env_is_registered_whichever_is_imported_first(imports: str) -> None:
    assert run(f"{imports}; print('pacman/Pacman-v0' in gymnasium.registry)") == "True"


def test_import_pacman_does_not_load_gymnasium_or_numpy() -> None:
    code = "import sys, pacman; print([m for m in ('gymnasium', 'numpy') if m in sys.modules])"
    assert run(code) == "[]"
