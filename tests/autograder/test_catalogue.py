from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.evaluation import score_evaluation
from agents.search import SearchResult, alpha_beta, expectimax, minimax
from autograder.algorithms import algorithm_names
from autograder.grading.catalogue import (
    BUGS,
    Flaws,
    diagnose,
    diagnose_all,
    diagnose_error,
    flawed_search,
)
from autograder.grading.trees import check_tree_case
from autograder.reading.case_folders import load_tree_cases
from autograder.reading.tree_cases import TreeCase
from autograder.tree import TreeGame
from pacman import GameState
from tests.agents.test_search import random_tree

ALGORITHMS = algorithm_names()
CASES = {case.name: case for algorithm in ALGORITHMS for case in load_tree_cases(algorithm)}
REFERENCE: dict[str, Callable[..., SearchResult]] = {
    "minimax": minimax,
    "alpha_beta": alpha_beta,
    "expectimax": expectimax,
}


def run_bug(bug: str, case: TreeCase) -> tuple[str, set[str]]:
    seen = {case.game.start}
    result = BUGS[bug].search_for(case.algorithm)(
        case.game.root,
        depth=case.depth,
        evaluate=case.game.evaluate,
        observe=lambda s: seen.add(s.name),
    )
    return str(result.action), seen


# Each bug, and the cases designed to catch it, for every algorithm it applies to.
INTENDED = [
    ("value-not-action", "lecture-3x3"),
    ("value-not-action", "chain-3agents-depth2"),
    ("depth-per-agent", "chain-2agents-depth3"),
    ("depth-per-agent", "chain-3agents-depth2"),
    ("depth-after-pacman", "chain-2agents-depth2"),
    ("depth-after-pacman", "chain-4agents-depth3"),
    ("depth-after-pacman", "lose-trap-depth-2"),
    ("one-ply-too-deep", "lecture-3x3"),
    ("one-ply-too-deep", "chain-3agents-depth1"),
    ("one-ply-too-deep", "two-ghosts-depth-1"),
    ("one-ply-too-shallow", "chain-2agents-depth3"),
    ("one-ply-too-shallow", "pacman-alone"),
    ("no-terminal-check", "win-at-pacman-turn"),
    ("one-ghost-layer", "two-ghosts-depth-1"),
    ("one-ghost-layer", "three-ghosts-depth-1"),
    ("one-ghost-layer", "chain-4agents-depth3"),
    ("swapped-arguments", "chain-4agents-depth3"),
    ("none-in-certain-death", "every-move-loses"),
    ("none-in-certain-death", "every-move-loses-two-ghosts"),
]
INTENDED_ONE = [
    ("no-terminal-check", "minimax", "lose-next-to-root"),
    ("no-terminal-check", "alpha_beta", "lose-next-to-root"),
    ("prune-on-equality", "alpha_beta", "lecture-3x3-equal-bound"),
    ("prune-on-equality", "alpha_beta", "tied-root"),
    ("prune-on-equality", "alpha_beta", "equal-bound-at-max-node"),
    ("bounds-not-passed", "alpha_beta", "random-2agents-depth3-seed4"),
    ("bounds-not-passed", "alpha_beta", "random-3agents-depth2-seed8"),
    ("generate-before-pruning", "alpha_beta", "two-ghosts-depth-1"),
    ("generate-before-pruning", "alpha_beta", "random-2agents-depth3-seed4"),
    ("children-reordered", "alpha_beta", "tied-root"),
    ("children-reordered", "alpha_beta", "lecture-binary-depth-2"),
    ("expectimax-min", "expectimax", "risky-ghost"),
    ("pairwise-average", "expectimax", "three-way-chance"),
    ("pairwise-average", "expectimax", "three-ghost-moves-depth-2"),
    ("expectimax-min", "expectimax", "tied-root"),
]
SAME_ANSWER = {("depth-per-agent", "chain-3agents-depth2"): {"swapped-arguments"}}
"""Bugs that give exactly the same answer on a case designed for another (listed after it).

With three agents and depth 2, a ghost call with (depth, agent) swapped evaluates the
second ghost's states at once, as decrementing the depth per agent does."""

