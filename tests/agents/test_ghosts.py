"""The built-in ghosts' memo keys: equal keys must mean equal distributions."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest

from agents.ghosts import DirectionalGhost, RandomGhost
from pacman import Direction, GameState, layout_names

SCARED_LAYOUTS = {"capsuleClassic", "contestClassic", "powerClassic", "smallClassic"}
"""Layouts where the random games below eat capsules often."""


def states(layout: str, seed: int, moves: int) -> list[GameState]:
    """States of random games on ``layout`` (Pacman heads for capsules now and then)."""
    rng = random.Random(seed)
    start = GameState.initial(layout)
    s, seen = start, []
    for _ in range(moves):
        if s.is_terminal():
            s = start
        seen.append(s)
        for agent in range(s.num_agents):
            if s.is_terminal():
                break
            s = s.successor(agent, rng.choice(s.legal_actions(agent)))
    return seen


@pytest.mark.parametrize("layout", layout_names())
@pytest.mark.parametrize("cls", [DirectionalGhost, RandomGhost])
def test_states_with_one_memo_key_have_one_distribution(layout: str, cls: type) -> None:
    by_key: dict[Hashable, dict[Direction, float]] = {}
    offsets: set[tuple[float, float]] = set()
    scared_at_half = 0
    for s in states(layout, seed=len(layout), moves=1500):
        for index in range(1, s.num_agents):
            ghost = cls(index, random.Random(0))
            key = ghost.memo_key(s)
            dist = ghost.distribution(s)
            assert by_key.setdefault(key, dist) == dist, (layout, key)
            (x, y), (px, py) = s.agent_position(index), s.pacman_position
            offsets.add((px - x, py - y))
            scared_at_half += s.is_scared(index) and (x % 1 != 0 or y % 1 != 0)
    if cls is DirectionalGhost and layout != "testClassic":
        assert len(by_key) < len(offsets)  # the keys do merge states
    if layout in SCARED_LAYOUTS:  # scared ghosts between two cells are covered too
        assert scared_at_half > 30
