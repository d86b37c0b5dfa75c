from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents import (
    AlphaBetaAgent,
    DirectionalGhost,
    ExpectimaxAgent,
    GreedyAgent,
    MinimaxAgent,
    RandomAgent,
    RandomGhost,
    ReflexAgent,
    better_evaluation,
    score_evaluation,
)
from agents.players import sample_classic
from agents.search import alpha_beta, minimax
from pacman import ACTION_ORDER, Direction, GameState, Layout
from pacman.core.game import run_game


def walk(layout: str, moves: int, seed: int) -> GameState:
    rng = random.Random(seed)
    s = GameState.initial(layout)
    agent = 0
    for _ in range(moves):
        if s.is_terminal():
            break
        s = s.successor(agent, rng.choice(s.legal_actions(agent)))
        agent = (agent + 1) % s.num_agents
    return s if agent == 0 and not s.is_terminal() else GameState.initial(layout)


@pytest.mark.parametrize("layout", ["smallClassic", "minimaxClassic", "trappedClassic"])
@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_alpha_beta_agrees_with_minimax_on_real_states(layout: str, depth: int, seed: int) -> None:
    state = walk(layout, 3 * seed * GameState.initial(layout).num_agents, seed)
    mm = minimax(state, depth=depth, evaluate=score_evaluation)
    ab = alpha_beta(state, depth=depth, evaluate=score_evaluation)
    assert (ab.action, ab.value) == (mm.action, mm.value)
    assert ab.generated <= mm.generated


def test_minimax_classic_values() -> None:
    # Well-known minimaxClassic start values at depths 1-3 (the classic project's test).
    state = GameState.initial("minimaxClassic")
    values = [minimax(state, depth=d, evaluate=score_evaluation).value for d in (1, 2, 3, 4)]
    assert values == [9, 8, 7, -492]


def test_search_agents_expose_last_result() -> None:
    state = GameState.initial("smallClassic")
    for cls in (MinimaxAgent, AlphaBetaAgent, ExpectimaxAgent):
        agent = cls(depth=1)
        action = agent.get_action(state)
        assert action in state.legal_actions(0)
        assert agent.last_result is not None
        assert agent.last_result.generated > 0
    with pytest.raises(ValueError, match="depth"):
        MinimaxAgent(depth=0)


def test_directional_ghost_distribution_is_classic() -> None:
    lay = Layout.from_text("%%%%%%%\n%P   G%\n% %%% %\n%     %\n%%%%%%%")
    state = GameState.initial(lay)
    ghost = DirectionalGhost(1, random.Random(0))
    dist = ghost.distribution(state)
    # Legal: West (towards Pacman) and South. West gets 0.8 + 0.1, South 0.1.
    assert set(dist) == {Direction.WEST, Direction.SOUTH}
    assert dist[Direction.WEST] == pytest.approx(0.9)
    assert dist[Direction.SOUTH] == pytest.approx(0.1)
    assert sum(dist.values()) == pytest.approx(1)


def test_scared_directional_ghost_flees() -> None:
    lay = Layout.from_text("%%%%%%%\n%Po  G%\n% %%% %\n%     %\n%%%%%%%")
    state = GameState.initial(lay).successor(0, "East")  # eats the capsule
    dist = DirectionalGhost(1).distribution(state)
    assert dist[Direction.SOUTH] > dist[Direction.WEST]


def test_sample_classic_matches_classic_sampling() -> None:
    dist = {Direction.WEST: 0.25, Direction.EAST: 0.25, Direction.NORTH: 0.5}

    class Fixed:
        def __init__(self, x: float) -> None:
            self.x = x

        def random(self) -> float:
            return self.x

    # Sorted by name: East (0.25], North (0.25, 0.75], West (0.75, 1].
    assert sample_classic(dist, Fixed(0.1)) == Direction.EAST
    assert sample_classic(dist, Fixed(0.25)) == Direction.EAST
    assert sample_classic(dist, Fixed(0.5)) == Direction.NORTH
    assert sample_classic(dist, Fixed(0.99)) == Direction.WEST


def test_random_agents_are_seeded() -> None:
    state = GameState.initial("mediumClassic")
    a = [RandomGhost(1, random.Random(5)).get_action(state) for _ in range(1)]
    b = [RandomGhost(1, random.Random(5)).get_action(state) for _ in range(1)]
    assert a == b
    picks = {RandomAgent(0, random.Random(i)).get_action(state) for i in range(30)}
    assert picks == set(state.legal_actions(0))
    with pytest.raises(ValueError, match="index"):
        RandomGhost(0)


@pytest.mark.parametrize("cls", [ReflexAgent, GreedyAgent])
def test_one_step_agents_never_stop_when_they_can_move(cls: type) -> None:
    state = GameState.initial("mediumClassic")
    agent = cls(rng=random.Random(0))
    assert agent.get_action(state) is not Direction.STOP


def test_better_evaluation_wins_against_random_ghosts() -> None:
    wins = 0
    for seed in range(4):
        start = GameState.initial("smallClassic")
        agents = [ExpectimaxAgent(2, better_evaluation)]
        agents += [RandomGhost(i, random.Random(seed * 10 + i)) for i in (1, 2)]
        wins += run_game(start, agents).is_win
    assert wins >= 3


def _classic_walk(distribution: dict[Direction, float], draw: float) -> Direction:
    # The classic sampler, step by step (SPEC §5), as the reference for the table version.
    items = sorted(distribution.items())
    probs = [p for _, p in items]
    total = sum(probs)
    if total != 1:
        probs = [p / total for p in probs]
    i, cumulative = 0, probs[0]
    while draw > cumulative and i + 1 < len(probs):
        i += 1
        cumulative += probs[i]
    return items[i][0]


@given(
    weights=st.lists(
        st.one_of(st.just(0.0), st.floats(min_value=1e-6, max_value=10.0)), min_size=1, max_size=5
    ),
    draw=st.one_of(st.floats(min_value=0.0, max_value=1.0), st.sampled_from([0.0, 0.5, 1.0])),
)
def test_table_sampling_picks_what_the_classic_walk_picks(
    weights: list[float], draw: float
) -> None:
    from agents.players import classic_table, sample_table

    if sum(weights) == 0:
        weights[0] = 1.0
    distribution = dict(zip(ACTION_ORDER, weights, strict=False))

    class Fixed:
        def random(self) -> float:
            return draw

    assert sample_table(classic_table(distribution), Fixed()) == _classic_walk(distribution, draw)
