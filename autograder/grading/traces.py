"""Game-trace tests: the student's agent decides at every Pacman move of a reference game.

A case file (``autograder/cases/game_traces/<name>.toml``) names the layout, ghosts,
seed and depth; ``autograder generate`` plays the game with our reference agent and
writes ``<name>.trace.json``: every move of the game, and for each Pacman move the
reference's tied-best actions and the number of distinct states it generates. At
grading time the game follows the recorded moves; at every Pacman move the student's
agent (in the worker, on proxy states) must return one of the tied-best actions and
generate exactly as many distinct states. The first move that differs fails the test,
with the board, both answers and the likely bug.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from agents.evaluation import get_evaluation
from agents.search import expectimax, minimax
from autograder.algorithms import algorithm as algorithm_row
from autograder.algorithms import algorithm_names
from autograder.grading.catalogue import RETURNED_NONE, diagnose
from autograder.grading.servers import PacmanServer
from autograder.grading.workers import BadAnswer, SandboxProcess, StudentError, WorkerLost
from autograder.reading.case_toml import GHOSTS, case_layout, read_case_table
from autograder.results import CaseFormatError, TestResult
from autograder.sandbox.protocol import Decide, MakeAgent, Register, Seed, SetLayout
from pacman.core.game import derive_seed, run_game
from pacman.core.layout import Layout
from pacman.core.state import GameState
from pacman.render.text import render_text

__all__ = [
    "GameTraceCase",
    "Trace",
    "generate_trace",
    "load_game_traces",
    "read_game_trace_case",
    "reference_trace",
    "run_game_trace",
]

TRACE_FORMAT: Final = "autograder-game-trace/2"
"""The ``format`` tag of generated trace files."""

_KEYS: Final = {
    "question": str,
    "algorithm": str,
    "layout": str,
    "ghosts": str,
    "num_ghosts": int,
    "depth": int,
    "evaluation": str,
    "seed": int,
    "move_seconds": float,
    "test_seconds": float,
    "description": str,
}


@dataclass(frozen=True, slots=True)
class Trace:
    """The reference game: every move, and what each Pacman move must look like."""

    actions: tuple[str, ...]
    """Every move of the game in turn order (Pacman, ghost 1, ...)."""
    best: tuple[frozenset[str], ...]
    """For each Pacman move, the reference's tied-best actions."""
    generated: tuple[int, ...]
    """For each Pacman move, how many distinct states the reference generates."""
    without_stop: tuple[tuple[frozenset[str], int], ...] = ()
    """For each Pacman move, the tied-best actions and the distinct states of the same
    search leaving out Pacman's Stop, which the classic contract accepts too."""

    def accepted(self, turn: int) -> tuple[tuple[frozenset[str], int], ...]:
        """The (tied-best actions, distinct states) pairs accepted at Pacman move ``turn``."""
        answers = [(self.best[turn], self.generated[turn])]
        if self.without_stop:
            answers.append(self.without_stop[turn])
        return tuple(answers)


@dataclass(frozen=True, slots=True)
class GameTraceCase:
    """One game-trace test, as read from its TOML file."""

    name: str
    """File stem, e.g. ``"minimax-smallClassic"``."""
    question: str
    """The question it belongs to (``"q2"``)."""
    algorithm: str
    """``"minimax"``, ``"alpha_beta"`` or ``"expectimax"``."""
    layout: str
    """Layout name or path."""
    ghosts: str
    """Ghost agent for every ghost (``DirectionalGhost`` or ``RandomGhost``)."""
    num_ghosts: int
    """How many ghosts play."""
    depth: int
    """Search depth given to the agent."""
    evaluation: str
    """Evaluation function name (``score``)."""
    seed: int
    """Seed of the ghosts' generators."""
    move_seconds: float
    """Time limit for one decision."""
    test_seconds: float
    """Time limit for the whole test."""
    description: str
    """One line shown with the test."""
    path: Path
    """The case file."""
    board: Layout | None = None
    """The layout, read with the case (`load_game_traces`)."""
    trace: Trace | None = None
    """The generated trace, read with the case (`load_game_traces`); ``None`` before
    ``autograder generate`` wrote it."""

    @property
    def test_name(self) -> str:
        """The test's name in the suite (``"q2/game-trace"``)."""
        return f"{self.question}/{self.name}"

    @property
    def trace_path(self) -> Path:
        """Where the generated trace lives."""
        return self.path.with_name(self.name + ".trace.json")

    def settings(self) -> dict[str, Any]:
        """The fields that determine the trace (stored in it to detect stale traces)."""
        return {
            "algorithm": self.algorithm,
            "layout": self.layout,
            "ghosts": self.ghosts,
            "num_ghosts": self.num_ghosts,
            "depth": self.depth,
            "evaluation": self.evaluation,
            "seed": self.seed,
        }


