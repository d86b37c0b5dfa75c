from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("pacman", "agents", "autograder")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found - listed == set(), "add these packages to [tool.setuptools] packages"
    assert "pacman.layouts" in listed


def test_core_agents_and_autograder_import_no_heavy_modules() -> None:
    code = (
        "import sys; import pacman.core, agents, autograder.tree;"
        "bad = [m for m in ('pygame', 'numpy', 'gymnasium') if m in sys.modules];"
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_shipped_layouts_have_their_attribution() -> None:
    assert (ROOT / "layouts" / "ATTRIBUTION.md").is_file()
    assert len(list((ROOT / "layouts").glob("*.lay"))) == 11
