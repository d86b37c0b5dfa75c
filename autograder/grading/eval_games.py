"""Evaluation tests (q1, q5): seeded games scored by wins and average score.

The game runs in the grader; the student's agent, in the worker, is asked for each
Pacman move on a plain local copy of the state (nothing is counted here). Points are
earned per threshold reached, as in the classic ``EvalAgentTest``, and the test scores
zero when a minimum is missed. Game ``g`` has its own seed (`game_seed`), and its
agents, their generators and the global ``random`` start from it as the ``pacman``
command starts its first game for ``--seed <that seed>``: the report prints the command
that plays a game again in a window.
"""

from __future__ import annotations

import ast
import dataclasses
import random
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from agents.search import expectimax
from autograder.grading.workers import RemoteAgent, SandboxProcess, StudentError, WorkerLost
from autograder.reading.case_toml import GHOSTS, case_layout, read_case_table
from autograder.results import CaseFormatError, TestResult
from autograder.sandbox.protocol import Evaluate, MakeAgent, Seed, SetLayout
from autograder.sandbox.proxy import state_fields
from pacman.classic import CLASSIC_FUNCTION_NAMES
from pacman.core.errors import IllegalActionError
from pacman.core.game import AgentCrashError, derive_seed, run_game
from pacman.core.layout import Layout, shipped_layout_path
from pacman.core.state import GameState
from pacman.registry import REFERENCE_PREFIX
from pacman.runner import global_seed

__all__ = ["EvalAgentCase", "load_eval_agent_cases", "read_eval_agent_case", "run_eval_agent"]

_REQUIRED: Final = {
    "question": str,
    "description": str,
    "agent": str,
    "source": str,
    "layout": str,
    "ghosts": str,
    "num_ghosts": int,
    "num_games": int,
    "seed": int,
    "move_seconds": float,
    "test_seconds": float,
}
_OPTIONAL: Final = {
    "max_turns": int,
    "depth": int,
    "evaluation": str,
    "score_minimum": float,
    "wins_minimum": int,
    "non_timeout_minimum": int,
}
_LISTS: Final = {"score_thresholds": float, "wins_thresholds": int, "non_timeout_thresholds": int}


@dataclass(frozen=True, slots=True)
class EvalAgentCase:
    """One evaluation test, as read from its TOML file."""

    name: str
    """File stem, e.g. ``"reflex-openClassic"``."""
    question: str
    """The question (``"q1"``)."""
    description: str
    """One line shown with the test."""
    agent: str
    """The Pacman agent: a class of the student's file, or ours when ``source`` is
    reference (our expectimax, in the grader, with the student's evaluation function)."""
    source: str
    """``"student"`` (a class of the student's file, run in the worker) or ``"reference"``."""
    layout: str
    """Layout name or path."""
    ghosts: str
    """Ghost agent for every ghost."""
    num_ghosts: int
    """How many ghosts play."""
    num_games: int
    """How many games."""
    seed: int
    """Series seed, as ``pacman --seed``."""
    move_seconds: float
    """Time limit per move; a slower move ends that game as a timed-out loss."""
    test_seconds: float
    """Time limit for all games; the game running when it ends is a timed-out loss."""
    path: Path
    """The case file."""
    max_turns: int | None = None
    """Cut a game after this many Pacman moves (counted as not won). The shipped cases set
    none: the classic grader plays every game to its end, so time bounds endless games."""
    depth: int | None = None
    """Search depth passed to the agent, if any."""
    evaluation: str | None = None
    """Evaluation passed to the agent: a built-in name or ``student:<function>``."""
    score_minimum: float | None = None
    """Average score below this scores zero."""
    wins_minimum: int | None = None
    """Fewer wins than this scores zero."""
    non_timeout_minimum: int | None = None
    """Fewer games without a timeout than this scores zero."""
    score_thresholds: tuple[float, ...] = ()
    """One point for each average score reached."""
    wins_thresholds: tuple[int, ...] = ()
    """One point for each number of wins reached."""
    non_timeout_thresholds: tuple[int, ...] = ()
    """One point for each number of games without a timeout reached."""
    board: Layout | None = None
    """The layout, read with the case (`load_eval_agent_cases`), so grading reads no file."""

    @property
    def test_name(self) -> str:
        """The test's name in the suite."""
        return f"{self.question}/{self.name}"

    @property
    def max_points(self) -> int:
        """Points available: one per threshold."""
        return (
            len(self.score_thresholds)
            + len(self.wins_thresholds)
            + len(self.non_timeout_thresholds)
        )


