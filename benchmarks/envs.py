"""Env benchmark: ``python -m benchmarks.envs`` prints JSON figures.

Figures (median of ``--repeats`` interleaved runs of ``--steps`` steps each):

- ``pacman``: steps per second of ``gymnasium.make("pacman/Pacman-v0",
  layout="mediumClassic")`` with random legal actions, drawn exactly as the peer script
  ``shared/bench/env_steps.py`` does (``rng.choice(np.flatnonzero(mask))`` with a NumPy
  generator). That draw alone costs several microseconds, so the figure includes it.
- ``pacman_env_only``: the same env and actions, but drawn with ``random.Random`` from a
  precomputed table, so the figure is close to the cost of ``env.step`` itself.
- ``pacman_parallel``: full turns per second of the PettingZoo parallel env.
- ``peer_draw_only``: the peer harness's action draw alone, on a fixed mask, with no env
  step: the ceiling any masked env can reach under that harness.
- ``minigrid``: ``MiniGrid-Empty-8x8-v0`` under the peer harness, in this process if
  MiniGrid is importable, else with ``--minigrid-python`` (an interpreter of a separate
  virtual environment with ``minigrid`` installed), interleaved with the Pacman runs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

__all__ = ["draw_only", "main", "peer_harness", "steps_env_only", "turns_parallel"]

_LAYOUT = "mediumClassic"


def peer_harness(env_id: str, steps: int, **kwargs: Any) -> float:
    """Steps per second with the peer script's random legal actions (NumPy draws)."""
    # Importing the package registers its envs.
    importlib.import_module("pacman" if env_id.startswith("pacman/") else "minigrid")
    env = gym.make(env_id, **kwargs)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    t0 = time.perf_counter()
    for _ in range(steps):
        mask = info.get("action_mask")
        if mask is not None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            action = int(env.action_space.sample())
        _, _, term, trunc, info = env.step(action)
        if term or trunc:
            _, info = env.reset()
    rate = steps / (time.perf_counter() - t0)
    env.close()
    return rate


def draw_only(steps: int) -> float:
    """Iterations per second of the peer harness's masked action draw alone."""
    rng = np.random.default_rng(0)
    info = {"action_mask": np.array([1, 1, 1, 0, 0], dtype=np.int8)}
    t0 = time.perf_counter()
    for _ in range(steps):
        mask = info.get("action_mask")
        if mask is not None:
            int(rng.choice(np.flatnonzero(mask)))
    return steps / (time.perf_counter() - t0)


def steps_env_only(steps: int, layout: str = _LAYOUT) -> float:
    """Steps per second of the Pacman env with cheap random legal actions."""
    import pacman  # noqa: F401

    env = gym.make("pacman/Pacman-v0", layout=layout)
    rng = random.Random(0)
    choices = {m: [i for i in range(5) if m >> i & 1] for m in range(32)}
    weights = np.array([1, 2, 4, 8, 16], dtype=np.int64)
    _, info = env.reset(seed=0)
    t0 = time.perf_counter()
    for _ in range(steps):
        action = rng.choice(choices[int(info["action_mask"] @ weights)])
        _, _, term, trunc, info = env.step(action)
        if term or trunc:
            _, info = env.reset()
    return steps / (time.perf_counter() - t0)


def turns_parallel(steps: int, layout: str = _LAYOUT) -> float:
    """Full turns per second of the PettingZoo parallel env with random legal actions."""
    from pacman.envs.pz_env import parallel_env

    env = parallel_env(layout=layout)
    rng = random.Random(0)
    obs, _ = env.reset(seed=0)
    t0 = time.perf_counter()
    for _ in range(steps):
        if not env.agents:
            obs, _ = env.reset()
        actions = {a: rng.choice(np.flatnonzero(obs[a]["action_mask"]).tolist()) for a in obs}
        obs = env.step(actions)[0]
    return steps / (time.perf_counter() - t0)


def _minigrid(steps: int, python: str | None) -> float | None:
    if python is None:
        try:
            importlib.import_module("minigrid")
        except ImportError:
            return None
        return peer_harness("MiniGrid-Empty-8x8-v0", steps)
    try:
        out = subprocess.run(
            [python, __file__, "--only-minigrid", "--steps", str(steps)],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as exc:
        raise SystemExit(f"benchmarks.envs: error: cannot run {python!r}: {exc}") from None
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(
            f"benchmarks.envs: error: {python} could not measure MiniGrid (it needs "
            f"minigrid and this project installed): {last}"
        )
    return float(out.stdout)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks and print one JSON object."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.envs", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--steps", type=int, default=20_000, help="steps per run (%(default)s)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (%(default)s)")
    parser.add_argument(
        "--minigrid-python",
        metavar="PYTHON",
        help="interpreter of a venv with minigrid, for the MiniGrid figure",
    )
    parser.add_argument("--only-minigrid", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.steps < 1 or args.repeats < 1:
        parser.error("--steps and --repeats must be at least 1")
    if args.only_minigrid:
        print(peer_harness("MiniGrid-Empty-8x8-v0", args.steps))
        return 0

    runs: dict[str, list[float]] = {
        "pacman": [],
        "pacman_env_only": [],
        "pacman_parallel": [],
        "peer_draw_only": [],
        "minigrid": [],
    }
    for _ in range(args.repeats):
        runs["pacman"].append(peer_harness("pacman/Pacman-v0", args.steps, layout=_LAYOUT))
        runs["pacman_env_only"].append(steps_env_only(args.steps))
        runs["pacman_parallel"].append(turns_parallel(args.steps // 2))
        runs["peer_draw_only"].append(draw_only(args.steps))
        mg = _minigrid(args.steps, args.minigrid_python)
        if mg is not None:
            runs["minigrid"].append(mg)
    figures: dict[str, Any] = {
        name: round(statistics.median(rates)) if rates else None for name, rates in runs.items()
    }
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "layout": _LAYOUT,
        "steps_per_run": args.steps,
        "repeats": args.repeats,
        "steps_per_s": figures,
    }
    if figures["minigrid"]:
        for name in ("pacman", "pacman_env_only"):
            result[f"{name}_vs_minigrid"] = round(figures[name] / figures["minigrid"], 2)
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
