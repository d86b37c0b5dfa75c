"""A catalogue of known student bugs, each a real, runnable search with that one flaw.

Every entry of `BUGS` is a `Bug`: a name, a one-line summary a student understands, a
hint towards the fix, the algorithms it applies to, and a search function with the same
signature as `agents.search.minimax` (``search(state, *, depth, evaluate, observe=None)
-> SearchResult``) that makes exactly that mistake. Get it with
``BUGS["depth-per-agent"].search_for("minimax")``. The searches run on any
`GameStateLike`: the autograder's trees and real Pacman states alike.

`diagnose` names the likely bug behind a wrong answer: it runs every applicable variant
from the same root and returns the first whose root action and generated set both equal
the student's. Each variant stops as soon as it generates a state the student did not,
so diagnosing costs little even on real games.

>>> from autograder.tree import TreeGame
>>> g = TreeGame.from_edges("A", [("A", "l", "B"), ("A", "r", "C"), ("B", "x", "D"),
...     ("C", "x", "E")], {"B": 1, "C": 2, "D": 9, "E": 0}, num_agents=2)
>>> BUGS["depth-per-agent"].search_for("minimax")(g.root, depth=1, evaluate=g.evaluate).action
'r'
>>> diagnose(g.root, "minimax", 1, g.evaluate, action="r", generated={"A", "B", "C"}).name
'depth-per-agent'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from agents.search import SearchResult
from autograder.algorithms import algorithm as algorithm_row
from autograder.algorithms import algorithm_names
from autograder.reading.tree_cases import TreeCase
from autograder.tree import TreeState

__all__ = [
    "BUGS",
    "RETURNED_NONE",
    "Bug",
    "Flaws",
    "SearchFn",
    "closest_bug",
    "diagnose",
    "diagnose_all",
    "diagnose_error",
    "flawed_search",
]

_INF = math.inf


class SearchFn(Protocol):
    """The signature shared by `agents.search` functions and the buggy variants."""

    def __call__(
        self,
        state: Any,
        *,
        depth: int,
        evaluate: Callable[[Any], float],
        observe: Callable[[Any], None] | None = None,
    ) -> SearchResult:
        """Search from ``state`` and return the root value, action and generated count."""
        ...


class _NotApplicable(ValueError):
    """The variant cannot search from here at all (not a mistake a search makes)."""


@dataclass(frozen=True, slots=True)
class Flaws:
    """The switches of `flawed_search`; all off gives the reference search exactly."""

    depth_per_agent: bool = False
    """Decrement depth after every agent's move instead of after a full ply."""
    depth_after_pacman: bool = False
    """Decrement depth right after Pacman's move (the last ply's ghosts never move)."""
    depth_offset: int = 0
    """Search ``depth + depth_offset`` plies."""
    skip_terminal_check: bool = False
    """Expand won and lost states like any other state."""
    one_ghost_layer: bool = False
    """Only agent 1 moves after Pacman; the other ghosts are skipped."""
    prune_on_equality: bool = False
    """Alpha-beta prunes on ``v >= beta`` / ``v <= alpha``."""
    fresh_bounds: bool = False
    """Alpha-beta calls every child with (-inf, +inf) instead of the current bounds."""
    generate_all_first: bool = False
    """Generate all children of a node before searching (and pruning) any of them."""
    reverse_children: bool = False
    """Visit children in reverse legal order."""
    chance_as_min: bool = False
    """Expectimax ghosts take the minimum instead of the average."""
    pairwise_average: bool = False
    """Expectimax ghosts average two values at a time: the mean of the first two
    children, then the mean of that and the third, and so on."""
    return_value: bool = False
    """Return the root's value where the action belongs."""
    ghost_after_pacman: bool = False
    """Pacman hands the turn to agent 1 whatever the number of agents, so a game with
    Pacman alone asks for a ghost that does not exist."""
    swapped_arguments: bool = False
    """A ghost's recursive call passes the depth where the agent index belongs and the next
    agent where the depth belongs (with a depth counted up from 0 and checked with ``==``,
    as such code does); a node with no moves raises, as ``min()`` of nothing does."""
    none_in_certain_death: bool = False
    """A lost state is worth -inf, and the root keeps an action only when its value beats
    -inf: when every move loses, no action is kept and the agent returns None."""


