"""The table of graded algorithms and what derives from it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from autograder.algorithms import (
    ALGORITHMS,
    GradedAlgorithm,
    algorithm,
    algorithm_names,
    by_class,
)
from autograder.grading.catalogue import BUGS
from autograder.grading.suite import QUESTIONS
from autograder.reading.case_folders import load_tree_cases
from autograder.tree import TreeGame

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "autograder" / "starter" / "multi_agents.py"


def starter_classes() -> set[str]:
    tree = ast.parse(STARTER.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.ClassDef)}


@pytest.mark.parametrize("row", ALGORITHMS, ids=lambda r: r.name)
def test_every_row_has_its_stub_question_and_cases(row: GradedAlgorithm) -> None:
    assert row.student_class in starter_classes()
    graded = [q for q in QUESTIONS if q.algorithm == row.name]
    assert [(q.name, q.title, q.points, q.all_or_nothing) for q in graded] == [
        (row.question, row.title, row.points, True)
    ]
    assert by_class()[row.classic_class] is row
    assert load_tree_cases(row.name), "every graded algorithm ships tree cases"


def test_questions_keep_their_order_and_points() -> None:
    assert [(q.name, q.points) for q in QUESTIONS] == [
        ("q1", 4),
        ("q2", 5),
        ("q3", 5),
        ("q4", 5),
        ("q5", 6),
    ]


EDGES = """A l B
A r C
B x D
B y E
C x F
C y G"""


def test_ghost_role_decides_how_the_reference_values_a_ghost() -> None:
    game = TreeGame.from_edges(
        "A",
        [(p, a, c) for p, a, c in (line.split() for line in EDGES.splitlines())],
        {"D": 0, "E": 10, "F": 4, "G": 4},
        num_agents=2,
    )
    for row in ALGORITHMS:
        result = row.search(game.root, depth=1, evaluate=game.evaluate)
        assert result.action == ("l" if row.ghost_role == "chance" else "r"), row.name


def test_unknown_names_fail_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown algorithm 'bfs'; expected one of \("):
        algorithm("bfs")
    assert algorithm_names() == tuple(r.name for r in ALGORITHMS)


def test_every_bug_names_graded_algorithms_only() -> None:
    names = set(algorithm_names())
    for bug in BUGS.values():
        assert set(bug.algorithms) <= names
