"""The default suite: its questions and tests, and running them in parallel workers.

Questions follow the classic course (points 4, 5, 5, 5, 6). q1 and q5 give partial
credit (their tests' points are summed); q2-q4 give their points only when every test
passes, as the classic ``PassAllTestsQuestion`` does. Tests are data files under
``autograder/cases/``: the tree cases of each algorithm, one game trace per search
question and the evaluation games of q1 and q5.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from autograder import algorithms
from autograder.algorithms import algorithm as algorithm_row
from autograder.grading.catalogue import diagnose_error
from autograder.grading.classic_suite import classic_questions, classic_specs
from autograder.grading.eval_games import EvalAgentCase, load_eval_agent_cases, run_eval_agent
from autograder.grading.servers import TreeServer
from autograder.grading.spec import Question, TestSpec
from autograder.grading.traces import (
    GameTraceCase,
    load_game_traces,
    run_game_trace,
)
from autograder.grading.trees import check_tree_case
from autograder.grading.workers import BadAnswer, SandboxProcess, StudentError, WorkerLost
from autograder.reading.case_folders import load_tree_cases
from autograder.reading.classic_format import is_classic_folder
from autograder.reading.tree_cases import TreeCase
from autograder.results import QuestionResult, TestResult
from autograder.sandbox.protocol import MakeAgent, Seed, TreeDecide
from pacman.core.game import derive_seed

__all__ = [
    "DEFAULT_BUDGET_SECONDS",
    "QUESTIONS",
    "Question",
    "TestSpec",
    "build_suite",
    "question_result",
    "questions",
    "run_suite",
    "select",
    "suite_questions",
]

TREE_SECONDS: Final = 2.0
"""Time limit for one tree test."""

_NO_MOVES: Final = re.compile(r"empty|ZeroDivisionError|division by zero")
"""What a search that asks a finished game for its moves typically raises."""
_NO_MOVES_HINT: Final = "Hint: a won or lost state has no legal actions"


def questions() -> tuple[Question, ...]:
    """The suite's questions, in order.

    One per graded algorithm (`autograder.algorithms`), between the reflex agent and the
    evaluation function.
    """
    return (
        Question("q1", "Reflex agent", 4, False),
        *(Question(a.question, a.title, a.points, True, a.name) for a in algorithms.ALGORITHMS),
        Question("q5", "Evaluation function", 6, False),
    )


QUESTIONS: Final = questions()
"""The default suite's questions (`questions` with the shipped table)."""


def suite_questions(cases: Path | None = None) -> tuple[Question, ...]:
    """The questions of the suite read from ``cases`` (default: the packaged suite).

    A classic ``test_cases`` folder brings its own questions and points (its ``CONFIG``
    files); a folder of our cases grades our questions.

    Raises:
        CaseFormatError: If a classic ``CONFIG`` is malformed.
    """
    if cases is not None and is_classic_folder(cases):
        return classic_questions(cases)
    return questions()


def build_suite(cases: Path | None = None) -> list[TestSpec]:
    """Every test of the suite, in question order.

    Every case, trace and layout is read into memory here; running the tests reads no
    case file, so a submission that rewrites them cannot change the expected answers.
    Build the suite before starting any worker.

    Args:
        cases: A cases folder laid out like ``autograder/cases`` (default: the packaged one).

    Raises:
        CaseFormatError: If a case file is malformed.
    """
    if cases is not None and is_classic_folder(cases):
        return classic_specs(cases)
    default_questions = questions()
    by_question: dict[str, list[TestSpec]] = {q.name: [] for q in default_questions}
    evals = load_eval_agent_cases(None if cases is None else cases / "eval_agents")
    traces = load_game_traces(None if cases is None else cases / "game_traces")
    for e in evals:
        by_question.setdefault(e.question, []).append(
            TestSpec(e.test_name, e.question, "eval", e, 0.1 * e.num_games)
        )
    for q in default_questions:
        if q.algorithm is None:
            continue
        for t in load_tree_cases(q.algorithm, cases):
            name = f"{q.name}/{t.name.split('/', 1)[-1]}"
            by_question[q.name].append(TestSpec(name, q.name, "tree", t, 0.01))
    for g in traces:
        by_question.setdefault(g.question, []).append(
            TestSpec(g.test_name, g.question, "trace", g, 0.5)
        )
    return [spec for q in default_questions for spec in by_question.get(q.name, [])]


