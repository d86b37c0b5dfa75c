"""Engine benchmark: ``python -m benchmarks.engine`` prints JSON figures.

Figures:

- ``successors``: successors generated per second by an unpruned depth-limited minimax
  from the start state (the harness of ``shared/bench/proj_nodes.py``: one node per
  successor call; ``is_win``/``is_lose``/``score`` at the leaves), on every shipped
  layout. A single search takes milliseconds, so each is repeated for about
  ``--seconds`` (at least three runs); the median run is the figure, the best run is
  reported beside it.
- ``game``: full headless games of `GreedyAgent` against `DirectionalGhost` on
  mediumClassic: Pacman turns and agent moves per second.
- ``state_bytes``: memory per state, measured with ``tracemalloc`` over many successors
  kept alive at once (the layout and its tables are shared and not counted).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Sequence
from typing import Any

from agents.players import DirectionalGhost, GreedyAgent
from pacman.core.game import run_game
from pacman.core.layout import load_layout
from pacman.core.state import GameState

__all__ = ["SUCCESSOR_CASES", "bench_game", "bench_state_bytes", "bench_successors", "main"]

SUCCESSOR_CASES: tuple[tuple[str, int], ...] = (
    ("capsuleClassic", 4),
    ("contestClassic", 3),
    ("mediumClassic", 4),
    ("minimaxClassic", 4),
    ("openClassic", 4),
    ("originalClassic", 3),
    ("powerClassic", 3),
    ("smallClassic", 4),
    ("testClassic", 4),
    ("trappedClassic", 6),
    ("trickyClassic", 3),
)
"""(layout, depth) pairs of the successor benchmark: every shipped layout, each at a
depth whose full tree takes milliseconds to a few tenths of a second to generate."""


def _minimax_count(state: GameState, depth: int) -> int:
    count = 0

    def value(s: GameState, agent: int, d: int) -> float:
        nonlocal count
        if s.is_win() or s.is_lose() or d == depth:
            return float(s.score)
        nxt = (agent + 1) % s.num_agents
        nd = d + 1 if nxt == 0 else d
        vals = []
        for a in s.legal_actions(agent):
            count += 1
            vals.append(value(s.successor(agent, a), nxt, nd))
        return max(vals) if agent == 0 else min(vals)

    value(state, 0, 0)
    return count


def bench_successors(layout: str, depth: int, seconds: float = 1.0) -> dict[str, Any]:
    """Successors per second of unpruned minimax from the start of ``layout`` (median run)."""
    state = GameState.initial(load_layout(layout))
    _minimax_count(state, depth)  # warm the layout's tables
    rates: list[float] = []
    nodes = 0
    deadline = time.perf_counter() + seconds
    while len(rates) < 3 or time.perf_counter() < deadline:
        t0 = time.perf_counter()
        nodes = _minimax_count(state, depth)
        rates.append(nodes / (time.perf_counter() - t0))
    return {
        "layout": layout,
        "depth": depth,
        "nodes": nodes,
        "runs": len(rates),
        "successors_per_s": round(statistics.median(rates)),
        "best_successors_per_s": round(max(rates)),
    }


def bench_game(layout: str = "mediumClassic", seconds: float = 2.0) -> dict[str, Any]:
    """Headless games of GreedyAgent vs DirectionalGhosts: turns and moves per second."""
    lay = load_layout(layout)
    start = GameState.initial(lay)
    games = turns = moves = 0
    elapsed = 0.0
    while games < 3 or elapsed < seconds:
        rng = random.Random(games)
        agents: list[Any] = [GreedyAgent(rng=random.Random(rng.random()))]
        agents += [
            DirectionalGhost(i, random.Random(rng.random())) for i in range(1, start.num_agents)
        ]
        t0 = time.perf_counter()
        record = run_game(start, agents, max_turns=2000)
        elapsed += time.perf_counter() - t0
        games += 1
        turns += record.num_turns
        moves += record.num_moves
    return {
        "layout": layout,
        "games": games,
        "turns_per_s": round(turns / elapsed),
        "moves_per_s": round(moves / elapsed),
    }


def bench_state_bytes(layout: str = "mediumClassic", count: int = 20_000) -> dict[str, Any]:
    """Average bytes per state over ``count`` live successors of a random walk."""
    start = GameState.initial(load_layout(layout))
    rng = random.Random(0)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept: list[GameState] = []
    s = start
    agent = 0
    while len(kept) < count:
        if s.is_terminal():
            s, agent = start, 0
        s = s.successor(agent, rng.choice(s.legal_actions(agent)))
        agent = (agent + 1) % s.num_agents
        kept.append(s)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return {"layout": layout, "states": count, "bytes_per_state": round((after - before) / count)}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks and print one JSON object."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.engine", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=1.0,
        help="time budget per successor case (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    result = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "successors": [bench_successors(lay, d, args.seconds) for lay, d in SUCCESSOR_CASES],
        "game": bench_game(seconds=2 * args.seconds),
        "memory": bench_state_bytes(),
    }
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
