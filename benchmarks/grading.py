"""What sealing the grader costs: ``python -m benchmarks.grading`` prints figures (JSON).

The whole suite grades the reference solution (tests/autograder/fixtures/solution) in
interleaved rounds, hardened (the default: every worker under its keeper process, a
child subreaper that kills whatever the submission leaves behind, in control groups
where the machine allows them) and not (the worker started directly). The other
defences cannot be switched off and are in both figures: deadlines on every read and
write with a worker, the stack dump asked of a timed-out worker, escaping and capping
of the student's text, importing the grader before any student code.

The figure is the ratio of the median wall-clock times; the goal is a slowdown under
10%. Interleaving (hardened, plain, hardened, ...) spreads the load of other processes
on a shared machine over both alike; the load average is printed with it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from autograder.grading.suite import build_suite, run_suite

__all__ = ["bench_hardening", "main"]

SOLUTION = (
    Path(__file__).resolve().parents[1] / "tests/autograder/fixtures/solution/multi_agents.py"
)
"""A submission that passes every test."""


def _grade_seconds(path: Path, *, hardened: bool, jobs: int) -> tuple[float, float]:
    """Seconds to grade ``path`` on the whole suite, and its score."""
    specs = build_suite()
    t0 = time.perf_counter()
    questions = run_suite(path, specs, jobs=jobs, hardened=hardened, budget=None)
    seconds = time.perf_counter() - t0
    return seconds, sum(q.points for q in questions)


def bench_hardening(rounds: int = 5, jobs: int = 2, path: Path = SOLUTION) -> dict[str, Any]:
    """Median grading time with and without the keeper; their ratio.

    Raises:
        RuntimeError: If the two ways of grading give different scores.
    """
    times: dict[str, list[float]] = {"hardened": [], "plain": []}
    scores = set()
    for _ in range(rounds):
        for name, keeper in (("hardened", True), ("plain", False)):
            seconds, score = _grade_seconds(path, hardened=keeper, jobs=jobs)
            times[name].append(seconds)
            scores.add(score)
    if len(scores) != 1:
        raise RuntimeError(f"hardened and plain grading disagree: scores {sorted(scores)}")
    hardened, plain = (statistics.median(times[k]) for k in ("hardened", "plain"))
    return {
        "figure": "hardening",
        "file": str(path),
        "rounds": rounds,
        "jobs": jobs,
        "score": scores.pop(),
        "hardened_seconds": round(hardened, 3),
        "plain_seconds": round(plain, 3),
        "slowdown": round(hardened / plain - 1, 4),
        "goal": "slowdown < 0.10",
        "all_seconds": {k: [round(t, 3) for t in v] for k, v in times.items()},
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main(argv: Sequence[str] | None = None) -> None:
    """Print the figure as one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.grading", description=__doc__)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each (default 5)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="workers (default 2)")
    parser.add_argument("--file", type=Path, default=SOLUTION, help="the file to grade")
    args = parser.parse_args(argv)
    print(json.dumps(bench_hardening(args.rounds, args.jobs, args.file)))


if __name__ == "__main__":
    main()
