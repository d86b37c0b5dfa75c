from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.search import SearchResult, alpha_beta, expectimax, minimax
from autograder.tree import TreeGame

Search = Callable[..., SearchResult]


def run(search: Search, game: TreeGame, depth: int) -> tuple[Any, float, set[str]]:
    seen = {game.start}
    result = search(
        game.root, depth=depth, evaluate=game.evaluate, observe=lambda s: seen.add(s.name)
    )
    assert result.generated == len(seen) - 1  # a tree reaches each node once
    return result.action, result.value, seen


def lecture_tree(h: float = 2) -> TreeGame:
    # The textbook two-level tree: max root over three min nodes.
    edges = [
        ("A", "a1", "B"), ("A", "a2", "C"), ("A", "a3", "D"),
        ("B", "b1", "E"), ("B", "b2", "F"), ("B", "b3", "G"),
        ("C", "c1", "H"), ("C", "c2", "I"), ("C", "c3", "J"),
        ("D", "d1", "K"), ("D", "d2", "L"), ("D", "d3", "M"),
    ]  # fmt: skip
    values = {"E": 3, "F": 12, "G": 8, "H": h, "I": 4, "J": 6, "K": 14, "L": 5, "M": 2}
    return TreeGame.from_edges("A", edges, values, num_agents=2)


ALL = set("ABCDEFGHIJKLM")

CASES = [
    # (search, tree kwargs, depth, action, value, generated)
    (minimax, {}, 1, "a1", 3, ALL),
    (alpha_beta, {}, 1, "a1", 3, ALL - {"I", "J"}),
    (expectimax, {}, 1, "a1", 23 / 3, ALL),
    # Equality at the pruning bound: H == alpha does not prune (strict inequality).
    (alpha_beta, {"h": 3}, 1, "a1", 3, ALL),
    # Ties at the root go to the first best action in legal order.
    (minimax, {"h": 3}, 1, "a1", 3, ALL),
]


@pytest.mark.parametrize(("search", "kwargs", "depth", "action", "value", "generated"), CASES)
def test_lecture_tree(
    search: Search,
    kwargs: dict[str, float],
    depth: int,
    action: str,
    value: float,
    generated: set[str],
) -> None:
    got_action, got_value, seen = run(search, lecture_tree(**kwargs), depth)
    assert got_action == action
    assert got_value == pytest.approx(value)
    assert seen == generated


def test_terminal_state_above_depth_limit_is_evaluated_not_expanded() -> None:
    edges = [
        ("A", "x", "B"), ("A", "y", "C"),
        ("B", "q", "G"),  # B is lost: G must never be generated
        ("C", "z", "D"), ("D", "w", "E"), ("E", "v", "F"),
    ]  # fmt: skip
    game = TreeGame.from_edges(
        "A", edges, {"B": -100, "F": 5, "G": 1000}, num_agents=2, lose_states=["B"]
    )
    for search in (minimax, alpha_beta, expectimax):
        action, value, seen = run(search, game, 2)
        assert (action, value) == ("y", 5)
        assert seen == set("ABCDEF")


def three_agent_tree() -> TreeGame:
    edges = [
        ("A", "l", "B"), ("A", "r", "C"),
        ("B", "l", "D"), ("B", "r", "E"), ("C", "l", "F"), ("C", "r", "G"),
        ("D", "l", "H"), ("D", "r", "I"), ("E", "l", "J"), ("E", "r", "K"),
        ("F", "l", "L"), ("F", "r", "M"), ("G", "l", "N"), ("G", "r", "O"),
    ]  # fmt: skip
    values = {"H": 6, "I": 9, "J": 4, "K": 8, "L": 7, "M": 2, "N": 5, "O": 10}
    return TreeGame.from_edges("A", edges, values, num_agents=3)


def test_two_ghost_layers_both_minimise() -> None:
    # B = min(min(6, 9), min(4, 8)) = 4; C = min(min(7, 2), min(5, 10)) = 2.
    action, value, seen = run(minimax, three_agent_tree(), 1)
    assert (action, value) == ("l", 4)
    assert seen == set("ABCDEFGHIJKLMNO")
    action, value, _ = run(expectimax, three_agent_tree(), 1)
    # B = ((6+9)/2 + (4+8)/2) / 2 = 6.75; C = ((7+2)/2 + (5+10)/2) / 2 = 6.
    assert (action, value) == ("l", 6.75)


