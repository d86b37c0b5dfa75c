from __future__ import annotations

from autograder.diagram import draw_tree
from autograder.tree import TreeGame


def game() -> TreeGame:
    edges = [
        ("A", "l", "B"), ("A", "r", "C"),
        ("B", "x", "D"), ("B", "y", "E"), ("C", "x", "F"),
        ("D", "x", "G"), ("E", "x", "H"),
    ]  # fmt: skip
    values = {"C": -5, "D": 1, "E": 2, "F": 3, "G": 0, "H": 0}
    # C is lost: its edge to F is never followed (a finished game has no moves).
    return TreeGame.from_edges("A", edges, values, num_agents=3, lose_states=["C"])


def test_roles_values_and_terminals() -> None:
    text = draw_tree(game(), depth=1)
    assert text.splitlines() == [
        "A  max",
        "+- l -> B  min g1",
        "|  +- x -> D  min g2",
        "|  |  +- x -> G = 0",
        "|  +- y -> E  min g2",
        "|     +- x -> H = 0",
        "+- r -> C = -5  LOSE",
    ]


def test_expectimax_ghosts_are_chance_nodes() -> None:
    assert "B  chance g1" in draw_tree(game(), depth=1, algorithm="expectimax")


def test_marks_are_aligned_and_quiet_subtrees_fold() -> None:
    marks = {"A": "generated", "B": "generated", "C": "pruned", "F": "pruned"}
    marks |= {n: "generated" for n in "DEGH"}
    lines = draw_tree(game(), depth=1, marks=marks, collapse=("pruned",)).splitlines()
    assert lines[-1].startswith("+- r -> C = -5  LOSE .")
    assert lines[-1].endswith(" pruned")
    assert len({len(line) - len(line.split()[-1]) for line in lines}) == 1


def test_long_drawings_are_cut() -> None:
    text = draw_tree(game(), depth=1, max_lines=3)
    assert text.splitlines()[-1] == "... 4 more states not shown"
    assert len(text.splitlines()) == 4


def test_cycles_are_drawn_once() -> None:
    g = TreeGame.from_edges("A", [("A", "x", "B"), ("B", "y", "A")], {"B": 1}, num_agents=2)
    assert draw_tree(g, depth=2).splitlines() == ["A  max", "+- x -> B  min"]
