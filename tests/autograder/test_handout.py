"""``autograder handout``: what students get holds no answer, and its grader works (issue 11)."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import handout as handout_module
from autograder.cli import main
from autograder.handout import REFERENCE_FILES
from autograder.public import PUBLIC_FORMAT

FIXTURES = Path(__file__).parent / "fixtures"
SOLUTION = FIXTURES / "solution" / "multi_agents.py"

ANSWERS = frozenset(
    {"minimax", "alpha_beta", "expectimax", "better_evaluation", "reflex_evaluation",
     "flawed_search", "tied_best", "SearchAgent"}
)  # fmt: skip
"""Names of our searches and evaluations: defined nowhere in a handout but the starter's
stubs (which only raise "not written yet")."""


@pytest.fixture(scope="module")
def handout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("h") / "handout"
    assert main(["handout", "--output", str(folder)]) == 0
    return folder


def _run(handout: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(handout), "SDL_VIDEODRIVER": "dummy"}
    return subprocess.run(
        [sys.executable, *argv], cwd=handout, env=env, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip


def test_the_handout_holds_no_reference_search_code(handout: Path) -> None:
    for name in REFERENCE_FILES:
        assert not (handout / name).exists(), name
    starters = {handout / "multi_agents.py", handout / "autograder" / "starter" / "multi_agents.py"}
    for path in handout.rglob("*.py"):
        if path in starters:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {
            node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.ClassDef)
        }
        assert not defined & ANSWERS, (path, defined & ANSWERS)
    data = json.loads((handout / "autograder" / "public_cases.json").read_text())
    assert data["format"] == PUBLIC_FORMAT
    (q5,) = [q for q in data["questions"] if q["name"] == "q5"]
    assert q5["tests"][0]["agent"] == "ExpectimaxAgent"  # the student's own


def test_the_handout_cannot_import_our_searches(handout: Path) -> None:
    done = _run(handout, "-c", "import agents.search")
    assert done.returncode != 0
    assert "No module named 'agents.search'" in done.stderr


def test_the_handouts_grader_grades_the_public_tests(handout: Path) -> None:
    done = _run(handout, "-m", "autograder", str(SOLUTION))
    assert done.returncode == 0, done.stderr
    assert "Total: 25/25" in done.stdout
    done = _run(handout, "-m", "autograder", "multi_agents.py", "-q", "q2")
    assert done.returncode == 0, done.stderr
    assert "Total: 0/5" in done.stdout
    assert "not written yet" in done.stdout


def test_the_handouts_grader_fails_a_wrong_search(handout: Path) -> None:
    wrong = FIXTURES / "classic_corpus" / "bug_prune_on_equality" / "multiAgents.py"
    done = _run(handout, "-m", "autograder", str(wrong), "-q", "q3")
    assert done.returncode == 0, done.stderr
    assert "Total: 0/5" in done.stdout
    assert "FAIL" in done.stdout


def test_the_handouts_pacman_command_plays(handout: Path) -> None:
    done = _run(handout, "-m", "pacman", "-l", "testClassic", "-q", "-n", "1", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "Win Rate:" in done.stdout
    done = _run(
        handout, "-m", "pacman", "-l", "testClassic", "-q", "-p", "MinimaxAgent", "-a", "depth=1"
    )
    # The folder holds the starter: its (unwritten) MinimaxAgent plays, not ours.
    assert "playing MinimaxAgent from multi_agents.py" in done.stderr


def test_an_installed_autograder_writes_a_handout_with_the_layouts(tmp_path: Path) -> None:
    """Installed, the layouts live in ``pacman/layouts``: the handout still gets them."""
    root = Path(__file__).resolve().parents[2]
    site = tmp_path / "site"  # the shape a wheel installs: no top-level layouts folder
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("pacman", "agents", "autograder"):
        shutil.copytree(root / package, site / package, ignore=ignore)
    shutil.copytree(root / "layouts", site / "pacman" / "layouts")
    out = tmp_path / "handout"
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "handout", "--output", str(out)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shipped = sorted(p.name for p in (root / "layouts").iterdir())
    assert sorted(p.name for p in (out / "layouts").iterdir()) == shipped
    assert not (out / "pacman" / "layouts").exists()  # one copy, where pyproject maps it


def test_a_handout_entry_missing_from_the_installation_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(handout_module, "_ROOT", tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError, match="missing from this installation"):
        handout_module.build_handout(tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing half-written