def test_alpha_beta_prunes_across_ghost_layers() -> None:
    # After B = 4, C's first grandchild F = min(7, 2) = 2 < 4 prunes G entirely.
    action, value, seen = run(alpha_beta, three_agent_tree(), 1)
    assert (action, value) == ("l", 4)
    assert seen == set("ABCDEFHIJKLM")


def chain(num_agents: int, plies: int) -> TreeGame:
    """A single path of ``plies * num_agents`` moves, plus a leaf one move deeper."""
    names = [f"s{i}" for i in range(plies * num_agents + 2)]
    edges = [(a, "go", b) for a, b in itertools.pairwise(names)]
    values = {n: float(i) for i, n in enumerate(names)}
    return TreeGame.from_edges("s0", edges, values, num_agents=num_agents)


@pytest.mark.parametrize("num_agents", [1, 2, 3])
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_depth_counts_full_plies(num_agents: int, depth: int) -> None:
    game = chain(num_agents, 5)
    for search in (minimax, alpha_beta, expectimax):
        _, value, seen = run(search, game, depth)
        leaf = depth * num_agents
        assert value == leaf
        assert seen == {f"s{i}" for i in range(leaf + 1)}


@pytest.mark.parametrize("search", [minimax, alpha_beta, expectimax])
def test_bad_arguments(search: Search) -> None:
    game = lecture_tree()
    with pytest.raises(ValueError, match="depth"):
        search(game.root, depth=0, evaluate=game.evaluate)
    with pytest.raises(ValueError, match="depth"):
        search(game.root, depth=True, evaluate=game.evaluate)
    won = TreeGame.from_edges("A", [], {"A": 1}, num_agents=2, win_states=["A"])
    with pytest.raises(ValueError, match="terminal"):
        search(won.root, depth=1, evaluate=won.evaluate)


# --- an independent textbook alpha-beta, written differently, as an oracle -----------


def oracle_alpha_beta(game: TreeGame, depth: int) -> tuple[Any, float, set[str]]:
    seen = {game.start}
    n = game.num_agents

    def val(name: str, turn: int, alpha: float, beta: float) -> float:
        state = game.state(name)
        if state.is_terminal() or turn == depth * n:
            return game.evaluation[name]
        agent = turn % n
        best = -math.inf if agent == 0 else math.inf
        for _, child in game.successors.get(name, ()):
            seen.add(child)
            v = val(child, turn + 1, alpha, beta)
            if agent == 0:
                best = max(best, v)
                if best > beta:
                    return best
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                if best < alpha:
                    return best
                beta = min(beta, best)
        return best

    best_action, best_value, alpha = None, -math.inf, -math.inf
    for action, child in game.successors[game.start]:
        seen.add(child)
        v = val(child, 1, alpha, math.inf)
        if v > best_value:
            best_action, best_value = action, v
        alpha = max(alpha, v)
    return best_action, best_value, seen


def random_tree(rng: random.Random, num_agents: int, depth: int) -> TreeGame:
    edges: list[tuple[str, str, str]] = []
    values: dict[str, float] = {}
    terminal: list[str] = []
    counter = 0

    def grow(name: str, turn: int) -> None:
        nonlocal counter
        values[name] = rng.randint(-3, 3)  # small range: many ties and equal bounds
        if turn == depth * num_agents:
            return
        if turn > 0 and rng.random() < 0.1:
            terminal.append(name)
            return
        for a in range(rng.randint(1, 3)):
            counter += 1
            child = f"n{counter}"
            edges.append((name, f"a{a}", child))
            grow(child, turn + 1)

    grow("root", 0)
    wins = terminal[::2]
    loses = terminal[1::2]
    return TreeGame.from_edges(
        "root", edges, values, num_agents=num_agents, win_states=wins, lose_states=loses
    )


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), num_agents=st.integers(1, 3), depth=st.integers(1, 3))
def test_alpha_beta_matches_oracle_and_minimax(seed: int, num_agents: int, depth: int) -> None:
    game = random_tree(random.Random(seed), num_agents, depth)
    if not game.successors.get("root"):
        return
    ab = run(alpha_beta, game, depth)
    assert ab == oracle_alpha_beta(game, depth)
    mm = run(minimax, game, depth)
    assert (ab[0], ab[1]) == (mm[0], mm[1])
    assert ab[2] <= mm[2]


def test_generated_counts_every_successor_call() -> None:
    game = lecture_tree()
    result = alpha_beta(game.root, depth=1, evaluate=game.evaluate)
    assert result.generated == len(ALL - {"I", "J"}) - 1


