from __future__ import annotations

from pathlib import Path

import pytest

from autograder.grading.catalogue import BUGS
from autograder.grading.trees import check_tree_case, generate_tree_solutions
from autograder.reading.case_folders import load_tree_cases
from autograder.reading.classic_format import parse_classic_text, read_graph_game_tree_test
from autograder.results import CaseFormatError

# A classic-format tree test of our own: a lost state that still lists a move.
CLASSIC_TEST = '''\
class: "GraphGameTreeTest"
alg: "MinimaxAgent"
depth: "1"

# The lost state C must be scored, not expanded.
diagram: """
     A
   /   \\
  B     C (lose)
 / \\    |
D   E   F
"""
num_agents: "2"

start_state: "A"
win_states: ""
lose_states: "C"

successors: """
A Left B
A Right C
B Left D
B Right E
C Left F
"""

evaluation: """
C -10
D 3
E 4
F 100
"""
'''

CLASSIC_SOLUTION = """\
# This is the solution file for lose-trap.test.
action: "Left"
generated: "A B C D E"
"""

GAME_TRACE_TEST = """\
class: "PacmanGameTreeTest"
alg: "MinimaxAgent"
seed: "0"
depth: "2"
"""


def write_classic(folder: Path, solution: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    test = folder / "lose-trap.test"
    test.write_text(CLASSIC_TEST)
    if solution:
        (folder / "lose-trap.solution").write_text(CLASSIC_SOLUTION)
    (folder / "game.test").write_text(GAME_TRACE_TEST)
    return test


def test_classic_folder_loads_into_tree_cases(tmp_path: Path) -> None:
    write_classic(tmp_path / "q2")
    cases = load_tree_cases("minimax", tmp_path / "q2")
    assert [c.name for c in cases] == ["minimax/lose-trap"]  # the game-trace test is skipped
    (case,) = cases
    assert (case.depth, case.game.num_agents, case.expected_action) == (1, 2, "Left")
    assert case.expected_generated == frozenset("ABCDE")
    assert case.game.lose_states == frozenset("C")
    assert case.tags == ("classic",)
    assert "C (lose)" in case.diagram
    assert load_tree_cases("alpha_beta", tmp_path / "q2") == []


def test_classic_case_is_graded_and_diagnosed(tmp_path: Path) -> None:
    write_classic(tmp_path / "q2")
    (case,) = load_tree_cases("minimax", tmp_path / "q2")
    good = check_tree_case(case, question="q2", action="Left", generated=set("BCDE"))
    assert good.passed
    # The lost state's edge to F is never followed (a finished game has no moves): a
    # search that does not stop there takes the minimum of no moves, +inf, and goes Right.
    assert case.game.root.successor(0, "Right").legal_actions(1) == []
    bad = check_tree_case(case, question="q2", action="Right", generated=set("BCDE"))
    assert bad.diagnosis in ("no-terminal-check", "one-ply-too-deep")  # both give this
    assert any(BUGS["no-terminal-check"].summary in m for m in bad.messages)
    assert "Wrong action: expected 'Left', got 'Right'." in bad.messages


def test_generate_writes_the_classic_solution(tmp_path: Path) -> None:
    test = write_classic(tmp_path, solution=False)
    with pytest.raises(CaseFormatError, match=r"lose-trap\.solution:1: no solution file"):
        load_tree_cases("minimax", tmp_path)
    assert generate_tree_solutions(tmp_path) == [test.with_suffix(".solution")]
    assert test.with_suffix(".solution").read_text() == CLASSIC_SOLUTION
    assert generate_tree_solutions(tmp_path) == []


def test_classic_graph_may_share_children(tmp_path: Path) -> None:
    text = CLASSIC_TEST.replace("C Left F", "C Left E").replace("F 100\n", "")
    text = text.replace('lose_states: "C"', 'lose_states: ""')
    path = tmp_path / "dag.test"
    path.write_text(text)
    case = read_graph_game_tree_test(path, require_answer=False)
    assert case is not None
    assert case.game.children("C") == (("Left", "E"),)


MALFORMED = [
    # (replace this, with that, line, message)
    ('depth: "1"', 'depth: "one"', 3, "depth must be a whole number >= 1"),
    ('alg: "MinimaxAgent"', 'alg: "NegamaxAgent"', 2, "unknown alg 'NegamaxAgent'"),
    ('num_agents: "2"\n', "", 1, "missing key 'num_agents'"),
    ("depth: ", "depth = ", 3, "expected 'key: \"value\"'"),
    ("B Right E", "B Right", 23, "expected 'state action next-state'"),
    ("D 3", "D three", 29, "value of 'D' is not a number"),
    ("E 4\n", "", 23, "'E' is at the depth limit but has no value"),
    ('evaluation: """', 'evaluation: """\nD 1\n"""\nevaluation: """', 30, "given twice"),
    ('F 100\n"""\n', "F 100\n", 27, 'has no closing """'),
]


@pytest.mark.parametrize(("old", "new", "line", "message"), MALFORMED)
def test_malformed_classic_file_names_file_and_line(
    tmp_path: Path, old: str, new: str, line: int, message: str
) -> None:
    assert old in CLASSIC_TEST
    path = tmp_path / "bad.test"
    path.write_text(CLASSIC_TEST.replace(old, new, 1))
    with pytest.raises(CaseFormatError) as error:
        read_graph_game_tree_test(path, require_answer=False)
    assert str(error.value).startswith(f"{path}:{line}:"), str(error.value)
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("solution", "line", "message"),
    [
        ('action: "Up"\ngenerated: "A B"\n', 1, "expected action 'Up' is not an action"),
        ('action: "Left"\ngenerated: "A Z"\n', 2, "not in the tree: Z"),
        ('action: "Left"\n', 1, "missing key 'generated'"),
    ],
)
def test_malformed_classic_solution(tmp_path: Path, solution: str, line: int, message: str) -> None:
    test = write_classic(tmp_path)
    test.with_suffix(".solution").write_text(solution)
    with pytest.raises(CaseFormatError) as error:
        read_graph_game_tree_test(test)
    assert str(error.value).startswith(f"{test.with_suffix('.solution')}:{line}:")
    assert message in str(error.value)


def test_classic_text_values_and_lines() -> None:
    fields = parse_classic_text('# c\na: "1"\n\nb: """\nx\ny\n"""\n')
    assert fields == {"a": ("1", 2), "b": ("x\ny", 5)}
