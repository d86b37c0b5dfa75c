"""The graded search algorithms: one row each, everything else derives from this table.

A row names the algorithm (the folder of its cases, ``autograder/cases/<name>/``), the
question that grades it, our reference search (`agents.search`), the class the student
writes (the same name in our starter file and in classic Berkeley files, where the
``alg`` key of a ``GraphGameTreeTest`` names it), and the role of the ghosts in the tree
(``"min"`` or ``"chance"``). Tree grading, the game traces, the bug catalogue, the tree
diagram, the classic reader and the suite's questions all read it.

Adding a graded algorithm takes one row here, its reference search, its stub class in
``autograder/starter/multi_agents.py`` and its cases.

>>> [a.name for a in ALGORITHMS]
['minimax', 'alpha_beta', 'expectimax']
>>> algorithm("alpha_beta").question, algorithm("expectimax").ghost_role
('q3', 'chance')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from agents.search import SearchResult, alpha_beta, expectimax, minimax

__all__ = ["ALGORITHMS", "GradedAlgorithm", "algorithm", "algorithm_names", "by_class"]

GhostRole = Literal["min", "chance"]
"""How a ghost node combines its children: the minimum or the (uniform) average."""


@dataclass(frozen=True, slots=True)
class GradedAlgorithm:
    """One graded search algorithm."""

    name: str
    """Its name: the case folder and the ``algorithm`` key of case files."""
    question: str
    """The question that grades it (``"q2"``)."""
    title: str
    """The question's short human title."""
    points: float
    """Points of the question (all or nothing)."""
    search: Callable[..., SearchResult]
    """Our reference search, ``search(state, *, depth, evaluate, observe=None)``."""
    student_class: str
    """The agent class the student writes (our starter file's name)."""
    classic_class: str
    """The same class in a classic Berkeley file (``alg`` of a ``GraphGameTreeTest``)."""
    ghost_role: GhostRole
    """What a ghost node is: ``"min"`` or ``"chance"``."""
    pruning: bool = False
    """Whether it prunes (alpha-beta): the buggy variants of the catalogue prune too."""


ALGORITHMS: Final[tuple[GradedAlgorithm, ...]] = (
    GradedAlgorithm("minimax", "q2", "Minimax", 5, minimax, "MinimaxAgent", "MinimaxAgent", "min"),
    GradedAlgorithm(
        "alpha_beta",
        "q3",
        "Alpha-beta pruning",
        5,
        alpha_beta,
        "AlphaBetaAgent",
        "AlphaBetaAgent",
        "min",
        pruning=True,
    ),
    GradedAlgorithm(
        "expectimax",
        "q4",
        "Expectimax",
        5,
        expectimax,
        "ExpectimaxAgent",
        "ExpectimaxAgent",
        "chance",
    ),
)
"""The graded algorithms, in question order."""


# The functions below read `ALGORITHMS` when called, never at import: a test may add a
# row for its duration (monkeypatching `ALGORITHMS`) and grade it end to end.


def algorithm_names() -> tuple[str, ...]:
    """The names of the graded algorithms, in order."""
    return tuple(a.name for a in ALGORITHMS)


def algorithm(name: str) -> GradedAlgorithm:
    """The row named ``name``.

    Raises:
        ValueError: If no row has that name.
    """
    for row in ALGORITHMS:
        if row.name == name:
            return row
    raise ValueError(f"unknown algorithm {name!r}; expected one of {algorithm_names()}")


def by_class() -> dict[str, GradedAlgorithm]:
    """Each classic class name and the row it grades.

    >>> sorted(by_class())
    ['AlphaBetaAgent', 'ExpectimaxAgent', 'MinimaxAgent']
    """
    return {row.classic_class: row for row in ALGORITHMS}
