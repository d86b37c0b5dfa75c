"""Batch evaluation benchmark: ``python -m benchmarks.batch`` prints figures (JSON lines).

Figures:

- ``scaling``: games per second of the local pool with 1 and with 2 workers on the same
  grid (ExpectimaxAgent depth 3 against random ghosts on mediumClassic, about 0.1 s
  per game), measured in interleaved rounds (1, 2, 1, 2, ...) so that load
  from other processes on the machine hits both alike. The speed-up is the ratio of the
  median rates. The load average is printed next to it: on a shared machine the figure
  is only as good as the cores that were free.
- ``two_agents``: the grid of issue 13 (two search agents on mediumClassic, 16 games
  each) as a user runs it, whole runs timed with 1 and 2 workers; start-up is
  measured apart (the same run with one 1-turn game) and the speed-up given with and
  without it.
- ``memory``: resident memory of the parent and of each worker while playing many cheap
  games (RandomAgent on smallClassic with a turn limit), written to a results file as
  ``pacman eval --out`` does; sampled every ``--sample`` games. Flat means no growth
  with the number of games.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pacman.batch.evaluate import run_evaluation
from pacman.batch.result import GameResult
from pacman.batch.spec import AgentSpec, EvalConfig

__all__ = ["bench_memory", "bench_scaling", "bench_two_agents", "main"]


def _rss_kib(pid: int | str = "self") -> int:
    """Resident set size of a process in KiB (Linux /proc; 0 where unavailable)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _load() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # pragma: no cover - no load average on this platform
        return []


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _games_per_second(config: EvalConfig) -> tuple[float, float, float]:
    """(steady rate, wall rate, worker CPU seconds per game) of one run.

    The steady rate is games/s between the first and the last game: it leaves out
    worker start-up (an interpreter per worker, paid once per run), which a short
    benchmark run would otherwise over-weight. The CPU time per game shows whether
    parallel workers do extra work (they should not): a speed-up below the number of
    workers with equal CPU per game means the cores were busy with other processes.
    """
    stamps: list[float] = []
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    result = run_evaluation(
        config, progress=False, on_record=lambda _: stamps.append(time.perf_counter())
    )
    wall = result.played / (stamps[-1] - t0)
    steady = (len(stamps) - 1) / (stamps[-1] - stamps[0])
    return steady, wall, (_children_cpu() - cpu0) / result.played


def bench_scaling(games: int = 60, rounds: int = 3, seed: int = 0) -> dict[str, Any]:
    """Games per second with 1 and 2 workers, interleaved rounds; median ratio."""
    rates: dict[int, list[float]] = {1: [], 2: []}
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    loads = []
    for r in range(rounds):
        for jobs in (1, 2):
            config = EvalConfig(
                pacman=(AgentSpec("ExpectimaxAgent", (("depth", "3"),)),),
                layouts=("mediumClassic",),
                games=games,
                seed=seed + r,
                jobs=jobs,
                max_turns=100,
            )
            steady, wall, cpu_per_game = _games_per_second(config)
            rates[jobs].append(steady)
            walls[jobs].append(wall)
            cpu[jobs].append(cpu_per_game)
            loads.append(_load())
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    return {
        "figure": "scaling",
        "grid": f"ExpectimaxAgent:depth=3 vs RandomGhost on mediumClassic, max 100 turns, "
        f"{games} games per run",
        "games_per_s_1_worker": [round(x, 2) for x in rates[1]],
        "games_per_s_2_workers": [round(x, 2) for x in rates[2]],
        "wall_games_per_s_1_worker": [round(x, 2) for x in walls[1]],
        "wall_games_per_s_2_workers": [round(x, 2) for x in walls[2]],
        "median_1": round(one, 2),
        "median_2": round(two, 2),
        "speedup": round(two / one, 3),
        "wall_speedup": round(statistics.median(walls[2]) / statistics.median(walls[1]), 3),
        "worker_cpu_s_per_game_1": round(statistics.median(cpu[1]), 4),
        "worker_cpu_s_per_game_2": round(statistics.median(cpu[2]), 4),
        "load_average_after_each_run": loads,
        "cpus": os.cpu_count(),
    }


def _wall_seconds(config: EvalConfig) -> float:
    t0 = time.perf_counter()
    run_evaluation(config, progress=False)
    return time.perf_counter() - t0


