"""A classic Berkeley ``test_cases`` folder as a suite (SPEC section 7).

``autograder --cases test_cases`` grades a course's own classic folder: the questions
and their points come from the ``CONFIG`` files, and every test kind of the multi-agent
project runs:

- ``GraphGameTreeTest``: a tree test, against its ``.solution``;
- ``PacmanGameTreeTest``: a game trace. Its stored counts come from the classic game,
  whose ghosts draw from another generator than ours, so the reference game is played
  again here with the test's layout, depth and seed, and graded the same way (the
  student's move and state count at every Pacman move);
- ``EvalAgentTest``: seeded games scored by the test's thresholds (q1, q5).

A test class this grader cannot run is named in an error, never skipped silently.
Tests are named ``q2/0-small-tree``, as the classic command names them.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Final

from autograder import algorithms
from autograder.algorithms import by_class
from autograder.grading.eval_games import EvalAgentCase
from autograder.grading.spec import Question, TestSpec
from autograder.grading.traces import GameTraceCase, reference_trace
from autograder.reading.case_toml import GHOSTS, case_layout
from autograder.reading.classic_format import read_classic_file, read_graph_game_tree_test
from autograder.results import CaseFormatError
from pacman.core.errors import LayoutError
from pacman.core.layout import Layout

__all__ = ["TEST_CLASSES", "classic_questions", "classic_specs"]

TEST_CLASSES: Final = ("GraphGameTreeTest", "PacmanGameTreeTest", "EvalAgentTest")
"""The classic test classes this grader runs."""

_QUESTION_CLASSES: Final = {
    "PassAllTestsQuestion": True,
    "PartialCreditQuestion": False,
    "HackedPartialCreditQuestion": False,
}
"""Classic question classes: whether every test must pass for the points."""

_TITLES: Final = {"q1": "Reflex agent", "q5": "Evaluation function"}

_GHOST: Final = re.compile(r"([A-Za-z_]\w*)\(\s*(\d+)\s*\)")

TRACE_MOVE_SECONDS: Final = 5.0
"""Time limit of one decision in a ``PacmanGameTreeTest`` (as our own traces)."""
TRACE_TEST_SECONDS: Final = 60.0
"""Time limit of a whole ``PacmanGameTreeTest``."""
EVAL_TEST_SECONDS: Final = 600.0
"""Most time an ``EvalAgentTest`` may take in all (its ``maxTime`` is per move, as in the
classic grader; the submission's time budget bounds the whole run anyway)."""


def _question_folders(folder: Path) -> list[tuple[str, Path]]:
    """The question folders in ``CONFIG`` order (or by name when there is no order)."""
    config = folder / "CONFIG"
    if config.is_file():
        fields = read_classic_file(config)
        if "order" in fields:
            names = fields["order"][0].split()
            for name in names:
                if not (folder / name).is_dir():
                    raise CaseFormatError(
                        f"{config}:{fields['order'][1]}: question {name!r} has no folder"
                    )
            return [(name, folder / name) for name in names]
    return sorted((q.name, q) for q in folder.iterdir() if (q / "CONFIG").is_file())


def _tests(question: Path) -> list[Path]:
    return sorted(p for p in question.glob("*.test") if p.is_file())


def classic_questions(folder: Path) -> tuple[Question, ...]:
    """The questions of a classic folder, with points and rule from each ``CONFIG``.

    Raises:
        CaseFormatError: On a missing or malformed ``CONFIG`` or an unknown question class.
    """
    out = []
    for name, path in _question_folders(Path(folder)):
        config = path / "CONFIG"
        if not config.is_file():
            raise CaseFormatError(f"{config}:1: no such file (each question folder has one)")
        fields = read_classic_file(config)
        points_text, points_line = fields.get("max_points", ("", 1))
        try:
            points = float(points_text)
        except ValueError:
            raise CaseFormatError(
                f"{config}:{points_line}: max_points must be a number, got {points_text!r}"
            ) from None
        kind, kind_line = fields.get("class", ("PassAllTestsQuestion", 1))
        if kind not in _QUESTION_CLASSES:
            raise CaseFormatError(
                f"{config}:{kind_line}: question class {kind!r} is not supported "
                f"(supported: {', '.join(_QUESTION_CLASSES)})"
            )
        algs = {_algorithm_of(test) for test in _tests(path)} - {None}
        algorithm = algs.pop() if len(algs) == 1 else None
        title = (
            algorithms.algorithm(algorithm).title
            if algorithm is not None
            else _TITLES.get(name, f"Question {name}")
        )
        out.append(Question(name, title, points, _QUESTION_CLASSES[kind], algorithm))
    return tuple(out)


def _algorithm_of(test: Path) -> str | None:
    fields = read_classic_file(test)
    alg = fields.get("alg", ("", 0))[0]
    row = by_class().get(alg)
    return None if row is None else row.name


def classic_specs(folder: Path) -> list[TestSpec]:
    """Every test of a classic folder, in question order, read into memory.

    Raises:
        CaseFormatError: If a file is malformed or holds a test class this grader
            cannot run (the message names the file, the class and the supported ones).
    """
    specs: list[TestSpec] = []
    for question, path in _question_folders(Path(folder)):
        for test in _tests(path):
            specs.append(_spec(question, test))
    return specs


def _spec(question: str, test: Path) -> TestSpec:
    fields = read_classic_file(test)
    kind, line = fields.get("class", ("", 1))
    name = f"{question}/{test.stem}"
    if kind == "GraphGameTreeTest":
        case = read_graph_game_tree_test(test)
        assert case is not None
        return TestSpec(name, question, "tree", case, 0.01)
    if kind == "PacmanGameTreeTest":
        trace = _pacman_game_tree_test(question, test, fields)
        return TestSpec(name, question, "trace", trace, 0.5)
    if kind == "EvalAgentTest":
        evaluation = _eval_agent_test(question, test, fields)
        return TestSpec(name, question, "eval", evaluation, 0.1 * evaluation.num_games)
    raise CaseFormatError(
        f"{test}:{line}: test class {kind or '(none)'!r} cannot be run by this grader "
        f"(it runs {', '.join(TEST_CLASSES)}); remove the test or grade it elsewhere"
    )


Fields = dict[str, tuple[str, int]]


def _need(fields: Fields, key: str, test: Path) -> tuple[str, int]:
    if key not in fields:
        raise CaseFormatError(f"{test}:1: missing key {key!r}")
    return fields[key]


def _whole(fields: Fields, key: str, test: Path, default: int | None = None) -> int:
    if key not in fields and default is not None:
        return default
    text, line = _need(fields, key, test)
    try:
        return int(text.strip())
    except ValueError:
        raise CaseFormatError(
            f"{test}:{line}: {key} must be a whole number, got {text!r}"
        ) from None


def _numbers(fields: Fields, key: str, test: Path) -> tuple[float, ...]:
    text, line = fields.get(key, ("", 0))
    try:
        return tuple(float(v) for v in text.split())
    except ValueError:
        raise CaseFormatError(f"{test}:{line}: {key} must be numbers, got {text!r}") from None


def _pacman_game_tree_test(question: str, test: Path, fields: Fields) -> GameTraceCase:
    alg, alg_line = _need(fields, "alg", test)
    row = by_class().get(alg)
    if row is None:
        raise CaseFormatError(
            f"{test}:{alg_line}: unknown alg {alg!r}; expected one of {', '.join(by_class())}"
        )
    layout_name = fields.get("layoutName", (test.stem, 0))[0]
    try:
        if "layout" in fields:
            text, line = fields["layout"]
            board = Layout.from_text(text, name=layout_name, source=f"{test}:{line}")
        else:
            board = case_layout(layout_name, test)
    except LayoutError as exc:
        raise CaseFormatError(f"{test}:1: bad layout: {exc}") from None
    depth = _whole(fields, "depth", test)
    seed = _whole(fields, "seed", test, default=0)
    case = GameTraceCase(
        name=test.stem,
        question=question,
        algorithm=row.name,
        layout=layout_name,
        ghosts="DirectionalGhost",
        num_ghosts=board.num_ghosts,
        depth=depth,
        evaluation="score",
        seed=seed,
        move_seconds=TRACE_MOVE_SECONDS,
        test_seconds=TRACE_TEST_SECONDS,
        description=f"{row.title}, depth {depth}, on {layout_name} against directional ghosts "
        f"(classic {test.name})",
        path=test,
        board=board,
    )
    # Played here, once, with our reference search: the grader holds it in memory.
    return dataclasses.replace(case, trace=reference_trace(case))


def _evaluation(value: str) -> str:
    """Our evaluation spec for a classic ``evalFn`` value."""
    if value in ("score", "scoreEvaluationFunction"):
        return "score"
    if value in ("better", "better_evaluation", "betterEvaluationFunction"):
        return "student:better_evaluation"
    return f"student:{value}"


def _eval_agent_test(question: str, test: Path, fields: Fields) -> EvalAgentCase:
    agent, _ = _need(fields, "agentName", test)
    layout_name, layout_line = _need(fields, "layoutName", test)
    try:
        board = case_layout(layout_name, test)
    except LayoutError as exc:
        raise CaseFormatError(f"{test}:{layout_line}: {exc}") from None
    args: dict[str, str] = {}
    args_text, args_line = fields.get("agentArgs", ("", 0))
    for item in filter(None, (i.strip() for i in args_text.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise CaseFormatError(f"{test}:{args_line}: agentArgs item {item!r} is not key=value")
        args[key.strip()] = value.strip()
    unknown = set(args) - {"depth", "evalFn"}
    if unknown:
        raise CaseFormatError(
            f"{test}:{args_line}: agentArgs {', '.join(sorted(unknown))} not supported "
            "(depth and evalFn are)"
        )
    ghosts_text, ghosts_line = fields.get("ghosts", ("[RandomGhost(1)]", 0))
    ghosts = _GHOST.findall(ghosts_text)
    kinds = {g for g, _ in ghosts}
    if len(kinds) > 1 or not kinds <= set(GHOSTS):
        raise CaseFormatError(
            f"{test}:{ghosts_line}: ghosts {ghosts_text!r}: expected one kind of "
            f"{', '.join(GHOSTS)}, as [RandomGhost(1)]"
        )
    max_time = _numbers(fields, "maxTime", test) or (120.0,)
    num_games = _whole(fields, "numGames", test, default=1)
    minimum = {k: _numbers(fields, k, test) for k in ("scoreMinimum", "winsMinimum")}
    non_timeout_minimum = _numbers(fields, "nonTimeoutMinimum", test)
    return EvalAgentCase(
        name=test.stem,
        question=question,
        description=f"{agent} on {layout_name}, {num_games} games (classic {test.name})",
        agent=agent,
        source="student",
        layout=layout_name,
        ghosts=kinds.pop() if kinds else "RandomGhost",
        num_ghosts=len(ghosts),
        num_games=num_games,
        seed=_whole(fields, "randomSeed", test, default=0),
        move_seconds=max_time[0],
        test_seconds=min(EVAL_TEST_SECONDS, max_time[0] * num_games),
        path=test,
        depth=int(args["depth"]) if args.get("depth", "").isdigit() else None,
        evaluation=_evaluation(args["evalFn"]) if "evalFn" in args else None,
        score_minimum=minimum["scoreMinimum"][0] if minimum["scoreMinimum"] else None,
        wins_minimum=int(minimum["winsMinimum"][0]) if minimum["winsMinimum"] else None,
        non_timeout_minimum=int(non_timeout_minimum[0]) if non_timeout_minimum else None,
        score_thresholds=_numbers(fields, "scoreThresholds", test),
        wins_thresholds=tuple(int(v) for v in _numbers(fields, "winsThresholds", test)),
        non_timeout_thresholds=tuple(
            int(v) for v in _numbers(fields, "nonTimeoutThresholds", test)
        ),
        board=board,
    )