def read_eval_agent_case(path: Path) -> EvalAgentCase:
    """Read one case file.

    Raises:
        CaseFormatError: If the file is unreadable, not TOML, or has a wrong key or value.
    """
    values = read_case_table(path, _REQUIRED, _OPTIONAL, _LISTS)
    if values["source"] not in ("student", "reference"):
        raise CaseFormatError(f"{path}:1: source must be 'student' or 'reference'")
    if values["source"] == "reference" and (
        values.get("agent") != "ExpectimaxAgent"
        or not str(values.get("evaluation", "")).startswith("student:")
    ):
        # Our agent runs in the grader with the student's evaluation function; only
        # expectimax (which prunes nothing) can score its leaves in one message.
        raise CaseFormatError(
            f"{path}:1: a reference agent must be ExpectimaxAgent with evaluation "
            "'student:<function>'"
        )
    return EvalAgentCase(name=path.stem, path=path, **values)


def load_eval_agent_cases(folder: Path | None = None) -> list[EvalAgentCase]:
    """Every evaluation case in ``folder`` (default: the packaged ones), sorted by name.

    Raises:
        CaseFormatError: If a case file is malformed.
    """
    base = Path(__file__).parents[1] / "cases" / "eval_agents" if folder is None else folder
    cases = [read_eval_agent_case(p) for p in sorted(base.glob("*.toml"))]
    return [dataclasses.replace(c, board=case_layout(c.layout, c.path)) for c in cases]


class _OursWithTheirEvaluation:
    """Our expectimax, run here in the grader, scoring its leaves with the student's function.

    The student's function runs in the worker; nothing of our search does (issue 11).
    Expectimax prunes nothing, so the states it scores do not depend on their values:
    each move searches once to collect them, has the worker score them all in one
    message, and searches again with those values.
    """

    def __init__(
        self,
        worker: SandboxProcess,
        case: EvalAgentCase,
        move_limit: float,
        test_deadline: float,
    ) -> None:
        self.worker = worker
        self.function = case.evaluation or "score"
        self.depth = case.depth if case.depth is not None else 2
        self.move_limit = move_limit
        self.test_deadline = test_deadline

    def get_action(self, state: GameState) -> Any:
        wanted: dict[GameState, None] = {}

        def collect(s: GameState) -> float:
            wanted[s] = None
            return 0.0

        expectimax(state, depth=self.depth, evaluate=collect)
        states = list(wanted)
        deadline = min(self.test_deadline, time.monotonic() + self.move_limit)
        reply = self.worker.call(
            Evaluate(self.function, tuple(state_fields(s) for s in states)), deadline=deadline
        )
        values = reply.get("values") if isinstance(reply, dict) else None
        if not isinstance(values, list) or len(values) != len(states):
            raise WorkerLost("crash", "the worker answered the evaluation request wrongly")
        table = dict(zip(states, values, strict=True))
        return expectimax(state, depth=self.depth, evaluate=table.__getitem__).action


def game_seed(case: EvalAgentCase, game: int) -> int:
    """The seed of the case's game number ``game`` (from 0): ``pacman --seed`` replays it."""
    return derive_seed(case.seed, "game", game)


@dataclass(frozen=True, slots=True)
class _Game:
    outcome: str
    """``"win"``, ``"lose"``, ``"max_turns"``, ``"timeout"`` or ``"not played"``."""
    score: int
    """The final score, or the score when the game was stopped."""


def _stopped_score(exc: BaseException) -> int:
    """The score of the game an `AgentCrashError` stopped, at the move that failed."""
    record = getattr(exc, "record", None)
    return int(record.final_score) if record is not None else 0


