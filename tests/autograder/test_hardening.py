"""Defences against submissions that attack the grader instead of solving the problem.

Each test plays one attack a reviewer found: rewriting the expected answers, having
states of another decision counted, reusing our reference agents, exhausting memory;
and two fixes to honest submissions the grader used to break (``score`` on tree states,
searches that forget to stop at won and lost states).
"""

from __future__ import annotations

import json
import shutil
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from autograder.cli import main
from autograder.grading.servers import PacmanServer
from autograder.grading.suite import TestSpec, run_tree_test
from autograder.grading.trees import reference_run
from autograder.grading.workers import SandboxProcess, StudentError
from autograder.reading.tree_cases import parse_tree_case
from autograder.sandbox.protocol import Decide, MakeAgent, SetLayout
from pacman import GameState

ROOT = Path(__file__).resolve().parents[2]


def deadline(seconds: float = 10.0) -> float:
    return time.monotonic() + seconds


def student(tmp_path: Path, source: str, name: str = "multi_agents.py") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


def grade(tmp_path: Path, file: Path, *args: str) -> dict[str, dict[str, Any]]:
    out = tmp_path / "report.json"
    assert main([str(file), "--format", "json", "--output", str(out), *args]) == 0
    report = json.loads(out.read_text())
    return {t["name"]: t for q in report["questions"] for t in q["tests"]}


# --- 1. expected answers are held in memory --------------------------------------------