def flawed_search(
    state: Any,
    *,
    algorithm: str,
    depth: int,
    evaluate: Callable[[Any], float],
    observe: Callable[[Any], None] | None = None,
    flaws: Flaws = Flaws(),
) -> SearchResult:
    """Run ``algorithm`` from ``state`` with the given flaws switched on.

    With no flaw it generates the same states and returns the same action and value as
    `agents.search` (the tests check this on random trees).

    Args:
        state: The root, agent 0 to move.
        algorithm: ``"minimax"``, ``"alpha_beta"`` or ``"expectimax"``.
        depth: Plies asked for (``>= 1``).
        evaluate: Scores a state for agent 0.
        observe: Called with every generated state.
        flaws: Which mistakes to make.

    Returns:
        The root value, the action (the value itself under ``return_value``) and the
        number of successor calls.

    Raises:
        ValueError: For an unknown algorithm, ``depth < 1``, a terminal root, or a
            depth offset that leaves no ply to search.
    """
    row = algorithm_row(algorithm)  # raises ValueError when unknown
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be an int >= 1, got {depth!r}")
    plies = depth + flaws.depth_offset
    if plies < 1:
        raise _NotApplicable(f"this variant needs depth >= {2 - flaws.depth_offset}")
    if state.is_terminal():
        raise ValueError("cannot search from a terminal state: the game is over")
    num_agents = state.num_agents
    layers = min(num_agents, 2) if flaws.one_ghost_layer else num_agents
    pruning = row.pruning
    averaging = row.ghost_role == "chance" and not flaws.chance_as_min
    generated = 0

    def step(agent: int, d: int) -> tuple[int, int]:
        nxt = agent + 1 if agent + 1 < layers or (agent == 0 and flaws.ghost_after_pacman) else 0
        if flaws.depth_per_agent or (flaws.depth_after_pacman and agent == 0):
            return nxt, d - 1
        if flaws.depth_after_pacman:
            return nxt, d
        return nxt, d - 1 if nxt == 0 else d

    def children(s: Any, agent: int) -> Iterator[tuple[Any, Any]]:
        nonlocal generated
        actions = list(s.legal_actions(agent))
        if flaws.reverse_children:
            actions.reverse()

        if flaws.swapped_arguments and not actions:
            raise ValueError("no moves to take the best of")

        def one(a: Any) -> tuple[Any, Any]:
            nonlocal generated
            child = s.successor(agent, a)
            generated += 1
            if observe is not None:
                observe(child)
            return a, child

        if flaws.generate_all_first:
            yield from [one(a) for a in actions]
        else:
            for a in actions:
                yield one(a)

    def value(s: Any, agent: int, d: int, alpha: float, beta: float) -> float:
        if flaws.none_in_certain_death and s.is_terminal() and _is_lose(s):
            return -_INF
        depth_done = d == 0 if flaws.swapped_arguments else d <= 0
        if depth_done or (not flaws.skip_terminal_check and s.is_terminal()):
            return evaluate(s)
        nxt, nd = step(agent, d)
        if flaws.swapped_arguments and agent != 0:
            nxt, nd = plies - nd, plies - nxt  # (depth, agent) passed as (agent, depth)
        if flaws.fresh_bounds:
            alpha, beta = -_INF, _INF
        if agent == 0:
            v = -_INF
            for _, child in children(s, 0):
                v = max(v, value(child, nxt, nd, alpha, beta))
                if pruning:
                    if v > beta or (flaws.prune_on_equality and v >= beta):
                        return v  # beta cut-off
                    alpha = max(alpha, v)
            return v
        if averaging:
            values = [value(c, nxt, nd, alpha, beta) for _, c in children(s, agent)]
            if flaws.pairwise_average and values:
                mean = values[0]
                for v in values[1:]:
                    mean = (mean + v) / 2
                return mean
            return sum(values) / len(values) if values else 0.0
        v = _INF
        for _, child in children(s, agent):
            v = min(v, value(child, nxt, nd, alpha, beta))
            if pruning:
                if v < alpha or (flaws.prune_on_equality and v <= alpha):
                    return v  # alpha cut-off
                beta = min(beta, v)
        return v

    nxt, nd = step(0, plies)
    best_value, best_action, alpha = -_INF, None, -_INF
    for action, child in children(state, 0):
        v = value(child, nxt, nd, -_INF if flaws.fresh_bounds else alpha, _INF)
        if v > best_value:  # no action at all when every value is -inf
            best_value, best_action = v, action
        alpha = max(alpha, v)
    return SearchResult(best_value, best_value if flaws.return_value else best_action, generated)


