from __future__ import annotations

import os
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from autograder.algorithms import algorithm_names
from autograder.grading.trees import check_tree_case, generate_tree_solutions, reference_run
from autograder.reading.case_folders import load_tree_cases, read_tree_case
from autograder.reading.tree_cases import TreeCase, parse_tree_case
from autograder.results import CaseFormatError

ALGORITHMS = algorithm_names()

ROOT = Path(__file__).resolve().parents[2]
PACKAGED = ROOT / "autograder" / "cases"


def all_cases() -> list[TreeCase]:
    return [case for algorithm in ALGORITHMS for case in load_tree_cases(algorithm)]


def case(name: str) -> TreeCase:
    return next(c for c in all_cases() if c.name == name)


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.name)
def test_reference_agents_pass_every_case(case: TreeCase) -> None:
    action, generated = reference_run(case)
    assert (action, generated) == (case.expected_action, case.expected_generated)
    result = check_tree_case(case, question="q2", action=action, generated=generated, points=1)
    assert result.passed
    # A one-agent tree, or one tagged advice, is beyond the classic contract: advice,
    # worth nothing either way.
    graded = case.game.num_agents >= 2 and "advice" not in case.tags
    assert (result.points, result.max_points, result.advice) == (graded, graded, not graded)
    assert result.diagnosis is None


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_each_algorithm_has_at_least_30_well_described_cases(algorithm: str) -> None:
    cases = load_tree_cases(algorithm)
    assert len(cases) >= 30
    assert [c.name for c in cases] == sorted(c.name for c in cases)
    for c in cases:
        assert c.algorithm == algorithm
        assert c.path is not None
        assert c.name == f"{algorithm}/{c.path.stem}"
        assert c.description
        assert c.diagram.strip()
        assert c.game.start in c.expected_generated


FAMILIES = [
    "lecture",
    "win-lose-above-depth",
    "two-agents",
    "three-agents",
    "many-agents",
    "depth-1",
    "depth-2",
    "depth-3",
    "depth-4",
    "tied-root",
    "equal-bound",
    "deep-chain",
    "random",
    "pruning",
]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_is_represented(algorithm: str, family: str) -> None:
    assert any(family in c.tags for c in load_tree_cases(algorithm))


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.name)
def test_tags_agree_with_the_tree(case: TreeCase) -> None:
    assert f"depth-{case.depth}" in case.tags
    n = case.game.num_agents
    agents_tag = {1: "one-agent", 2: "two-agents", 3: "three-agents"}.get(n, "many-agents")
    assert agents_tag in case.tags
    if "win-lose-above-depth" in case.tags:
        assert case.game.win_states or case.game.lose_states
    if "pruning" in case.tags and case.algorithm == "alpha_beta":
        assert case.expected_generated < reference_run(case, "minimax")[1]


@pytest.mark.parametrize("case", load_tree_cases("expectimax"), ids=lambda c: c.name)
def test_expectimax_answers_do_not_hang_on_rounding(case: TreeCase) -> None:
    # Students average as sum / n or as sum of p * v with p = 1 / n; both must agree.
    game, n = case.game, case.game.num_agents

    def value(name: str, turn: int, weighted: bool) -> float:
        if name in game.win_states or name in game.lose_states or turn == case.depth * n:
            return game.evaluation[name]
        kids = [value(c, turn + 1, weighted) for _, c in game.children(name)]
        if turn % n == 0:
            return max(kids)
        return sum(k * (1 / len(kids)) for k in kids) if weighted else sum(kids) / len(kids)

    for weighted in (False, True):
        root = [(value(c, 1, weighted), a) for a, c in game.children(game.start)]
        best = max(v for v, _ in root)
        assert next(a for v, a in root if v == best) == case.expected_action


def test_case_files_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["autograder"]
    files = sorted(PACKAGED.rglob("*.toml"))
    assert files
    for path in files:
        rel = path.relative_to(ROOT / "autograder")
        assert any(rel.match(p) for p in patterns), rel


# --- malformed files -------------------------------------------------------------------