def max_node_bound_tree(g1: float) -> TreeGame:
    # Depth 2 with two agents: A (max) -> B (min) -> D, E (max) -> terminal leaves.
    # D = max(3, 5) = 5 sets B's beta to 5; at E the first leaf G1 is compared with it.
    edges = [
        ("A", "left", "B"), ("A", "right", "C"),
        ("B", "b1", "D"), ("B", "b2", "E"),
        ("D", "d1", "F1"), ("D", "d2", "F2"),
        ("E", "e1", "G1"), ("E", "e2", "G2"),
    ]  # fmt: skip
    values = {"C": 4, "F1": 3, "F2": 5, "G1": g1, "G2": 1}
    leaves = ["C", "F1", "F2", "G1", "G2"]
    return TreeGame.from_edges("A", edges, values, num_agents=2, win_states=leaves)


MAX_BOUND_CASES = [
    # (search, G1, action, value, generated)
    # G1 == beta: a max node does not prune on equality, so G2 is generated.
    (alpha_beta, 5, "left", 5, set("ABCDE") | {"F1", "F2", "G1", "G2"}),
    # G1 > beta: cut-off, G2 is never generated.
    (alpha_beta, 6, "left", 5, set("ABCDE") | {"F1", "F2", "G1"}),
    (minimax, 6, "left", 5, set("ABCDE") | {"F1", "F2", "G1", "G2"}),
    # G1 < beta: E = max(4, 1) = 4 < 5, B = 4 ties with C = 4: the first action wins.
    (alpha_beta, 4, "left", 4, set("ABCDE") | {"F1", "F2", "G1", "G2"}),
    (minimax, 4, "left", 4, set("ABCDE") | {"F1", "F2", "G1", "G2"}),
]


@pytest.mark.parametrize(("search", "g1", "action", "value", "generated"), MAX_BOUND_CASES)
def test_equality_at_a_max_node_bound(
    search: Search, g1: float, action: str, value: float, generated: set[str]
) -> None:
    got_action, got_value, seen = run(search, max_node_bound_tree(g1), 2)
    assert (got_action, got_value) == (action, value)
    assert seen == generated


def test_expectimax_ties_go_to_the_first_action() -> None:
    # B averages (2 + 6) / 2 = 4, C averages (4 + 4) / 2 = 4, D is worse: B wins the tie.
    edges = [
        ("A", "x", "B"), ("A", "y", "C"), ("A", "z", "D"),
        ("B", "1", "E"), ("B", "2", "F"), ("C", "1", "G"), ("C", "2", "H"),
        ("D", "1", "I"),
    ]  # fmt: skip
    values = {"E": 2, "F": 6, "G": 4, "H": 4, "I": 3}
    game = TreeGame.from_edges("A", edges, values, num_agents=2)
    action, value, seen = run(expectimax, game, 1)
    assert (action, value) == ("x", 4)
    assert seen == set("ABCDEFGHI")
    # Reordering the root's children moves the tie to the new first action.
    swapped = TreeGame.from_edges("A", [edges[1], edges[0], *edges[2:]], values, num_agents=2)
    assert run(expectimax, swapped, 1)[0] == "y"


@pytest.mark.parametrize("search", [minimax, alpha_beta, expectimax])
@pytest.mark.parametrize("num_agents", [1, 2])
def test_root_returns_the_first_action_when_every_value_is_minus_infinity(
    search: Search, num_agents: int
) -> None:
    # An evaluation that scores lost positions -inf can make every root value -inf; the
    # root must still answer with an action: the first in legal order (SPEC §6).
    edges = [("A", "l", "B"), ("A", "m", "C"), ("A", "r", "D")]
    game = TreeGame.from_edges(
        "A", edges, {"B": -math.inf, "C": -math.inf, "D": -math.inf}, num_agents=num_agents,
        lose_states="BCD",
    )  # fmt: skip
    result = search(game.root, depth=1, evaluate=game.evaluate)
    assert result.action == "l"
    assert result.value == -math.inf


@pytest.mark.parametrize("search", [minimax, alpha_beta, expectimax])
def test_trapped_pacman_still_moves_under_a_minus_infinity_evaluation(search: Search) -> None:
    from pacman import GameState

    state = GameState.initial("trappedClassic")

    def dread(s: Any) -> float:
        return -math.inf if s.is_lose() else float(s.score)

    result = search(state, depth=3, evaluate=dread)
    assert result.action in state.legal_actions(0)
