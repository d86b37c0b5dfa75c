"""Reports of a grading run: text for people, JSON for scripts, results.json for Gradescope.

JSON report (``--format json``), format ``"autograder-report/1"``::

    {
      "format": "autograder-report/1",
      "file": "path/to/multi_agents.py",
      "score": 25.0, "max_score": 25.0, "seconds": 2.1,
      "questions": [
        {"name": "q2", "title": "Minimax", "points": 5.0, "max_points": 5.0,
         "all_passed": true,
         "tests": [
           {"name": "q2/lecture-3x3", "question": "q2", "status": "passed",
            "points": 0.0, "max_points": 0.0, "messages": ["..."],
            "diagnosis": null, "output": "", "seconds": 0.01}
         ]}
      ]
    }

``status`` is one of ``passed``, ``failed``, ``error`` (the student's code raised or
its process died) and ``timeout``; ``advice`` is true for a test beyond the classic
contract, shown to help and never counted (SPEC section 6); ``diagnosis`` names the
likely bug when one was recognised; ``output`` is what the student's code printed (capped). Tests of
all-or-nothing questions (q2-q4) carry 0 points each; their question scores.

Gradescope report (``--format gradescope``) follows Gradescope's ``results.json``
specification: a top-level ``score``, ``execution_time`` and ``output``, and ``tests``,
one entry per question and one per test, each with ``name``, ``score``,
``max_score``, ``status`` (``passed`` / ``failed``), ``output`` and ``visibility``.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TextIO

from autograder.grading.catalogue import BUGS
from autograder.grading.workers import OUTPUT_SHOWN_CHARS
from autograder.results import QuestionResult, TestResult
from pacman.progress import Progress

__all__ = [
    "REPORT_FORMAT",
    "LiveReport",
    "gradescope_report",
    "heading",
    "json_report",
    "question_block",
    "summary_table",
    "text_report",
    "total",
]

REPORT_FORMAT: Final = "autograder-report/1"
"""The ``format`` tag of JSON reports."""

_MARKS: Final = {"passed": "PASS", "failed": "FAIL", "error": "ERROR", "timeout": "TIMEOUT"}


def _mark(t: TestResult) -> str:
    """The test's verdict word; a failed advice test reads ``ADVICE`` (it costs nothing)."""
    return "ADVICE" if t.advice and not t.passed else _MARKS[t.status]


def _graded(q: QuestionResult) -> list[TestResult]:
    return [t for t in q.tests if not t.advice]


def total(questions: Sequence[QuestionResult]) -> tuple[float, float]:
    """Points scored and available over all questions."""
    return sum(q.points for q in questions), sum(q.max_points for q in questions)


MESSAGE_CHARS: Final = 2000
"""The longest message line a report shows (longer ones are cut, saying how much)."""
MESSAGE_LINES: Final = 300
"""The most message lines a report shows for one test."""

_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _escape(text: str, *, keep_newlines: bool, limit: int) -> str:
    r"""Text from a submission made safe to print and to store, and capped.

    Control characters (ANSI escapes, carriage returns, NUL ...) are shown as ``\xNN``, so
    no message can move the cursor or forge a line of the report; a lone surrogate is
    shown as ``\udcNN`` instead of breaking the output's encoding.
    """
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if not keep_newlines:
        text = text.replace("\n", "\\n")
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    if len(text) > limit:
        text = f"{text[:limit]}... ({len(text) - limit} more characters)"
    return text


def _messages(t: TestResult) -> list[str]:
    lines = [_escape(m, keep_newlines=False, limit=MESSAGE_CHARS) for m in t.messages]
    if len(lines) > MESSAGE_LINES:
        lines = [*lines[:MESSAGE_LINES], f"... ({len(lines) - MESSAGE_LINES} more lines)"]
    return lines


def _output(t: TestResult) -> str:
    return _escape(t.output, keep_newlines=True, limit=OUTPUT_SHOWN_CHARS)


def _num(x: float) -> str:
    return f"{x:g}"


def _test_details(t: TestResult, indent: str) -> list[str]:
    lines = [indent + m for m in _messages(t)]
    output = _output(t)
    if output:
        lines.append(indent + "Your code printed:")
        lines.extend(indent + "| " + line for line in output.rstrip("\n").split("\n"))
    return lines


ALSO_FAILING_SHOWN: Final = 5
"""How many other failing tests the short report names per question."""