def read_game_trace_case(path: Path) -> GameTraceCase:
    """Read one case file.

    Raises:
        CaseFormatError: If the file is unreadable, not TOML, or has a wrong key or value.
    """
    values = read_case_table(path, _KEYS)
    if values["algorithm"] not in algorithm_names():
        raise CaseFormatError(f"{path}:1: unknown algorithm {values['algorithm']!r}")
    return GameTraceCase(name=path.stem, path=path, **values)


def load_game_traces(folder: Path | None = None, *, traces: bool = True) -> list[GameTraceCase]:
    """Every game-trace case in ``folder`` (default: the packaged ones), sorted by name.

    Args:
        folder: The folder of case files.
        traces: Also read each case's generated trace into memory (`GameTraceCase.trace`).
            Grading never reads a file after this, so a submission that rewrites the
            files cannot change what it is graded against. ``autograder generate``
            passes ``False``: it writes the traces.

    Raises:
        CaseFormatError: If a case file or (with ``traces``) its trace is malformed.
    """
    base = Path(__file__).parents[1] / "cases" / "game_traces" if folder is None else folder
    cases = [read_game_trace_case(p) for p in sorted(base.glob("*.toml"))]
    cases = [dataclasses.replace(c, board=case_layout(c.layout, c.path)) for c in cases]
    if traces:
        cases = [dataclasses.replace(c, trace=read_trace(c)) for c in cases]
    return cases