def select(
    specs: Sequence[TestSpec], questions: Sequence[str] = (), tests: Sequence[str] = ()
) -> list[TestSpec]:
    """The tests of the given questions and names (all when both are empty).

    A test is named in full (``q2/lecture-3x3``), by the part after the slash, or by its
    classic path (``test_cases/q2/0-small-tree`` or ``...0-small-tree.test``).

    Raises:
        ValueError: If a question or test name matches nothing (with the known names).
    """
    known_q = {s.question for s in specs}
    for q in questions:
        if q not in known_q:
            raise ValueError(f"unknown question {q!r}; known: {', '.join(sorted(known_q))}")
    chosen = [s for s in specs if not questions or s.question in questions]
    if tests:
        picked: list[TestSpec] = []
        for t in map(_test_name, tests):
            found = [s for s in chosen if s.name == t or s.name.split("/", 1)[1] == t]
            if not found:
                elsewhere = sorted(
                    {s.question for s in specs if s.name == t or s.name.split("/", 1)[1] == t}
                )
                if elsewhere:
                    raise ValueError(
                        f"test {t!r} is in {', '.join(elsewhere)}, not in the questions "
                        f"chosen with -q ({', '.join(questions)}); add -q {elsewhere[0]} "
                        "or leave -q out"
                    )
                raise ValueError(f"unknown test {t!r}; `autograder --list` shows the test names")
            picked.extend(f for f in found if f not in picked)
        chosen = [s for s in chosen if s in picked]
    return chosen


def _test_name(text: str) -> str:
    """A test name from a classic test path: its question folder and file stem.

    >>> _test_name("test_cases/q2/0-small-tree.test")
    'q2/0-small-tree'
    >>> _test_name("q2/lecture-3x3")
    'q2/lecture-3x3'
    """
    name = text.removesuffix(".test")
    parts = [p for p in name.replace("\\", "/").split("/") if p]
    return "/".join(parts[-2:]) if len(parts) > 2 else name


def run_tree_test(
    spec: TestSpec, worker: SandboxProcess, *, timeout_scale: float = 1.0
) -> TestResult:
    """Run the student's agent for the spec's algorithm on one tree case."""
    case: TreeCase = spec.case
    t0 = time.monotonic()
    deadline = t0 + TREE_SECONDS * timeout_scale
    server = TreeServer(case.game)
    cls = algorithm_row(case.algorithm).student_class
    try:
        worker.ensure()
        worker.clear_output()
        # Every test starts from its own seed: a file that draws from `random` gets the
        # same grade on every run, with any number of workers (SPEC section 6).
        worker.send(Seed(derive_seed(0, "tree", spec.name)))
        worker.call(MakeAgent("student", cls, case.depth, "tree"), deadline=deadline)
        answer = worker.call(TreeDecide(*server.begin()), deadline=deadline, serve=server.serve)
    except StudentError as exc:
        lines = [f"Your {cls} raised: {exc.describe()}"]
        if _NO_MOVES.search(f"{exc.type}: {exc.message}"):
            lines.append(
                f"{_NO_MOVES_HINT} (a finished game has no "
                "moves): check is_win()/is_lose() and evaluate such a state before looking "
                "for its moves."
            )
        lines.extend(exc.trace.rstrip().splitlines())
        return _failed_run(spec, server, worker, "error", lines, t0)
    except WorkerLost as exc:
        if exc.kind == "timeout":
            lines = [
                f"Your {cls} did not answer within {TREE_SECONDS * timeout_scale:g} s."
                + exc.stuck_at()
            ]
            return _failed_run(spec, server, worker, "timeout", lines, t0)
        return _failed_run(spec, server, worker, "error", [exc.detail + "."], t0)
    return check_tree_case(
        case,
        question=spec.question,
        action=answer if isinstance(answer, str) else None,
        generated=server.generated,
        output=worker.output(),
        seconds=time.monotonic() - t0,
        returned_none=answer is None or (isinstance(answer, BadAnswer) and answer.shown == "None"),
    )


