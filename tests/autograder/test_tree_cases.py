from __future__ import annotations

import pytest

from autograder.tree_cases import (
    ALGORITHMS,
    TreeCase,
    check_tree_case,
    load_tree_cases,
    reference_run,
)


def all_cases() -> list[TreeCase]:
    return [case for algorithm in ALGORITHMS for case in load_tree_cases(algorithm)]


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.name)
def test_reference_agents_pass_every_case(case: TreeCase) -> None:
    action, generated = reference_run(case)
    assert (action, generated) == (case.expected_action, case.expected_generated)
    result = check_tree_case(case, question="q", action=action, generated=generated, points=1)
    assert result.passed
    assert result.points == 1
