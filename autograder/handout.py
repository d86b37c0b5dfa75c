"""``autograder handout``: the folder students get, with no answer inside.

`pip install .` of this project gives anyone our reference searches (`agents.search`,
`agents.players`) and evaluation functions (`agents.evaluation`): the answers to q2-q5.
The handout holds what a student needs and none of that:

- the engine, the window and the environments (`pacman`, the layouts);
- the ghosts and a random Pacman (`agents.ghosts`), with a small ``agents`` package;
- the starter ``multi_agents.py`` and the base class it imports;
- the public grader (`autograder.public`) with the worker it grades in, and the public
  tests' expected answers as data (``public_cases.json``), computed here by the full
  grader. q5 there plays the student's own expectimax, as the classic grader does.

The full grader (reference searches, diagnosis of bugs by reproducing them, every case)
stays with the staff and in the Gradescope package.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final

from autograder.algorithms import algorithm as algorithm_row
from autograder.grading.eval_games import EvalAgentCase
from autograder.grading.suite import TREE_SECONDS, TestSpec, build_suite, questions
from autograder.grading.traces import GameTraceCase
from autograder.grading.trees import accepted_answers, is_advice
from autograder.public import PUBLIC_FORMAT
from autograder.reading.tree_cases import TreeCase
from pacman.core.layout import shipped_layout_dir

__all__ = ["HANDOUT_FILES", "REFERENCE_FILES", "build_handout", "public_cases"]

_ROOT: Final = Path(__file__).resolve().parents[1]

HANDOUT_FILES: Final = (
    "pacman",
    "layouts",
    "agents/ghosts.py",
    "agents/protocol.py",
    "agents/py.typed",
    "autograder/__init__.py",
    "autograder/public.py",
    "autograder/student.py",
    "autograder/results.py",
    "autograder/tree.py",
    "autograder/sandbox",
    "autograder/grading/workers.py",
    "autograder/grading/keeper.py",
    "autograder/grading/servers.py",
    "autograder/starter",
)
"""What is copied from this project into the handout (files and whole folders)."""

REFERENCE_FILES: Final = (
    "agents/search.py",
    "agents/players.py",
    "agents/evaluation.py",
    "autograder/grading/catalogue.py",
    "autograder/algorithms.py",
)
"""Files holding our searches or evaluations: never in a handout (a test checks)."""

_AGENTS_INIT: Final = '''"""The handout's agents: the ghosts and a random Pacman (no search)."""

from agents.ghosts import DirectionalGhost, RandomAgent, RandomGhost

__all__ = ["DirectionalGhost", "RandomAgent", "RandomGhost"]
'''

_GRADING_INIT: Final = '''"""The grader's side of the worker, for the public grader."""
'''

_MAIN: Final = '''"""``python -m autograder`` in the handout: the public tests."""

import sys

from autograder.public import main