def bench_two_agents(rounds: int = 3, max_turns: int = 200) -> dict[str, Any]:
    """The issue's grid: two search agents, 16 games each, with 1 and 2 workers.

    Wall-clock time of whole runs (``pacman eval`` as a user runs it: checking the specs,
    starting the workers, a fresh worker when the agent changes), in interleaved rounds;
    the start-up (the same run with one 1-turn game) is measured and reported apart, and
    the speed-up is given with and without it.
    """
    agents = (
        AgentSpec("AlphaBetaAgent", (("depth", "4"),)),
        AgentSpec("ExpectimaxAgent", (("depth", "3"),)),
    )
    walls: dict[int, list[float]] = {1: [], 2: []}
    startups: dict[int, list[float]] = {1: [], 2: []}
    for r in range(rounds):
        for jobs in (1, 2):
            grid = EvalConfig(
                pacman=agents, layouts=("mediumClassic",), games=16, seed=r, jobs=jobs,
                max_turns=max_turns,
            )  # fmt: skip
            tiny = EvalConfig(
                pacman=agents, layouts=("mediumClassic",), games=1, seed=r, jobs=jobs,
                max_turns=1,
            )  # fmt: skip
            walls[jobs].append(_wall_seconds(grid))
            startups[jobs].append(_wall_seconds(tiny))
    one, two = statistics.median(walls[1]), statistics.median(walls[2])
    s1, s2 = statistics.median(startups[1]), statistics.median(startups[2])
    return {
        "figure": "two_agents",
        "grid": "AlphaBetaAgent:depth=4 and ExpectimaxAgent:depth=3 vs RandomGhost on "
        f"mediumClassic, 16 games each, max {max_turns} turns",
        "wall_seconds_1_worker": [round(x, 2) for x in walls[1]],
        "wall_seconds_2_workers": [round(x, 2) for x in walls[2]],
        "startup_seconds_1_worker": round(s1, 2),
        "startup_seconds_2_workers": round(s2, 2),
        "speedup": round(one / two, 3),
        "speedup_without_startup": round((one - s1) / (two - s2), 3),
        "goal": "speedup >= 1.8",
        "load_average": _load(),
        "cpus": os.cpu_count(),
    }


def bench_memory(games: int = 5000, sample: int = 500, jobs: int = 2) -> dict[str, Any]:
    """Parent and worker RSS while playing ``games`` cheap games into a results file."""
    samples: list[dict[str, Any]] = []
    count = 0
    t0 = time.perf_counter()

    def on_record(record: GameResult) -> None:
        nonlocal count
        count += 1
        if count == 1 or count % sample == 0:
            workers = [_rss_kib(p.pid) for p in multiprocessing.active_children() if p.pid]
            samples.append(
                {
                    "games": count,
                    "parent_rss_kib": _rss_kib(),
                    "worker_rss_kib": sorted(workers),
                    "seconds": round(time.perf_counter() - t0, 1),
                }
            )

    with tempfile.TemporaryDirectory() as tmp:
        config = EvalConfig(
            pacman=(AgentSpec("RandomAgent"),),
            layouts=("smallClassic",),
            games=games,
            jobs=jobs,
            max_turns=30,
            out=str(Path(tmp) / "results.jsonl"),
        )
        run_evaluation(config, progress=False, on_record=on_record)
        size = Path(config.out or "").stat().st_size
    first, last = samples[0]["parent_rss_kib"], samples[-1]["parent_rss_kib"]
    return {
        "figure": "memory",
        "grid": f"RandomAgent vs RandomGhost on smallClassic, max 30 turns, {games} games, "
        f"{jobs} workers",
        "samples": samples,
        "parent_growth_kib": last - first,
        "results_file_bytes": size,
        "games_per_s": round(games / (time.perf_counter() - t0), 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print one JSON object per figure."""
    p = argparse.ArgumentParser(prog="python -m benchmarks.batch", description=__doc__)
    p.add_argument("--games", type=int, default=60, help="games per scaling run")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds of 1 and 2 workers")
    p.add_argument("--memory-games", type=int, default=5000, help="games of the memory run")
    p.add_argument("--sample", type=int, default=500, help="games between memory samples")
    p.add_argument(
        "--skip", choices=("scaling", "two_agents", "memory"), action="append", default=[]
    )
    args = p.parse_args(argv)
    if "scaling" not in args.skip:
        print(json.dumps(bench_scaling(args.games, args.rounds)), flush=True)
    if "two_agents" not in args.skip:
        print(json.dumps(bench_two_agents(args.rounds)), flush=True)
    if "memory" not in args.skip:
        print(json.dumps(bench_memory(args.memory_games, args.sample)), flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