@dataclass(frozen=True, slots=True)
class Bug:
    """One known mistake, with a search that makes it.

    >>> bug = BUGS["prune-on-equality"]
    >>> bug.algorithms
    ('alpha_beta',)
    >>> bug.applies_to("minimax")
    False
    """

    name: str
    """Short stable identifier, e.g. ``"depth-per-agent"`` (used as `TestResult.diagnosis`)."""
    summary: str
    """One line a student understands: what the code does wrong."""
    hint: str
    """One line on how to fix it."""
    algorithms: tuple[str, ...]
    """The algorithms this mistake can be made in."""
    flaws: Flaws = field(repr=False)
    """The switches that make `flawed_search` commit the mistake."""

    def applies_to(self, algorithm: str) -> bool:
        """Whether this mistake exists in ``algorithm``."""
        return algorithm in self.algorithms

    def search_for(self, algorithm: str) -> SearchFn:
        """The buggy variant of ``algorithm``, callable like `agents.search.minimax`.

        Raises:
            ValueError: If the bug does not apply to ``algorithm``.
        """
        if algorithm not in self.algorithms:
            raise ValueError(
                f"bug {self.name!r} applies to {', '.join(self.algorithms)}, not {algorithm!r}"
            )

        def search(
            state: Any,
            *,
            depth: int,
            evaluate: Callable[[Any], float],
            observe: Callable[[Any], None] | None = None,
        ) -> SearchResult:
            return flawed_search(
                state,
                algorithm=algorithm,
                depth=depth,
                evaluate=evaluate,
                observe=observe,
                flaws=self.flaws,
            )

        search.__name__ = f"{algorithm}_with_{self.name.replace('-', '_')}"
        return search

    def search(
        self,
        state: Any,
        *,
        algorithm: str,
        depth: int,
        evaluate: Callable[[Any], float],
        observe: Callable[[Any], None] | None = None,
    ) -> SearchResult:
        """Run the buggy variant of ``algorithm`` (shorthand for `search_for`)."""
        return self.search_for(algorithm)(state, depth=depth, evaluate=evaluate, observe=observe)


_ALL = algorithm_names()
"""The rows the bugs below are variants of (the shipped ones, whose searches `flawed_search`
models); a new row has no catalogued bug until one is added for it."""
_AB = ("alpha_beta",)