sys.exit(main())
'''

_PYPROJECT: Final = """[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "pacman-multiagent-handout"
version = "0.1.0"
description = "Pacman multi-agent search: the student handout"
requires-python = ">=3.11"
dependencies = ["pygame-ce>=2.5", "gymnasium>=1.0", "pettingzoo>=1.24", "numpy>=1.26"]

[project.scripts]
pacman = "pacman.cli:main"
autograder = "autograder.public:main"

[tool.setuptools]
packages = [
    "agents", "autograder", "autograder.grading", "autograder.sandbox", "pacman",
    "pacman.batch", "pacman.classic", "pacman.core", "pacman.envs", "pacman.layouts",
    "pacman.render",
]

[tool.setuptools.package-dir]
"pacman.layouts" = "layouts"

[tool.setuptools.package-data]
"pacman" = ["py.typed"]
"pacman.layouts" = ["*.lay", "*.md"]
"pacman.classic" = ["modules/*.py"]
"autograder" = ["public_cases.json", "starter/*.py"]
"""

_README: Final = """# Pacman multi-agent search: your handout

Install it (`pip install .`), write your agents in `multi_agents.py`, then:

    pacman -p multi_agents.py:AlphaBetaAgent -a depth=2 -l smallClassic   # watch it play
    autograder                                                           # the public tests
    autograder -q q2                                                     # one question

The public tests are a part of what the course grades. Their expected answers are data
(`autograder/public_cases.json`); the course's grader also names the bug behind a wrong
answer.
"""


def _tree_test(spec: TestSpec) -> dict[str, Any]:
    case: TreeCase = spec.case
    game = case.game
    edges = [
        (state, action, nxt)
        for state, children in {**game.successors, **game.ignored_edges}.items()
        for action, nxt in children
    ]
    return {
        "kind": "tree",
        "name": spec.name,
        "agent": algorithm_row(case.algorithm).student_class,
        "depth": case.depth,
        "start": game.start,
        "edges": edges,
        "values": game.evaluation,
        "num_agents": game.num_agents,
        "win": sorted(game.win_states),
        "lose": sorted(game.lose_states),
        "accepted": [[sorted(a.actions), sorted(a.generated)] for a in accepted_answers(case)],
        "advice": is_advice(case),
        "seconds": TREE_SECONDS,
    }


def _trace_test(spec: TestSpec) -> dict[str, Any]:
    case: GameTraceCase = spec.case
    assert case.trace is not None
    assert case.board is not None
    trace = case.trace
    return {
        "kind": "trace",
        "name": spec.name,
        "agent": algorithm_row(case.algorithm).student_class,
        "depth": case.depth,
        "layout": case.board.name,
        "layout_text": case.board.to_text(),
        "num_ghosts": case.num_ghosts,
        "seed": case.seed,
        "actions": list(trace.actions),
        "moves": [
            [[sorted(best), count] for best, count in trace.accepted(turn)]
            for turn in range(len(trace.best))
        ],
        "move_seconds": case.move_seconds,
        "seconds": case.test_seconds,
    }


def _eval_test(spec: TestSpec) -> dict[str, Any]:
    case: EvalAgentCase = spec.case
    assert case.board is not None
    return {
        "kind": "eval",
        "name": spec.name,
        # The student's own agent: for q5 their expectimax, as the classic q5 plays.
        "agent": case.agent,
        "depth": case.depth,
        "evaluation": case.evaluation,
        "layout": case.board.name,
        "layout_text": case.board.to_text(),
        "ghosts": case.ghosts,
        "num_ghosts": case.num_ghosts,
        "num_games": case.num_games,
        "seed": case.seed,
        "move_seconds": case.move_seconds,
        "seconds": case.test_seconds,
        "points": case.max_points,
        "wins_minimum": case.wins_minimum,
        "score_thresholds": list(case.score_thresholds),
        "wins_thresholds": list(case.wins_thresholds),
        "non_timeout_thresholds": list(case.non_timeout_thresholds),
    }


def public_cases(specs: Iterable[TestSpec] | None = None) -> dict[str, Any]:
    """The public tests with their accepted answers, as ``public_cases.json`` holds them."""
    specs = list(build_suite() if specs is None else specs)
    export = {"tree": _tree_test, "trace": _trace_test, "eval": _eval_test}
    return {
        "format": PUBLIC_FORMAT,
        "questions": [
            {
                "name": q.name,
                "title": q.title,
                "points": q.points,
                "all_or_nothing": q.all_or_nothing,
                "tests": [export[s.kind](s) for s in specs if s.question == q.name],
            }
            for q in questions()
        ],
    }


def _source(name: str) -> Path:
    """Where the handout entry ``name`` comes from, in a source tree or an installed package.

    The layouts are the one entry whose place differs: the top-level ``layouts`` folder of
    the source tree is installed as ``pacman/layouts``.

    Raises:
        FileNotFoundError: If this installation lacks the entry.
    """
    if name == "layouts":
        found = shipped_layout_dir()
        if found is not None:
            return found
    source = _ROOT / name
    if not source.exists():
        raise FileNotFoundError(
            f"cannot build a handout: {source} is missing from this installation of the "
            "autograder (reinstall the package, or run from its source tree)"
        )
    return source


def _ignore_in(root: Path, ignore: Callable[[str, list[str]], set[str]]) -> Any:
    """``ignore``, plus the installed ``pacman/layouts`` (the handout has ``layouts``)."""
    installed_layouts = root / "layouts" if root.name == "pacman" else None

    def skip(directory: str, names: list[str]) -> set[str]:
        skipped = set(ignore(directory, names))
        if installed_layouts is not None and Path(directory) == installed_layouts.parent:
            skipped.add("layouts")
        return skipped

    return skip


def build_handout(folder: Path) -> Path:
    """Write the student handout into ``folder`` (which must not exist yet).

    Raises:
        FileExistsError: If ``folder`` exists.
    """
    folder = Path(folder)
    if folder.exists():
        raise FileExistsError(f"{folder} already exists")
    sources = [(name, _source(name)) for name in HANDOUT_FILES]  # all found, or nothing written
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name, source in sources:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=_ignore_in(source, ignore))
        else:
            shutil.copyfile(source, target)
    (folder / "agents" / "__init__.py").write_text(_AGENTS_INIT, encoding="utf-8")
    (folder / "autograder" / "grading" / "__init__.py").write_text(_GRADING_INIT)
    (folder / "autograder" / "__main__.py").write_text(_MAIN, encoding="utf-8")
    (folder / "autograder" / "public_cases.json").write_text(
        json.dumps(public_cases()), encoding="utf-8"
    )
    (folder / "pyproject.toml").write_text(_PYPROJECT, encoding="utf-8")
    (folder / "README.md").write_text(_README, encoding="utf-8")
    shutil.copyfile(
        _ROOT / "autograder" / "starter" / "multi_agents.py", folder / "multi_agents.py"
    )
    return folder
