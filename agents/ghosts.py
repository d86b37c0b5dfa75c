"""The ghosts of the game (SPEC section 5) and a random Pacman: agents with no search.

Kept apart from the reference search agents (`agents.players`) so that what students are
handed (`autograder handout`) can play games without any of the answers.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Hashable, Sequence
from typing import Protocol, TypeAlias

from pacman.core.state import GameState
from pacman.core.types import Direction

__all__ = [
    "DirectionalGhost",
    "RandomAgent",
    "RandomGhost",
    "SamplingTable",
    "classic_table",
    "sample_classic",
    "sample_table",
]


class _Random(Protocol):
    def random(self) -> float: ...


class RandomAgent:
    """Pacman (or any agent) taking a uniformly random legal action.

    Args:
        index: The agent index it plays.
        rng: Its random generator.
    """

    def __init__(self, index: int = 0, rng: random.Random | None = None) -> None:
        self.index = index
        self.rng = rng if rng is not None else random.Random(0)

    def get_action(self, state: GameState) -> Direction:
        """Return a uniformly random legal action."""
        return self.rng.choice(state.legal_actions(self.index))


def sample_classic(distribution: dict[Direction, float], rng: _Random) -> Direction:
    """Draw from an action distribution the way the classic ghosts do (SPEC §5).

    The (action name, probability) pairs are sorted by name and normalised, one number is
    drawn with ``rng.random()``, and the first action whose cumulative probability
    reaches it is returned. Passing Python's seeded ``random`` module as ``rng``
    reproduces classic seeded games.

    >>> class Fixed:
    ...     def random(self) -> float:
    ...         return 0.5
    >>> sample_classic({Direction.WEST: 0.5, Direction.EAST: 0.5}, Fixed())
    <Direction.EAST: 'East'>
    """
    return sample_table(classic_table(distribution), rng)


SamplingTable: TypeAlias = tuple[tuple[Direction, ...], tuple[float, ...]]
"""Actions sorted by name and their cumulative probabilities, ready for `sample_table`."""


def classic_table(distribution: dict[Direction, float]) -> SamplingTable:
    """Precompute the classic draw from ``distribution``, for sampling it many times.

    The cumulative sums are added up in the same order as the classic sampler does, so
    the same draw picks the same action (to the last bit).
    """
    items = sorted(distribution.items())
    probs = [p for _, p in items]
    total = sum(probs)
    if total != 1:
        probs = [p / total for p in probs]
    cumulative = []
    running = 0.0
    for i, p in enumerate(probs):
        running = p if i == 0 else running + p
        cumulative.append(running)
    return tuple(a for a, _ in items), tuple(cumulative)


def sample_table(table: SamplingTable, rng: _Random) -> Direction:
    """Draw once from a `classic_table`: the first action whose cumulative sum reaches it."""
    actions, cumulative = table
    i = bisect_left(cumulative, rng.random())
    return actions[min(i, len(actions) - 1)]


def _normalised(dist: dict[Direction, float]) -> dict[Direction, float]:
    total = float(sum(dist.values()))
    if total == 0:
        return dist
    return {a: p / total for a, p in dist.items()}


class _Ghost:
    def __init__(self, index: int = 1, rng: _Random | None = None) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or index < 1:
            raise ValueError(f"a ghost's index must be an int >= 1, got {index!r}")
        self.index = index
        self.rng: _Random = rng if rng is not None else random.Random(0)

    def distribution(self, state: GameState) -> dict[Direction, float]:
        raise NotImplementedError

    def memo_key(self, state: GameState) -> Hashable:
        """The features of ``state`` that `distribution` depends on, and nothing else.

        Two states with the same key get the same distribution, so a caller may compute
        it once per key (the Gymnasium env does) and sample it with this ghost's own
        generator: the actions are the same as `get_action`'s.
        """
        raise NotImplementedError

    def get_action(self, state: GameState) -> Direction:
        """Sample an action from this ghost's distribution."""
        dist = self.distribution(state)
        if not dist:
            return Direction.STOP
        return sample_classic(dist, self.rng)


class RandomGhost(_Ghost):
    """A ghost moving uniformly at random among its legal actions.

    Args:
        index: Ghost index (1 .. number of ghosts).
        rng: Its random generator (anything with ``random()``).
    """

    def distribution(self, state: GameState) -> dict[Direction, float]:
        """Uniform probabilities over the legal actions."""
        return _normalised({a: 1.0 for a in state.legal_actions(self.index)})

    def memo_key(self, state: GameState) -> Hashable:
        """The legal actions: all that a uniform choice reads."""
        return state.legal_actions(self.index)


class DirectionalGhost(_Ghost):
    """A ghost that mostly closes in on Pacman, or flees while scared (SPEC §5).

    The legal actions that bring it nearest to Pacman by Manhattan distance (farthest,
    when scared) share ``prob_attack`` (``prob_flee``); every legal action also gets an
    equal share of the rest.

    Args:
        index: Ghost index (1 .. number of ghosts).
        rng: Its random generator (anything with ``random()``).
        prob_attack: Probability mass on the best chasing moves.
        prob_flee: Probability mass on the best fleeing moves while scared.
    """

    def __init__(
        self,
        index: int = 1,
        rng: _Random | None = None,
        prob_attack: float = 0.8,
        prob_flee: float = 0.8,
    ) -> None:
        super().__init__(index, rng)
        self.prob_attack = prob_attack
        self.prob_flee = prob_flee

    def memo_key(self, state: GameState) -> Hashable:
        """The legal actions, whether it is scared, and the offset to Pacman, clipped to 1.

        `distribution` only compares the distances to Pacman after each legal move, and
        every move changes one coordinate by 1 (0.5 when scared). Moving toward Pacman
        along an axis on which he is 1 or more away gains exactly one step (half a step),
        wherever he is; so each offset counts only up to 1 each way, and two states that
        agree on the clipped offsets have the same distribution. Clipping keeps the keys
        few (a few hundred on any board), so they are all computed early in a run.
        """
        x, y = state.agent_position(self.index)
        px, py = state.pacman_position
        dx = px - x
        dy = py - y
        return (
            state.legal_actions(self.index),
            state.scared_timer(self.index) > 0,
            dx if -1 <= dx <= 1 else (1 if dx > 0 else -1),
            dy if -1 <= dy <= 1 else (1 if dy > 0 else -1),
        )

    def distribution(self, state: GameState) -> dict[Direction, float]:
        """The classic directional distribution over the legal actions."""
        legal: Sequence[Direction] = state.legal_actions(self.index)
        if not legal:
            return {}
        x, y = state.agent_position(self.index)
        scared = state.scared_timer(self.index) > 0
        speed = 0.5 if scared else 1.0
        px, py = state.pacman_position
        distances = []
        for a in legal:
            dx, dy = a.vector
            distances.append(abs(x + dx * speed - px) + abs(y + dy * speed - py))
        if scared:
            best_score, best_prob = max(distances), self.prob_flee
        else:
            best_score, best_prob = min(distances), self.prob_attack
        best = [a for a, d in zip(legal, distances, strict=True) if d == best_score]
        dist: dict[Direction, float] = {}
        for a in best:
            dist[a] = best_prob / len(best)
        for a in legal:
            dist[a] = dist.get(a, 0) + (1 - best_prob) / len(legal)
        return _normalised(dist)