BUGS: dict[str, Bug] = {
    bug.name: bug
    for bug in (
        Bug(
            "value-not-action",
            "the agent returns the value of the root instead of the best action",
            "keep track of the action that gave the best value and return that action",
            _ALL,
            Flaws(return_value=True),
        ),
        Bug(
            "none-in-certain-death",
            "lost states are worth -inf and an action is kept only when it beats -inf, so "
            "when every move loses the agent keeps no action and returns None",
            "start from the first legal action (or score a lost state with the evaluation "
            "function): an agent must move even when every move loses",
            _ALL,
            Flaws(none_in_certain_death=True),
        ),
        Bug(
            "depth-per-agent",
            "depth is decremented after every agent's move instead of after a full ply",
            "one unit of depth is Pacman plus every ghost: decrement only when the turn "
            "comes back to Pacman",
            _ALL,
            Flaws(depth_per_agent=True),
        ),
        Bug(
            "pacman-alone-handed-to-ghost",
            "after Pacman the turn always goes to ghost 1, even in a game with no ghost",
            "the agent after Pacman is (index + 1) % num_agents: with Pacman alone, that is "
            "Pacman again, one ply later",
            _ALL,
            Flaws(ghost_after_pacman=True),
        ),
        Bug(
            "swapped-arguments",
            "a ghost's recursive call passes its arguments in the wrong order: the depth "
            "where the agent index belongs and the agent index where the depth belongs",
            "call the ghost's recursion with the same argument order as the function's "
            "definition (agent index, depth, state)",
            _ALL,
            Flaws(swapped_arguments=True),
        ),
        Bug(
            "depth-after-pacman",
            "depth is decremented right after Pacman moves, so the ghosts never move in "
            "the last ply",
            "decrement depth after the last ghost has moved, not after Pacman",
            _ALL,
            Flaws(depth_after_pacman=True),
        ),
        Bug(
            "one-ply-too-deep",
            "the search goes one ply deeper than the depth it was given",
            "stop and evaluate when depth plies are done (check depth == 0, not depth < 0)",
            _ALL,
            Flaws(depth_offset=1),
        ),
        Bug(
            "one-ply-too-shallow",
            "the search stops one ply earlier than the depth it was given",
            "search exactly depth plies: check the depth limit before Pacman's move, not after it",
            _ALL,
            Flaws(depth_offset=-1),
        ),
        Bug(
            "no-terminal-check",
            "won and lost states are not evaluated: the search looks for their moves (a "
            "finished game has none) and takes the best of nothing",
            "return evaluate(state) as soon as state.is_win() or state.is_lose(), "
            "whatever the depth",
            _ALL,
            Flaws(skip_terminal_check=True),
        ),
        Bug(
            "one-ghost-layer",
            "only the first ghost moves in each ply; the other ghosts are skipped",
            "after ghost i comes ghost i + 1; go back to Pacman only after the last ghost "
            "(num_agents - 1)",
            _ALL,
            Flaws(one_ghost_layer=True),
        ),
        Bug(
            "prune-on-equality",
            "alpha-beta also prunes when a value equals the bound",
            "prune only on strict inequality: v > beta at Pacman's nodes, v < alpha at ghost nodes",
            _AB,
            Flaws(prune_on_equality=True),
        ),
        Bug(
            "bounds-not-passed",
            "alpha and beta are not passed down to the children, so nothing is pruned",
            "call each child with the current alpha and beta, and update them after each child",
            _AB,
            Flaws(fresh_bounds=True),
        ),
        Bug(
            "generate-before-pruning",
            "all children of a node are generated before any is searched, so children "
            "that should be pruned are generated anyway",
            "generate each successor inside the loop, just before searching it, so a "
            "cut-off stops before the next one",
            _AB,
            Flaws(generate_all_first=True),
        ),
        Bug(
            "children-reordered",
            "children are not visited in the order legal_actions gives them",
            "loop over state.legal_actions(agent) in the order given; do not sort, "
            "reverse or shuffle it",
            # Without pruning the order changes neither the states nor the values, only
            # which tied action wins, and every tied-best action is right (SPEC section 6).
            _AB,
            Flaws(reverse_children=True),
        ),
        Bug(
            "expectimax-min",
            "expectimax ghosts take the minimum of their children instead of the average",
            "a ghost node's value is the mean of its children's values (uniform chance)",
            ("expectimax",),
            Flaws(chance_as_min=True),
        ),
        Bug(
            "pairwise-average",
            "a ghost node averages two values at a time (the mean of the first two, then the "
            "mean of that and the third), which weighs the last children more",
            "sum all the children's values and divide by how many there are",
            ("expectimax",),
            Flaws(pairwise_average=True),
        ),
    )
}
"""The catalogue, in the order `diagnose` tries it (the first match wins).

``value-not-action`` comes first: when the agent returned nothing usable, a generated
set that is exactly right is best explained by a value returned in place of the action.
"""


