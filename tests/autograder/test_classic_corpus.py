"""The classic-style corpus gets the classic grades (issue 10).

Every folder of ``fixtures/classic_corpus`` is a ``multiAgents.py`` written for this
project the way students write it; ``expected.toml`` holds the points the classic CS188
grader gives it per question and, for bug variants, the catalogue name our grader should
give. Each file is graded once, through ``python -m autograder`` (the command line is the
contract; the grader's internals are being restructured), and each (variant, question)
is its own test.

Cases the grader gets wrong today are marked ``xfail(strict=True)`` one by one with the
cause from issue 10: when a fix makes one pass, the run fails until its mark is removed.
``python tests/autograder/corpus_report.py`` prints the same comparison as a table with
the failing tests and their messages.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.autograder.corpus_report import (
    CORPUS,
    QUESTIONS,
    describe_diagnoses,
    diagnoses,
    grade,
    load_expected,
    names_bug,
    question_results,
)

EXPECTED = load_expected()

# Causes from issue 10 ("What made correct code fail" items and "Diagnostics").
NO_NAME = "issue 10 diagnostics: the grader does not give this bug's name to most failures yet"

_GRADE_TODAY: dict[tuple[str, str], str] = {}
"""(variant, question) whose points differ from the classic grader's today, and why."""

_NAME_TODAY: dict[str, str] = {}
"""Bug variants whose diagnosis is not the expected one today, and why."""


def _case(variant: str, question: str) -> Any:
    reason = _GRADE_TODAY.get((variant, question))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(variant, question, id=f"{variant}-{question}", marks=marks)


def _named(variant: str) -> Any:
    reason = _NAME_TODAY.get(variant)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(variant, id=variant, marks=marks)


_REPORTS: dict[str, dict[str, Any]] = {}


def report(variant: str) -> dict[str, dict[str, Any]]:
    """The questions of one variant's JSON report; each file is graded once per run."""
    if variant not in _REPORTS:
        _REPORTS[variant] = question_results(grade(variant, jobs=2))
    return _REPORTS[variant]


def test_every_folder_has_its_expected_grades() -> None:
    from tests.autograder.corpus_report import CORPUS

    folders = {p.name for p in CORPUS.iterdir() if p.is_dir()}
    assert folders == set(EXPECTED)
    for variant, want in EXPECTED.items():
        assert (CORPUS / variant / "multiAgents.py").is_file()
        assert set(want["points"]) == set(QUESTIONS), variant
        assert set(want.get("diagnosis", {})) <= {q for q, p in want["points"].items() if p == 0}
        assert want["about"], variant
    assert sum("diagnosis" in want for want in EXPECTED.values()) >= 10


@pytest.mark.parametrize(
    ("variant", "question"), [_case(v, q) for v in sorted(EXPECTED) for q in QUESTIONS]
)
def test_classic_points(variant: str, question: str) -> None:
    got = report(variant)[question]
    want = EXPECTED[variant]["points"][question]
    # Advice (beyond the classic contract) is shown but never counts (SPEC section 6).
    failing = [t["name"] for t in got["tests"] if t["status"] != "passed" and not t.get("advice")]
    assert got["points"] == want, f"{got['points']:g}/{got['max_points']:g}, failing: {failing}"
    if want == got["max_points"]:
        assert failing == []


@pytest.mark.parametrize(
    "variant", [_named(v) for v in sorted(EXPECTED) if "diagnosis" in EXPECTED[v]]
)
def test_bug_variant_is_named(variant: str) -> None:
    ((question, name),) = EXPECTED[variant]["diagnosis"].items()
    got = report(variant)[question]
    assert names_bug(got, name), (
        f"expected {name}; the failing tests got {describe_diagnoses(diagnoses(got))}"
    )


def test_a_game_trace_catches_the_minimum_at_the_last_ghost(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The classic game test catches this expectimax (average every ghost but the last,
    # which takes the minimum); so must a game trace, not only the trees.
    from autograder.cli import main

    file = CORPUS / "bug_expectimax_min_last_ghost" / "multiAgents.py"
    assert main([str(file), "-t", "q4/expectimax-mediumClassic", "--format", "json"]) == 0
    (question,) = json.loads(capsys.readouterr().out)["questions"]
    (test,) = question["tests"]
    assert test["status"] == "failed"
