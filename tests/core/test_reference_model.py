"""Whole games cross-checked state by state against the naive reference rules.

Random legal actions (seeded) drive the engine and `naive_rules` side by side; after
every move the two must agree on positions, facings, scared timers, food, capsules,
score, win/lose and the next agent's legal actions. The capsule layouts make ghosts get
scared, move at half speed, snap back to the grid and get eaten.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman import GameState, Layout, load_layout
from tests.core import naive_rules
from tests.core.gen_perft import MICRO


def engine_key(s: GameState) -> tuple[Any, ...]:
    """The engine state in the reference model's terms (`naive_rules.State.key`)."""
    agents = tuple(
        (
            (float(s.agent_position(i)[0]), float(s.agent_position(i)[1])),
            s.agent_direction(i).value,
            s.scared_timer(i),
        )
        for i in range(s.num_agents)
    )
    return (agents, frozenset(s.food_positions()), frozenset(s.capsules), s.score)


def play_both(layout: Layout, seed: int, events: Counter[str], max_moves: int = 2000) -> None:
    rng = random.Random(seed)
    engine = GameState.initial(layout)
    model = naive_rules.parse(layout.to_text())
    assert engine_key(engine) == model.key()
    agent = 0
    for move in range(max_moves):
        legal = [a.value for a in engine.legal_actions(agent)]
        assert legal == naive_rules.legal_actions(model, agent), (seed, move)
        if not legal:
            break
        action = rng.choice(legal)
        before = model
        engine = engine.successor(agent, action)
        model = naive_rules.successor(model, agent, action)
        assert engine_key(engine) == model.key(), (layout.name, seed, move, agent, action)
        assert (engine.is_win(), engine.is_lose()) == (model.win, model.lose)
        delta = model.score - before.score
        if agent:
            x, y = model.agents[agent].pos
            events["half step"] += x != int(x) or y != int(y)
            events["snap"] += before.agents[agent].timer == 1
            events["ghost eaten"] += delta == 200
        else:
            events["capsule"] += len(model.capsules) < len(before.capsules)
            events["ghost eaten"] += delta in (199, 209)
            px, py = model.agents[0].pos
            on_ghost = any(
                abs(g.pos[0] - px) + abs(g.pos[1] - py) <= 0.7 and g.timer == 0
                for g in model.agents[1:]
            )
            events["win on a ghost"] += model.win and on_ghost
        events["win"] += model.win
        events["lose"] += model.lose
        agent = (agent + 1) % engine.num_agents


LAYOUTS = ["capsuleClassic", "powerClassic", "mediumClassic", "trickyClassic", "contestClassic"]


@pytest.mark.parametrize("name", LAYOUTS)
def test_seeded_games_match_reference(name: str) -> None:
    events: Counter[str] = Counter()
    for seed in range(6):
        play_both(load_layout(name), seed, events)
    assert events["lose"] + events["win"] > 0


def test_games_reach_every_event() -> None:
    events: Counter[str] = Counter()
    for name, text in MICRO.items():
        for seed in range(40):
            play_both(Layout.from_text(text, name=name), seed, events)
    for seed in range(10):  # long enough games for a scared timer to run out
        play_both(load_layout("capsuleClassic"), 100 + seed, events)
    # The comparison above is only as good as the situations it met: make sure the
    # rare rules were exercised, not just the common path.
    for event in ("capsule", "half step", "snap", "ghost eaten", "win", "win on a ghost", "lose"):
        assert events[event] > 0, (event, events)


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from([*MICRO, "testClassic", "trappedClassic", "minimaxClassic"]),
    seed=st.integers(0, 2**32 - 1),
    num_ghosts=st.integers(0, 4),
)
def test_random_games_match_reference(name: str, seed: int, num_ghosts: int) -> None:
    layout = Layout.from_text(MICRO[name], name=name) if name in MICRO else load_layout(name)
    rng = random.Random(seed)
    engine = GameState.initial(layout, num_ghosts)
    model = naive_rules.parse(layout.to_text(), num_ghosts)
    assert engine_key(engine) == model.key()
    agent = 0
    while not model.win and not model.lose and model.score > -300:
        action = rng.choice(naive_rules.legal_actions(model, agent))
        engine = engine.successor(agent, action)
        model = naive_rules.successor(model, agent, action)
        assert engine_key(engine) == model.key()
        assert (engine.is_win(), engine.is_lose()) == (model.win, model.lose)
        agent = (agent + 1) % engine.num_agents
