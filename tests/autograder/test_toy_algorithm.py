"""Adding a graded algorithm takes one table row, its search and its cases.

The toy is iterative deepening: minimax searched to depth 1, 2, ... up to the agent's
depth, answering with the last search's action. It gets a row (for the test's duration),
a reference search, two TOML cases and one classic ``.test`` file whose answers the
autograder writes itself, and is then graded end to end on student files through the
worker, like the shipped questions.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents.search import SearchResult, minimax
from autograder import algorithms
from autograder.algorithms import GradedAlgorithm
from autograder.grading.suite import build_suite, questions, run_suite, select
from autograder.grading.trees import generate_tree_solutions
from autograder.reading.case_folders import load_tree_cases


def iterative_deepening(
    state: Any,
    *,
    depth: int,
    evaluate: Callable[[Any], float],
    observe: Callable[[Any], None] | None = None,
) -> SearchResult:
    """Minimax to depth 1, 2, ... ``depth``; the deepest search's answer."""
    result = minimax(state, depth=1, evaluate=evaluate, observe=observe)
    for d in range(2, depth + 1):
        result = minimax(state, depth=d, evaluate=evaluate, observe=observe)
    return result


TOY = GradedAlgorithm(
    "iterative_deepening",
    "q6",
    "Iterative deepening",
    3,
    iterative_deepening,
    "IterativeDeepeningAgent",
    "IterativeDeepeningAgent",
    "min",
)

# Two plies on a tree where depth 1 and depth 2 disagree: the shallow value of l is
# higher, the deep one lower.
DEEP = """description = "Depth 1 prefers l, depth 2 prefers r."
algorithm = "iterative_deepening"
depth = 2
agents = 2
start = "A"
tree = '''
A l B
A r C
B x D
C x E
D l F
D r G
E l H
E r I
F x J
G x K
H x L
I x M
'''
values = '''
D 9
E 1
J 0
K 1
L 5
M 6
'''
"""

SHALLOW = """description = "One ply: the better ghost node."
algorithm = "iterative_deepening"
depth = 1
agents = 2
start = "A"
tree = '''
A l B
A r C
B x D
B y E
C x F
'''
values = '''
D 3
E 7
F 4
'''
"""

CLASSIC = """class: "GraphGameTreeTest"
alg: "IterativeDeepeningAgent"
depth: "1"
num_agents: "2"
start_state: "A"
win_states: ""
lose_states: ""
successors: \"\"\"
A l B
A r C
B x D
C x E
\"\"\"
evaluation: \"\"\"
D 2
E 1
\"\"\"
"""

STUDENT_HEADER = """
from autograder.student import MultiAgentSearchAgent


def value(agent, state, turn, depth):
    n = state.num_agents
    if state.is_terminal() or turn == depth * n:
        return agent.evaluate(state)
    who = turn % n
    kids = [value(agent, state.successor(who, a), turn + 1, depth)
            for a in state.legal_actions(who)]
    return max(kids) if who == 0 else min(kids)


def best(agent, state, depth):
    scored = [(value(agent, state.successor(0, a), 1, depth), a)
              for a in state.legal_actions(0)]
    top = max(v for v, _ in scored)
    return next(a for v, a in scored if v == top)
"""

RIGHT = (
    STUDENT_HEADER
    + """

class IterativeDeepeningAgent(MultiAgentSearchAgent):
    def get_action(self, state):
        action = None
        for d in range(1, self.depth + 1):
            action = best(self, state, d)
        return action
"""
)

ONLY_DEPTH_ONE = (
    STUDENT_HEADER
    + """

class IterativeDeepeningAgent(MultiAgentSearchAgent):
    def get_action(self, state):
        return best(self, state, 1)
"""
)


@pytest.fixture
def toy_cases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(algorithms, "ALGORITHMS", (*algorithms.ALGORITHMS, TOY))
    cases = tmp_path / "cases"
    folder = cases / "iterative_deepening"
    folder.mkdir(parents=True)
    (folder / "deep.toml").write_text(DEEP)
    (folder / "shallow.toml").write_text(SHALLOW)
    (folder / "classic.test").write_text(CLASSIC)
    written = generate_tree_solutions(cases, "iterative_deepening")
    assert len(written) == 3  # the answers come from the row's reference search
    return cases


def test_the_row_makes_a_question_and_its_cases_read(toy_cases: Path) -> None:
    # Graded algorithms come between the reflex agent and the evaluation function.
    assert [q.name for q in questions()] == ["q1", "q2", "q3", "q4", "q6", "q5"]
    cases = {c.name: c for c in load_tree_cases("iterative_deepening", toy_cases)}
    assert sorted(cases) == [
        "iterative_deepening/classic",
        "iterative_deepening/deep",
        "iterative_deepening/shallow",
    ]
    assert cases["iterative_deepening/deep"].expected_action == "r"
    assert cases["iterative_deepening/shallow"].expected_action == "r"


@pytest.mark.parametrize(("student", "points"), [(RIGHT, 3.0), (ONLY_DEPTH_ONE, 0.0)])
def test_the_toy_question_is_graded_end_to_end(
    toy_cases: Path, tmp_path: Path, student: str, points: float
) -> None:
    path = tmp_path / "multi_agents.py"
    path.write_text(student)
    specs = select(build_suite(toy_cases), questions=["q6"])
    assert [s.name for s in specs] == ["q6/classic", "q6/deep", "q6/shallow"]
    (result,) = run_suite(path, specs, jobs=1)
    assert (result.name, result.title, result.max_points) == ("q6", "Iterative deepening", 3.0)
    assert result.points == points
    failed = [t.name for t in result.tests if not t.passed]
    assert failed == ([] if points else ["q6/deep"])
