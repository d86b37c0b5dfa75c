"""The ``autograder`` command: grade a submission, write the starter, generate answers, package.

Usage::

    autograder [FILE] [-q Q] [-t NAME] [--list] [--format text|json|gradescope] [--output PATH]
    autograder init [FOLDER] [--force]
    autograder generate [--cases FOLDER]
    autograder gradescope-package [--output autograder.zip]
    autograder handout [--output handout]

The exit status is 0 whenever grading completed, whatever the score; 1 when the
grader itself could not run (a missing file, a malformed case file) and 2 for a bad
command line.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from autograder.grading.suite import (
    DEFAULT_BUDGET_SECONDS,
    Question,
    TestSpec,
    build_suite,
    question_result,
    run_suite,
    select,
    suite_questions,
)
from autograder.grading.traces import generate_trace, load_game_traces
from autograder.grading.trees import generate_tree_solutions
from autograder.handout import build_handout
from autograder.reports import report
from autograder.reports.gradescope import failure_results, write_package
from autograder.results import CaseFormatError, QuestionResult, TestResult
from pacman import __version__
from pacman.cli_parser import Parser
from pacman.loader import STUDENT_FILES

__all__ = ["main"]

_COMMANDS = ("init", "generate", "gradescope-package", "handout")
STARTER = Path(__file__).with_name("starter") / "multi_agents.py"
"""The starter file handed out to students."""


def _grade_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="autograder",
        description=(
            "Grade multi_agents.py (minimax, alpha-beta, expectimax, evaluation functions). "
            "Other commands: autograder init | generate | gradescope-package | handout "
            "(see -h of each)."
        ),
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    p.add_argument(
        "file",
        nargs="?",
        default=None,
        help="the student's file (default: multi_agents.py, or a classic multiAgents.py, here)",
    )
    p.add_argument(
        "--student-code",
        metavar="FILE",
        help="the classic flag: the student's file, as FILE (a classic comma-separated list "
        "names it among others)",
    )
    p.add_argument(
        "--code-directory",
        metavar="FOLDER",
        help="the classic flag: the folder that holds the student's file (default: here)",
    )
    p.add_argument(
        "-q", "--question", action="append", default=[], help="grade only this question (q1..q5)"
    )
    p.add_argument("-t", "--test", action="append", default=[], help="run only this test")
    p.add_argument("--list", action="store_true", help="list the questions and tests, then stop")
    p.add_argument(
        "--format", choices=("text", "json", "gradescope"), default="text", help="report format"
    )
    p.add_argument(
        "--output",
        help="write the report to this file (gradescope: default results.json)",
    )
    p.add_argument(
        "-j", "--jobs", type=int, default=2, help="worker processes grading at once (default 2)"
    )
    p.add_argument(
        "--timeout-scale",
        type=float,
        default=1.0,
        help="multiply every time limit by this factor (for slow machines)",
    )
    p.add_argument(
        "--time-budget",
        type=float,
        default=DEFAULT_BUDGET_SECONDS,
        metavar="SECONDS",
        help="time for the whole submission; tests not started by then are reported as not "
        f"run (default {DEFAULT_BUDGET_SECONDS:g}; 0 for no limit)",
    )
    p.add_argument(
        "--cases",
        "--test-directory",
        help="a cases folder to use instead of the packaged one: ours, or a classic "
        "test_cases folder (CONFIG, qN/*.test)",
    )
    p.add_argument(
        "--no-graphics",
        action="store_true",
        help="the classic flag, always on: games are played without a window",
    )
    p.add_argument(
        "--graphics",
        action="store_true",
        help="the classic flag: games are never shown while grading; the report prints the "
        "pacman command that plays a graded game again in the window",
    )
    p.add_argument(
        "--mute",
        action="store_true",
        help="the classic flag: leave what the student's code printed out of the report",
    )
    p.add_argument(
        "--gradescope-output",
        action="store_true",
        help="the classic flag: the same as --format gradescope",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="show details of passing tests")
    p.add_argument(
        "--run-as",
        metavar="USER",
        help="run the student's code as this unprivileged user (when grading as root, "
        "e.g. on Gradescope: --run-as nobody)",
    )
    return p


def _fail(message: str) -> int:
    print(f"autograder: error: {message}", file=sys.stderr)
    return 1


def _list(specs: Sequence[object], graded: Sequence[Question]) -> str:
    lines = []
    for q in graded:
        tests = [s for s in specs if isinstance(s, TestSpec) and s.question == q.name]
        count = f"{len(tests)} test" + ("" if len(tests) == 1 else "s")
        lines.append(f"{q.name}  {q.title} ({q.points:g} points, {count})")
        lines.extend(f"    {s.name}  [{s.kind}]" for s in tests)
    return "\n".join(lines) + "\n"


def _student_file(args: argparse.Namespace) -> tuple[Path, bool]:
    """The student's file the flags name, and whether it was left to the default.

    Raises:
        ValueError: If the positional file and ``--student-code`` disagree.
    """
    named = args.file
    if args.student_code is not None:
        # The classic flag may list several files: take the search agents' file.
        listed = [f.strip() for f in args.student_code.split(",") if f.strip()]
        chosen = next((f for f in listed if Path(f).name in STUDENT_FILES), None)
        chosen = chosen or (listed[0] if listed else None)
        if chosen is None:
            raise ValueError("--student-code: no file given")
        if named is not None and named != chosen:
            raise ValueError(f"two files given ({named} and --student-code {chosen}); give one")
        named = chosen
    folder = Path(args.code_directory) if args.code_directory is not None else Path()
    if named is not None:
        return folder / named, False
    for name in STUDENT_FILES:  # ours first, then the classic camelCase name
        if (folder / name).is_file():
            return folder / name, True
    return folder / STUDENT_FILES[0], True


def _classic_test_folder(args: argparse.Namespace) -> None:
    """Take ``--cases`` from a classic test path (``-t test_cases/q2/0-small-tree``).

    The classic command names tests by their path in the test folder; such a path names
    the folder the user meant (never read unless named, so nothing a submission leaves in
    its folder is graded against).
    """
    if args.cases is not None:
        return
    folders = {Path(*Path(t).parts[:-2]) for t in args.test if len(Path(t).parts) > 2}
    if len(folders) == 1:
        (folder,) = folders
        if folder.is_dir():
            args.cases = str(folder)


def _grade(argv: Sequence[str]) -> int:
    args = _grade_parser().parse_args(argv)
    if args.gradescope_output:
        args.format = "gradescope"
    _classic_test_folder(args)
    if args.format != "gradescope":
        return _grade_with(args)
    # Gradescope shows nothing useful for a missing results file: always write one.
    output = Path(args.output or "results.json")
    try:
        status = _grade_with(args)
    except Exception as exc:
        status = _fail(f"grading broke: {type(exc).__name__}: {exc}")
        message = f"The autograder broke: {type(exc).__name__}: {exc}"
    else:
        message = f"The autograder could not grade {args.file}; see the staff."
    if status != 0 or not output.is_file():
        output.write_text(failure_results(message), encoding="utf-8")
    return status


def _grade_with(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        return _fail(f"--jobs must be at least 1, got {args.jobs}")
    if args.timeout_scale <= 0:
        return _fail(f"--timeout-scale must be positive, got {args.timeout_scale}")
    if not args.time_budget >= 0:  # also refuses nan
        return _fail(f"--time-budget must be 0 (no limit) or positive, got {args.time_budget}")
    cases = Path(args.cases) if args.cases else None
    try:
        graded = suite_questions(cases)
        every = build_suite(cases)
        specs = select(every, args.question, args.test)
    except (CaseFormatError, ValueError) as exc:
        return _fail(str(exc))
    # Questions only partly run (-t): how many of their tests run, of how many.
    selected = {
        q.name: (run, of)
        for q in graded
        if 0
        < (run := sum(s.question == q.name for s in specs))
        < (of := sum(s.question == q.name for s in every))
    }
    if args.list:
        sys.stdout.write(_list(specs, graded))
        return 0
    try:
        path, default = _student_file(args)
    except ValueError as exc:
        return _fail(str(exc))
    if not path.is_file():
        hint = " (run `autograder init` to get the starter file)" if default else ""
        if path.is_dir():
            return _fail(
                f"{path}: is a folder; give the Python file, e.g. {path / 'multi_agents.py'}"
            )
        return _fail(f"{path}: no such file{hint}")
    if path.suffix != ".py":
        return _fail(f"{path}: not a Python file (expected a .py file such as multi_agents.py)")
    if args.graphics:
        print(
            "autograder: note: games are not shown while grading; the report prints the "
            "pacman command that plays a graded game again in the window",
            file=sys.stderr,
        )
    if args.run_as is None:
        print(
            "autograder: warning: the submission runs with this grader's rights "
            "(grade as root with --run-as USER to contain it)",
            file=sys.stderr,
        )
    live = None
    if args.format == "text" and args.output is None:
        # Each question is printed as soon as it is graded, with progress on a terminal.
        by_name = {q.name: q for q in graded}
        live = report.LiveReport(
            [
                (q.name, [s.name for s in specs if s.question == q.name])
                for q in graded
                if any(s.question == q.name for s in specs)
            ],
            sys.stdout,
            lambda name, tests: question_result(by_name[name], tests),
            file=str(path),
            verbose=args.verbose,
            selected=selected,
        )

    def on_result(result: TestResult) -> None:
        if live is not None:
            live.on_result(_muted_test(result) if args.mute else result)

    t0 = time.monotonic()
    try:
        questions = run_suite(
            path,
            specs,
            jobs=args.jobs,
            timeout_scale=args.timeout_scale,
            run_as=args.run_as,
            budget=args.time_budget or None,
            graded_questions=graded,
            on_result=on_result,
        )
    except (CaseFormatError, ValueError) as exc:
        return _fail(str(exc))
    seconds = time.monotonic() - t0
    if args.mute:
        questions = [_muted(q) for q in questions]
    if live is not None:
        live.finish(questions, seconds)
        return 0
    if args.format == "text":
        text = report.text_report(
            questions, file=str(path), seconds=seconds, verbose=args.verbose, selected=selected
        )
    elif args.format == "json":
        text = report.json_report(questions, file=str(path), seconds=seconds)
    else:
        text = report.gradescope_report(questions, seconds=seconds)
    output = args.output or ("results.json" if args.format == "gradescope" else None)
    if output is None:
        sys.stdout.write(text)
    else:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as exc:
            return _fail(f"{output}: cannot write report: {exc.strerror}")
        if args.format != "text":
            got, available = report.total(questions)
            print(f"{got:g}/{available:g} points; report written to {output}")
    return 0


def _muted(question: QuestionResult) -> QuestionResult:
    """The question's results without what the student's code printed (``--mute``)."""
    return dataclasses.replace(question, tests=tuple(map(_muted_test, question.tests)))


def _muted_test(test: TestResult) -> TestResult:
    return dataclasses.replace(test, output="")


def _init(argv: Sequence[str]) -> int:
    p = Parser(
        prog="autograder init", description="Write the starter multi_agents.py into a folder."
    )
    p.add_argument("folder", nargs="?", default=".", help="where to write it (default: here)")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    args = p.parse_args(argv)
    target = Path(args.folder) / "multi_agents.py"
    if target.exists() and not args.force:
        return _fail(f"{target} already exists (use --force to overwrite it)")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(STARTER, target)
    except OSError as exc:
        return _fail(f"{target}: cannot write: {exc.strerror}")
    print(f"wrote {target}; grade it with `autograder` in {target.parent}")
    return 0


def _generate(argv: Sequence[str]) -> int:
    p = Parser(
        prog="autograder generate",
        description="Compute the expected answers from our reference agents and write them.",
    )
    p.add_argument("--cases", help="cases folder (default: the packaged one)")
    args = p.parse_args(argv)
    cases = Path(args.cases) if args.cases else None
    try:
        written = list(generate_tree_solutions(cases))
        for case in load_game_traces(
            None if cases is None else cases / "game_traces", traces=False
        ):
            changed = generate_trace(case)
            if changed is not None:
                written.append(changed)
    except (CaseFormatError, OSError) as exc:
        return _fail(str(exc))
    for path in written:
        print(f"wrote {path}")
    print(f"{len(written)} files rewritten" if written else "every expected answer was current")
    return 0


def _package(argv: Sequence[str]) -> int:
    p = Parser(
        prog="autograder gradescope-package",
        description="Write the zip to upload as a Gradescope programming assignment autograder.",
    )
    p.add_argument("--output", default="autograder.zip", help="zip file to write")
    args = p.parse_args(argv)
    try:
        path = write_package(Path(args.output))
    except (OSError, ValueError) as exc:
        return _fail(str(exc))
    print(f"wrote {path}; upload it in Gradescope's autograder settings")
    return 0


def _handout(argv: Sequence[str]) -> int:
    p = Parser(
        prog="autograder handout",
        description="Write the folder students get: the engine, the window, the starter and "
        "a grader of the public tests, with none of our reference searches or evaluations.",
    )
    p.add_argument("--output", default="handout", help="folder to write (must not exist)")
    args = p.parse_args(argv)
    try:
        folder = build_handout(Path(args.output))
    except (OSError, ValueError) as exc:
        return _fail(str(exc))
    print(f"wrote {folder}; students run `pip install .` there, then `autograder`")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in _COMMANDS:
        command = {
            "init": _init,
            "generate": _generate,
            "gradescope-package": _package,
            "handout": _handout,
        }
        return command[args[0]](args[1:])
    try:
        return _grade(args)
    except KeyboardInterrupt:
        return _fail("interrupted")
    except BrokenPipeError:
        sys.stderr.close()
        os._exit(0)
