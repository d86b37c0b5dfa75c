"""Grading the tree tests: run our reference search, compare, explain, write answers.

A tree test gives the student's agent a `autograder.reading.tree_cases.TreeCase` and
compares the root action and the exact set of generated states with our reference
search's (the algorithm's row in `autograder.algorithms`). A wrong answer is explained
with the matching bugs of `autograder.grading.catalogue` and a diagram of the tree.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from autograder.algorithms import algorithm as algorithm_row
from autograder.algorithms import algorithm_names
from autograder.diagram import draw_tree
from autograder.grading.catalogue import RETURNED_NONE, closest_bug, diagnose_all
from autograder.reading.case_folders import load_tree_cases
from autograder.reading.classic_format import write_solution
from autograder.reading.tree_cases import TreeCase, read_text
from autograder.results import TestResult
from autograder.tree import TreeGame

__all__ = [
    "Accepted",
    "accepted_answers",
    "check_tree_case",
    "generate_tree_solutions",
    "is_advice",
    "reference_run",
]

_ADVICE_NOTE = (
    "Advice, not graded: the classic contract grades trees with Pacman and at least one "
    "ghost; this one checks that a search with no ghost hands the turn back to Pacman."
)
_ADVICE_TAG_NOTE = (
    "Advice, not graded: the classic tests have no tree like this one; it shows a habit "
    "that can still lose games (the game tests grade those)."
)


def is_advice(case: TreeCase) -> bool:
    """Whether a case goes beyond the classic contract: shown to help, never counted.

    Graded trees have at least two agents, as every classic tree does (SPEC section 6).
    A case tagged ``advice`` checks a habit the classic tests do not (a position where
    every move loses, say): it names a mistake without costing points.
    """
    return case.game.num_agents < 2 or "advice" in case.tags


def reference_run(case: TreeCase, algorithm: str | None = None) -> tuple[str, frozenset[str]]:
    """Run our reference search on the case's tree.

    Args:
        case: The case.
        algorithm: Which search to run (default: the case's algorithm).

    Returns:
        The root action and the names of the generated states, the start included.
    """
    search = algorithm_row(algorithm or case.algorithm).search
    seen = {case.game.start}
    result = search(
        case.game.root,
        depth=case.depth,
        evaluate=case.game.evaluate,
        observe=lambda s: seen.add(s.name),
    )
    return str(result.action), frozenset(seen)


@dataclass(frozen=True, slots=True)
class Accepted:
    """One accepted way of searching a tree.

    It gives the root actions a search may return and the exact set of states it
    generates.
    """

    variant: str
    """``"reference"``, or ``"without Stop"`` (Pacman's Stop action left out)."""
    actions: frozenset[str]
    """Every tied-best root action (the student picks any: first, last, random)."""
    generated: frozenset[str]
    """The states it generates, the start included."""


def _tree_view(game: TreeGame, depth: int, *, drop_stop: bool) -> TreeGame | None:
    """The tree as a search that leaves out Pacman's ``Stop`` sees it (``None``: same tree).

    Also ``None`` when leaving Stop out would leave a Pacman state with no move at all.
    """
    if not drop_stop:
        return game
    n = game.num_agents
    turn = {game.start: 0}
    todo = [game.start]
    kept: dict[str, list[tuple[str, str]]] = {}
    changed = False
    while todo:
        name = todo.pop()
        edges = list(game.children(name))
        if turn[name] % n == 0 and turn[name] < depth * n:
            without = [(a, c) for a, c in edges if a != "Stop"]
            if not without and edges:
                return None
            changed |= len(without) != len(edges)
            edges = without
        kept[name] = edges
        for _, child in edges:
            if child not in turn:
                turn[child] = turn[name] + 1
                todo.append(child)
    if not changed:
        return None
    return TreeGame(
        game.start,
        kept,
        game.evaluation,
        num_agents=n,
        win_states=game.win_states,
        lose_states=game.lose_states,
    )


def _root_values(game: TreeGame, depth: int, ghost_role: str) -> dict[str, float]:
    """The value of each root action under SPEC section 6 (min or average at ghosts)."""
    n = game.num_agents

    def value(name: str, turn: int) -> float:
        kids = game.children(name)
        if name in game.win_states or name in game.lose_states or turn == depth * n or not kids:
            return game.value(name)
        values = [value(child, turn + 1) for _, child in kids]
        if turn % n == 0:
            return max(values)
        return sum(values) / len(values) if ghost_role == "chance" else min(values)

    return {action: value(child, 1) for action, child in game.children(game.start)}


def _tied_best(values: dict[str, float]) -> frozenset[str]:
    best = max(values.values())
    close = 1e-9 * max(1.0, abs(best))  # an average computed in another order may differ
    return frozenset(a for a, v in values.items() if abs(v - best) <= close)


def accepted_answers(case: TreeCase) -> tuple[Accepted, ...]:
    """Every answer the classic contract accepts on ``case`` (SPEC section 6).

    The reference search with any tied-best root action, and, where Pacman has a Stop
    edge, the same search leaving Stop out (as the classic grader's game tests accept).
    """
    row = algorithm_row(case.algorithm)
    answers = []
    for variant, drop_stop in (("reference", False), ("without Stop", True)):
        game = _tree_view(case.game, case.depth, drop_stop=drop_stop)
        if game is None:
            continue
        seen = {game.start}
        row.search(
            game.root,
            depth=case.depth,
            evaluate=game.evaluate,
            observe=lambda s, seen=seen: seen.add(s.name),
        )
        actions = _tied_best(_root_values(game, case.depth, row.ghost_role))
        answers.append(Accepted(variant, actions, frozenset(seen)))
    return tuple(answers)


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
    turn = {game.start: 0}
    todo = [game.start]
    while todo:
        name = todo.pop()
        for _, child in game.children(name):
            if child not in turn:
                turn[child] = turn[name] + 1
                todo.append(child)
    extra = got - case.expected_generated
    facts = []
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
    returned_none: bool = False,
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
        returned_none: Whether the agent returned None (then ``action`` is ``None``).

    Returns:
        A passed result, or a failed one whose messages give expected against actual
        action, the extra and missing states, the likely bug and the marked tree, and
        whose ``diagnosis`` names the catalogued bug when one reproduces the answer.
    """
    got = frozenset(generated) | {case.game.start}
    short = case.name.split("/", 1)[-1]
    name = f"{question}/{short}"
    advice = is_advice(case)
    answers = accepted_answers(case)
    for answer in answers:
        if action is not None and str(action) in answer.actions and got == answer.generated:
            how = "" if answer.variant == "reference" else f" (searching {answer.variant})"
            return TestResult(
                name,
                question,
                "passed",
                points=0.0 if advice else points,
                max_points=0.0 if advice else points,
                messages=(
                    f"action {str(action)!r} and all {len(got)} generated states match{how}",
                ),
                output=output,
                seconds=seconds,
                advice=advice,
            )
    # Explain against the accepted answer nearest to what the student generated.
    nearest = min(answers, key=lambda a: len(a.generated ^ got))
    tied = sorted(nearest.actions)
    action_ok = action is not None and str(action) in nearest.actions
    messages = [
        f"{case.description} ({case.algorithm}, depth {case.depth}, {case.game.num_agents} agents)"
    ]
    if advice:
        messages.insert(0, _ADVICE_NOTE if case.game.num_agents < 2 else _ADVICE_TAG_NOTE)
    expected = " or ".join(map(repr, tied)) + (" (tied best)" if len(tied) > 1 else "")
    if action is None and returned_none:
        messages.append(f"Your agent returned None; expected {expected}.")
    elif action is None:
        messages.append(f"Your agent returned no usable action; expected {expected}.")
    elif not action_ok:
        legal = case.game.root.legal_actions(0)
        if action not in legal:
            messages.append(
                f"Wrong action: expected {expected}, got {action!r}, which is "
                f"not a legal action at the root (legal: {', '.join(map(repr, legal))})."
            )
        else:
            messages.append(f"Wrong action: expected {expected}, got {action!r}.")
    if nearest.variant != "reference":
        messages.append(f"(Compared with the accepted search {nearest.variant}.)")
    extra = got - nearest.generated
    missing = nearest.generated - got
    if extra:
        messages.append(f"Generated {len(extra)} states that should not be: {_names(extra)}")
    if missing:
        messages.append(
            f"Missing {len(missing)} states that should be generated: {_names(missing)}"
        )
    shown = RETURNED_NONE if returned_none and action is None else action
    bugs = diagnose_all(case, case.algorithm, action=shown, generated=got)
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
        near = closest_bug(case, case.algorithm, action=shown, generated=got)
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
        max_points=0.0 if advice else points,
        messages=tuple(messages),
        diagnosis=bugs[0].name if bugs else None,
        output=output,
        seconds=seconds,
        advice=advice,
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
        algorithm: Only this algorithm's cases (default: every row of
            `autograder.algorithms.ALGORITHMS`).

    Returns:
        The paths written.

    Raises:
        ValueError: If ``algorithm`` is unknown.
        CaseFormatError: If a case file is malformed.
    """
    changed = []
    for algo in algorithm_names() if algorithm is None else (algorithm,):
        for case in load_tree_cases(algo, folder, require_answer=False):
            assert case.path is not None  # loaded from a file
            action, generated = reference_run(case)
            if action == case.expected_action and generated == case.expected_generated:
                continue
            if case.path.suffix == ".test":
                changed.append(write_solution(case.path, action, generated))
            else:
                text = read_text(case.path)
                case.path.write_text(_rewrite_toml(text, action, generated), encoding="utf-8")
                changed.append(case.path)
    return changed
