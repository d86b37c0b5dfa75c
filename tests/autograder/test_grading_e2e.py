"""End to end: real student files graded through the command, workers and all."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from autograder.cli import STARTER, main
from autograder.reading.case_folders import load_tree_cases

FIXTURES = Path(__file__).with_name("fixtures")
SOLUTION = FIXTURES / "solution" / "multi_agents.py"


def grade(tmp_path: Path, file: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "report.json"
    code = main([str(file), "--format", "json", "--output", str(out), *args])
    assert code == 0  # grading completed, whatever the score
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def results_by_name(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for q in report["questions"] for t in q["tests"]}


def test_reference_solution_scores_full_marks(tmp_path: Path) -> None:
    report = grade(tmp_path, SOLUTION)
    assert [q["name"] for q in report["questions"]] == ["q1", "q2", "q3", "q4", "q5"]
    assert [q["max_points"] for q in report["questions"]] == [4, 5, 5, 5, 6]
    failing = [t["name"] for t in results_by_name(report).values() if t["status"] != "passed"]
    assert failing == []
    assert report["score"] == report["max_score"] == 25


def test_starter_scores_zero_and_every_test_says_why(tmp_path: Path) -> None:
    report = grade(tmp_path, STARTER, "--timeout-scale", "0.2")
    assert report["score"] == 0
    tests = results_by_name(report)
    assert Counter(t["status"] for t in tests.values()) == Counter({"error": len(tests)})
    assert all(
        "NotImplementedError" in t["messages"][-1]
        or any("NotImplementedError" in m for m in t["messages"])
        for t in tests.values()
    )


def test_catalogued_bugs_fail_with_their_diagnosis(tmp_path: Path) -> None:
    report = grade(tmp_path, FIXTURES / "bugs" / "multi_agents.py", "-q", "q2", "-q", "q3")
    tests = results_by_name(report)
    q2 = {n: t for n, t in tests.items() if n.startswith("q2/")}
    q3 = {n: t for n, t in tests.items() if n.startswith("q3/")}
    assert {t["diagnosis"] for t in q2.values() if t["status"] == "failed"} == {"depth-per-agent"}
    assert {t["diagnosis"] for t in q3.values() if t["status"] == "failed"} == {"prune-on-equality"}
    assert any(t["status"] == "passed" for t in q3.values())  # only equality cases differ
    trace = q3["q3/alpha_beta-smallClassic"]
    assert trace["status"] == "failed"
    text = "\n".join(trace["messages"])
    assert "first move that differs is move 1" in text
    assert "Distinct states generated: expected" in text
    assert "%%%%" in text  # the board
    assert report["score"] == 0


def _one_case_per_depth() -> dict[int, str]:
    chosen: dict[int, str] = {}
    for case in load_tree_cases("minimax"):
        chosen.setdefault(case.depth, "q2/" + case.name.split("/", 1)[1])
    return chosen


def test_loops_exceptions_and_exits_cost_only_their_own_tests(tmp_path: Path) -> None:
    by_depth = _one_case_per_depth()
    assert {1, 2, 3, 4} <= set(by_depth)
    args = [a for d in (1, 2, 3, 4) for a in ("-t", by_depth[d])]
    report = grade(
        tmp_path, FIXTURES / "misbehaving" / "multi_agents.py", *args, "-j", "1",
        "--timeout-scale", "0.1",
    )  # fmt: skip
    tests = results_by_name(report)
    assert tests[by_depth[1]]["status"] == "timeout"  # while True: pass
    assert tests[by_depth[2]]["status"] == "passed"
    assert tests[by_depth[2]]["output"] == "thinking at depth 2\n"
    assert tests[by_depth[3]]["status"] == "error"
    assert "ZeroDivisionError" in tests[by_depth[3]]["messages"][1]
    assert "multi_agents.py:" in tests[by_depth[3]]["messages"][1]
    assert tests[by_depth[4]]["status"] == "error"  # os._exit(0)
    assert "exited with status 0" in tests[by_depth[4]]["messages"][1]


@pytest.mark.parametrize(
    ("question", "status", "needle"),
    [
        ("q3", "error", "called sys.exit(3)"),
        ("q4", "failed", "returned no usable action"),
    ],
)
def test_exit_and_non_action_answers_fail_cleanly(
    tmp_path: Path, question: str, status: str, needle: str
) -> None:
    name = f"{question}/{load_tree_cases('minimax')[0].name.split('/', 1)[1]}"
    report = grade(tmp_path, FIXTURES / "misbehaving" / "multi_agents.py", "-t", name)
    (test,) = results_by_name(report).values()
    assert test["status"] == status
    assert any(needle in m for m in test["messages"])


def test_syntax_error_fails_every_test_with_its_line(tmp_path: Path) -> None:
    report = grade(tmp_path, FIXTURES / "syntax_error" / "multi_agents.py", "-q", "q2")
    tests = results_by_name(report)
    assert len(tests) > 1
    for t in tests.values():
        assert t["status"] == "error"
        assert "SyntaxError" in t["messages"][0]
        assert "multi_agents.py:5" in t["messages"][0]


def test_game_trace_reports_a_non_action_answer(tmp_path: Path) -> None:
    report = grade(
        tmp_path, FIXTURES / "misbehaving" / "multi_agents.py", "-t", "q4/expectimax-smallClassic"
    )
    (test,) = results_by_name(report).values()
    assert test["status"] == "failed"
    assert "Your agent returned 42, not an action" in test["messages"][1]


def test_classic_camel_case_submission_scores_full_marks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "multiAgents.py").write_text((FIXTURES / "classic" / "multiAgents.py").read_text())
    monkeypatch.chdir(folder)  # found by its classic name
    out = tmp_path / "report.json"
    assert main(["--format", "json", "--output", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["file"] == "multiAgents.py"
    failing = [t["name"] for t in results_by_name(report).values() if t["status"] != "passed"]
    assert failing == []
    assert report["score"] == 25


def test_an_endless_loop_costs_a_question_two_timeouts_not_one_per_test(tmp_path: Path) -> None:
    from autograder.grading.suite import GIVE_UP_AFTER_TIMEOUTS

    looping = tmp_path / "multi_agents.py"
    looping.write_text(
        SOLUTION.read_text() + "\n\nclass AlphaBetaAgent(AlphaBetaAgent):  # noqa: F811\n"
        "    def get_action(self, state):\n"
        "        while True:\n"
        "            pass\n"
    )
    report = grade(tmp_path, looping, "-q", "q3", "-j", "1", "--timeout-scale", "0.25")
    tests = results_by_name(report)
    ran_out = [t for t in tests.values() if t["status"] == "timeout" and t["seconds"] > 0]
    not_run = [t for t in tests.values() if any(m.startswith("Not run:") for m in t["messages"])]
    assert len(ran_out) == GIVE_UP_AFTER_TIMEOUTS
    assert len(not_run) == len(tests) - GIVE_UP_AFTER_TIMEOUTS
    assert report["score"] == 0