def read_trace(case: GameTraceCase) -> Trace:
    """Read the generated trace of a case.

    Raises:
        CaseFormatError: If it is missing, malformed or made for other settings.
    """
    path = case.trace_path
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise CaseFormatError(f"{path}:1: no trace; run `autograder generate`") from None
    except json.JSONDecodeError as exc:
        raise CaseFormatError(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != TRACE_FORMAT:
        raise CaseFormatError(f"{path}:1: not a game trace (format {TRACE_FORMAT!r})")
    if data.get("settings") != case.settings():
        raise CaseFormatError(
            f"{path}:1: made for other settings than {case.path.name}; run `autograder generate`"
        )
    return _parse_trace(data, path)


def _parse_trace(data: dict[str, Any], path: Path) -> Trace:
    try:
        moves = data["moves"]
        return Trace(
            actions=tuple(str(a) for a in data["actions"]),
            best=tuple(frozenset(str(a) for a in m["best"]) for m in moves),
            generated=tuple(int(m["generated"]) for m in moves),
            without_stop=tuple(
                (
                    frozenset(str(a) for a in m["without_stop"]["best"]),
                    int(m["without_stop"]["generated"]),
                )
                for m in moves
            ),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise CaseFormatError(f"{path}:1: malformed trace: {exc!r}") from None


# --- generating -----------------------------------------------------------------------


class _OnlyAction:
    """A root whose agent 0 may play only one action: a search on it values that action."""

    __slots__ = ("action", "state")

    def __init__(self, state: GameState, action: Any) -> None:
        self.state = state
        self.action = action

    @property
    def num_agents(self) -> int:
        return self.state.num_agents

    def legal_actions(self, agent: int) -> Sequence[Any]:
        return (self.action,) if agent == 0 else self.state.legal_actions(agent)

    def successor(self, agent: int, action: Any) -> Any:
        # Below the root the real states take over (a search only recurses on children).
        return self.state.successor(agent, action)

    def is_terminal(self) -> bool:
        return self.state.is_terminal()


class _NoStop:
    """A state whose Pacman never has Stop: the view of a search that leaves Stop out."""

    __slots__ = ("state",)

    def __init__(self, state: Any) -> None:
        self.state = state

    @property
    def num_agents(self) -> int:
        return int(self.state.num_agents)

    def legal_actions(self, agent: int) -> Sequence[Any]:
        actions = self.state.legal_actions(agent)
        return [a for a in actions if str(a) != "Stop"] if agent == 0 else actions

    def successor(self, agent: int, action: Any) -> _NoStop:
        return _NoStop(self.state.successor(agent, action))

    def is_terminal(self) -> bool:
        return bool(self.state.is_terminal())


def tied_best(state: Any, algorithm: str, depth: int, evaluate: Any) -> frozenset[str]:
    """The root actions whose search value equals the best one.

    Alpha-beta is valued with minimax: its pruned values are bounds, but its choice must
    be a minimax-best action.
    """
    search = expectimax if algorithm_row(algorithm).ghost_role == "chance" else minimax
    values = {
        str(a): search(_OnlyAction(state, a), depth=depth, evaluate=evaluate).value
        for a in state.legal_actions(0)
    }
    if not values:
        return frozenset()
    best = max(values.values())
    return frozenset(a for a, v in values.items() if v == best)


def _start(case: GameTraceCase) -> GameState:
    board = case.board if case.board is not None else case_layout(case.layout, case.path)
    return GameState.initial(board, case.num_ghosts)


def generate_trace(case: GameTraceCase) -> Path | None:
    """Play the reference game of ``case`` and write its trace file if it changed.

    Returns:
        The path, when the file was written; ``None`` when it was already current.
    """
    text = _trace_text(case)
    path = case.trace_path
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
        return path
    return None


def reference_trace(case: GameTraceCase) -> Trace:
    """Play the reference game of ``case`` and return its trace, writing no file.

    For cases whose trace is not stored, such as a classic ``PacmanGameTreeTest``.
    """
    return _parse_trace(json.loads(_trace_text(case)), case.path)


def _trace_text(case: GameTraceCase) -> str:
    """The trace file's text: the reference game of ``case`` and every Pacman move's answers."""
    search = algorithm_row(case.algorithm).search
    evaluate = get_evaluation(case.evaluation)
    moves: list[dict[str, Any]] = []

    def unwrapped(s: Any) -> float:
        return float(evaluate(s.state))

    class Reference:
        def get_action(self, state: GameState) -> Any:
            seen = {state}
            result = search(state, depth=case.depth, evaluate=evaluate, observe=seen.add)
            best = tied_best(state, case.algorithm, case.depth, evaluate)
            assert str(result.action) in best
            # The same search leaving out Pacman's Stop (accepted by the classic contract).
            root = _NoStop(state)
            seen_ns = {state}
            search(
                root, depth=case.depth, evaluate=unwrapped, observe=lambda s: seen_ns.add(s.state)
            )
            best_ns = tied_best(root, case.algorithm, case.depth, unwrapped)
            moves.append(
                {
                    "best": sorted(best),
                    "generated": len(seen),
                    "without_stop": {"best": sorted(best_ns), "generated": len(seen_ns)},
                }
            )
            return result.action

    start = _start(case)
    ghost_cls = GHOSTS[case.ghosts]
    agents: list[Any] = [Reference()]
    for i in range(1, start.num_agents):
        agents.append(ghost_cls(i, random.Random(derive_seed(case.seed, "agent", i))))
    record = run_game(start, agents, seed=case.seed)
    lines = [
        "{",
        f'"format": {json.dumps(TRACE_FORMAT)},',
        f'"settings": {json.dumps(case.settings())},',
        f'"outcome": {json.dumps(record.outcome)}, "score": {record.final_score},',
        f'"actions": {json.dumps(list(record.actions))},',
        '"moves": [',
        ",\n".join(json.dumps(m) for m in moves),
        "]}",
    ]
    return "\n".join(lines) + "\n"


# --- grading --------------------------------------------------------------------------


def run_game_trace(
    case: GameTraceCase,
    worker: SandboxProcess,
    *,
    points: float = 0.0,
    timeout_scale: float = 1.0,
) -> TestResult:
    """Grade the student's agent on one game trace, in ``worker``.

    The case's trace and layout were read into memory when it was loaded; no file is
    read here, so a submission that rewrites files cannot change the expected answers.

    Returns:
        Passed, failed (first diverging move, board, answers, likely bug), error (the
        student's code raised or the worker died) or timeout.

    Raises:
        CaseFormatError: If the case was built without its trace or layout.
    """
    trace = case.trace
    if trace is None or case.board is None:
        raise CaseFormatError(f"{case.path}:1: load the case with its trace (load_game_traces)")
    t0 = time.monotonic()
    test_deadline = t0 + case.test_seconds * timeout_scale
    move_limit = case.move_seconds * timeout_scale
    state = _start(case)
    name = case.test_name
    server = PacmanServer()
    turn = 0
    phase = "starting the agent"

    def result(status: Any, messages: list[str], diagnosis: str | None = None) -> TestResult:
        return TestResult(
            name,
            case.question,
            status,
            points=points if status == "passed" else 0.0,
            max_points=points,
            messages=tuple(messages),
            diagnosis=diagnosis,
            output=worker.output(),
            seconds=time.monotonic() - t0,
        )

    try:
        worker.ensure()
        worker.clear_output()
        layout = state.layout
        worker.send(SetLayout(layout.name, layout.to_text()))
        worker.send(Seed(derive_seed(case.seed, "student")))
        cls = algorithm_row(case.algorithm).student_class
        worker.call(MakeAgent("student", cls, case.depth, case.evaluation), deadline=test_deadline)
        phase = "in register_initial_state"
        gid, fields = server.begin(state)
        worker.call(
            Register(gid, fields),
            deadline=min(test_deadline, time.monotonic() + move_limit),
            serve=server.serve,
            notice=server.notice,
        )
        n = state.num_agents
        for index, action in enumerate(trace.actions):
            agent = index % n
            if agent == 0:
                phase = f"at move {turn + 1}"
                gid, fields = server.begin(state)
                answer = worker.call(
                    Decide(gid, fields),
                    deadline=min(test_deadline, time.monotonic() + move_limit),
                    serve=server.serve,
                    notice=server.notice,
                )
                failure = _check_move(case, trace, turn, state, answer, server)
                if failure is not None:
                    return result("failed", *failure)
                turn += 1
            state = state.successor(agent, action)
    except StudentError as exc:
        messages = [
            f"Your {algorithm_row(case.algorithm).student_class} raised {phase}: {exc.describe()}"
        ]
        if exc.trace:
            messages.extend(exc.trace.rstrip().splitlines())
        return result("error", messages)
    except WorkerLost as exc:
        if exc.kind == "timeout":
            limit = min(move_limit, test_deadline - t0)
            return result(
                "timeout", [f"No answer {phase} within the {limit:g} s limit.{exc.stuck_at()}"]
            )
        return result("error", [f"{exc.detail} {phase}."])
    return result(
        "passed", [f"all {turn} moves chose a best action and generated the right states"]
    )


def _check_move(
    case: GameTraceCase,
    trace: Trace,
    turn: int,
    state: GameState,
    answer: Any,
    server: PacmanServer,
) -> tuple[list[str], str | None] | None:
    got = len(server.generated)
    action = answer if isinstance(answer, str) else None
    legal = [str(a) for a in state.legal_actions(0)]
    accepted = trace.accepted(turn)
    if any(action in best and got == count for best, count in accepted):
        return None
    # Explain against the accepted search whose count is nearest to the student's.
    best, expected = min(accepted, key=lambda answer: abs(answer[1] - got))
    messages = [
        f"{case.description}: the first move that differs is move {turn + 1}.",
    ]
    if isinstance(answer, BadAnswer):
        messages.append(f"Your agent returned {answer.shown}, not an action; legal: {legal}.")
    elif action not in legal:
        messages.append(f"Your agent returned {action!r}, which is not legal here: {legal}.")
    elif action not in best:
        messages.append(
            f"Wrong action: expected {' or '.join(sorted(best))} (tied best), got {action!r}."
        )
    else:
        messages.append(f"Action {action!r} is right.")
    if got != expected:
        messages.append(f"Distinct states generated: expected {expected}, got {got}.")
    else:
        messages.append(f"Distinct states generated: {got}, as expected.")
    diagnosis = None
    try:
        returned_none = isinstance(answer, BadAnswer) and answer.shown == "None"
        bug = diagnose(
            state,
            case.algorithm,
            case.depth,
            get_evaluation(case.evaluation),
            action=RETURNED_NONE if returned_none else action,
            generated=server.generated,
        )
    except Exception:  # diagnosis is a courtesy: never let it break grading
        bug = None
    if bug is not None:
        diagnosis = bug.name
        messages.append(f"Likely bug: {bug.summary}.")
        messages.append(f"Hint: {bug.hint}.")
    messages.append("The board at that move (Pacman to move):")
    messages.extend(render_text(state).splitlines())
    return messages, diagnosis
