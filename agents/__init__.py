"""Agents: the search algorithms, the reference players and the evaluation functions.

Agents program against `agents.protocol.GameStateLike`, so the search functions run on
the Pacman engine and on the autograder's explicit game trees alike.
"""

from __future__ import annotations

from agents.evaluation import (
    better_evaluation,
    get_evaluation,
    reflex_evaluation,
    score_evaluation,
)
from agents.players import (
    AlphaBetaAgent,
    DirectionalGhost,
    ExpectimaxAgent,
    GreedyAgent,
    MinimaxAgent,
    RandomAgent,
    RandomGhost,
    ReflexAgent,
    SearchAgent,
)
from agents.protocol import Agent, EvaluationFn, GameStateLike
from agents.search import SearchResult, alpha_beta, expectimax, minimax

__all__ = [
    "Agent",
    "AlphaBetaAgent",
    "DirectionalGhost",
    "EvaluationFn",
    "ExpectimaxAgent",
    "GameStateLike",
    "GreedyAgent",
    "MinimaxAgent",
    "RandomAgent",
    "RandomGhost",
    "ReflexAgent",
    "SearchAgent",
    "SearchResult",
    "alpha_beta",
    "better_evaluation",
    "expectimax",
    "get_evaluation",
    "minimax",
    "reflex_evaluation",
    "score_evaluation",
]