RAISING = [
    ("pacman-alone-handed-to-ghost", "pacman-alone", "no agent 1"),
    ("pacman-alone-handed-to-ghost", "pacman-alone-depth-1", "no agent 1"),
    # With two agents, swapped (depth, agent) arguments loop on the ghost down to a leaf,
    # and min() of its (no) moves raises.
    ("swapped-arguments", "lecture-3x3", "no moves"),
]
"""Bugs whose search raises on the cases designed for them (named by `diagnose_error`)."""

TABLE = [
    (bug, algorithm, stem)
    for bug, stem in INTENDED
    for algorithm in ALGORITHMS
    if BUGS[bug].applies_to(algorithm)
] + INTENDED_ONE


@pytest.mark.parametrize(("bug", "algorithm", "stem"), TABLE)
def test_variant_fails_intended_case_with_its_diagnosis(
    bug: str, algorithm: str, stem: str
) -> None:
    case = CASES[f"{algorithm}/{stem}"]
    action, generated = run_bug(bug, case)
    result = check_tree_case(case, question="q", action=action, generated=generated)
    assert result.status == "failed"
    assert result.diagnosis == bug
    assert f"Likely bug: {BUGS[bug].summary}." in result.messages
    names = [b.name for b in diagnose_all(case, algorithm, action=action, generated=generated)]
    assert names[0] == bug
    assert set(names) <= {bug} | SAME_ANSWER.get((bug, stem), set())


@pytest.mark.parametrize(("bug", "stem", "error"), RAISING)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_variant_that_raises_on_its_case_is_named(
    bug: str, stem: str, error: str, algorithm: str
) -> None:
    case = CASES[f"{algorithm}/{stem}"]
    seen = {case.game.start}
    with pytest.raises(ValueError, match=error):
        BUGS[bug].search_for(algorithm)(
            case.game.root,
            depth=case.depth,
            evaluate=case.game.evaluate,
            observe=lambda s: seen.add(s.name),
        )
    found = diagnose_error(case, algorithm, generated=seen)
    assert found is not None
    assert found.name == bug
    assert diagnose_error(case, algorithm, generated={case.game.start}) is None


def test_table_covers_every_bug_for_every_algorithm_it_applies_to() -> None:
    covered = {(bug, algorithm) for bug, algorithm, _ in TABLE} | {
        (bug, algorithm) for bug, _, _ in RAISING for algorithm in ALGORITHMS
    }
    wanted = {(b.name, a) for b in BUGS.values() for a in b.algorithms}
    assert covered == wanted


def test_catalogue_has_the_required_bugs() -> None:
    assert set(BUGS) >= {
        "depth-per-agent",
        "depth-after-pacman",
        "one-ply-too-deep",
        "no-terminal-check",
        "one-ghost-layer",
        "prune-on-equality",
        "bounds-not-passed",
        "generate-before-pruning",
        "children-reordered",
        "expectimax-min",
        "value-not-action",
    }
    for bug in BUGS.values():
        assert bug.summary
        assert "\n" not in bug.summary
        assert set(bug.algorithms) <= set(ALGORITHMS)


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_every_variant_fails_some_cases_of_each_algorithm(bug: str) -> None:
    for algorithm in BUGS[bug].algorithms:
        failed = 0
        for case in (c for c in CASES.values() if c.algorithm == algorithm):
            try:
                action, generated = run_bug(bug, case)
            except (KeyError, ValueError):
                failed += 1  # the variant evaluates a state the tree gives no value
                continue
            result = check_tree_case(case, question="q", action=action, generated=generated)
            failed += not result.passed
        assert failed >= 2, (bug, algorithm)


def test_search_for_rejects_an_algorithm_the_bug_does_not_apply_to() -> None:
    with pytest.raises(ValueError, match="prune-on-equality"):
        BUGS["prune-on-equality"].search_for("minimax")


def test_correct_answer_is_not_diagnosed() -> None:
    case = CASES["alpha_beta/lecture-3x3"]
    assert diagnose(case, "alpha_beta", action="a1", generated=case.expected_generated) is None


def test_unknown_answer_is_not_diagnosed() -> None:
    case = CASES["minimax/lecture-3x3"]
    assert diagnose(case, "minimax", action="a3", generated={"A", "D"}) is None


