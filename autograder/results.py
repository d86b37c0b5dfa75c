"""Grading results as plain values: one `TestResult` per test, grouped per question.

Grading never raises for a failing submission: every check produces a `TestResult`
whose ``messages`` explain the verdict. Only a malformed case file raises
(`CaseFormatError`), because that is the instructor's bug, not the student's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pacman.core.errors import PacmanError

__all__ = ["CaseFormatError", "QuestionResult", "Status", "TestResult"]

Status = Literal["passed", "failed", "error", "timeout"]
"""How a test ended: graded pass or fail, the student's code crashed, or it ran too long."""


class CaseFormatError(PacmanError, ValueError):
    """A test-case file is malformed; the message reads ``"path:line: problem"``."""


@dataclass(frozen=True, slots=True)
class TestResult:
    """The verdict on one test of one question.

    >>> r = TestResult("q2/tree-01", "q2", "passed", points=1.0, max_points=1.0)
    >>> r.passed
    True
    """

    __test__ = False  # not a pytest test class, despite the name

    name: str
    """Test name, unique in the suite, e.g. ``"q3/prune-at-equality"``."""
    question: str
    """The question it belongs to, e.g. ``"q3"``."""
    status: Status
    """The verdict."""
    points: float = 0.0
    """Points earned (PartialCredit questions sum these)."""
    max_points: float = 0.0
    """Points available for this test (0 for tests of all-or-nothing questions)."""
    messages: tuple[str, ...] = ()
    """Lines that explain the verdict: expected vs. got, the likely bug, a diagram."""
    diagnosis: str | None = None
    """The name of the likely bug, when one was recognised (e.g. ``"depth-per-agent"``)."""
    output: str = ""
    """What the student's code printed during the test (captured and capped)."""
    seconds: float = 0.0
    """Wall-clock time the test took."""
    advice: bool = False
    """Whether the test goes beyond the classic contract (SPEC section 6): it is shown to
    help, and never counts, whatever its verdict."""

    @property
    def passed(self) -> bool:
        """Whether the test passed."""
        return self.status == "passed"


@dataclass(frozen=True, slots=True)
class QuestionResult:
    """All test results of one question and the points it scores."""

    name: str
    """Question name, e.g. ``"q2"``."""
    title: str
    """A short human title, e.g. ``"Minimax"``."""
    max_points: float
    """Points available for the question."""
    points: float
    """Points scored."""
    tests: tuple[TestResult, ...] = field(default=())
    """The results of its tests, in suite order."""

    @property
    def passed(self) -> bool:
        """Whether every graded test of the question passed (advice does not count)."""
        return all(t.passed for t in self.tests if not t.advice)
