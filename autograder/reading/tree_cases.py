"""Reference game-tree cases for the graded algorithms: the TOML format and its reader.

A case is one small game tree, a depth, and the answer our reference search gives: the
root action and the exact set of generated states (the start state plus every state a
successor call returned, SPEC section 6). Cases live as TOML files, one per tree, under
``autograder/cases/<algorithm>/`` and install with the package. The format::

    description = "One line on what the tree tests."
    algorithm = "alpha_beta"        # minimax | alpha_beta | expectimax
    depth = 1                       # plies; one ply = Pacman then every ghost
    agents = 2                      # agent 0 (Pacman) maximises, the others are ghosts
    tags = ["lecture", "two-agents", "depth-1"]
    start = "A"
    win = []                        # names of won states (terminal)
    lose = []                       # names of lost states (terminal)
    diagram = '''
    ASCII art of the tree, shown to the reader of the file
    '''
    tree = '''
    A a1 B                          # state action next-state, children in legal order
    A a2 C
    '''
    values = '''
    B 3                             # state value: the evaluation function
    C 5
    '''
    expected_action = "a2"          # written by `autograder generate`
    expected_generated = "A B C"    # sorted names, space separated; start included

Blank lines and ``#`` comments are allowed inside ``tree`` and ``values``. Every state
the search may evaluate needs a value, and every non-terminal state above the depth
limit needs children; a malformed file raises `CaseFormatError` as ``path:line: ...``.
Folders of classic Berkeley ``GraphGameTreeTest`` ``.test``/``.solution`` pairs load
into the same `TreeCase` (see `autograder.reading.classic_format`); folders of both are
read by `autograder.reading.case_folders`, and cases are graded by
`autograder.grading.trees`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.algorithms import algorithm_names
from autograder.results import CaseFormatError
from autograder.tree import TreeGame
from pacman.tomlfile import TomlFile

__all__ = [
    "TreeCase",
    "check_answer",
    "key_lines",
    "parse_edges",
    "parse_tree_case",
    "parse_values",
    "read_text",
    "validate_tree",
]

"""The algorithms with tree cases, in question order (q2, q3, q4)."""

_KEYS = {
    "description",
    "algorithm",
    "depth",
    "agents",
    "tags",
    "start",
    "win",
    "lose",
    "diagram",
    "tree",
    "values",
    "expected_action",
    "expected_generated",
}
_REQUIRED = ("description", "algorithm", "depth", "agents", "start", "tree", "values")
_NAME = re.compile(r"[^\s#]+")


@dataclass(frozen=True)
class TreeCase:
    """One reference tree with the answer a correct search gives on it."""

    name: str
    """Unique name, ``"<algorithm>/<file stem>"``, e.g. ``"alpha_beta/prune-at-equality"``."""
    algorithm: str
    """``"minimax"``, ``"alpha_beta"`` or ``"expectimax"``."""
    depth: int
    """The depth the agent is built with (plies)."""
    game: TreeGame
    """The tree: states, edges in legal order, values, win and lose states."""
    expected_action: str
    """The root action a correct agent returns."""
    expected_generated: frozenset[str]
    """The names of the states a correct agent generates, the start included."""
    description: str
    """One line on what the case tests."""
    tags: tuple[str, ...]
    """Family tags (``"lecture"``, ``"three-agents"``, ``"depth-3"``, ...)."""
    path: Path | None
    """The file it was read from, if any."""
    diagram: str = ""
    """ASCII art of the tree from the case file (may be empty)."""


# --- reading -------------------------------------------------------------------------


def key_lines(text: str) -> dict[str, int]:
    """Line number (1-based) of each top-level ``key =`` in a TOML text."""
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        m = re.match(r"([A-Za-z_][\w-]*)\s*=", line)
        if m and m.group(1) not in found:
            found[m.group(1)] = number
    return found


def _content_start(text: str, key_line: int) -> int:
    """The file line holding the first line of a (possibly multi-line) string value."""
    line = text.splitlines()[key_line - 1]
    opening = re.search(r"=\s*('''|\"\"\")(.*)$", line)
    if opening and not opening.group(2).strip():
        return key_line + 1  # TOML drops the newline right after the opening quotes
    return key_line


def _lines(value: str, first_line: int) -> Iterable[tuple[int, list[str]]]:
    """Non-blank lines of a block, comments stripped, with their file line numbers."""
    for offset, raw in enumerate(value.splitlines()):
        tokens = raw.split("#", 1)[0].split()
        if tokens:
            yield first_line + offset, tokens


def parse_edges(
    block: str, first_line: int, where: str
) -> tuple[list[tuple[str, str, str]], dict[str, int]]:
    """Parse ``state action next`` lines; returns the edges and each state's first line.

    Raises:
        CaseFormatError: On a line that is not three names or repeats an action.
    """
    edges: list[tuple[str, str, str]] = []
    lines: dict[str, int] = {}
    actions: set[tuple[str, str]] = set()
    for number, tokens in _lines(block, first_line):
        if len(tokens) != 3:
            raise CaseFormatError(
                f"{where}:{number}: expected 'state action next-state', got {' '.join(tokens)!r}"
            )
        state, action, nxt = tokens
        if (state, action) in actions:
            raise CaseFormatError(f"{where}:{number}: state {state!r} repeats action {action!r}")
        actions.add((state, action))
        edges.append((state, action, nxt))
        lines.setdefault(state, number)
        lines.setdefault(nxt, number)
    return edges, lines


def parse_values(
    block: str, first_line: int, where: str
) -> tuple[dict[str, float], dict[str, int]]:
    """Parse ``state value`` lines; returns the values and each state's line.

    Raises:
        CaseFormatError: On a line that is not a name and a finite number, or a repeat.
    """
    values: dict[str, float] = {}
    lines: dict[str, int] = {}
    for number, tokens in _lines(block, first_line):
        if len(tokens) != 2:
            raise CaseFormatError(
                f"{where}:{number}: expected 'state value', got {' '.join(tokens)!r}"
            )
        state, text = tokens
        try:
            value = float(text)
        except ValueError:
            raise CaseFormatError(
                f"{where}:{number}: value of {state!r} is not a number: {text!r}"
            ) from None
        if value != value or value in (float("inf"), float("-inf")):
            raise CaseFormatError(f"{where}:{number}: value of {state!r} must be finite")
        if state in values:
            raise CaseFormatError(f"{where}:{number}: state {state!r} has two values")
        values[state] = value
        lines[state] = number
    return values, lines


def validate_tree(
    game: TreeGame,
    depth: int,
    where: str,
    line_of: Callable[[str], int],
    *,
    strict: bool = True,
) -> None:
    """Check that every search of ``depth`` plies on ``game`` is well defined.

    Args:
        game: The tree.
        depth: The case's depth.
        where: The file, for messages.
        line_of: The line to blame for a state.
        strict: Also require a tree shape (one parent per state, all reachable, no cycle);
            classic files may hold any acyclic graph.

    Raises:
        CaseFormatError: If a state a search evaluates has no value, a non-terminal state
            above the depth limit has no children, or the shape is wrong.
    """
    n = game.num_agents
    names = game.names
    every_edge = {**game.successors, **game.ignored_edges}
    in_tree = {game.start} | set(every_edge)
    in_tree.update(c for edges in every_edge.values() for _, c in edges)
    for name in game.evaluation:
        if name not in in_tree:
            raise CaseFormatError(f"{where}:{line_of(name)}: value for unknown state {name!r}")
    for name in sorted(game.win_states & game.lose_states):
        raise CaseFormatError(f"{where}:{line_of(name)}: state {name!r} is both won and lost")
    if game.start in game.win_states or game.start in game.lose_states:
        raise CaseFormatError(f"{where}:{line_of(game.start)}: the start state is terminal")
    if not game.children(game.start):
        raise CaseFormatError(f"{where}:{line_of(game.start)}: the start state has no children")
    for name, edges in sorted(game.ignored_edges.items()) if strict else ():
        raise CaseFormatError(
            f"{where}:{line_of(name)}: state {name!r} is won or lost but has a move "
            f"{edges[0][0]!r}: a finished game has no moves"
        )
    parents: dict[str, str] = {}
    for parent, edges in game.successors.items():
        for _, child in edges:
            if strict and child in parents and parents[child] != parent:
                raise CaseFormatError(
                    f"{where}:{line_of(child)}: state {child!r} has two parents "
                    f"({parents[child]!r} and {parent!r}); give each node its own name"
                )
            parents.setdefault(child, parent)
    if strict and game.start in parents:
        raise CaseFormatError(f"{where}:{line_of(game.start)}: an edge leads back to the start")

    def walk(name: str, turn: int, trail: tuple[str, ...]) -> None:
        if name in trail:
            raise CaseFormatError(f"{where}:{line_of(name)}: cycle through state {name!r}")
        terminal = name in game.win_states or name in game.lose_states
        if terminal or turn == depth * n:
            if name not in game.evaluation:
                why = "terminal" if terminal else "at the depth limit"
                raise CaseFormatError(
                    f"{where}:{line_of(name)}: state {name!r} is {why} but has no value"
                )
            return
        if not game.children(name):
            raise CaseFormatError(
                f"{where}:{line_of(name)}: state {name!r} is above the depth limit and not "
                "terminal, so it needs children (or mark it win or lose)"
            )
        for _, child in game.children(name):
            walk(child, turn + 1, (*trail, name))

    walk(game.start, 0, ())
    if strict:
        reachable: set[str] = set()
        todo = [game.start]
        while todo:
            name = todo.pop()
            if name not in reachable:
                reachable.add(name)
                todo.extend(c for _, c in game.children(name))
        for name in sorted(names - reachable):
            raise CaseFormatError(
                f"{where}:{line_of(name)}: state {name!r} cannot be reached from the start"
            )


def check_answer(
    game: TreeGame,
    action: str | None,
    generated: Iterable[str] | None,
    where: str,
    action_line: int,
    generated_line: int,
) -> None:
    """Check that a stored answer names a root action and states of the tree.

    Raises:
        CaseFormatError: If it does not.
    """
    if action is not None and action not in [a for a, _ in game.children(game.start)]:
        raise CaseFormatError(
            f"{where}:{action_line}: expected action {action!r} is not an action of the "
            f"start state {game.start!r}"
        )
    if generated is not None:
        unknown = sorted(set(generated) - game.names)
        if unknown:
            raise CaseFormatError(
                f"{where}:{generated_line}: expected generated states not in the tree: "
                + " ".join(unknown)
            )


def parse_tree_case(
    text: str,
    *,
    path: Path | None = None,
    name: str | None = None,
    require_answer: bool = True,
) -> TreeCase:
    """Parse the TOML text of one case file.

    Args:
        text: The file's content.
        path: The file, for messages and `TreeCase.path`.
        name: The case name (default ``"<algorithm>/<file stem>"``).
        require_answer: Whether ``expected_action`` and ``expected_generated`` must be
            present (`generate_tree_solutions` reads files that lack them).

    Returns:
        The case; without an answer, its expected fields are empty.

    Raises:
        CaseFormatError: If the file is malformed, naming the file and line.
    """
    where = str(path) if path is not None else "<case>"
    doc = TomlFile(text, where, CaseFormatError)
    data = doc.data
    lines = key_lines(text)
    at = doc.at
    required = _REQUIRED + (("expected_action", "expected_generated") if require_answer else ())
    run_generate = "; run `autograder generate`"
    doc.check_keys(
        _KEYS,
        required,
        {"expected_action": run_generate, "expected_generated": run_generate},
    )

    def get(key: str, kind: type, default: Any = None) -> Any:
        return doc.get(key, kind, default=default)

    algorithm = get("algorithm", str)
    if algorithm not in algorithm_names():
        raise CaseFormatError(
            f"{at('algorithm')}: unknown algorithm {algorithm!r}; expected one of "
            + ", ".join(algorithm_names())
        )
    depth = get("depth", int)
    agents = get("agents", int)
    if depth < 1:
        raise CaseFormatError(f"{at('depth')}: depth must be >= 1, got {depth}")
    if agents < 1:
        raise CaseFormatError(f"{at('agents')}: agents must be >= 1, got {agents}")
    start = get("start", str)
    if not _NAME.fullmatch(start):
        raise CaseFormatError(f"{at('start')}: bad state name {start!r}")
    name_lists = {}
    for key in ("tags", "win", "lose"):
        items = get(key, list, [])
        if not all(isinstance(i, str) and _NAME.fullmatch(i) for i in items):
            raise CaseFormatError(f"{at(key)}: {key} must be a list of names without spaces")
        name_lists[key] = items
    edges, edge_lines = parse_edges(get("tree", str), _content_start(text, lines["tree"]), where)
    values, value_lines = parse_values(
        get("values", str), _content_start(text, lines["values"]), where
    )

    def line_of(state: str) -> int:
        return edge_lines.get(state) or value_lines.get(state) or lines.get("tree", 1)

    game = TreeGame.from_edges(
        start,
        edges,
        values,
        num_agents=agents,
        win_states=name_lists["win"],
        lose_states=name_lists["lose"],
    )
    for key in ("win", "lose"):
        for state in name_lists[key]:
            if state not in edge_lines and state != start:
                raise CaseFormatError(f"{at(key)}: {key} state {state!r} is not in the tree")
    validate_tree(game, depth, where, line_of)
    action = data.get("expected_action")
    generated_text = data.get("expected_generated")
    if action is not None and not isinstance(action, str):
        raise CaseFormatError(f"{at('expected_action')}: expected_action must be a string")
    if generated_text is not None and not isinstance(generated_text, str):
        raise CaseFormatError(
            f"{at('expected_generated')}: expected_generated must be a string of names"
        )
    generated = generated_text.split() if generated_text is not None else None
    check_answer(
        game,
        action,
        generated,
        where,
        lines.get("expected_action", 1),
        lines.get("expected_generated", 1),
    )
    stem = path.stem if path is not None else "case"
    return TreeCase(
        name=name or f"{algorithm}/{stem}",
        algorithm=algorithm,
        depth=depth,
        game=game,
        expected_action=action or "",
        expected_generated=frozenset(generated or ()),
        description=get("description", str),
        tags=tuple(name_lists["tags"]),
        path=path,
        diagram=get("diagram", str, "").strip("\n"),
    )


def read_text(path: Path) -> str:
    """The text of a case file.

    Raises:
        CaseFormatError: If it cannot be read as UTF-8.
    """
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CaseFormatError(f"{path}:1: cannot read case file: {error}") from None
