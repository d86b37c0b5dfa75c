"""The student's base class, the starter file, and running them with the pacman command."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from agents.evaluation import better_evaluation
from autograder.cli import STARTER
from autograder.sandbox.student import MultiAgentSearchAgent, resolve_evaluation, score_evaluation
from pacman.cli import main as pacman_main
from pacman.registry import make_agent

SOLUTION = Path(__file__).with_name("fixtures") / "solution" / "multi_agents.py"


@pytest.mark.parametrize(
    ("kwargs", "depth", "evaluate"),
    [
        ({}, 2, score_evaluation),
        ({"depth": "3", "evalFn": "scoreEvaluationFunction"}, 3, score_evaluation),
        ({"depth": 4, "evaluate": "score"}, 4, score_evaluation),
        ({"evaluate": better_evaluation}, 2, better_evaluation),
    ],
)
def test_base_takes_command_line_and_python_arguments(
    kwargs: dict[str, object], depth: int, evaluate: object
) -> None:
    agent = MultiAgentSearchAgent(**kwargs)  # type: ignore[arg-type]
    assert (agent.index, agent.depth, agent.evaluate) == (0, depth, evaluate)


def test_our_better_evaluation_is_not_a_built_in_of_the_students_base() -> None:
    # The base runs in the grader's worker, where our q5 answer must not be.
    with pytest.raises(ValueError, match="unknown evaluation function 'better'"):
        MultiAgentSearchAgent(evalFn="better")


@pytest.mark.parametrize("depth", ["0", "-1", "two", 1.5, True])
def test_base_rejects_bad_depths(depth: object) -> None:
    with pytest.raises(ValueError, match="depth must be a positive int"):
        MultiAgentSearchAgent(depth=depth)  # type: ignore[arg-type]


def test_unknown_evaluation_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown evaluation function 'nope'"):
        resolve_evaluation("nope")


def test_get_action_of_the_base_is_not_written() -> None:
    with pytest.raises(NotImplementedError):
        MultiAgentSearchAgent().get_action(None)


def test_starter_defines_the_contract_and_nothing_else() -> None:
    tree = ast.parse(STARTER.read_text())
    names = {n.name for n in tree.body if isinstance(n, ast.ClassDef | ast.FunctionDef)}
    assert names == {
        "ReflexAgent",
        "MinimaxAgent",
        "AlphaBetaAgent",
        "ExpectimaxAgent",
        "better_evaluation",
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef | ast.FunctionDef):
            assert ast.get_docstring(node), f"{node.name} needs a docstring stating its contract"


def test_pacman_command_runs_a_student_agent_with_the_base(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = pacman_main(
        [
            "-l", "smallClassic", "-p", f"{SOLUTION}:MinimaxAgent", "-a", "depth=3,evalFn=better",
            "-q", "-n", "1", "--max-turns", "3", "--seed", "1",
        ]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "Average Score:" in out


def test_evalfn_better_means_the_students_own_function(tmp_path: Path) -> None:
    student = tmp_path / "multi_agents.py"
    student.write_text(
        "from autograder.sandbox.student import MultiAgentSearchAgent\n"
        "class ExpectimaxAgent(MultiAgentSearchAgent):\n"
        "    pass\n"
        "def better_evaluation(state):\n"
        "    return 42.0\n"
    )
    agent = make_agent(f"{student}:ExpectimaxAgent", 0, args={"depth": "2", "evalFn": "better"})
    assert agent.depth == 2
    assert agent.evaluate(None) == 42.0
