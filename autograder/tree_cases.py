"""Reference game-tree cases for minimax, alpha-beta and expectimax, and their grading.

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
into the same `TreeCase` (see `autograder.classic_format`).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from agents.search import alpha_beta, expectimax, minimax
from autograder.catalogue import closest_bug, diagnose_all
from autograder.diagram import draw_tree
from autograder.results import CaseFormatError, TestResult
from autograder.tree import TreeGame

__all__ = [
    "ALGORITHMS",
    "TreeCase",
    "check_answer",
    "check_tree_case",
    "generate_tree_solutions",
    "load_tree_cases",
    "parse_edges",
    "parse_tree_case",
    "parse_values",
    "read_tree_case",
    "reference_run",
    "validate_tree",
]

ALGORITHMS = ("minimax", "alpha_beta", "expectimax")
"""The algorithms with tree cases, in question order (q2, q3, q4)."""

_SEARCHES = {"minimax": minimax, "alpha_beta": alpha_beta, "expectimax": expectimax}
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
_KINDS = {int: "a whole number", str: "a string", list: "a list"}


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


def _key_lines(text: str) -> dict[str, int]:
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
    in_tree = {game.start} | set(game.successors)
    in_tree.update(c for edges in game.successors.values() for _, c in edges)
    for name in game.evaluation:
        if name not in in_tree:
            raise CaseFormatError(f"{where}:{line_of(name)}: value for unknown state {name!r}")
    for name in sorted(game.win_states & game.lose_states):
        raise CaseFormatError(f"{where}:{line_of(name)}: state {name!r} is both won and lost")
    if game.start in game.win_states or game.start in game.lose_states:
        raise CaseFormatError(f"{where}:{line_of(game.start)}: the start state is terminal")
    if not game.children(game.start):
        raise CaseFormatError(f"{where}:{line_of(game.start)}: the start state has no children")
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


def _toml_error(error: tomllib.TOMLDecodeError, where: str) -> CaseFormatError:
    m = re.search(r"\(at line (\d+), column (\d+)\)", str(error))
    message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error))
    if m:
        return CaseFormatError(f"{where}:{m.group(1)}:{m.group(2)}: invalid TOML: {message}")
    return CaseFormatError(f"{where}:1: invalid TOML: {message}")


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
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise _toml_error(error, where) from None
    lines = _key_lines(text)

    def at(key: str) -> str:
        return f"{where}:{lines.get(key, 1)}"

    for key in data:
        if key not in _KEYS:
            raise CaseFormatError(
                f"{at(key)}: unknown key {key!r} (known: {', '.join(sorted(_KEYS))})"
            )
    required = _REQUIRED + (("expected_action", "expected_generated") if require_answer else ())
    for key in required:
        if key not in data:
            hint = "; run `autograder generate`" if key.startswith("expected") else ""
            raise CaseFormatError(f"{where}:1: missing key {key!r}{hint}")

    def get(key: str, kind: type, default: Any = None) -> Any:
        value = data.get(key, default)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise CaseFormatError(f"{at(key)}: {key} must be {_KINDS[kind]}, got {value!r}")
        return value

    algorithm = get("algorithm", str)
    if algorithm not in ALGORITHMS:
        raise CaseFormatError(
            f"{at('algorithm')}: unknown algorithm {algorithm!r}; expected one of "
            + ", ".join(ALGORITHMS)
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


def read_tree_case(path: Path, *, name: str | None = None) -> TreeCase:
    """Read one case file: TOML (``.toml``) or a classic ``GraphGameTreeTest`` (``.test``).

    Raises:
        CaseFormatError: If the file is malformed or cannot be read.
    """
    path = Path(path)
    if path.suffix == ".test":
        from autograder.classic_format import read_graph_game_tree_test

        case = read_graph_game_tree_test(path, name=name)
        if case is None:
            raise CaseFormatError(f"{path}:1: not a GraphGameTreeTest")
        return case
    return parse_tree_case(_read_text(path), path=path, name=name)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CaseFormatError(f"{path}:1: cannot read case file: {error}") from None


def _packaged_cases() -> Path:
    return Path(str(resources.files("autograder") / "cases"))


def _case_files(algorithm: str, folder: Path | None) -> tuple[Path, list[Path], bool]:
    """The folder to scan, its case files, and whether it is an algorithm's own folder."""
    root = _packaged_cases() if folder is None else Path(folder)
    if not root.is_dir():
        raise CaseFormatError(f"{root}:1: no such case folder")
    own = (root / algorithm).is_dir()
    base = root / algorithm if own else root
    files = sorted(p for p in base.rglob("*") if p.suffix in (".toml", ".test") and p.is_file())
    return base, files, own


