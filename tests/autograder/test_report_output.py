"""The autograder's output as a student meets it (issue 13): a short report by default,
questions printed as they finish, honest partial runs and messages in the file's own names."""

from __future__ import annotations

import io
import json
import random
import re
import textwrap
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.grading.suite import QUESTIONS, question_result
from autograder.reports.report import LiveReport, text_report
from autograder.results import TestResult

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "autograder" / "starter" / "multi_agents.py"
FIXTURES = Path(__file__).parent / "fixtures"
CLASSIC = FIXTURES / "classic_corpus" / "a_textbook_first_tie" / "multiAgents.py"
PRUNES_ON_EQUALITY = FIXTURES / "classic_corpus" / "bug_prune_on_equality" / "multiAgents.py"


def grade_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("file", [STARTER, PRUNES_ON_EQUALITY])
def test_the_default_report_is_short_and_verbose_shows_every_test(
    capsys: pytest.CaptureFixture[str], file: Path
) -> None:
    short = grade_text(capsys, str(file))
    verbose = grade_text(capsys, str(file), "--verbose")
    assert len(short.splitlines()) <= 80  # was 240 for the starter, 774+ for a bug
    assert len(verbose.splitlines()) > 3 * len(short.splitlines())
    assert "--verbose shows every test" in short
    for q in ("q1", "q2", "q3", "q4", "q5"):
        assert any(line.startswith(f"{q}: ") for line in short.splitlines())
    # Every test has its line in the verbose report.
    listed = grade_text(capsys, "--list")
    names = [line.split()[0] for line in listed.splitlines() if line.startswith("    ")]
    for name in names:
        assert f" {name} " in verbose


def test_a_failing_question_shows_its_likely_bug_and_first_failure_in_full(
    capsys: pytest.CaptureFixture[str],
) -> None:
    short = grade_text(capsys, str(PRUNES_ON_EQUALITY), "-q", "q3")
    assert "q3: Alpha-beta pruning (all tests must pass): 0/5" in short
    assert "prunes when a value equals the bound" in short  # the likely bug
    assert "Search trace" in short or "first move that differs" in short  # one in full


def _fake(question: str, index: int, passed: bool) -> TestResult:
    return TestResult(
        f"{question}/t{index}",
        question,
        "passed" if passed else "failed",
        messages=("it did this",),
    )


def test_questions_are_printed_as_soon_as_they_are_done_in_order() -> None:
    rng = random.Random(3)
    tests = {q.name: [_fake(q.name, i, rng.random() < 0.8) for i in range(4)] for q in QUESTIONS}
    order = [(q, [t.name for t in ts]) for q, ts in tests.items()]
    by_name = {q.name: q for q in QUESTIONS}
    out = io.StringIO()
    live = LiveReport(order, out, lambda n, ts: question_result(by_name[n], ts), file="f.py")
    assert out.getvalue() == "Grading f.py\n\n"
    # q2's tests finish first, in reverse: nothing is printed until q1 is done too.
    for t in reversed(tests["q2"]):
        live.on_result(t)
    assert "q2:" not in out.getvalue()
    for t in tests["q1"]:
        live.on_result(t)
    text = out.getvalue()
    assert text.index("q1:") < text.index("q2:")
    assert "q3:" not in text
    for q in ("q3", "q4", "q5"):
        for t in tests[q]:
            live.on_result(t)
    results = [question_result(by_name[q], ts) for q, ts in tests.items()]
    live.finish(results, 0.5)
    assert out.getvalue() == text_report(results, file="f.py", seconds=0.5)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_on_a_terminal_only() -> None:
    q = QUESTIONS[1]
    order = [(q.name, ["q2/t0", "q2/t1"])]
    for stream, drawn in ((_Terminal(), True), (io.StringIO(), False)):
        live = LiveReport(
            order,
            io.StringIO(),
            lambda n, ts: question_result(q, ts),
            progress_stream=stream,
        )
        live.on_result(_fake("q2", 0, True))
        assert ("1/2 tests" in stream.getvalue()) is drawn


def test_a_test_of_another_question_is_named_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(STARTER), "-q", "q2", "-t", "q3/lecture-3x3"]) == 1
    err = capsys.readouterr().err
    assert "'q3/lecture-3x3' is in q3, not in the questions chosen with -q (q2)" in err


def test_one_test_does_not_claim_its_questions_points(capsys: pytest.CaptureFixture[str]) -> None:
    solution = FIXTURES / "solution" / "multi_agents.py"
    text = grade_text(capsys, str(solution), "-t", "q2/lecture-3x3")
    assert "?/5" in text
    assert "5/5" not in text
    assert "Partial run: 1 of the" in text
    assert "0/0" in text  # the unclaimed question is left out of the total


def test_messages_use_the_names_of_a_classic_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(CLASSIC), "-q", "q5", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (test,) = report["questions"][0]["tests"]
    text = "\n".join(test["messages"])
    assert "betterEvaluationFunction" in text
    assert "better_evaluation" not in text


def test_a_timeout_says_which_line_was_running(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    file = tmp_path / "multi_agents.py"
    file.write_text(
        textwrap.dedent(
            """\
            from autograder.student import MultiAgentSearchAgent


            class MinimaxAgent(MultiAgentSearchAgent):
                def get_action(self, state):
                    print("thinking")
                    while True:
                        pass
            """
        )
    )
    assert main([str(file), "-t", "q2/lecture-3x3", "--format", "json"]) == 0
    (question,) = json.loads(capsys.readouterr().out)["questions"]
    (test,) = question["tests"]
    assert test["status"] == "timeout"
    # The loop is lines 7-8 (`while True:` / `pass`): either is where it was.
    stuck = re.compile(r"running line [78] of multi_agents.py, in get_action")
    assert any(stuck.search(m) for m in test["messages"]), test["messages"]
    assert test["output"] == "thinking\n"  # the stack dump is not the student's output
