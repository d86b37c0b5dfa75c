"""The base class students' search agents subclass (imported by the starter file).

`MultiAgentSearchAgent` holds what every search agent needs: its index (0, Pacman), the
search depth and the evaluation function. It takes them the way the ``pacman`` command
passes them (``-a depth=3,evalFn=better``, all strings) and the way Python callers do
(``MinimaxAgent(depth=3, evaluate=my_function)``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

__all__ = [
    "BUILT_IN_EVALUATIONS",
    "MultiAgentSearchAgent",
    "resolve_evaluation",
    "score_evaluation",
]


def score_evaluation(state: Any) -> float:
    """The state's score, as a float: the default evaluation function (classic ``getScore``).

    Defined here rather than imported: this module runs in the grader's worker, next to
    the student's code, where none of our other evaluation functions (which would answer
    q5) may be.
    """
    return float(state.score)


BUILT_IN_EVALUATIONS: dict[str, Callable[[Any], float]] = {
    "score": score_evaluation,
    "scoreEvaluationFunction": score_evaluation,
}
"""The evaluation functions a name may mean besides the student's own."""


def resolve_evaluation(spec: Callable[[Any], float] | str, module: str | None = None) -> Any:
    """The evaluation function named by ``spec``, preferring the student's own.

    A name is looked up first in ``module`` (the student's file), as ``spec`` itself and
    as ``f"{spec}_evaluation"``, so ``evalFn=better`` means the student's
    ``better_evaluation``; then among `BUILT_IN_EVALUATIONS` (``score``).

    >>> resolve_evaluation("score").__name__
    'score_evaluation'

    Raises:
        ValueError: If the name is unknown.
    """
    if callable(spec):
        return spec
    mod = sys.modules.get(module) if module else None
    if mod is not None:
        for name in (spec, f"{spec}_evaluation"):
            found = getattr(mod, name, None)
            if callable(found) and not isinstance(found, type):
                return found
    if spec in BUILT_IN_EVALUATIONS:
        return BUILT_IN_EVALUATIONS[spec]
    where = "in your file or " if mod is not None else ""
    raise ValueError(
        f"unknown evaluation function {spec!r}: define {spec} or {spec}_evaluation {where}"
        f"use one of {', '.join(BUILT_IN_EVALUATIONS)}"
    )


class MultiAgentSearchAgent:
    """Base class of the student's minimax, alpha-beta and expectimax agents.

    Subclasses implement ``get_action(state)``, searching ``self.depth`` plies and
    scoring leaves with ``self.evaluate(state)``.

    Args:
        depth: Plies to search (an int, or its text from the command line).
        evaluate: Evaluation function, or the name of one (``"score"``, ``"better"``);
            a name is looked up in the subclass's own module first.
        evalFn: Same as ``evaluate``, under the name the ``pacman -a`` option uses.

    Raises:
        ValueError: If ``depth`` is not a positive int or the evaluation name is unknown.

    >>> agent = MultiAgentSearchAgent(depth="3", evalFn="score")
    >>> agent.index, agent.depth, agent.evaluate.__name__
    (0, 3, 'score_evaluation')
    """

    def __init__(
        self,
        depth: int | str = 2,
        evaluate: Callable[[Any], float] | str = score_evaluation,
        evalFn: Callable[[Any], float] | str | None = None,  # the name `pacman -a` uses
    ) -> None:
        try:
            value = int(depth)
        except (TypeError, ValueError):
            raise ValueError(f"depth must be a positive int, got {depth!r}") from None
        if isinstance(depth, bool | float) or value < 1:
            raise ValueError(f"depth must be a positive int, got {depth!r}")
        self.index = 0
        """The agent index: Pacman is 0."""
        self.depth = value
        """Plies to search: one ply is one move by Pacman and then by every ghost."""
        chosen = evaluate if evalFn is None else evalFn
        self.evaluate: Callable[[Any], float] = resolve_evaluation(chosen, type(self).__module__)
        """Scores a state for Pacman: ``self.evaluate(state) -> float``."""

    def get_action(self, state: Any) -> str:
        """Return the action to play in ``state`` (subclasses implement it).

        Raises:
            NotImplementedError: Always, in this base class.
        """
        raise NotImplementedError(f"{type(self).__name__}.get_action is not written yet")

    def __repr__(self) -> str:
        name = getattr(self.evaluate, "__name__", repr(self.evaluate))
        return f"{type(self).__name__}(depth={self.depth}, evaluate={name})"