def _load(algorithm: str, folder: Path | None, *, require_answer: bool) -> list[TreeCase]:
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; expected one of {ALGORITHMS}")
    base, files, own = _case_files(algorithm, folder)
    cases = []
    for path in files:
        name = f"{algorithm}/{path.relative_to(base).with_suffix('').as_posix()}"
        if path.suffix == ".test":
            from autograder.classic_format import read_graph_game_tree_test

            case = read_graph_game_tree_test(path, name=name, require_answer=require_answer)
            if case is None:
                continue  # another classic test class (PacmanGameTreeTest, ...)
        else:
            case = parse_tree_case(
                _read_text(path), path=path, name=name, require_answer=require_answer
            )
        if case.algorithm != algorithm:
            if own:
                raise CaseFormatError(
                    f"{path}:{_key_lines(_read_text(path)).get('algorithm', 1)}: algorithm "
                    f"{case.algorithm!r} does not match its folder {algorithm!r}"
                )
            continue
        cases.append(case)
    return sorted(cases, key=lambda c: c.name)


def load_tree_cases(algorithm: str, folder: Path | None = None) -> list[TreeCase]:
    """Load the tree cases of one algorithm, sorted by name.

    Args:
        algorithm: One of `ALGORITHMS`.
        folder: A cases folder. If it has a subfolder named after ``algorithm``, that
            subfolder is read and every file in it must be for ``algorithm``; otherwise
            the folder itself is read and cases for other algorithms are skipped. Both
            ``.toml`` cases and classic ``GraphGameTreeTest`` ``.test`` files (with their
            ``.solution``) are read, recursively. Default: the packaged cases.

    Returns:
        The cases, sorted by name.

    Raises:
        ValueError: If ``algorithm`` is unknown.
        CaseFormatError: If a file is malformed (the message names file and line).
    """
    return _load(algorithm, folder, require_answer=True)


# --- running and grading -------------------------------------------------------------


def reference_run(case: TreeCase, algorithm: str | None = None) -> tuple[str, frozenset[str]]:
    """Run our reference search on the case's tree.

    Args:
        case: The case.
        algorithm: Which search to run (default: the case's algorithm).

    Returns:
        The root action and the names of the generated states, the start included.
    """
    search = _SEARCHES[algorithm or case.algorithm]
    seen = {case.game.start}
    result = search(
        case.game.root,
        depth=case.depth,
        evaluate=case.game.evaluate,
        observe=lambda s: seen.add(s.name),
    )
    return str(result.action), frozenset(seen)


def _names(states: Iterable[str]) -> str:
    listed = sorted(states)
    if len(listed) > 30:
        return " ".join(listed[:30]) + f" ... ({len(listed) - 30} more)"
    return " ".join(listed)


def _marks(case: TreeCase, got: frozenset[str]) -> dict[str, str]:
    searched = reference_run(case, "minimax")[1]
    marks = {}
    for name in case.game.names:
        expected = name in case.expected_generated
        if expected and name in got:
            marks[name] = "generated"
        elif expected:
            marks[name] = "MISSING"
        elif name in got:
            marks[name] = "EXTRA"
        elif name in searched:
            marks[name] = "pruned"
        else:
            marks[name] = "not searched"
    return marks


def _observations(case: TreeCase, got: frozenset[str]) -> list[str]:
    """Plain facts about where the student's search went wrong, bug or no bug."""
    game, n = case.game, case.game.num_agents
    limit = case.depth * n
    turn, parent = {game.start: 0}, {}
    todo = [game.start]
    while todo:
        name = todo.pop()
        for _, child in game.children(name):
            if child not in turn:
                turn[child], parent[child] = turn[name] + 1, name
                todo.append(child)
    terminal = game.win_states | game.lose_states
    extra = got - case.expected_generated
    facts = []
    under_terminal = sorted(x for x in extra if parent.get(x) in terminal)
    if under_terminal:
        facts.append(
            "You expanded won or lost states: "
            + ", ".join(f"{x} (below {parent[x]})" for x in under_terminal)
            + "."
        )
    too_deep = sorted(x for x in extra if turn.get(x, 0) > limit)
    if too_deep:
        facts.append(
            f"You generated states more than {limit} moves below the start (depth "
            f"{case.depth} x {n} agents): {_names(too_deep)}."
        )
    reached = max((turn[x] for x in got if x in turn), default=0)
    wanted = max(turn[x] for x in case.expected_generated)
    if reached < wanted:
        facts.append(
            f"Your search went {reached} moves deep; it should reach {wanted} "
            f"(depth {case.depth} x {n} agents = {limit} moves, fewer where a game ends)."
        )
    return facts