def run_eval_agent(
    case: EvalAgentCase, worker: SandboxProcess, *, timeout_scale: float = 1.0
) -> TestResult:
    """Play the case's games with the student's agent in ``worker`` and score them.

    Returns:
        The result: points per threshold reached; error when the student's code raised
        or played an illegal move; timeout when the whole test ran too long.
    """
    t0 = time.monotonic()
    test_deadline = t0 + case.test_seconds * timeout_scale
    move_limit = case.move_seconds * timeout_scale
    layout = case.board if case.board is not None else case_layout(case.layout, case.path)
    games: list[_Game] = []

    def result(status: Any, messages: list[str], points: float = 0.0) -> TestResult:
        return TestResult(
            case.test_name,
            case.question,
            status,
            points=points,
            max_points=case.max_points,
            messages=tuple(_in_student_names(m, worker.path) for m in messages),
            output=worker.output(),
            seconds=time.monotonic() - t0,
        )

    ghost_cls = GHOSTS[case.ghosts]
    ran_out = False
    stuck: list[str] = []  # where the first timed-out move was
    try:
        worker.ensure()
        worker.clear_output()
        for game in range(case.num_games):
            gseed = game_seed(case, game)
            worker.ensure()
            worker.send(SetLayout(layout.name, layout.to_text()))
            worker.send(Seed(global_seed(gseed)))
            pacman: Any
            if case.source == "reference":
                pacman = _OursWithTheirEvaluation(worker, case, move_limit, test_deadline)
            else:
                worker.call(
                    MakeAgent(case.source, case.agent, case.depth, case.evaluation),
                    deadline=min(test_deadline, time.monotonic() + move_limit),
                )
                pacman = RemoteAgent(worker, move_limit, test_deadline)
            start = GameState.initial(layout, case.num_ghosts)
            agents: list[Any] = [pacman]
            for i in range(1, start.num_agents):
                agents.append(ghost_cls(i, random.Random(derive_seed(gseed, "agent", i))))
            try:
                record = run_game(
                    start,
                    agents,
                    max_turns=case.max_turns,
                    seed=gseed,
                    should_stop=lambda: time.monotonic() >= test_deadline,
                )
            except AgentCrashError as exc:
                cause = exc.__cause__
                if isinstance(cause, WorkerLost) and cause.kind == "timeout":
                    # A timed-out game is a loss with its score so far: stalling in a game
                    # about to be lost must not beat losing it.
                    games.append(_Game("timeout", _stopped_score(exc)))
                    if not stuck:
                        stuck.append(
                            f"A move ran out of time in game {len(games)}.{cause.stuck_at()}"
                        )
                    if time.monotonic() >= test_deadline:
                        ran_out = True
                        break
                    continue
                if isinstance(cause, StudentError | WorkerLost):
                    raise cause from None
                raise
            if record.outcome == "aborted":  # the test's time ran out during this game
                games.append(_Game("timeout", record.final_score))
                ran_out = True
                break
            games.append(_Game(record.outcome, record.final_score))
    except StudentError as exc:
        where = f"in game {len(games) + 1}"
        who = (
            f"Your {case.agent}"
            if case.source == "student"
            else f"Your evaluation function, used by our {case.agent},"
        )
        messages = [f"{who} raised {where}: {exc.describe()}"]
        if exc.trace:
            messages.extend(exc.trace.rstrip().splitlines())
        return result("error", messages)
    except WorkerLost as exc:
        if exc.kind == "timeout":  # outside a game: making the agent took too long
            return result(
                "timeout",
                [
                    f"Your agent was not ready for game {len(games) + 1} within the time "
                    f"limit ({case.move_seconds * timeout_scale:g} s a move, "
                    f"{case.test_seconds * timeout_scale:g} s for the test).{exc.stuck_at()}"
                ],
            )
        return result("error", [f"{exc.detail} in game {len(games) + 1}."])
    except IllegalActionError as exc:
        return result("error", [f"Your {case.agent} {exc} (game {len(games) + 1})."])
    notes = list(stuck)
    if ran_out:
        played = len(games)
        notes.append(
            f"The test's {case.test_seconds * timeout_scale:g} s ran out during game {played} "
            "(an endless or very slow game?): that game counts as a timed-out loss with its "
            "score so far"
            + (
                f", and games {played + 1}-{case.num_games} as not played (score 0)."
                if played < case.num_games
                else "."
            )
        )
        games.extend(_Game("not played", 0) for _ in range(case.num_games - played))
    return _score(case, games, result, notes, worker.path)