def text_report(
    questions: Sequence[QuestionResult],
    *,
    file: str = "",
    seconds: float = 0.0,
    verbose: bool = False,
    selected: Mapping[str, tuple[int, int]] | None = None,
) -> str:
    """The human report: a block per question, then a table and the total.

    By default each question's block is short: its points, the likely bug, the first
    failing test in full and the names of the others. ``verbose`` shows a line per test
    with the details of every failing test (and of passing ones).

    Args:
        questions: The results.
        file: The graded file, shown in the heading.
        seconds: Wall-clock time of the run.
        verbose: Show every test, passing ones with their messages too.
        selected: For a question only partly run (``-t``), the tests run and the tests
            it has, ``{"q2": (1, 36)}``: its points then hold only if every test passes.
    """
    lines = heading(file)
    for q in questions:
        lines.extend(question_block(q, verbose=verbose, selected=(selected or {}).get(q.name)))
    lines.extend(summary_table(questions, seconds=seconds, selected=selected))
    return "\n".join(lines) + "\n"


def heading(file: str) -> list[str]:
    """The report's first lines: the file graded."""
    return [f"Grading {file}", ""] if file else []


def question_block(
    q: QuestionResult, *, verbose: bool = False, selected: tuple[int, int] | None = None
) -> list[str]:
    """The lines of one question (ending with an empty line); see `text_report`."""
    rule = "all tests must pass" if _all_or_nothing(q) else "points per test"
    graded = _graded(q)
    failing = [t for t in graded if not t.passed]
    partial = selected is not None and selected[0] < selected[1]
    # A partly run all-or-nothing question claims no points: they need every test.
    score = (
        f"?/{_num(q.max_points)}"
        if partial and _all_or_nothing(q)
        else f"{_num(q.points)}/{_num(q.max_points)}"
    )
    if verbose:
        lines = [f"{q.name}: {q.title} ({rule})"]
        lines.extend(_test_lines(q.tests, shown_all=True))
    elif _all_or_nothing(q):
        n = len(graded)
        tally = (
            ("the test passed" if n == 1 else f"all {n} tests passed")
            if not failing
            else ("the test failed" if n == 1 else f"{len(failing)} of {n} tests failed")
        )
        lines = [f"{q.name}: {q.title} ({rule}): {score}, {tally}"]
        lines.extend(_likely_bug(q, " " * 2))
        if failing:
            lines.extend(_test_lines(failing[:1], shown_all=False))
            rest = [t.name for t in failing[1:]]
            if rest:
                names = ", ".join(rest[:ALSO_FAILING_SHOWN])
                more = len(rest) - ALSO_FAILING_SHOWN
                tail = f" and {more} more" if more > 0 else ""
                lines.append(f"  Also failing: {names}{tail} (--verbose shows every test)")
        lines.extend(_advice_line(q))
    else:
        lines = [f"{q.name}: {q.title} ({rule}): {score}"]
        lines.extend(_test_lines(q.tests, shown_all=False))
    if partial:
        assert selected is not None
        lines.append(
            f"  Partial run: {selected[0]} of the {selected[1]} tests of {q.name}"
            + (
                f"; its {_num(q.max_points)} points need every test to pass"
                if _all_or_nothing(q)
                else ""
            )
        )
    if verbose:
        lines.extend(_likely_bug(q, " " * 2))
    lines.append("")
    return lines


def _test_lines(tests: Sequence[TestResult], *, shown_all: bool) -> list[str]:
    """A line per test, with the details of failing ones (and of all when ``shown_all``)."""
    lines = []
    shown: dict[tuple[object, ...], str] = {}  # errors already printed -> by which test
    for t in tests:
        pts = f"{_num(t.points)}/{_num(t.max_points)}" if t.max_points else ""
        lines.append(f"  {_mark(t):7} {t.name:44} {pts:>7} {t.seconds:6.2f} s")
        if not t.passed or shown_all:
            # An error or timeout repeated test after test (the starter's "not written
            # yet", an endless loop) is shown once; failures keep their own details.
            same = (t.status, t.messages[1:], t.output) if t.status in _REPEATS else None
            if same is not None and same in shown:
                lines.append(f"{' ' * 10}(the same as {shown[same]})")
            else:
                if same is not None:
                    shown[same] = t.name
                lines.extend(_test_details(t, " " * 10))
    return lines