GOOD = """\
description = "small"
algorithm = "minimax"
depth = 1
agents = 2
tags = ["t"]
start = "A"
win = []
lose = []
tree = '''
A l B
A r C
B x D
C x E
'''
values = '''
D 1
E 2
'''
expected_action = "r"
expected_generated = "A B C D E"
"""

MALFORMED = [
    # (replace this, with that, line, message pattern)
    ("depth = 1", "depth = ", 3, "not valid TOML"),
    ('tags = ["t"]', 'tags = ["t"]\ncolour = "red"', 6, "unknown key 'colour'"),
    ("depth = 1\n", "", 1, "missing key 'depth'"),
    ('"minimax"', '"negamax"', 2, "unknown algorithm 'negamax'"),
    ("depth = 1", "depth = 0", 3, "depth must be >= 1"),
    ("depth = 1", 'depth = "1"', 3, "depth must be a whole number"),
    ("agents = 2", "agents = true", 4, "agents must be a whole number"),
    ("A r C\n", "A r\n", 11, "expected 'state action next-state'"),
    ("A r C\n", "A l C\n", 11, "repeats action 'l'"),
    ("E 2", "E two", 17, "value of 'E' is not a number"),
    ("E 2", "E nan", 17, "must be finite"),
    ("E 2", "E 2\nD 3", 18, "state 'D' has two values"),
    ("E 2", "", 13, "'E' is at the depth limit but has no value"),
    ("depth = 1", "depth = 2", 12, "'D' is above the depth limit and not terminal"),
    ("C x E\n", "C x E\nC y D\n", 12, "'D' has two parents"),
    ("E 2", "E 2\nZ 5", 18, "value for unknown state 'Z'"),
    ('"r"', '"x"', 19, "expected action 'x' is not an action"),
    ('"A B C D E"', '"A B C D E Q"', 20, "not in the tree: Q"),
    ("win = []", 'win = ["Q"]', 7, "win state 'Q' is not in the tree"),
    ("win = []", 'win = ["A"]', 10, "the start state is terminal"),
    ("win = []\nlose = []", 'win = ["B"]\nlose = ["B"]', 10, "'B' is both won and lost"),
    ("win = []", 'win = ["a b"]', 7, "list of names without spaces"),
    ('expected_action = "r"\n', "", 1, "missing key 'expected_action'; run `autograder generate`"),
    ("C x E\n", "C x E\nE y A\n", 10, "an edge leads back to the start"),
]


@pytest.mark.parametrize(("old", "new", "line", "pattern"), MALFORMED)
def test_malformed_case_names_file_and_line(
    tmp_path: Path, old: str, new: str, line: int, pattern: str
) -> None:
    assert old in GOOD
    path = tmp_path / "minimax" / "bad.toml"
    path.parent.mkdir()
    path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(CaseFormatError) as error:
        load_tree_cases("minimax", tmp_path)
    message = str(error.value)
    assert message.startswith(f"{path}:{line}:"), message
    assert re.search(re.escape(pattern), message), message
    assert "\n" not in message


def test_good_text_parses() -> None:
    parsed = parse_tree_case(GOOD, path=Path("x/good.toml"))
    assert parsed.name == "minimax/good"
    assert (parsed.expected_action, parsed.depth, parsed.game.num_agents) == ("r", 1, 2)
    assert parsed.expected_generated == frozenset("ABCDE")


def test_folder_of_another_algorithm_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "alpha_beta").mkdir()
    (tmp_path / "alpha_beta" / "x.toml").write_text(GOOD)
    with pytest.raises(CaseFormatError, match=r"x\.toml:2: algorithm 'minimax' does not match"):
        load_tree_cases("alpha_beta", tmp_path)


