"""What a suite is made of: its questions and the tests to run (`Question`, `TestSpec`).

Apart from `autograder.grading.suite` so that the readers of other suites (a classic
``test_cases`` folder) can build them without importing the runner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Question", "TestSpec"]


@dataclass(frozen=True, slots=True)
class Question:
    """One question of the suite."""

    name: str
    """``"q1"`` .. ``"q5"``."""
    title: str
    """A short human title."""
    points: float
    """Points available."""
    all_or_nothing: bool
    """Whether every test must pass for the points (otherwise test points are summed)."""
    algorithm: str | None = None
    """The search algorithm it grades (q2-q4)."""


@dataclass(frozen=True, slots=True)
class TestSpec:
    """One test to run: its name, question, kind and case."""

    __test__ = False  # not a pytest class

    name: str
    """Unique test name, ``"q2/lecture-3x3"``."""
    question: str
    """The question it belongs to."""
    kind: str
    """``"tree"``, ``"trace"`` or ``"eval"``."""
    case: Any
    """The `TreeCase`, `GameTraceCase` or `EvalAgentCase`."""
    cost: float
    """Rough seconds it takes, to schedule the long tests first."""