def _advice_line(q: QuestionResult) -> list[str]:
    """One line naming the failed advice tests (never graded) whose habit has a name."""
    notes = []
    for t in q.tests:
        bug = BUGS.get(t.diagnosis or "")
        if t.advice and not t.passed and bug is not None:  # a habit it can name
            notes.append(f"{t.name} ({bug.summary})")
    if not notes:
        return []
    return [f"  Advice, not graded: {'; '.join(notes)}"]


def summary_table(
    questions: Sequence[QuestionResult],
    *,
    seconds: float = 0.0,
    selected: Mapping[str, tuple[int, int]] | None = None,
) -> list[str]:
    """The table of questions, the total and the time."""
    lines = [f"{'Question':10} {'Title':22} {'Tests passed':>13} {'Points':>8}"]
    unclaimed = []  # partly run all-or-nothing questions: no points either way
    for q in questions:
        graded = _graded(q)
        passed = sum(t.passed for t in graded)
        score = f"{_num(q.points)}/{_num(q.max_points)}"
        run = (selected or {}).get(q.name)
        if run is not None and run[0] < run[1]:
            if _all_or_nothing(q):
                score = f"?/{_num(q.max_points)}"
                unclaimed.append(q)
            score += "*"
        lines.append(f"{q.name:10} {q.title:22} {f'{passed}/{len(graded)}':>13} {score:>8}")
    got, available = total([q for q in questions if q not in unclaimed])
    lines.append(f"{'Total':10} {'':22} {'':>13} {f'{_num(got)}/{_num(available)}':>8}")
    if any(q.name in (selected or {}) for q in questions):
        lines.append(
            "* a partial run (-t): not every test of the question was run"
            + ("; ? = its points need every test (left out of the total)" if unclaimed else "")
        )
    if seconds:
        lines.append(f"({seconds:.2f} s)")
    return lines


class LiveReport:
    """The text report written while grading runs: each question as soon as it is done.

    Questions are written in order, each as soon as every test of it (and of the
    questions before it) has finished; the table comes at the end. On a terminal a
    progress line (tests done, time) is redrawn on ``progress_stream`` meanwhile. What
    reaches ``stream`` is exactly `text_report`'s text.

    Args:
        questions: The questions graded, in order, each with its tests' names in order.
        stream: Where the report goes.
        score: Builds a question's result from its test results (the suite's rule).
        file: The graded file, for the heading.
        verbose: As in `text_report`.
        selected: As in `text_report`.
        progress_stream: Where the progress line goes (default stderr); drawn only when
            it is a terminal.
    """

    def __init__(
        self,
        questions: Sequence[tuple[str, Sequence[str]]],
        stream: TextIO,
        score: Callable[[str, tuple[TestResult, ...]], QuestionResult],
        *,
        file: str = "",
        verbose: bool = False,
        selected: Mapping[str, tuple[int, int]] | None = None,
        progress_stream: TextIO | None = None,
    ) -> None:
        self._pending = [(name, list(names)) for name, names in questions]
        self._results: dict[str, dict[str, TestResult]] = {name: {} for name, _ in questions}
        self._stream = stream
        self._score = score
        self._verbose = verbose
        self._selected = selected
        total_tests = sum(len(names) for _, names in questions)
        self._progress = Progress(
            total_tests,
            stream=progress_stream if progress_stream is not None else sys.stderr,
            unit="tests",
            label="grading",
        )
        self._progress.enabled = self._progress.tty  # a terminal only: logs stay clean
        self._write(heading(file))

    def on_result(self, result: TestResult) -> None:
        """Take one test's result (in any order); write the questions now complete."""
        self._results.setdefault(result.question, {})[result.name] = result
        self._progress.update(failed=not result.passed and not result.advice)
        while self._pending:
            name, names = self._pending[0]
            got = self._results[name]
            if any(n not in got for n in names):
                break
            self._pending.pop(0)
            tests = tuple(got[n] for n in names)
            block = question_block(
                self._score(name, tests),
                verbose=self._verbose,
                selected=(self._selected or {}).get(name),
            )
            self._write(block)

    def finish(self, questions: Sequence[QuestionResult], seconds: float) -> None:
        """Write what is left (questions not yet written), then the table and total."""
        done = {q.name for q in questions} - {name for name, _ in self._pending}
        rest = [q for q in questions if q.name not in done]
        self._pending.clear()
        lines: list[str] = []
        for q in rest:
            selected = (self._selected or {}).get(q.name)
            lines.extend(question_block(q, verbose=self._verbose, selected=selected))
        lines.extend(summary_table(questions, seconds=seconds, selected=self._selected))
        self._write(lines)

    def _write(self, lines: list[str]) -> None:
        if not lines:
            return
        if self._progress.enabled:
            self._progress.stream.write("\r\x1b[2K")  # clear the progress line first
            self._progress.stream.flush()
        self._stream.write("\n".join(lines) + "\n")
        self._stream.flush()


