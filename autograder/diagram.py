"""Draw a `TreeGame` as indented text, optionally with a mark on every node.

Each line shows the edge label, the state name, whose turn it is (``max`` for Pacman,
``min`` or ``chance`` for a ghost, with the ghost's number when there are several), the
state's value where a search evaluates it, and ``WIN``/``LOSE`` for terminal states.

>>> from autograder.tree import TreeGame
>>> g = TreeGame.from_edges("A", [("A", "l", "B"), ("A", "r", "C")], {"B": 3, "C": 5},
...                         num_agents=1)
>>> print(draw_tree(g, depth=1, marks={"A": "generated", "B": "generated", "C": "MISSING"}))
A  max ........ generated
+- l -> B = 3 . generated
+- r -> C = 5 . MISSING
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from autograder.algorithms import algorithm as algorithm_row
from autograder.tree import TreeGame

__all__ = ["draw_tree"]

_MAX_LINES = 400


def _role(agent: int, num_agents: int, algorithm: str) -> str:
    if agent == 0:
        return "max"
    kind = algorithm_row(algorithm).ghost_role
    return kind if num_agents == 2 else f"{kind} g{agent}"


def draw_tree(
    game: TreeGame,
    depth: int,
    marks: Mapping[str, str] | None = None,
    *,
    algorithm: str = "minimax",
    collapse: Collection[str] = (),
    max_lines: int = _MAX_LINES,
) -> str:
    """Render ``game`` as an indented tree, one state per line.

    Args:
        game: The tree.
        depth: The search depth, to know where values are read (leaves of the search).
        marks: A word to print after each state (states without one get none).
        algorithm: ``"expectimax"`` labels ghost nodes ``chance`` instead of ``min``.
        collapse: Marks whose whole subtrees may be folded into one line when every
            state below carries the same mark (for example ``"not searched"``).
        max_lines: Stop after this many lines and say how many were left out.

    Returns:
        The drawing, without a trailing newline.
    """
    marks = marks or {}
    n = game.num_agents
    rows: list[tuple[str, str]] = []

    def subtree_marks(name: str, trail: frozenset[str]) -> set[str]:
        found = {marks.get(name, "")}
        for _, child in game.children(name):
            if child not in trail:
                found |= subtree_marks(child, trail | {child})
        return found

    def label(name: str, turn: int) -> str:
        text = name
        is_leaf = turn >= depth * n or not game.children(name)
        terminal = name in game.win_states or name in game.lose_states
        if name in game.evaluation and (is_leaf or terminal):
            text += f" = {game.evaluation[name]:g}"
        if name in game.win_states:
            text += "  WIN"
        elif name in game.lose_states:
            text += "  LOSE"
        elif not is_leaf:
            text += f"  {_role(turn % n, n, algorithm)}"
        return text

    def count(name: str, trail: frozenset[str]) -> int:
        return sum(1 + count(c, trail | {c}) for _, c in game.children(name) if c not in trail)

    def walk(name: str, turn: int, line: str, indent: str, trail: frozenset[str]) -> None:
        mark = marks.get(name, "")
        kids = [(a, c) for a, c in game.children(name) if c not in trail]
        folded = bool(kids) and mark in collapse and subtree_marks(name, trail) == {mark}
        text = line + label(name, turn)
        if folded:
            text += f"  (+{count(name, trail)} below)"
        rows.append((text, mark))
        if folded:
            return
        for i, (action, child) in enumerate(kids):
            last = i == len(kids) - 1
            walk(
                child,
                turn + 1,
                f"{indent}+- {action} -> ",
                indent + ("   " if last else "|  "),
                trail | {child},
            )

    walk(game.start, 0, "", "", frozenset({game.start}))
    left_out = max(0, len(rows) - max_lines)
    rows = rows[:max_lines]
    width = max(len(text) for text, _ in rows) + 1
    lines = [f"{text} {'.' * (width - len(text))} {mark}" if mark else text for text, mark in rows]
    if left_out:
        lines.append(f"... {left_out} more states not shown")
    return "\n".join(line.rstrip() for line in lines)
