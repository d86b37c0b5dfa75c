from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pacman.batch import run_evaluation
from pacman.batch.cli import build_parser
from pacman.batch.result import DETERMINISTIC_FIELDS
from pacman.batch.results import iter_results
from pacman.batch.spec import load_config

# Ray is in the dev extra, so CI must really run these tests: there a missing Ray fails.
# Elsewhere (a developer without Ray) they are skipped.
ray = pytest.importorskip("ray") if not os.environ.get("CI") else __import__("ray")

GRID = ("-p", "AlphaBetaAgent:depth=1", "-p", "RandomAgent", "-g", "DirectionalGhost",
        "-l", "testClassic", "-l", "smallClassic", "-n", "3", "--max-turns", "40")  # fmt: skip


def lines(path: Path, skip: str) -> list[str]:
    return sorted(
        json.dumps({k: getattr(r, k) for k in DETERMINISTIC_FIELDS}, separators=(",", ":"))
        for r in iter_results(path)
        if skip not in r.pacman
    )


def test_ray_backend_plays_the_same_games_as_the_local_pool(
    tmp_path: Path, bad_agents: Path
) -> None:
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    argv = [*GRID, "--timeout", "0.3"]
    for name in ("Crasher", "Sleeper", "Killer"):
        argv += ["-p", f"{bad_agents}:{name}"]
    run_evaluation(load_config(build_parser().parse_args([*argv, "-j", "1", "-o", str(local)])),
                   progress=False)  # fmt: skip
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        result = run_evaluation(
            load_config(build_parser().parse_args(
                [*argv, "--backend", "ray", "-j", "4", "-o", str(remote)]
            )),
            progress=False,
        )  # fmt: skip
    finally:
        ray.shutdown()
    assert result.played == 30
    # the same records, except the error text of a dead worker, which names the backend
    assert lines(remote, skip="Killer") == lines(local, skip="Killer")
    outcomes = {
        name: {r.outcome for r in iter_results(remote) if name in r.pacman}
        for name in ("Crasher", "Sleeper", "Killer")
    }
    assert outcomes == {"Crasher": {"crash"}, "Sleeper": {"timeout"}, "Killer": {"crash"}}
