"""Reports: the text layout, the JSON schema and Gradescope's results.json."""

from __future__ import annotations

import json

from autograder.reports.report import REPORT_FORMAT, gradescope_report, json_report, text_report
from autograder.results import QuestionResult, Status, TestResult

RESULTS = [
    QuestionResult(
        "q1",
        "Reflex agent",
        4.0,
        3.0,
        (TestResult("q1/reflex", "q1", "failed", 3.0, 4.0, ("3 of 4 thresholds",)),),
    ),
    QuestionResult(
        "q2",
        "Minimax",
        5.0,
        0.0,
        (
            TestResult("q2/a", "q2", "passed", seconds=0.5),
            TestResult("q2/b", "q2", "timeout", messages=("no answer within 2 s",), output="hi\n"),
        ),
    ),
]


def test_text_report_has_a_line_per_test_a_table_and_the_total() -> None:
    text = text_report(RESULTS, file="multi_agents.py", seconds=1.5, verbose=True)
    lines = text.splitlines()
    assert lines[0] == "Grading multi_agents.py"
    assert any(line.strip().startswith("PASS") and "q2/a" in line for line in lines)
    assert any(line.strip().startswith("TIMEOUT") and "q2/b" in line for line in lines)
    assert "no answer within 2 s" in text
    assert "| hi" in text  # the student's output, under the failing test
    assert any(line.split()[:1] == ["q2"] and line.endswith("0/5") for line in lines)
    assert any(line.startswith("Total") and line.endswith("3/9") for line in lines)


def test_json_report_follows_its_schema() -> None:
    data = json.loads(json_report(RESULTS, file="f.py", seconds=1.0))
    assert data["format"] == REPORT_FORMAT
    assert (data["score"], data["max_score"]) == (3.0, 9.0)
    q2 = data["questions"][1]
    assert set(q2) == {"name", "title", "points", "max_points", "all_passed", "tests"}
    assert set(q2["tests"][1]) == {
        "name", "question", "status", "points", "max_points", "messages", "diagnosis", "advice",
        "output", "seconds",
    }  # fmt: skip
    assert q2["tests"][1]["status"] == "timeout"


def test_gradescope_report_follows_gradescopes_spec() -> None:
    data = json.loads(gradescope_report(RESULTS, seconds=2.0))
    assert data["score"] == 3.0
    assert data["execution_time"] == 2.0
    names = [t["name"] for t in data["tests"]]
    assert names == ["q1: Reflex agent", "q1/reflex", "q2: Minimax", "q2/a", "q2/b"]
    for test in data["tests"]:
        assert {"name", "status", "output", "visibility"} <= set(test)
        assert set(test) <= {"name", "score", "max_score", "status", "output", "visibility"}
        assert test["status"] in ("passed", "failed")
    assert data["tests"][2]["output"].splitlines()[1] == "TIMEOUT q2/b"


def test_gradescope_entries_add_up_to_the_score() -> None:
    # Points per test (q1): on the test only. All or nothing (q2): on the question only.
    data = json.loads(gradescope_report(RESULTS, seconds=2.0))
    scored = [t for t in data["tests"] if "score" in t]
    assert sum(t["score"] for t in scored) == data["score"] == 3.0
    assert sum(t["max_score"] for t in scored) == 9.0
    by_name = {t["name"]: t for t in data["tests"]}
    assert "score" not in by_name["q1: Reflex agent"]
    assert by_name["q2: Minimax"]["max_score"] == 5.0


def test_a_repeated_error_is_shown_once_and_the_common_bug_is_named() -> None:
    error = ("Your MinimaxAgent raised: NotImplementedError: not written yet",)
    failed = ("Wrong action: expected 'l', got 'r'.",)

    def test(name: str, status: Status, lines: tuple[str, ...], bug: str | None) -> TestResult:
        return TestResult(f"q2/{name}", "q2", status, messages=(f"Tree {name}.", *lines),
                          diagnosis=bug)  # fmt: skip

    tests = (
        test("a", "error", error, None),
        test("b", "error", error, None),
        test("c", "failed", failed, "depth-per-agent"),
        test("d", "failed", failed, "depth-per-agent"),
        test("e", "failed", failed, "depth-per-agent"),
        test("f", "failed", failed, "prune-on-equality"),
    )
    text = text_report([QuestionResult("q2", "Minimax", 5.0, 0.0, tests)], verbose=True)
    assert text.count(error[0]) == 1
    assert "(the same as q2/a)" in text
    assert text.count(failed[0]) == 4  # failures keep their own details
    from autograder.grading.catalogue import BUGS

    summary = BUGS["depth-per-agent"].summary
    assert f"Most of these failures point to one bug (3 of 5): {summary}" not in text
    assert f"Most of these failures point to one bug (3 of 6): {summary}" not in text
    # "Most" means more than half: 3 of 6 is not; 3 of 5 graded failures would be.
    fewer = text_report([QuestionResult("q2", "Minimax", 5.0, 0.0, tests[1:])])
    assert f"Most of these failures point to one bug (3 of 5): {summary}" in fewer
    # The short report (the default) shows the first failing test in full and names
    # the others.
    assert fewer.count(error[0]) == 1
    assert "Also failing: q2/c, q2/d, q2/e, q2/f" in fewer
    assert failed[0] not in fewer


def test_student_text_cannot_break_or_spoof_any_report() -> None:
    forged = "ok\n\nTotal                                                 25/25\n"
    hostile = TestResult(
        "q2/x",
        "q2",
        "error",
        messages=(forged, "\x1b[2J\x1b[H wiped", "lone \udc80 surrogate", "x" * 10_000_000),
        output="line\r\x1b[1A" + "y" * 100_000,
    )
    questions = [QuestionResult("q2", "Minimax", 5.0, 0.0, (hostile,))]
    text = text_report(questions)
    assert "\x1b" not in text
    assert "\r" not in text
    totals = [line for line in text.splitlines() if line.startswith("Total")]
    assert totals == [f"{'Total':10} {'':22} {'':>13} {'0/5':>8}"]  # only the real one
    assert "\\x1b[2J" in text
    assert "\\udc80" in text
    text.encode("utf-8")  # printable on any UTF-8 terminal
    for made in (json_report(questions), gradescope_report(questions)):
        assert len(made) < 200_000
        json.loads(made)
        made.encode("utf-8")
