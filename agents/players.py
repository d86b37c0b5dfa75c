"""Ready-made agents: the reference search agents, simple Pacman agents and the ghosts."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

from agents.evaluation import reflex_evaluation, score_evaluation
from agents.ghosts import (
    DirectionalGhost,
    RandomAgent,
    RandomGhost,
    SamplingTable,
    classic_table,
    sample_classic,
    sample_table,
)
from agents.search import SearchResult, alpha_beta, expectimax, minimax
from pacman.core.state import GameState
from pacman.core.types import Direction

__all__ = [
    "AlphaBetaAgent",
    "DirectionalGhost",
    "ExpectimaxAgent",
    "GreedyAgent",
    "MinimaxAgent",
    "RandomAgent",
    "RandomGhost",
    "ReflexAgent",
    "SamplingTable",
    "SearchAgent",
    "classic_table",
    "sample_classic",
    "sample_table",
]


class SearchAgent:
    """Base of the depth-limited search agents: Pacman (index 0) searching ``depth`` plies.

    Args:
        depth: Plies to search; one ply is one move by every agent.
        evaluate: Evaluation function for the leaves (value for Pacman).
    """

    search: ClassVar[Callable[..., SearchResult]]

    def __init__(self, depth: int = 2, evaluate: Callable[[Any], float] = score_evaluation) -> None:
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise ValueError(f"depth must be an int >= 1, got {depth!r}")
        self.index = 0
        self.depth = depth
        self.evaluate = evaluate
        self.last_result: SearchResult | None = None
        """The result of the last search: value, action and states generated."""
        self.observe: Callable[[Any], None] | None = None
        """Called with every state the search generates (the window's search overlay)."""

    def get_action(self, state: GameState) -> Direction:
        """Search from ``state`` and return the best action for Pacman."""
        result = type(self).search(
            state, depth=self.depth, evaluate=self.evaluate, observe=self.observe
        )
        self.last_result = result
        return result.action  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        name = getattr(self.evaluate, "__name__", repr(self.evaluate))
        return f"{type(self).__name__}(depth={self.depth}, evaluate={name})"


class MinimaxAgent(SearchAgent):
    """Minimax: every ghost is assumed to play its worst move for Pacman."""

    search = staticmethod(minimax)


class AlphaBetaAgent(SearchAgent):
    """Minimax with alpha-beta pruning (strict inequality); same moves, fewer states."""

    search = staticmethod(alpha_beta)


class ExpectimaxAgent(SearchAgent):
    """Expectimax: every ghost is assumed to move uniformly at random."""

    search = staticmethod(expectimax)


class ReflexAgent:
    """Looks one move ahead and takes the best-scoring successor (random among ties).

    Args:
        evaluate: Scores a successor state for Pacman.
        rng: Generator for tie-breaking.
    """

    def __init__(
        self,
        evaluate: Callable[[Any], float] = reflex_evaluation,
        rng: random.Random | None = None,
    ) -> None:
        self.index = 0
        self.evaluate = evaluate
        self.rng = rng if rng is not None else random.Random(0)

    def get_action(self, state: GameState) -> Direction:
        """Return the legal action whose successor evaluates best."""
        legal: tuple[Direction, ...] = state.legal_actions(0)
        actions: list[Direction] = [a for a in legal if a is not Direction.STOP]
        actions = actions or list(legal)
        scores = [self.evaluate(state.successor(0, a)) for a in actions]
        best = max(scores)
        return self.rng.choice([a for a, s in zip(actions, scores, strict=True) if s == best])


class GreedyAgent(ReflexAgent):
    """Takes the successor with the best score, never stopping (random among ties)."""

    def __init__(
        self,
        evaluate: Callable[[Any], float] = score_evaluation,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(evaluate, rng)