def _is_lose(state: Any) -> bool:
    is_lose = getattr(state, "is_lose", None)
    return bool(is_lose()) if callable(is_lose) else False


class _Mismatch(Exception):
    """A variant generated a state the student did not: it cannot match."""


def _key(state: Any) -> Hashable:
    return state.name if isinstance(state, TreeState) else state


class _ReturnedNone:
    """The type of `RETURNED_NONE`."""

    def __repr__(self) -> str:
        return "None"


RETURNED_NONE: Final = _ReturnedNone()
"""Pass as ``action`` to diagnose an agent that returned None (``action=None`` means the
action is unknown and only generated states are compared)."""


def _same_action(variant: Any, student: Any) -> bool:
    if student is RETURNED_NONE:
        return variant is None
    if variant == student or str(variant) == str(student):
        return True
    try:
        return float(variant) == float(student)
    except (TypeError, ValueError):
        return False


def _run(
    root: Any,
    algorithm: str,
    depth: int,
    evaluate: Callable[[Any], float],
    flaws: Flaws,
    within: set[Hashable] | None = None,
    *,
    raising: bool = False,
) -> tuple[Any, set[Hashable]] | None:
    """A variant's action and generated keys (root included), or None if it failed.

    With ``within``, the run must generate exactly those states: it is abandoned at the
    first state outside them, and counts as failed if it generates fewer. With
    ``raising``, it is the other way round: only a variant that raises (not merely
    strays), after generating exactly ``within``, counts; its action is then ``None``.
    """
    seen = {_key(root)}

    def watch(state: Any) -> None:
        key = _key(state)
        if within is not None and key not in within:
            raise _Mismatch
        seen.add(key)

    try:
        result = flawed_search(
            root, algorithm=algorithm, depth=depth, evaluate=evaluate, observe=watch, flaws=flaws
        )
    except (_Mismatch, _NotApplicable):
        return None
    except Exception:  # a variant that cannot run here cannot match, unless raising is
        if raising and (within is None or seen == within):
            return None, seen
        return None
    if raising or (within is not None and seen != within):
        return None
    return result.action, seen


def _resolve(
    target: Any, algorithm: str, depth: int | None, evaluate: Callable[[Any], float] | None
) -> tuple[Any, int, Callable[[Any], float]]:
    """The root, depth and evaluation to diagnose with: a case's own unless given."""
    algorithm_row(algorithm)  # raises ValueError when unknown
    game = getattr(target, "game", None)
    root = game.root if game is not None else target
    if game is not None:
        depth = target.depth if depth is None else depth
        evaluate = game.evaluate if evaluate is None else evaluate
    if depth is None or evaluate is None:
        raise ValueError("diagnosis needs depth and evaluate for a state that is not a case")
    return root, depth, evaluate


