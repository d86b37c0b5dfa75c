"""Depth-limited adversarial search over any `GameStateLike`: minimax, alpha-beta, expectimax.

Agent 0 maximises; every other agent minimises, or in expectimax takes the uniform
average over its legal actions. One unit of ``depth`` is one ply, in which every agent
moves once, starting with agent 0; a won or lost state, or agent 0's turn after
``depth`` plies, is scored with ``evaluate(state)``. Children are visited in
legal-action order, ties at the root go to the first best action, and alpha-beta prunes
only on strict inequality (``v > beta`` at a max node, ``v < alpha`` at a min node),
which is what the autograder grades: pruning on equality generates different states.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from agents.protocol import EvaluationFn, GameStateLike

__all__ = ["SearchResult", "alpha_beta", "expectimax", "minimax"]

_INF: Final = float("inf")

Observer = Callable[[Any], None]
"""Called with every state a search generates (for counting or display)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The outcome of one search from a root state."""

    value: float
    """The backed-up value of the root for agent 0."""
    action: Any
    """The first action in legal order whose value equals ``value``."""
    generated: int
    """How many successor states the search generated (successor calls)."""


def _check(state: GameStateLike, depth: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be an int >= 1, got {depth!r}")
    if state.is_terminal():
        raise ValueError("cannot search from a terminal state: the game is over")
    if not state.legal_actions(0):
        raise ValueError("agent 0 has no legal actions at the root")


def minimax(
    state: GameStateLike,
    *,
    depth: int,
    evaluate: EvaluationFn,
    observe: Observer | None = None,
) -> SearchResult:
    """Minimax search from ``state`` with agent 0 to move.

    Args:
        state: The root; agent 0 moves first.
        depth: Plies to search (``>= 1``); one ply is one move by every agent.
        evaluate: Scores a leaf for agent 0.
        observe: Optional callback called with every generated state.

    Returns:
        The root value, the chosen action and the number of generated states.

    Raises:
        ValueError: If ``depth < 1`` or the root is terminal.

    Any game with the `GameStateLike` methods will do; here agent 0 picks a number:

    >>> class Pick:
    ...     num_agents = 1
    ...     def __init__(self, picked=None):
    ...         self.picked = picked
    ...     def legal_actions(self, agent):
    ...         return (3, 5) if self.picked is None else ()
    ...     def successor(self, agent, action):
    ...         return Pick(action)
    ...     def is_terminal(self):
    ...         return self.picked is not None
    >>> minimax(Pick(), depth=1, evaluate=lambda s: s.picked)
    SearchResult(value=5, action=5, generated=2)
    """
    _check(state, depth)
    num_agents = state.num_agents
    generated = 0

    def value(s: Any, agent: int, d: int) -> float:
        nonlocal generated
        if s.is_terminal():
            return evaluate(s)
        nxt = agent + 1
        if nxt == num_agents:
            nxt = 0
            d -= 1
        if agent == 0:
            best = -_INF
            for a in s.legal_actions(0):
                child = s.successor(0, a)
                generated += 1
                if observe is not None:
                    observe(child)
                v = evaluate(child) if (nxt == 0 and d == 0) else value(child, nxt, d)
                if v > best:
                    best = v
            return best
        worst = _INF
        for a in s.legal_actions(agent):
            child = s.successor(agent, a)
            generated += 1
            if observe is not None:
                observe(child)
            v = evaluate(child) if (nxt == 0 and d == 0) else value(child, nxt, d)
            if v < worst:
                worst = v
        return worst

    return _root(state, depth, num_agents, value, evaluate, observe, lambda: generated)


def expectimax(
    state: GameStateLike,
    *,
    depth: int,
    evaluate: EvaluationFn,
    observe: Observer | None = None,
) -> SearchResult:
    """Expectimax search: agent 0 maximises, every other agent moves uniformly at random.

    Args:
        state: The root; agent 0 moves first.
        depth: Plies to search (``>= 1``).
        evaluate: Scores a leaf for agent 0.
        observe: Optional callback called with every generated state.

    Returns:
        The root value, the chosen action and the number of generated states.

    Raises:
        ValueError: If ``depth < 1`` or the root is terminal.
    """
    _check(state, depth)
    num_agents = state.num_agents
    generated = 0

    def value(s: Any, agent: int, d: int) -> float:
        nonlocal generated
        if s.is_terminal():
            return evaluate(s)
        nxt = agent + 1
        if nxt == num_agents:
            nxt = 0
            d -= 1
        actions = s.legal_actions(agent)
        if agent == 0:
            best = -_INF
            for a in actions:
                child = s.successor(0, a)
                generated += 1
                if observe is not None:
                    observe(child)
                v = evaluate(child) if (nxt == 0 and d == 0) else value(child, nxt, d)
                if v > best:
                    best = v
            return best
        total = 0.0
        for a in actions:
            child = s.successor(agent, a)
            generated += 1
            if observe is not None:
                observe(child)
            total += evaluate(child) if (nxt == 0 and d == 0) else value(child, nxt, d)
        return total / len(actions)

    return _root(state, depth, num_agents, value, evaluate, observe, lambda: generated)


def alpha_beta(
    state: GameStateLike,
    *,
    depth: int,
    evaluate: EvaluationFn,
    observe: Observer | None = None,
) -> SearchResult:
    """Minimax with alpha-beta pruning, pruning only on strict inequality.

    Generates exactly the states that the classic autograder expects: a max node stops
    when its value exceeds beta, a min node when its value falls below alpha, and the
    bounds are passed down to every child.

    Args:
        state: The root; agent 0 moves first.
        depth: Plies to search (``>= 1``).
        evaluate: Scores a leaf for agent 0.
        observe: Optional callback called with every generated state.

    Returns:
        The root value, the chosen action and the number of generated states.

    Raises:
        ValueError: If ``depth < 1`` or the root is terminal.
    """
    _check(state, depth)
    num_agents = state.num_agents
    generated = 0

    def value(s: Any, agent: int, d: int, alpha: float, beta: float) -> float:
        nonlocal generated
        if s.is_terminal():
            return evaluate(s)
        nxt = agent + 1
        if nxt == num_agents:
            nxt = 0
            d -= 1
        leaf = nxt == 0 and d == 0
        if agent == 0:
            v = -_INF
            for a in s.legal_actions(0):
                child = s.successor(0, a)
                generated += 1
                if observe is not None:
                    observe(child)
                cv = evaluate(child) if leaf else value(child, nxt, d, alpha, beta)
                if cv > v:
                    v = cv
                if v > beta:  # beta cut-off (strict)
                    return v
                if v > alpha:
                    alpha = v
            return v
        v = _INF
        for a in s.legal_actions(agent):
            child = s.successor(agent, a)
            generated += 1
            if observe is not None:
                observe(child)
            cv = evaluate(child) if leaf else value(child, nxt, d, alpha, beta)
            if cv < v:
                v = cv
            if v < alpha:  # alpha cut-off (strict)
                return v
            if v < beta:
                beta = v
        return v

    # The root is a max node whose alpha rises as its children are searched.
    root_generated = 0
    best_value = -_INF
    best_action: Any = None
    alpha = -_INF
    nxt, d = (0, depth - 1) if num_agents == 1 else (1, depth)
    for a in state.legal_actions(0):
        child = state.successor(0, a)
        root_generated += 1
        if observe is not None:
            observe(child)
        v = evaluate(child) if (nxt == 0 and d == 0) else value(child, nxt, d, alpha, _INF)
        if best_action is None or v > best_value:  # the first action even at -inf
            best_value, best_action = v, a
        if v > alpha:
            alpha = v
    return SearchResult(best_value, best_action, generated + root_generated)


def _root(
    state: GameStateLike,
    depth: int,
    num_agents: int,
    value: Callable[[Any, int, int], float],
    evaluate: EvaluationFn,
    observe: Observer | None,
    count: Callable[[], int],
) -> SearchResult:
    nxt, d = (0, depth - 1) if num_agents == 1 else (1, depth)
    best_value = -_INF
    best_action: Any = None
    root_generated = 0
    for a in state.legal_actions(0):
        child = state.successor(0, a)
        root_generated += 1
        if observe is not None:
            observe(child)
        v = evaluate(child) if (nxt == 0 and d == 0) else value(child, nxt, d)
        if best_action is None or v > best_value:  # the first action even at -inf
            best_value, best_action = v, a
    return SearchResult(best_value, best_action, count() + root_generated)
