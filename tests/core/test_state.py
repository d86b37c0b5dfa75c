"""Every rule of SPEC §3-4, as tables of micro-layouts and moves with expected outcomes.

Moves are written in turn order (Pacman, ghost 1, ..., ghost k, Pacman, ...) as a
space-separated string of action names; `play` applies them from the start state.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pacman import (
    ACTION_ORDER,
    Direction,
    GameState,
    IllegalActionError,
    Layout,
    TerminalStateError,
    load_layout,
)

W, S, E, N, SO = (
    Direction.WEST,
    Direction.STOP,
    Direction.EAST,
    Direction.NORTH,
    Direction.SOUTH,
)


def play(text: str, moves: str = "", num_ghosts: int | None = None) -> GameState:
    state = GameState.initial(Layout.from_text(text, name="micro"), num_ghosts)
    for i, action in enumerate(moves.split()):
        state = state.successor(i % state.num_agents, action)
    return state


def status(state: GameState) -> str:
    return "win" if state.is_win() else "lose" if state.is_lose() else "playing"


OPEN = """
%%%%%%%%
%      %
% P G  %
%      %
%%%%%%%%
"""
CORRIDOR = """
%%%%%%
%P  G%
%%%%%%
"""
DEAD_END = """
%%%%%%
%P G %
%%%%%%
"""
OPEN_CAPSULE = """
%%%%%%%%
%      %
%Po  G %
%      %
%%%%%%%%
"""
NEXT_TO_GHOST = """
%%%%%%
%P G %
%%%%%%
"""

# --------------------------------------------------------------------------- §3 actions

LEGAL = [
    # (name, layout, moves, agent, expected legal actions)
    ("pacman in the open: all five, in order", OPEN, "", 0, (W, S, E, N, SO)),
    ("pacman against a wall", CORRIDOR, "", 0, (S, E)),
    ("ghost at its start faces Stop: no reverse to remove", OPEN, "", 1, (W, E, N, SO)),
    ("ghost never stops", CORRIDOR, "", 1, (W,)),
    ("ghost may not reverse", OPEN, "Stop East", 1, (E, N, SO)),
    ("ghost may not reverse in a corridor", CORRIDOR, "Stop West", 1, (W,)),
    ("ghost reverses in a dead end", DEAD_END, "Stop East", 1, (W,)),
    ("scared ghost at a grid point", OPEN_CAPSULE, "East West Stop West", 1, (W, N, SO)),
    ("ghost between grid points must continue", OPEN_CAPSULE, "East West", 1, (W,)),
    ("pacman's actions after a move", OPEN, "North", 0, (W, S, E, SO)),
    ("lost: pacman has no actions", NEXT_TO_GHOST, "East West", 0, ()),
    ("lost: ghosts have no actions", NEXT_TO_GHOST, "East West", 1, ()),
]


@pytest.mark.parametrize(
    ("layout", "moves", "agent", "expected"),
    [row[1:] for row in LEGAL],
    ids=[row[0] for row in LEGAL],
)
def test_legal_actions(layout: str, moves: str, agent: int, expected: tuple[Direction]) -> None:
    assert play(layout, moves).legal_actions(agent) == expected


def test_legal_action_order_is_west_stop_east_north_south() -> None:
    assert ACTION_ORDER == (W, S, E, N, SO)
    assert [str(a) for a in ACTION_ORDER] == ["West", "Stop", "East", "North", "South"]


# ------------------------------------------------------------ §4 Pacman: food and time

FOOD_ROW = """
%%%%%%%
%P.. .%
%%%%%%%
"""

PACMAN_MOVES = [
    # (name, moves, position, facing, score, status, food left)
    ("start", "", (1, 1), S, 0, "playing", 3),
    ("food +10, time -1", "East", (2, 1), E, 9, "playing", 2),
    ("stop costs the time penalty", "Stop", (1, 1), S, -1, "playing", 3),
    ("stop keeps the facing", "East Stop", (2, 1), E, 8, "playing", 2),
    ("empty cell: time penalty only", "East East East", (4, 1), E, 17, "playing", 1),
    ("eaten food stays eaten", "East West East", (2, 1), E, 7, "playing", 2),
    ("turning changes the facing", "East West", (1, 1), W, 8, "playing", 2),
    ("last food: +500 and win", "East East East East", (5, 1), E, 526, "win", 0),
]


@pytest.mark.parametrize(
    ("moves", "position", "facing", "score", "state", "food"),
    [row[1:] for row in PACMAN_MOVES],
    ids=[row[0] for row in PACMAN_MOVES],
)
def test_pacman_moves(
    moves: str, position: tuple[int, int], facing: Direction, score: int, state: str, food: int
) -> None:
    s = play(FOOD_ROW, moves)
    assert (s.pacman_position, s.agent_direction(0), s.score, status(s), s.num_food) == (
        position,
        facing,
        score,
        state,
        food,
    )


def test_ghost_moves_cost_nothing() -> None:
    assert play(DEAD_END, "Stop East").score == -1
    assert play(DEAD_END, "Stop East Stop West").score == -2


# ------------------------------------------------- §4 capsules, scared ghosts, the snap

CAPSULE_LANES = """
%%%%%%%%%
%Po   . %
%%%%%%%%%
%1      %
%%%%%%%%%
%2      %
%%%%%%%%%
"""

SCARED = [
    # (name, moves, ghost positions, scared timers, score, capsules left)
    ("start", "", ((1, 3), (1, 1)), (0, 0), 0, 1),
    ("capsule scares every ghost for 40", "East", ((1, 3), (1, 1)), (40, 40), -1, 0),
    ("scared ghost moves half a cell", "East East", ((1.5, 3), (1, 1)), (39, 40), -1, 0),
    (
        "each ghost's own move decrements it",
        "East East East",
        ((1.5, 3), (1.5, 1)),
        (39, 39),
        -1,
        0,
    ),
    (
        "two half steps make a cell",
        "East East East Stop East East",
        ((2, 3), (2, 1)),
        (38, 38),
        -2,
        0,
    ),
    ("not scared: full speed", "Stop East East", ((2, 3), (2, 1)), (0, 0), -1, 1),
]


@pytest.mark.parametrize(
    ("moves", "ghosts", "timers", "score", "capsules"),
    [row[1:] for row in SCARED],
    ids=[row[0] for row in SCARED],
)
def test_capsules_and_scared_ghosts(
    moves: str,
    ghosts: tuple[tuple[float, float], ...],
    timers: tuple[int, ...],
    score: int,
    capsules: int,
) -> None:
    s = play(CAPSULE_LANES, moves)
    assert (s.ghost_positions, s.scared_timers, s.score, len(s.capsules)) == (
        ghosts,
        timers,
        score,
        capsules,
    )
    assert [s.is_scared(i) for i in (1, 2)] == [t > 0 for t in timers]


# Two capsules: the second one resets the timer while the ghost is half-way, so the
# 40th scared move ends between two cells and the ghost snaps to the nearest grid point,
# rounding halves up (east / north), as the classic nearestPoint does.
SNAP_EAST = """
%%%%%%%%%%%%%%%%%%%%%%%%%%%
%Poo                     .%
%%%%%%%%%%%%%%%%%%%%%%%%%%%
%1                        %
%%%%%%%%%%%%%%%%%%%%%%%%%%%
"""
SNAP_WEST = """
%%%%%%%%%%%%%%%%%%%%%%%%%%%
%Poo                     .%
%%%%%%%%%%%%%%%%%%%%%%%%%%%
%                        1%
%%%%%%%%%%%%%%%%%%%%%%%%%%%
"""


def rescared(ghost_move: str, extra: int) -> str:
    """Eat both capsules with the ghost half-way, then ``extra`` more ghost moves."""
    return f"East {ghost_move} East {ghost_move} " + f"Stop {ghost_move} " * extra


SNAP = [
    # (name, layout, moves, ghost position, timer)
    ("second capsule resets the timer half-way", SNAP_EAST, rescared("East", 0), (2, 1), 39),
    ("39th move: timer 1, on a grid point", SNAP_EAST, rescared("East", 38), (21, 1), 1),
    ("40th move ends at 21.5 and snaps east", SNAP_EAST, rescared("East", 39), (22, 1), 0),
    ("after the snap: full speed", SNAP_EAST, rescared("East", 40), (23, 1), 0),
    ("moving west, 4.5 snaps east to 5", SNAP_WEST, rescared("West", 39), (5, 1), 0),
]


@pytest.mark.parametrize(
    ("layout", "moves", "position", "timer"),
    [row[1:] for row in SNAP],
    ids=[row[0] for row in SNAP],
)
def test_scared_timer_runs_out_and_snaps(
    layout: str, moves: str, position: tuple[int, int], timer: int
) -> None:
    s = play(layout, moves)
    assert (s.agent_position(1), s.scared_timer(1)) == (position, timer)


def test_snap_layouts_are_what_the_table_assumes() -> None:
    assert Layout.from_text(SNAP_EAST).ghost_starts == ((1, 1),)
    assert Layout.from_text(SNAP_WEST).ghost_starts == ((25, 1),)


# ------------------------------------------------------------------- §4 collisions

WALK_INTO = """
%%%%%
%PG %
%%%%%
"""
EAT_CORRIDOR = """
%%%%%%%
%Po G %
%%%%%%%
"""
CROSS = """
%%%%%%%
%%%1%%%
%%% %%%
%Po   %
%%% %%%
%%%2%%%
%%%%%%%
"""
RESPAWN_ON_PACMAN = """
%%%%%%%
%Po 1 %
%%%%%%%
%2    %
%%%%%%%
"""
LAST_FOOD = """
%%%%%%
%P..G%
%%%%%%
"""
TWO_KILLERS = """
%%%%%%
%%%2%%
%P  1%
%%%%%%
"""

COLLISIONS = [
    # (name, layout, moves, score, status, ghost positions, ghost facings, timers)
    ("pacman walks into a ghost", WALK_INTO, "East", -501, "lose", ((2, 1),), (S,), (0,)),
    ("distance 1 is no collision", NEXT_TO_GHOST, "East", -1, "playing", ((3, 1),), (S,), (0,)),
    ("a ghost walks into pacman", NEXT_TO_GHOST, "East West", -501, "lose", ((2, 1),), (W,), (0,)),
    (
        "pacman eats a scared ghost half a cell away",
        EAT_CORRIDOR,
        "East West East",
        198,
        "playing",
        ((4, 1),),
        (S,),
        (0,),
    ),
    (
        "pacman eats a scared ghost on its cell",
        EAT_CORRIDOR,
        "East West Stop West East",
        197,
        "playing",
        ((4, 1),),
        (S,),
        (0,),
    ),
    (
        "a scared ghost walks into pacman and is eaten",
        EAT_CORRIDOR,
        "East West Stop West Stop West",
        197,
        "playing",
        ((4, 1),),
        (S,),
        (0,),
    ),
    (
        "after pacman moves, every ghost is checked: two eaten at once",
        CROSS,
        "East South North Stop South North Stop South North East",
        396,
        "playing",
        ((3, 5), (3, 1)),
        (S, S),
        (0, 0),
    ),
    (
        "after ghost 2 moves only ghost 2 is checked: ghost 1 sits on pacman",
        RESPAWN_ON_PACMAN,
        "East East East East East East East West East",
        197,
        "playing",
        ((4, 3), (2.5, 1)),
        (S, E),
        (0, 37),
    ),
    (
        "pacman's next move checks ghost 1 again: lose",
        RESPAWN_ON_PACMAN,
        "East East East East East East East West East Stop",
        -304,
        "lose",
        ((4, 3), (2.5, 1)),
        (S, E),
        (0, 37),
    ),
    (
        "last food on a ghost's cell: win, and the ghost does not kill",
        LAST_FOOD,
        "East West East",
        518,
        "win",
        ((3, 1),),
        (W,),
        (0,),
    ),
    (
        "two ghosts on pacman's cell: -500 each (the classic per-ghost check)",
        TWO_KILLERS,
        "East West South East",
        -1002,
        "lose",
        ((3, 1), (3, 1)),
        (W, SO),
        (0, 0),
    ),
]


@pytest.mark.parametrize(
    ("layout", "moves", "score", "state", "ghosts", "facings", "timers"),
    [row[1:] for row in COLLISIONS],
    ids=[row[0] for row in COLLISIONS],
)
def test_collisions(
    layout: str,
    moves: str,
    score: int,
    state: str,
    ghosts: tuple[tuple[float, float], ...],
    facings: tuple[Direction, ...],
    timers: tuple[int, ...],
) -> None:
    s = play(layout, moves)
    got_facings = tuple(s.agent_direction(i) for i in range(1, s.num_agents))
    assert (s.score, status(s), s.ghost_positions, got_facings, s.scared_timers) == (
        score,
        state,
        ghosts,
        facings,
        timers,
    )


def test_eaten_ghost_respawns_facing_stop_with_start_legal_actions() -> None:
    s = play(EAT_CORRIDOR, "East West East")
    assert s.agent_direction(1) == S
    assert s.legal_actions(1) == play(EAT_CORRIDOR, "East").legal_actions(1) == (W, E)


# ----------------------------------------------------------- terminal states, errors

TERMINAL = [
    ("lose", NEXT_TO_GHOST, "East West"),
    ("win", LAST_FOOD, "East West East"),
    ("win on the last move", FOOD_ROW, "East East East East"),
]


@pytest.mark.parametrize(
    ("layout", "moves"), [r[1:] for r in TERMINAL], ids=[r[0] for r in TERMINAL]
)
def test_terminal_states_have_no_successor(layout: str, moves: str) -> None:
    s = play(layout, moves)
    assert s.is_terminal()
    for agent in range(s.num_agents):
        assert s.legal_actions(agent) == ()
        with pytest.raises(TerminalStateError, match="game is over"):
            s.successor(agent, "Stop")
    with pytest.raises(RuntimeError):  # TerminalStateError is a RuntimeError too
        s.successor(0, "East")


ILLEGAL = [
    # (name, layout, moves, agent, action, expected legal list in the message)
    ("pacman into a wall", CORRIDOR, "", 0, "West", "['Stop', 'East']"),
    ("ghost stops", OPEN, "", 1, "Stop", "['West', 'East', 'North', 'South']"),
    ("ghost reverses", OPEN, "Stop East", 1, "West", "['East', 'North', 'South']"),
    ("ghost turns between grid points", OPEN_CAPSULE, "East West", 1, "North", "['West']"),
    ("not a direction", OPEN, "", 0, "Up", "['West', 'Stop', 'East', 'North', 'South']"),
    ("not even a string", OPEN, "", 0, ["East"], "['West', 'Stop', 'East', 'North', 'South']"),
    ("ghost given nothing", OPEN, "", 1, None, "['West', 'East', 'North', 'South']"),
]


@pytest.mark.parametrize(
    ("layout", "moves", "agent", "action", "legal"),
    [r[1:] for r in ILLEGAL],
    ids=[r[0] for r in ILLEGAL],
)
def test_illegal_action_names_action_agent_and_legal_actions(
    layout: str, moves: str, agent: int, action: object, legal: str
) -> None:
    s = play(layout, moves)
    with pytest.raises(IllegalActionError) as info:
        s.successor(agent, action)
    message = str(info.value)
    assert repr(action) in message
    assert f"agent {agent}" in message
    assert legal in message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("agent", [-1, 2, 5])
def test_unknown_agent(agent: int) -> None:
    s = play(OPEN)
    with pytest.raises(ValueError, match="no agent"):
        s.successor(agent, "West")


# --------------------------------------------------------------- equality and hashing

EQUALITY = [
    # (name, layout, moves a, moves b, equal?)
    (
        "same cell, facing and score by two routes",
        FOOD_ROW.replace(".", " "),
        "East Stop",
        "Stop East",
        True,
    ),
    ("facing differs", FOOD_ROW.replace(".", " "), "East West", "Stop Stop", False),
    ("score differs", FOOD_ROW.replace(".", " "), "East West East", "East", False),
    ("food differs", FOOD_ROW, "East East West", "Stop East Stop", False),
    ("ghost facing differs", OPEN, "Stop North Stop West", "Stop West Stop North", False),
    ("scared timer differs", CAPSULE_LANES, "East East East Stop", "East East East", False),
    ("capsules differ", CAPSULE_LANES, "East", "Stop", False),
]


@pytest.mark.parametrize(
    ("layout", "a", "b", "equal"),
    [r[1:] for r in EQUALITY],
    ids=[r[0] for r in EQUALITY],
)
def test_equality(layout: str, a: str, b: str, equal: bool) -> None:
    sa, sb = play(layout, a), play(layout, b)
    assert (sa == sb) is equal
    assert (sa != sb) is not equal
    if equal:
        assert hash(sa) == hash(sb)
        assert len({sa, sb}) == 1


def test_whose_turn_is_not_part_of_a_state() -> None:
    # A state does not record who moves next: the caller names the agent. So the same
    # state, reached with ghost 1 to move, may as well be asked for Pacman's moves, and
    # its successors equal those of a state reached with Pacman to move.
    ghost_to_move = play(OPEN, "Stop")
    pacman_to_move = play(OPEN.replace("G", " "), "Stop")
    assert ghost_to_move.legal_actions(0) == pacman_to_move.legal_actions(0)
    assert ghost_to_move.successor(0, "East").score == -2
    # In a Pacman-only game every state is Pacman's turn; equal by any route.
    c = play(DEAD_END.replace("G", " "), "East Stop")
    d = play(DEAD_END.replace("G", " "), "Stop East")
    assert c == d
    assert hash(c) == hash(d)


def test_states_of_different_layouts_differ() -> None:
    assert play(OPEN) != play(OPEN.replace("%      %\n%%", "%    % %\n%%"))
    assert play(OPEN) == play(OPEN)
    assert play(OPEN) != "not a state"


# ----------------------------------------------------------------- ghost numbering

NUMBERED = """
%%%%%%%%
%2 G  3%
%1 P  G%
%%%%%%%%
"""

NUMBERING = [
    # (num_ghosts, expected ghost starts)
    (None, ((1, 1), (3, 2), (6, 1), (1, 2), (6, 2))),
    (9, ((1, 1), (3, 2), (6, 1), (1, 2), (6, 2))),
    (2, ((1, 1), (3, 2))),
    (4, ((1, 1), (3, 2), (6, 1), (1, 2))),
    (0, ()),
]


@pytest.mark.parametrize(("num_ghosts", "expected"), NUMBERING)
def test_ghost_numbering_by_key_x_y(
    num_ghosts: int | None, expected: tuple[tuple[int, int], ...]
) -> None:
    # G and 1 share key 1, then 2, 3: sorted by (key, x, y); -k keeps the first N.
    s = play(NUMBERED, num_ghosts=num_ghosts)
    assert s.ghost_positions == expected
    assert s.num_agents == len(expected) + 1
    assert s.pacman_position == (3, 1)


def test_negative_ghost_count() -> None:
    with pytest.raises(ValueError, match="num_ghosts"):
        play(NUMBERED, num_ghosts=-1)


# ---------------------------------------------------------------- properties

PROPERTY_LAYOUTS = ["capsuleClassic", "smallClassic", "trickyClassic", "testClassic"]


def walk(name: str, seed: int, moves: int) -> list[tuple[GameState, int, Direction, GameState]]:
    """A random legal playout: (state, agent, action, successor) for every move."""
    rng = random.Random(seed)
    state = GameState.initial(load_layout(name))
    out = []
    agent = 0
    for _ in range(moves):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions(agent))
        nxt = state.successor(agent, action)
        out.append((state, agent, action, nxt))
        state, agent = nxt, (agent + 1) % state.num_agents
    return out


def snapshot(s: GameState) -> tuple[object, ...]:
    agents = range(s.num_agents)
    return (
        tuple(s.agent_position(i) for i in agents),
        tuple(s.agent_direction(i) for i in agents),
        tuple(s.scared_timer(i) for i in agents),
        s.food_bitmask,
        s.capsules,
        s.score,
        s.is_win(),
        s.is_lose(),
    )


def expected_delta(before: GameState, agent: int, after: GameState) -> int:
    """The score change SPEC §4 allows for one move, from what visibly happened."""
    if agent == 0:
        capsule = len(after.capsules) < len(before.capsules)
        eaten = sum(
            1
            for i in range(1, before.num_agents)
            if (before.scared_timer(i) > 0 or capsule) and after.scared_timer(i) == 0
        )
        pac = after.pacman_position
        kills = sum(
            1
            for i in range(1, after.num_agents)
            if after.scared_timer(i) == 0
            and not (before.scared_timer(i) > 0 or capsule)
            and abs(after.agent_position(i)[0] - pac[0]) + abs(after.agent_position(i)[1] - pac[1])
            <= 0.7
        )
        food = 10 * (before.num_food - after.num_food)
        return -1 + food + 500 * after.is_win() + 200 * eaten - 500 * kills * (not after.is_win())
    eaten = before.scared_timer(agent) > 1 and after.scared_timer(agent) == 0
    return 200 * eaten - 500 * after.is_lose()


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(PROPERTY_LAYOUTS), seed=st.integers(0, 2**32 - 1))
def test_random_playouts_follow_the_rules(name: str, seed: int) -> None:
    for state, agent, action, nxt in walk(name, seed, 400):
        # Never mutates its input, even via a second call.
        frozen = snapshot(state)
        again = state.successor(agent, action)
        assert snapshot(state) == frozen
        # Deterministic and value-typed: equal results, equal hashes.
        assert again == nxt
        assert hash(again) == hash(nxt)
        # Legal actions come in the classic order.
        legal = state.legal_actions(agent)
        assert list(legal) == [a for a in ACTION_ORDER if a in legal]
        assert nxt.score - state.score == expected_delta(state, agent, nxt)
        assert nxt.is_win() + nxt.is_lose() <= 1


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(PROPERTY_LAYOUTS), seed=st.integers(0, 2**32 - 1))
def test_pickling_round_trips(name: str, seed: int) -> None:
    for state, agent, _, nxt in walk(name, seed, 120)[::7]:
        copy = pickle.loads(pickle.dumps(state))
        assert copy == state
        assert hash(copy) == hash(state)
        assert snapshot(copy) == snapshot(state)
        assert copy.legal_actions(agent) == state.legal_actions(agent)
        for action in state.legal_actions(agent):
            assert copy.successor(agent, action) == state.successor(agent, action)
        assert pickle.loads(pickle.dumps(nxt)) == nxt


class _Tagged(GameState):
    __slots__ = ("tag",)


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(PROPERTY_LAYOUTS), seed=st.integers(0, 2**32 - 1))
def test_wire_fields_round_trip_as_plain_values(name: str, seed: int) -> None:
    for state, agent, _, _ in walk(name, seed, 120)[::7]:
        fields = state.wire_fields()
        assert _plain(fields)
        copy = GameState.from_wire(state.layout, fields)
        assert (copy, hash(copy), snapshot(copy)) == (state, hash(state), snapshot(state))
        assert copy.legal_actions(agent) == state.legal_actions(agent)
        tagged = _Tagged.from_wire(state.layout, fields)  # a subclass gets its own type
        assert type(tagged) is _Tagged
        assert tagged == state


def _plain(value: object) -> bool:
    if isinstance(value, tuple):
        return all(_plain(v) for v in value)
    return type(value) in (int, str)


@settings(max_examples=30, deadline=None)
@given(seeds=st.lists(st.integers(0, 10**6), min_size=2, max_size=6))
def test_eq_and_hash_are_consistent(seeds: list[int]) -> None:
    states = [s for seed in seeds for s, *_ in walk("trappedClassic", seed, 12)]
    for a in states:
        for b in states:
            if a == b:
                assert hash(a) == hash(b)
                assert snapshot(a)[:6] == snapshot(b)[:6]
            else:
                assert snapshot(a)[:6] != snapshot(b)[:6]


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(PROPERTY_LAYOUTS), seed=st.integers(0, 2**32 - 1))
def test_points_are_the_agents_positions_in_navigation_terms(name: str, seed: int) -> None:
    for state, _, _, _ in walk(name, seed, 300):
        nav = state.layout.nav
        assert len(state.points) == state.num_agents
        for i, p in enumerate(state.points):
            assert nav.xy[p] == state.agent_position(i)
            assert nav.point(state.agent_position(i)) == p