def _failed_run(
    spec: TestSpec,
    server: TreeServer,
    worker: SandboxProcess,
    status: Any,
    lines: list[str],
    t0: float,
) -> TestResult:
    graded = check_tree_case(
        spec.case,
        question=spec.question,
        action=None,
        generated=server.generated,
        output=worker.output(),
        seconds=time.monotonic() - t0,
    )
    bug = None
    if status == "error":
        try:
            bug = diagnose_error(spec.case, spec.case.algorithm, generated=server.generated)
        except Exception:  # diagnosis is a courtesy: never let it break grading
            bug = None
    if bug is not None:
        # A known bug that raises the same way explains the error better than the
        # generic hint about finished games.
        lines = [line for line in lines if not line.startswith(_NO_MOVES_HINT)]
        lines[1:1] = [f"Likely bug: {bug.summary}.", f"Hint: {bug.hint}."]
    # The tree drawing would only repeat what the error says; keep the case's line.
    return dataclasses.replace(
        graded,
        status=status,
        messages=(graded.messages[0], *lines),
        diagnosis=None if bug is None else bug.name,
    )


def _load_failure(spec: TestSpec, error: StudentError) -> TestResult:
    max_points = spec.case.max_points if isinstance(spec.case, EvalAgentCase) else 0.0
    return TestResult(
        spec.name,
        spec.question,
        "error",
        max_points=max_points,
        messages=(f"Your file could not be imported: {error.describe()}",),
    )


def run_one(spec: TestSpec, worker: SandboxProcess, *, timeout_scale: float = 1.0) -> TestResult:
    """Run one test in ``worker`` (restarted as needed)."""
    if worker.load_error is not None:
        return _load_failure(spec, worker.load_error)
    try:
        worker.ensure()
    except StudentError as exc:
        return _load_failure(spec, exc)
    except WorkerLost as exc:
        return TestResult(spec.name, spec.question, "error", messages=(exc.detail + ".",))
    if spec.kind == "tree":
        return run_tree_test(spec, worker, timeout_scale=timeout_scale)
    if spec.kind == "trace":
        trace: GameTraceCase = spec.case
        return run_game_trace(trace, worker, timeout_scale=timeout_scale)
    return run_eval_agent(spec.case, worker, timeout_scale=timeout_scale)


GIVE_UP_AFTER_TIMEOUTS: Final = 2
"""Tests that timed out or killed their worker, after which the rest of an
all-or-nothing question is not run."""

DEFAULT_BUDGET_SECONDS: Final = 300.0
"""Time for a whole submission (Gradescope stops a run at 10 minutes by default)."""


def _not_run(spec: TestSpec) -> TestResult:
    return TestResult(
        spec.name,
        spec.question,
        "timeout",
        messages=(
            f"Not run: {GIVE_UP_AFTER_TIMEOUTS} tests of {spec.question} already ran out of "
            "time or crashed the worker (an endless loop? a crash?), and the question needs "
            "every test to pass. Fix that first: those tests say what happened (and, for a "
            "timeout, which line was running).",
        ),
    )


def _over_budget(spec: TestSpec, budget: float) -> TestResult:
    max_points = spec.case.max_points if isinstance(spec.case, EvalAgentCase) else 0.0
    return TestResult(
        spec.name,
        spec.question,
        "timeout",
        max_points=max_points,
        messages=(
            f"Not run: grading this submission used up its {budget:g} s time budget before "
            "this test started. The slow or timed-out tests say where the time went.",
        ),
    )


def preload_grader() -> None:
    """Import every module of the autograder before any student code runs.

    A submission graded without ``--run-as`` runs with the grader's rights: a module the
    grader imported only later (say at the first failing test) could be rewritten by the
    submission first. After this, grading imports nothing more of the project.
    """
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if any(p in ("__main__", "cases", "keeper") for p in parts):
            continue  # scripts and the classic modules run elsewhere, never imported here
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        importlib.import_module(name)