def test_none_action_with_right_states_reads_as_value_returned() -> None:
    case = CASES["minimax/two-ghosts-depth-1"]
    bug = diagnose(case, "minimax", action=None, generated=case.expected_generated)
    assert bug is not None
    assert bug.name == "value-not-action"


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    num_agents=st.integers(1, 4),
    depth=st.integers(1, 3),
    algorithm=st.sampled_from(ALGORITHMS),
)
def test_flawless_variant_is_the_reference(
    seed: int, num_agents: int, depth: int, algorithm: str
) -> None:
    game = random_tree(random.Random(seed), num_agents, depth)
    if not game.children("root"):
        return
    seen_ref: list[str] = []
    seen_var: list[str] = []
    ref = REFERENCE[algorithm](
        game.root, depth=depth, evaluate=game.evaluate, observe=lambda s: seen_ref.append(s.name)
    )
    var = flawed_search(
        game.root,
        algorithm=algorithm,
        depth=depth,
        evaluate=game.evaluate,
        observe=lambda s: seen_var.append(s.name),
        flaws=Flaws(),
    )
    assert seen_var == seen_ref  # same states in the same order
    assert (var.action, var.value, var.generated) == (ref.action, ref.value, ref.generated)


def reference_answer(algorithm: str, game: TreeGame, depth: int) -> tuple[str, set[str]]:
    seen = {game.start}
    result = REFERENCE[algorithm](
        game.root, depth=depth, evaluate=game.evaluate, observe=lambda s: seen.add(s.name)
    )
    return str(result.action), seen


# --- real Pacman states --------------------------------------------------------------


def real_run(search: Callable[..., SearchResult], state: GameState) -> tuple[Any, set[Any]]:
    seen: set[Any] = set()
    result = search(state, depth=2, evaluate=score_evaluation, observe=seen.add)
    return result.action, seen


@pytest.mark.parametrize(
    ("bug", "algorithm"),
    [
        ("depth-per-agent", "minimax"),
        ("one-ply-too-deep", "alpha_beta"),
        ("generate-before-pruning", "alpha_beta"),
        ("depth-after-pacman", "expectimax"),
    ],
)
def test_diagnose_recognises_bugs_on_real_pacman_states(bug: str, algorithm: str) -> None:
    state = GameState.initial("testClassic")
    action, seen = real_run(BUGS[bug].search_for(algorithm), state)
    assert (action, seen) != real_run(REFERENCE[algorithm], state)
    found = diagnose(state, algorithm, 2, score_evaluation, action=action, generated=seen)
    assert found is not None
    # on a real game several bugs may coincide; the one we ran must be among them
    names = [
        b.name
        for b in diagnose_all(state, algorithm, 2, score_evaluation, action=action, generated=seen)
    ]
    assert bug in names


def test_diagnose_real_state_needs_depth_and_evaluation() -> None:
    state = GameState.initial("testClassic")
    with pytest.raises(ValueError, match="needs depth and evaluate"):
        diagnose(state, "minimax", action=None, generated=())


def test_diagnose_rejects_unknown_algorithm() -> None:
    with pytest.raises(ValueError, match="unknown algorithm"):
        diagnose(CASES["minimax/lecture-3x3"], "negamax", action="a1", generated=())


def test_real_reference_answer_is_not_a_bug() -> None:
    state = GameState.initial("testClassic")
    action, seen = real_run(alpha_beta, state)
    assert diagnose(state, "alpha_beta", 2, score_evaluation, action, seen) is None


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    num_agents=st.integers(1, 4),
    depth=st.integers(1, 3),
    bug=st.sampled_from(sorted(BUGS)),
)
def test_diagnosis_always_includes_the_bug_that_gave_a_wrong_answer(
    seed: int, num_agents: int, depth: int, bug: str
) -> None:
    game = random_tree(random.Random(seed), num_agents, depth)
    if not game.children("root"):
        return
    for algorithm in BUGS[bug].algorithms:
        seen = {"root"}
        try:
            result = BUGS[bug].search_for(algorithm)(
                game.root,
                depth=depth,
                evaluate=game.evaluate,
                observe=lambda s, add=seen.add: add(s.name),
            )
        except ValueError:
            continue  # one ply too shallow at depth 1
        found = diagnose_all(game.root, algorithm, depth, game.evaluate, result.action, seen)
        if (str(result.action), seen) == reference_answer(algorithm, game, depth):
            assert found == []
        else:
            assert BUGS[bug] in found