def test_rewriting_the_case_files_at_import_changes_no_verdict(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    shutil.copytree(ROOT / "autograder" / "cases", cases)
    path = student(
        tmp_path,
        f"""
        import json, pathlib
        from autograder.sandbox.student import MultiAgentSearchAgent

        for p in pathlib.Path({str(cases)!r}).rglob("*"):
            if p.name.endswith(".trace.json"):
                d = json.loads(p.read_text())
                d["actions"], d["moves"] = [], []
                p.write_text(json.dumps(d))
            elif p.suffix == ".toml":
                p.write_text("")

        class MinimaxAgent(MultiAgentSearchAgent):
            def get_action(self, state):
                return "Stop"
        """,
    )
    tests = grade(
        tmp_path, path, "--cases", str(cases), "-t", "minimax-smallClassic", "-t", "lecture-3x3"
    )
    assert tests["q2/minimax-smallClassic"]["status"] == "failed"
    assert "move 1" in tests["q2/minimax-smallClassic"]["messages"][0]
    assert tests["q2/lecture-3x3"]["status"] == "failed"
    assert (cases / "minimax" / "lecture-3x3.toml").read_text() == ""  # the attack did run


# --- 3, 4. counts belong to one decision -----------------------------------------------

_KEEPS_A_CHILD = {
    "new": """
        from autograder.sandbox.student import MultiAgentSearchAgent

        class MinimaxAgent(MultiAgentSearchAgent):
            kept = None

            def get_action(self, state):
                if MinimaxAgent.kept is None:
                    MinimaxAgent.kept = state
                p = MinimaxAgent.kept
                p.successor(1, p.legal_actions(1)[0])  # a sibling, sent ahead
                p.successor(0, p.legal_actions(0)[0])
                return "Stop"
        """,
    "classic": """
        from game import Agent

        class MinimaxAgent(Agent):
            kept = None

            def __init__(self, depth="2"):
                self.depth = int(depth)

            def getAction(self, gameState):
                if MinimaxAgent.kept is None:
                    MinimaxAgent.kept = gameState
                p = MinimaxAgent.kept
                p.generateSuccessor(1, p.getLegalActions(1)[0])
                p.generateSuccessor(0, p.getLegalActions(0)[0])
                return "Stop"
        """,
}


@pytest.mark.parametrize("api", sorted(_KEEPS_A_CHILD))
def test_a_child_kept_from_an_earlier_decision_is_counted_again(tmp_path: Path, api: str) -> None:
    """SPEC 6: every state returned during a decision counts, cached or not."""
    path = student(tmp_path, _KEEPS_A_CHILD[api])
    state = GameState.initial("testClassic")
    w = SandboxProcess(path)
    try:
        w.start()
        w.send(SetLayout(state.layout.name, state.layout.to_text()))
        w.call(MakeAgent("student", "MinimaxAgent", 2, None), deadline=deadline())
        server = PacmanServer()
        expected = {
            state,
            state.successor(0, state.legal_actions(0)[0]),
            state.successor(1, state.legal_actions(1)[0]),
        }
        for _ in range(2):  # the same root twice: the same states must count both times
            answer = w.call(
                Decide(*server.begin(state)),
                deadline=deadline(),
                serve=server.serve,
                notice=server.notice,
            )
            assert answer == "Stop"
            assert server.generated == expected
    finally:
        w.close()


def test_notices_count_only_states_sent_ahead_in_this_decision() -> None:
    state = GameState.initial("testClassic")
    server = PacmanServer()
    root, _ = server.begin(state)
    first = str(state.legal_actions(0)[0])
    reply = server.serve(root, 0, first)
    assert reply[0] == "c"
    chosen, siblings = reply[1], reply[2]
    ahead = [number for i, (_, number, _) in enumerate(siblings) if i != chosen]
    assert ahead
    server.begin(state)
    server.notice(ahead[0])  # sent ahead in the previous decision
    server.notice(root)  # never sent ahead
    server.notice(10**9)  # never existed
    assert server.generated == {state}
    reply = server.serve(root, 0, first)
    fresh = [number for i, (_, number, _) in enumerate(reply[2]) if i != reply[1]]
    server.notice(fresh[0])
    server.notice(fresh[0])
    assert len(server.generated) == 3  # root, the child asked for, one sibling


# --- 5, 6. tree states have a score; won and lost states may be expanded -----------------

_SCORE_AT_LEAVES = {
    "new": """
        from autograder.sandbox.student import MultiAgentSearchAgent

        class MinimaxAgent(MultiAgentSearchAgent):
            def get_action(self, state):
                n = state.num_agents

                def value(s, agent, depth):
                    if s.is_terminal() or (agent == 0 and depth == self.depth):
                        return s.score
                    nxt, nd = (agent + 1, depth) if agent + 1 < n else (0, depth + 1)
                    vals = [value(s.successor(agent, a), nxt, nd) for a in s.legal_actions(agent)]
                    return max(vals) if agent == 0 else min(vals)

                nxt, nd = (1, 0) if n > 1 else (0, 1)
                vals = [value(state.successor(0, a), nxt, nd) for a in state.legal_actions(0)]
                return state.legal_actions(0)[vals.index(max(vals))]
        """,
    "classic": """
        from game import Agent

        def scoreEvaluationFunction(currentGameState):
            return currentGameState.getScore()

        class MinimaxAgent(Agent):
            def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
                self.depth = int(depth)

            def getAction(self, gameState):
                n = gameState.getNumAgents()

                def value(s, agent, depth):
                    if s.isWin() or s.isLose() or (agent == 0 and depth == self.depth):
                        return scoreEvaluationFunction(s)
                    nxt, nd = (agent + 1, depth) if agent + 1 < n else (0, depth + 1)
                    vals = [
                        value(s.generateSuccessor(agent, a), nxt, nd)
                        for a in s.getLegalActions(agent)
                    ]
                    return max(vals) if agent == 0 else min(vals)

                nxt, nd = (1, 0) if n > 1 else (0, 1)
                actions = gameState.getLegalActions(0)
                vals = [value(gameState.generateSuccessor(0, a), nxt, nd) for a in actions]
                return actions[vals.index(max(vals))]
        """,
}


@pytest.mark.parametrize("api", sorted(_SCORE_AT_LEAVES))
def test_the_score_of_a_tree_state_is_its_value(tmp_path: Path, api: str) -> None:
    name = "multiAgents.py" if api == "classic" else "multi_agents.py"
    path = student(tmp_path, _SCORE_AT_LEAVES[api], name)
    tests = grade(tmp_path, path, "-q", "q2", "-t", "lecture-3x3", "-t", "win-at-pacman-turn")
    assert {n: t["status"] for n, t in tests.items()} == {
        "q2/lecture-3x3": "passed",
        "q2/win-at-pacman-turn": "passed",
    }


_WIN_WITH_EDGES = """
description = "B is won: it has no moves, so a search that forgets to stop there finds none"
algorithm = "minimax"
depth = 1
agents = 2
start = "A"
win = ["B"]
tree = '''
A l B
A r C
C x F
C y G
'''
values = '''
B 10
F 5
G 6
'''
"""


def test_a_search_without_a_terminal_check_is_diagnosed(tmp_path: Path) -> None:
    draft = parse_tree_case(_WIN_WITH_EDGES, name="minimax/win-with-edges", require_answer=False)
    action, generated = reference_run(draft)
    case = parse_tree_case(
        _WIN_WITH_EDGES
        + f'expected_action = "{action}"\nexpected_generated = "{" ".join(sorted(generated))}"\n',
        name="minimax/win-with-edges",
    )
    assert case.expected_action == "l"
    path = student(
        tmp_path,
        _SCORE_AT_LEAVES["new"].replace("s.is_terminal() or ", ""),  # no win/lose check
    )
    w = SandboxProcess(path)
    try:
        result = run_tree_test(TestSpec("q2/win-with-edges", "q2", "tree", case, 0.01), w)
    finally:
        w.close()
    # As in a real game: the won state has no moves, and min() of none raises.
    assert result.status == "error"
    assert any("min() iterable argument is empty" in m or "empty" in m for m in result.messages)
    assert any("a won or lost state has no legal actions" in m for m in result.messages)


# --- 7. our reference code is not the student's -----------------------------------------


@pytest.mark.parametrize(
    "module",
    [
        "agents",
        "agents.players",
        "autograder.reading.tree_cases",
        "autograder.grading.catalogue",
        "autograder.grading.traces",
        "autograder.grading.suite",
    ],
)
def test_reference_and_grader_modules_cannot_be_imported(tmp_path: Path, module: str) -> None:
    path = student(tmp_path, f"import {module}\n")
    w = SandboxProcess(path)
    try:
        with pytest.raises(StudentError) as info:
            w.start()
    finally:
        w.close()
    # The first package on the way that is not the student's: agents, autograder.<layer>.
    top = ".".join(module.split(".")[:2]) if module.startswith("autograder") else "agents"
    assert f"ImportError: {top} is not available to submissions" in str(info.value)


def test_a_graded_function_loaded_from_our_files_is_refused(tmp_path: Path) -> None:
    path = student(
        tmp_path,
        """
        import importlib.util
        import pathlib
        import sys

        import pacman

        # The worker holds none of our agents (issue 11): load one from its file instead,
        # under a name of its own, with the modules it imports loaded the same way.
        folder = pathlib.Path(pacman.__file__).resolve().parents[1] / "agents"

        def load(name):
            spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
            return module

        evaluation = load("evaluation")
        better_evaluation = evaluation.better_evaluation

        class ExpectimaxAgent:
            def __init__(self, depth=2, evaluate=None):
                pass

            def get_action(self, state):
                return "Stop"
        """,
    )
    tests = grade(tmp_path, path, "-q", "q5")
    messages = "\n".join(tests["q5/better-smallClassic"]["messages"])
    assert tests["q5/better-smallClassic"]["status"] == "error"
    assert (
        "better_evaluation comes from agents/evaluation.py, not from your file: write your own"
        in messages
    )


def test_an_evaluation_function_taken_from_our_code_is_refused(tmp_path: Path) -> None:
    path = student(
        tmp_path,
        """
        from autograder.sandbox.student import score_evaluation

        better_evaluation = score_evaluation

        class ExpectimaxAgent:
            def __init__(self, depth=2, evaluate=None):
                pass

            def get_action(self, state):
                return "Stop"
        """,
    )
    w = SandboxProcess(path)
    try:
        w.start()
        with pytest.raises(StudentError) as info:
            w.call(
                MakeAgent("student", "ExpectimaxAgent", 2, "student:better_evaluation"),
                deadline=deadline(),
            )
    finally:
        w.close()
    assert "better_evaluation comes from autograder.sandbox.student, not from your file" in str(
        info.value
    )


_LOOKS_FOR_REFERENCE = """
    import gc
    import sys

    modules = sorted(m for m in sys.modules if m.split(".")[0] == "agents")
    functions = sorted(
        f"{o.__module__}.{o.__qualname__}"
        for o in gc.get_objects()
        if callable(o) and str(getattr(o, "__module__", "")).split(".")[0] == "agents"
    )
    main = [n for n in vars(sys.modules["__main__"]) if n in ("PACMAN_AGENTS", "get_evaluation")]
    print("FOUND", modules, functions, main)
"""


def test_no_reference_search_lives_in_the_worker(tmp_path: Path) -> None:
    # Issue 11 item 10: our agents were one attribute away (sys.modules["__main__"]).
    path = student(tmp_path, _LOOKS_FOR_REFERENCE)
    w = SandboxProcess(path)
    try:
        w.start()
        output = w.output()
    finally:
        w.close()
    assert "FOUND [] [] []" in output


def test_the_worker_runs_no_reference_agent(tmp_path: Path) -> None:
    path = student(tmp_path, "x = 1\n")
    w = SandboxProcess(path)
    try:
        w.start()
        with pytest.raises(StudentError, match="runs only the student's agents"):
            w.call(MakeAgent("reference", "ExpectimaxAgent", 2, None), deadline=deadline())
    finally:
        w.close()


# --- 8. memory -----------------------------------------------------------------------------


def test_a_memory_bomb_fails_its_own_test_and_the_worker_goes_on(tmp_path: Path) -> None:
    path = student(
        tmp_path,
        """
        import sys

        class Agent:
            calls = 0

            def get_action(self, state):
                Agent.calls += 1
                if Agent.calls == 1:
                    hog = bytearray(3 * 2**30)  # more than the worker's address space
                    return str(len(hog))
                return ",".join(m for m in ("numpy", "pygame") if m in sys.modules) or "Stop"
        """,
    )
    state = GameState.initial("testClassic")
    w = SandboxProcess(path)
    try:
        w.start()
        w.send(SetLayout(state.layout.name, state.layout.to_text()))
        w.call(MakeAgent("student", "Agent", None, None), deadline=deadline())
        server = PacmanServer()
        with pytest.raises(StudentError) as info:
            w.call(Decide(*server.begin(state)), deadline=deadline(), serve=server.serve)
        assert "MemoryError: used more than the 2 GiB memory limit" in str(info.value)
        again = w.call(Decide(*server.begin(state)), deadline=deadline(), serve=server.serve)
        assert again == "Stop"  # the same worker answers, without numpy or pygame loaded
    finally:
        w.close()


def test_repeating_a_request_does_not_grow_the_graders_state_table() -> None:
    # Issue 11 item 12: one request repeated 10,000 times kept 10,000 states.
    state = GameState.initial("mediumClassic")
    server = PacmanServer()
    root, _ = server.begin(state)
    action = str(state.legal_actions(0)[0])
    for _ in range(10_000):
        assert server.serve(root, 0, action)[0] == "c"
    assert len(server.states) == 1 + len(state.legal_actions(0))


def test_the_graders_state_table_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from autograder.grading import servers

    monkeypatch.setattr(servers, "MAX_STATES", 20)
    state = GameState.initial("mediumClassic")
    server = PacmanServer()
    number, _ = server.begin(state)
    replies = []
    for _ in range(30):  # walk on: every move brings new states
        reply = server.serve(number, 0, str(state.legal_actions(0)[0]))
        replies.append(reply)
        if reply[0] != "c":
            break
        chosen, siblings = reply[1], reply[2]
        number = siblings[chosen][1]
        state = server.states[number]
        reply = server.serve(number, 1, str(state.legal_actions(1)[0]))
        if reply[0] != "c":
            replies.append(reply)
            break
        number = reply[2][reply[1]][1]
        state = server.states[number]
    assert replies[-1][0] == "e"
    assert "distinct states" in replies[-1][2]
    assert len(server.states) <= 20
    server.begin(GameState.initial("testClassic"))  # a new root is still taken