def diagnose_all(
    target: TreeCase | Any,
    algorithm: str,
    depth: int | None = None,
    evaluate: Callable[[Any], float] | None = None,
    action: Any = None,
    generated: Collection[Hashable] = (),
    *,
    bugs: Collection[str] | None = None,
) -> list[Bug]:
    """Every catalogued bug that reproduces the student's answer exactly.

    A correct answer matches nothing, even where a bug happens to give the same answer.

    Args:
        target: A `TreeCase` (its tree, depth and evaluation are the defaults), a tree
            root, or any `GameStateLike` root such as a real Pacman state.
        algorithm: The algorithm the student was asked for.
        depth: The depth the student was given (default: the case's).
        evaluate: The evaluation function used (default: the case's tree values).
        action: The student's root action; ``None`` compares generated sets only, and
            `RETURNED_NONE` stands for an agent that returned None.
        generated: The states the student generated, as state names (trees) or states;
            the root is added when missing.
        bugs: Restrict the search to these bug names (default: the whole catalogue).

    Returns:
        The matching bugs, in catalogue order (empty if none matches).

    Raises:
        ValueError: If ``algorithm`` is unknown, or depth or evaluate is missing for a
            state that is not a `TreeCase`.
    """
    root, depth, evaluate = _resolve(target, algorithm, depth, evaluate)
    student = {_key(s) for s in generated} | {_key(root)}

    def reproduces(flaws: Flaws) -> bool:
        answer = _run(root, algorithm, depth, evaluate, flaws, within=student)
        return answer is not None and (action is None or _same_action(answer[0], action))

    if action is not None and reproduces(Flaws()):
        return []  # the answer is correct: on this tree the bugs below are invisible
    return [
        bug
        for bug in BUGS.values()
        if bug.applies_to(algorithm)
        and (bugs is None or bug.name in bugs)
        and reproduces(bug.flaws)
    ]


def diagnose_error(
    target: TreeCase | Any,
    algorithm: str,
    depth: int | None = None,
    evaluate: Callable[[Any], float] | None = None,
    generated: Collection[Hashable] = (),
) -> Bug | None:
    """The likely bug of a search that raised: the first variant that raises too.

    A variant matches when it raises after generating exactly the states the student's
    search generated before it raised. Takes the same arguments as `diagnose_all`, without
    an action (there is none).
    """
    root, depth, evaluate = _resolve(target, algorithm, depth, evaluate)
    student = {_key(s) for s in generated} | {_key(root)}
    for bug in BUGS.values():
        if bug.applies_to(algorithm) and (
            _run(root, algorithm, depth, evaluate, bug.flaws, within=student, raising=True)
            is not None
        ):
            return bug
    return None


def diagnose(
    target: TreeCase | Any,
    algorithm: str,
    depth: int | None = None,
    evaluate: Callable[[Any], float] | None = None,
    action: Any = None,
    generated: Collection[Hashable] = (),
    *,
    bugs: Collection[str] | None = None,
) -> Bug | None:
    """The likely bug: the first catalogued variant that reproduces the student's answer.

    Takes the same arguments as `diagnose_all`. Returns ``None`` when no variant
    matches (or when the answer is simply correct: the reference is not a bug).
    """
    matches = diagnose_all(target, algorithm, depth, evaluate, action, generated, bugs=bugs)
    return matches[0] if matches else None


def closest_bug(
    target: TreeCase | Any,
    algorithm: str,
    depth: int | None = None,
    evaluate: Callable[[Any], float] | None = None,
    action: Any = None,
    generated: Collection[Hashable] = (),
) -> Bug | None:
    """The bug whose answer is nearest the student's, when none matches exactly.

    The distance counts the states one generates and the other does not, plus one for a
    different action. A bug is returned only if it is strictly nearer the student's
    answer than the reference is, so a student with two mistakes learns of one. Unlike
    `diagnose`, every variant runs to the end: meant for small trees.

    Takes the same arguments as `diagnose_all`.
    """
    root, depth, evaluate = _resolve(target, algorithm, depth, evaluate)
    student = {_key(s) for s in generated} | {_key(root)}

    def distance(flaws: Flaws) -> float:
        answer = _run(root, algorithm, depth, evaluate, flaws)
        if answer is None:
            return math.inf  # a variant that cannot run here is no candidate
        wrong_action = action is None or not _same_action(answer[0], action)
        return len(answer[1] ^ student) + wrong_action

    best, best_distance = None, distance(Flaws())
    for bug in BUGS.values():
        if bug.applies_to(algorithm):
            d = distance(bug.flaws)
            if d < best_distance:
                best, best_distance = bug, d
    return best