def run_suite(
    path: Path,
    specs: Sequence[TestSpec],
    *,
    jobs: int = 2,
    timeout_scale: float = 1.0,
    on_result: Callable[[TestResult], None] | None = None,
    run_as: str | None = None,
    budget: float | None = DEFAULT_BUDGET_SECONDS,
    graded_questions: Sequence[Question] | None = None,
    hardened: bool = True,
) -> list[QuestionResult]:
    """Grade the student's file on ``specs`` with ``jobs`` workers in parallel.

    Args:
        path: The student's file.
        specs: The tests (from `build_suite` / `select`).
        jobs: How many worker processes run tests at once.
        timeout_scale: Multiplies every time limit.
        on_result: Called with each result as it comes (in completion order).
        run_as: Run the workers as this unprivileged user (the grader must be root).
        budget: Seconds for the whole submission (times ``timeout_scale``); a test not
            started by then is reported as not run. ``None``: no limit. A test already
            running ends within its own limit.
        graded_questions: The questions the specs belong to (`suite_questions`; default:
            the packaged suite's).
        hardened: ``False`` runs workers without their keeper (see `SandboxProcess`):
            for the benchmark of what hardening costs only.

    Returns:
        One result per question that has a selected test, in suite order.
    """
    preload_grader()
    pending = sorted(specs, key=lambda s: -s.cost)
    results: dict[str, TestResult] = {}
    lock = threading.Lock()
    crashes: list[BaseException] = []
    suite_questions = tuple(graded_questions) if graded_questions is not None else questions()
    all_or_nothing = {q.name for q in suite_questions if q.all_or_nothing}
    timeouts: dict[str, int] = {}
    allowed = None if budget is None else budget * timeout_scale
    end = None if allowed is None else time.monotonic() + allowed

    def work(worker: SandboxProcess) -> None:
        try:
            while True:
                with lock:
                    if not pending:
                        return
                    spec = pending.pop(0)
                    lost = timeouts.get(spec.question, 0) >= GIVE_UP_AFTER_TIMEOUTS
                if end is not None and time.monotonic() >= end:
                    assert allowed is not None
                    result = _over_budget(spec, allowed)
                elif lost:  # its points are gone: don't wait out every other test too
                    result = _not_run(spec)
                else:
                    result = run_one(spec, worker, timeout_scale=timeout_scale)
                # A killed worker is restarted for the next test, which imports the file
                # again: a file that crashes every test would otherwise take minutes.
                costly = result.status == "timeout" or (
                    result.status == "error" and not worker.alive
                )
                with lock:
                    results[spec.name] = result
                    if costly and not result.advice and spec.question in all_or_nothing:
                        timeouts[spec.question] = timeouts.get(spec.question, 0) + 1
                    if on_result is not None:
                        on_result(result)
        except BaseException as exc:  # the grader's own failure: re-raised below
            with lock:
                crashes.append(exc)
                pending.clear()
        finally:
            worker.close()

    # Daemon threads: an interrupted run exits at once, and its workers die with it.
    count = max(1, min(jobs, len(specs)))
    # Made here, so a bad --run-as fails before any test; each is started and used in its
    # own thread (a worker dies with the thread that started it).
    workers = [SandboxProcess(path, run_as=run_as, hardened=hardened) for _ in range(count)]
    threads = [threading.Thread(target=work, args=(w,), daemon=True) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if crashes:
        raise crashes[0]
    out = []
    for q in suite_questions:
        tests = tuple(results[s.name] for s in specs if s.question == q.name)
        if tests:
            out.append(question_result(q, tests))
    return out


def question_result(question: Question, tests: Sequence[TestResult]) -> QuestionResult:
    """A question's points from its tests' results.

    All-or-nothing questions score only when every graded test passes (advice never
    counts); the others sum their tests' points, up to the question's.
    """
    if question.all_or_nothing:
        graded = [t for t in tests if not t.advice]
        points = float(question.points) if all(t.passed for t in graded) else 0.0
    else:
        points = min(float(question.points), sum(t.points for t in tests))
    return QuestionResult(
        question.name, question.title, float(question.points), points, tuple(tests)
    )