def _shown_path(path: Path) -> str:
    """``path`` relative to the current folder when inside it, for a command to copy."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _defines_function(path: Path, name: str) -> bool:
    """Whether the file defines a top-level function ``name`` (parsed, never run)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return False
    return any(isinstance(n, ast.FunctionDef) and n.name == name for n in tree.body)


def _in_student_names(text: str, student_file: Path) -> str:
    """``text`` with our function names in the spelling of the student's file.

    A classic file defines ``betterEvaluationFunction``, not ``better_evaluation``:
    messages name what the student wrote.
    """
    for ours, classic in CLASSIC_FUNCTION_NAMES.items():
        if ours in text and _defines_function(student_file, classic):
            text = text.replace(ours, classic)
    return text


def replay_command(case: EvalAgentCase, student_file: Path, seed: int) -> str | None:
    """The ``pacman`` command that plays the case's game seeded ``seed`` again, in a window.

    The agents, their generators and the global ``random`` start as in the grader (see
    `pacman.runner.build_agents`), so a deterministic agent plays the same game. ``None``
    when the case's board is not a shipped layout (the command could not name it).
    """
    if shipped_layout_path(case.layout) is None:
        return None
    file = _shown_path(student_file)
    args = [] if case.depth is None else [f"depth={case.depth}"]
    pacman = (
        f"{file}:{case.agent}" if case.source == "student" else f"{REFERENCE_PREFIX}{case.agent}"
    )
    evaluation = case.evaluation
    if evaluation is not None and evaluation.startswith("student:"):
        name = evaluation.partition(":")[2]
        classic = CLASSIC_FUNCTION_NAMES.get(name)
        if classic is not None and _defines_function(student_file, classic):
            name = classic
        evaluation = f"{file}:{name}"
    if evaluation is not None:
        args.append(f"evalFn={evaluation}")
    words = ["pacman", "-l", case.layout, "-p", pacman]
    if args:
        words += ["-a", ",".join(args)]
    words += ["-g", case.ghosts, "-k", str(case.num_ghosts), "--seed", str(seed)]
    return shlex.join(words)


def _score(
    case: EvalAgentCase,
    games: list[_Game],
    result: Any,
    notes: Sequence[str] = (),
    student_file: Path | None = None,
) -> TestResult:
    n = len(games)
    wins = sum(g.outcome == "win" for g in games)
    non_timeouts = sum(g.outcome not in ("timeout", "not played") for g in games)
    average = sum(g.score for g in games) / n if n else 0.0
    messages = [
        f"{case.description}: {wins}/{n} wins, average score {average:.1f}",
        "scores: " + ", ".join(str(g.score) for g in games),
        "outcomes: " + ", ".join(g.outcome for g in games),
        *notes,
    ]
    played = [(i, g) for i, g in enumerate(games) if g.outcome != "not played"]
    if student_file is not None and played:
        # Watch the first game not won (or the first game) again, from its own seed.
        k, shown = next(((i, g) for i, g in played if g.outcome != "win"), played[0])
        command = replay_command(case, student_file, game_seed(case, k))
        if command is not None:
            messages.append(f"watch game {k + 1} ({shown.outcome}) again: {command}")
    failed_minimum = []
    if case.score_minimum is not None and average < case.score_minimum:
        failed_minimum.append(f"average score {average:.1f} < minimum {case.score_minimum:g}")
    if case.wins_minimum is not None and wins < case.wins_minimum:
        failed_minimum.append(f"{wins} wins < minimum {case.wins_minimum}")
    if case.non_timeout_minimum is not None and non_timeouts < case.non_timeout_minimum:
        failed_minimum.append(f"{non_timeouts} games without timeout < {case.non_timeout_minimum}")
    points = 0
    for label, got, thresholds in (
        ("average score", average, case.score_thresholds),
        ("wins", wins, case.wins_thresholds),
        ("games without timeout", non_timeouts, case.non_timeout_thresholds),
    ):
        for t in thresholds:
            reached = got >= t
            points += reached
            mark = "+1" if reached else "+0"
            messages.append(f"{mark}  {label} >= {t:g}" if reached else f"{mark}  {label} < {t:g}")
    if failed_minimum:
        messages.append("0 points: " + "; ".join(failed_minimum))
        return result("failed", messages, 0.0)  # type: ignore[no-any-return]
    status = "passed" if points == case.max_points else "failed"
    return result(status, messages, float(points))  # type: ignore[no-any-return]
