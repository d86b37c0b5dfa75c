"""A test never fails for another test's crash, and each test sees only its own output."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from autograder.cli import main

BASE = "from autograder.sandbox.student import MultiAgentSearchAgent\n"


def grade(tmp_path: Path, source: str, *args: str) -> list[dict[str, Any]]:
    path = tmp_path / "multi_agents.py"
    path.write_text(BASE + textwrap.dedent(source))
    out = tmp_path / "report.json"
    assert main([str(path), "--format", "json", "--output", str(out), "-j", "1", *args]) == 0
    return [t for q in json.loads(out.read_text())["questions"] for t in q["tests"]]


def test_a_recursion_error_does_not_corrupt_the_tests_after_it(tmp_path: Path) -> None:
    tests = grade(
        tmp_path,
        """
        def forever(state):
            return forever(state.successor(0, state.legal_actions(0)[0]))

        class MinimaxAgent(MultiAgentSearchAgent):
            def get_action(self, state):
                return forever(state)

        class AlphaBetaAgent(MultiAgentSearchAgent):
            def get_action(self, state):
                return state.legal_actions(0)[0]
        """,
        "-q",
        "q2",
        "-q",
        "q3",
    )
    crashed = [t for t in tests if "RecursionError" in json.dumps(t)]
    assert crashed
    others = [t for t in tests if t not in crashed]
    broken = [
        (t["name"], t["messages"][:2])
        for t in others
        if "unknown worker command" in json.dumps(t) or "malformed message" in json.dumps(t)
    ]
    assert broken == []
    q3 = [t for t in tests if t["question"] == "q3"]
    assert all(t["status"] in ("passed", "failed") for t in q3)  # graded, not broken


def test_each_test_shows_its_own_output_without_leftovers(tmp_path: Path) -> None:
    tests = grade(
        tmp_path,
        """
        class MinimaxAgent(MultiAgentSearchAgent):
            def get_action(self, state):
                print("hello")
                return state.legal_actions(0)[0]
        """,
        "-q",
        "q2",
    )
    outputs = {t["output"] for t in tests if t["name"] != "q2/minimax-smallClassic"}
    assert outputs == {"hello\n"}


def test_the_print_limit_counts_per_test(tmp_path: Path) -> None:
    # 3 MB a test: over ten tests far more than the 8 MB a test may print.
    tests = grade(
        tmp_path,
        """
        class MinimaxAgent(MultiAgentSearchAgent):
            def get_action(self, state):
                print("x" * 3_000_000)
                return state.legal_actions(0)[0]
        """,
        "-t",
        *[
            arg
            for name in ("chain-2agents-depth2", "chain-2agents-depth3", "lecture-3x3", "tied-root")
            for arg in ("-t", f"q2/{name}")
        ][1:],
    )
    assert len(tests) == 4
    assert all(t["status"] == "failed" for t in tests), [t["messages"][:2] for t in tests]