_REPEATS: Final = frozenset({"error", "timeout"})


def _likely_bug(q: QuestionResult, indent: str) -> list[str]:
    """A line naming the bug most failing tests of ``q`` point to, if they agree enough."""
    failing = [t for t in _graded(q) if not t.passed]
    named = Counter(t.diagnosis for t in failing if t.diagnosis)
    if len(failing) < 2 or not named:  # one failing test says it in its own details
        return []
    name, count = named.most_common(1)[0]
    if 2 * count <= len(failing):  # "most" means more than half
        return []
    bug = BUGS.get(name)
    what = bug.summary if bug is not None else name
    return [f"{indent}Most of these failures point to one bug ({count} of {len(failing)}): {what}"]


def _all_or_nothing(q: QuestionResult) -> bool:
    return all(t.max_points == 0 for t in q.tests)


def _test_dict(t: TestResult) -> dict[str, Any]:
    return {
        "name": t.name,
        "question": t.question,
        "status": t.status,
        "points": t.points,
        "max_points": t.max_points,
        "messages": _messages(t),
        "diagnosis": t.diagnosis,
        "output": _output(t),
        "seconds": round(t.seconds, 4),
        "advice": t.advice,
    }


def json_report(
    questions: Sequence[QuestionResult], *, file: str = "", seconds: float = 0.0
) -> str:
    """The JSON report (schema in the module docstring)."""
    got, available = total(questions)
    data = {
        "format": REPORT_FORMAT,
        "file": file,
        "score": got,
        "max_score": available,
        "seconds": round(seconds, 3),
        "questions": [
            {
                "name": q.name,
                "title": q.title,
                "points": q.points,
                "max_points": q.max_points,
                "all_passed": q.passed,
                "tests": [_test_dict(t) for t in q.tests],
            }
            for q in questions
        ],
    }
    return json.dumps(data, indent=2) + "\n"


def gradescope_report(
    questions: Sequence[QuestionResult],
    *,
    seconds: float = 0.0,
    output: str = "",
    visibility: str = "visible",
) -> str:
    """Gradescope's ``results.json`` content for these results.

    Args:
        questions: The results.
        seconds: Wall-clock time of the run (``execution_time``).
        output: Text shown above the tests.
        visibility: Visibility of every test (``visible``, ``after_due_date``, ...).
    """
    got, _ = total(questions)
    tests: list[dict[str, Any]] = []
    for q in questions:
        graded = _graded(q)
        failing = [t for t in q.tests if not t.passed]
        rule = "all tests must pass" if _all_or_nothing(q) else "points per test"
        summary = [f"{sum(t.passed for t in graded)}/{len(graded)} tests passed ({rule})."]
        summary.extend(f"{_mark(t)} {t.name}" for t in failing)
        entry: dict[str, Any] = {
            "name": f"{q.name}: {q.title}",
            "status": "passed" if q.passed else "failed",
            "output": "\n".join(summary),
            "visibility": visibility,
        }
        if _all_or_nothing(q):
            # The question's points live here; where points are per test, they live on
            # the tests below only, so that the entries add up to the total.
            entry["score"] = q.points
            entry["max_score"] = q.max_points
        tests.append(entry)
        for t in q.tests:
            tests.append(
                {
                    "name": f"{t.name} (advice, not graded)" if t.advice else t.name,
                    "score": t.points,
                    "max_score": t.max_points,
                    "status": "passed" if t.passed or t.advice else "failed",
                    "output": "\n".join(_test_details(t, "")),
                    "visibility": visibility,
                }
            )
    data = {
        "score": got,
        "execution_time": round(seconds, 2),
        "output": output,
        "tests": tests,
    }
    return json.dumps(data, indent=1) + "\n"