def check_tree_case(
    case: TreeCase,
    *,
    question: str,
    action: str | None,
    generated: Collection[str],
    points: float = 0.0,
    output: str = "",
    seconds: float = 0.0,
) -> TestResult:
    """Grade what a student's agent did on a case.

    Args:
        case: The case.
        question: The question it belongs to (``"q2"``); the test is named
            ``"<question>/<file stem>"``.
        action: What the agent returned, as a string; ``None`` if nothing usable.
        generated: Names of the states the grader saw generated (the start is added).
        points: Points for a pass (also the test's ``max_points``).
        output: What the student's code printed.
        seconds: How long the agent took.

    Returns:
        A passed result, or a failed one whose messages give expected against actual
        action, the extra and missing states, the likely bug and the marked tree, and
        whose ``diagnosis`` names the catalogued bug when one reproduces the answer.
    """
    got = frozenset(generated) | {case.game.start}
    short = case.name.split("/", 1)[-1]
    name = f"{question}/{short}"
    action_ok = action is not None and str(action) == case.expected_action
    if action_ok and got == case.expected_generated:
        return TestResult(
            name,
            question,
            "passed",
            points=points,
            max_points=points,
            messages=(
                f"action {case.expected_action!r} and all {len(got)} generated states match",
            ),
            output=output,
            seconds=seconds,
        )
    messages = [
        f"{case.description} ({case.algorithm}, depth {case.depth}, {case.game.num_agents} agents)"
    ]
    if action is None:
        messages.append(f"Your agent returned no usable action; expected {case.expected_action!r}.")
    elif not action_ok:
        legal = case.game.root.legal_actions(0)
        if action not in legal:
            messages.append(
                f"Wrong action: expected {case.expected_action!r}, got {action!r}, which is "
                f"not a legal action at the root (legal: {', '.join(map(repr, legal))})."
            )
        else:
            messages.append(f"Wrong action: expected {case.expected_action!r}, got {action!r}.")
    extra = got - case.expected_generated
    missing = case.expected_generated - got
    if extra:
        messages.append(f"Generated {len(extra)} states that should not be: {_names(extra)}")
    if missing:
        messages.append(
            f"Missing {len(missing)} states that should be generated: {_names(missing)}"
        )
    bugs = diagnose_all(case, case.algorithm, action=action, generated=got)
    if bugs:
        messages.append(f"Likely bug: {bugs[0].summary}.")
        messages.append(f"Hint: {bugs[0].hint}.")
        if len(bugs) > 1:
            messages.append(
                "This answer is also what these bugs give: "
                + "; ".join(b.summary for b in bugs[1:])
            )
    else:
        messages.append("No known bug gives exactly this answer; compare with the tree below.")
        messages.extend(_observations(case, got))
        near = closest_bug(case, case.algorithm, action=action, generated=got)
        if near is not None:
            messages.append(f"Closest known bug (not an exact match): {near.summary}.")
    if case.diagram:
        messages.append("Tree:")
        messages.extend(case.diagram.splitlines())
    messages.append(
        "Search trace (generated = right; MISSING = you did not generate it; EXTRA = you "
        "should not have; pruned / not searched = correctly left alone):"
    )
    drawing = draw_tree(
        case.game,
        case.depth,
        _marks(case, got),
        algorithm=case.algorithm,
        collapse=("pruned", "not searched"),
    )
    messages.extend(drawing.splitlines())
    return TestResult(
        name,
        question,
        "failed",
        points=0.0,
        max_points=points,
        messages=tuple(messages),
        diagnosis=bugs[0].name if bugs else None,
        output=output,
        seconds=seconds,
    )


# --- generating answers --------------------------------------------------------------


def _rewrite_toml(text: str, action: str, generated: frozenset[str]) -> str:
    lines = {
        "expected_action": f"expected_action = {json.dumps(action)}",
        "expected_generated": f"expected_generated = {json.dumps(' '.join(sorted(generated)))}",
    }
    for key, line in lines.items():
        pattern = re.compile(rf"^{key}\s*=.*$", re.MULTILINE)
        found = pattern.search(text)
        if found:
            text = text[: found.start()] + line + text[found.end() :]
        else:
            text = text.rstrip("\n") + "\n" + line + "\n"
    return text


def generate_tree_solutions(folder: Path | None = None, algorithm: str | None = None) -> list[Path]:
    """Write the reference answers into case files.

    For TOML cases the ``expected_action`` and ``expected_generated`` lines are
    rewritten (or added) in place; for classic ``.test`` files the ``.solution`` file
    beside it is written. Files whose answer is already right are left untouched.

    Args:
        folder: A cases folder, read as `load_tree_cases` reads it (default: the
            packaged cases).
        algorithm: Only this algorithm's cases (default: all of `ALGORITHMS`).

    Returns:
        The paths written.

    Raises:
        ValueError: If ``algorithm`` is unknown.
        CaseFormatError: If a case file is malformed.
    """
    changed = []
    for algo in ALGORITHMS if algorithm is None else (algorithm,):
        for case in _load(algo, folder, require_answer=False):
            assert case.path is not None  # loaded from a file
            action, generated = reference_run(case)
            if action == case.expected_action and generated == case.expected_generated:
                continue
            if case.path.suffix == ".test":
                from autograder.classic_format import write_solution

                changed.append(write_solution(case.path, action, generated))
            else:
                text = _read_text(case.path)
                case.path.write_text(_rewrite_toml(text, action, generated), encoding="utf-8")
                changed.append(case.path)
    return changed