def test_flat_folder_keeps_only_the_asked_algorithm(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.toml").write_text(GOOD.replace('"minimax"', '"expectimax"'))
    assert [c.name for c in load_tree_cases("minimax", tmp_path)] == ["minimax/a"]
    assert [c.name for c in load_tree_cases("expectimax", tmp_path)] == ["expectimax/sub/b"]
    assert load_tree_cases("alpha_beta", tmp_path) == []


def test_missing_folder_and_unknown_algorithm(tmp_path: Path) -> None:
    with pytest.raises(CaseFormatError, match="no such case folder"):
        load_tree_cases("minimax", tmp_path / "nope")
    with pytest.raises(ValueError, match="unknown algorithm 'negamax'"):
        load_tree_cases("negamax")


def test_read_tree_case_reads_one_file(tmp_path: Path) -> None:
    path = tmp_path / "one.toml"
    path.write_text(GOOD)
    assert read_tree_case(path).expected_action == "r"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(CaseFormatError, match="cannot read case file"):
        read_tree_case(path)


# --- generating answers ----------------------------------------------------------------


def test_generate_rewrites_stale_answers_only(tmp_path: Path) -> None:
    for stem in ("lecture-3x3", "tied-root"):
        for algorithm in ("minimax", "alpha_beta"):
            (tmp_path / algorithm).mkdir(exist_ok=True)
            shutil.copy(PACKAGED / algorithm / f"{stem}.toml", tmp_path / algorithm)
    stale = tmp_path / "alpha_beta" / "lecture-3x3.toml"
    text = stale.read_text()
    stale.write_text(
        re.sub(r"expected_generated = .*", 'expected_generated = "A"', text).replace(
            'expected_action = "a1"', 'expected_action = "a3"'
        )
    )
    fresh = tmp_path / "minimax" / "tied-root.toml"
    fresh.write_text(re.sub(r"expected_\w+ = .*\n", "", fresh.read_text()))
    assert sorted(generate_tree_solutions(tmp_path)) == sorted([stale, fresh])
    assert stale.read_text() == text
    assert fresh.read_text() == (PACKAGED / "minimax" / "tied-root.toml").read_text()
    assert generate_tree_solutions(tmp_path) == []
    assert generate_tree_solutions(tmp_path, "expectimax") == []


def test_packaged_answers_are_up_to_date(tmp_path: Path) -> None:
    copy = tmp_path / "cases"
    shutil.copytree(PACKAGED, copy)
    assert generate_tree_solutions(copy) == []


# --- grading messages ------------------------------------------------------------------


def test_failure_shows_actions_states_bug_and_marked_tree() -> None:
    c = case("alpha_beta/lecture-3x3")
    everything = reference_run(c, "minimax")[1]  # plain minimax: no pruning
    result = check_tree_case(
        c, question="q3", action="a1", generated=everything - {"A"}, points=2, seconds=0.5
    )
    assert result.status == "failed"
    assert result.name == "q3/lecture-3x3"
    assert (result.question, result.points, result.max_points, result.seconds) == (
        "q3",
        0.0,
        2,
        0.5,
    )
    text = "\n".join(result.messages)
    assert "Generated 2 states that should not be: I J" in text
    assert "Wrong action" not in text
    assert "Missing" not in text
    assert result.diagnosis == "bounds-not-passed"
    assert re.search(r"c2 -> I = 4 \.+ EXTRA", text)
    assert re.search(r"c1 -> H = 2 \.+ generated", text)
    assert "3 12  8" in text  # the case's own diagram


def test_failure_marks_missing_and_pruned_states() -> None:
    c = case("alpha_beta/lecture-3x3")
    got = set(c.expected_generated) - {"K", "L", "M", "D"}
    result = check_tree_case(c, question="q3", action="a2", generated=got)
    text = "\n".join(result.messages)
    assert "Wrong action: expected 'a1', got 'a2'." in text
    assert "Missing 4 states that should be generated: D K L M" in text
    assert re.search(r"d1 -> K = 14 \.+ MISSING", text)
    assert re.search(r"c3 -> J = 6 \.+ pruned", text)
    assert "No known bug gives exactly this answer" in text
    assert result.diagnosis is None


def test_no_usable_action() -> None:
    c = case("minimax/lecture-3x3")
    result = check_tree_case(c, question="q2", action=None, generated=c.expected_generated)
    assert result.status == "failed"
    assert "Your agent returned no usable action; expected 'a1'." in result.messages
    assert result.diagnosis == "value-not-action"


def test_big_unsearched_subtrees_are_folded() -> None:
    c = case("minimax/chain-4agents-depth3")
    result = check_tree_case(c, question="q2", action="t3", generated={"A", "B"})
    text = "\n".join(result.messages)
    assert "below)" in text
    assert len(result.messages) < len(c.game.names)


def test_two_bugs_at_once_get_facts_and_the_closest_bug() -> None:
    from autograder.grading.catalogue import BUGS, Flaws, flawed_search

    c = case("alpha_beta/lose-next-to-root")
    seen = {c.game.start}
    result = flawed_search(
        c.game.root,
        algorithm="alpha_beta",
        depth=c.depth,
        evaluate=c.game.evaluate,
        observe=lambda s: seen.add(s.name),
        flaws=Flaws(skip_terminal_check=True, depth_offset=1),
    )
    graded = check_tree_case(c, question="q3", action=str(result.action), generated=seen)
    assert graded.diagnosis is None  # no single catalogued bug gives this answer
    assert any(
        m.startswith("You generated states more than 2 moves below") for m in graded.messages
    )
    closest = {BUGS["one-ply-too-deep"].summary, BUGS["no-terminal-check"].summary}
    prefix = "Closest known bug (not an exact match): "
    near = [m.removeprefix(prefix).rstrip(".") for m in graded.messages if m.startswith(prefix)]
    assert len(near) == 1
    assert near[0] in closest


def test_stopping_early_is_pointed_out() -> None:
    c = case("minimax/chain-2agents-depth3")
    graded = check_tree_case(c, question="q2", action="t2", generated={"A", "B", "C"})
    assert any(
        m.startswith("Your search went 2 moves deep; it should reach 6") for m in graded.messages
    )


HAND_WRITTEN = """description = "A case written by hand next to the generated ones."
algorithm = "minimax"
depth = 1
agents = 2
start = "A"
tree = '''
A l B
A r C
B x D
C x E
'''
values = '''
D 1
E 2
'''
"""


def test_make_cases_rebuilds_the_trees_and_leaves_every_other_case_alone(tmp_path: Path) -> None:
    import filecmp
    import subprocess
    import sys

    packaged = Path(__file__).resolve().parents[2] / "autograder" / "cases"
    copy = tmp_path / "cases"
    shutil.copytree(packaged, copy, ignore=shutil.ignore_patterns("__pycache__"))
    generated_line = (copy / "minimax" / "lecture-3x3.toml").read_text().splitlines()[0]
    (copy / "minimax" / "stale-case.toml").write_text(f"{generated_line}\n# no longer made\n")
    (copy / "minimax" / "mine.toml").write_text(HAND_WRITTEN)
    subprocess.run(
        [sys.executable, str(copy / "make_cases.py")],
        env={**os.environ, "PYTHONPATH": str(packaged.parents[1])},
        check=True,
        capture_output=True,
    )
    assert not (copy / "minimax" / "stale-case.toml").exists()
    mine = (copy / "minimax" / "mine.toml").read_text()  # kept, and given its answers
    assert mine.startswith(HAND_WRITTEN)
    assert 'expected_action = "r"' in mine
    (copy / "minimax" / "mine.toml").unlink()
    compared = filecmp.dircmp(packaged, copy, ignore=["__pycache__"])
    stack = [compared]
    while stack:  # the same files with the same contents, in every folder
        d = stack.pop()
        assert not d.left_only, d.left_only
        assert not d.right_only, d.right_only
        assert not filecmp.cmpfiles(d.left, d.right, d.common_files, shallow=False)[1]
        stack.extend(d.subdirs.values())


def test_an_illegal_root_action_is_called_illegal() -> None:
    case = load_tree_cases("minimax")[0]
    legal = case.game.root.legal_actions(0)
    result = check_tree_case(case, question="q2", action="Up", generated=case.expected_generated)
    assert result.status == "failed"
    assert "'Up', which is not a legal action at the root" in result.messages[1]
    assert all(repr(a) in result.messages[1] for a in legal)
