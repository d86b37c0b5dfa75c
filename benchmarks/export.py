"""Rendering benchmark: ``python -m benchmarks.export`` prints JSON figures.

Figures:

- ``draw_ms``: milliseconds to draw one mediumClassic frame (median over many frames
  of a real game, maze layer cached), and to read it back as an ``rgb_array``.
- ``export``: a 720-frame mediumClassic game written as GIF and as MP4, each in a fresh
  child process: wall-clock seconds and the child's peak resident memory (MB), so the
  figure includes Python, pygame and the encoder. The target is at least 10 times
  faster than the reference rewrite's 63 s, and under 200 MB, for the GIF.
- ``replay_load_s``: loading a saved 1,000-move record and replaying every state.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pacman.core.game import GameRecord, replay, run_game
from pacman.core.state import GameState

__all__ = ["bench_draw", "bench_export", "bench_replay_load", "long_record", "main"]


def long_record(moves: int, layout: str = "mediumClassic") -> GameRecord:
    """A real game (greedy Pacman, random ghosts) of at least ``moves`` moves, cut to ``moves``.

    Seeds are tried from 0 until a game lasts long enough, so the game is always the same.
    A game cut before its end is recorded as stopped (``"aborted"``), as the ``pacman``
    command records a game stopped with ``q``, so that `replay` accepts it.
    """
    from agents.players import GreedyAgent, RandomGhost

    seed = 0
    while True:
        state = GameState.initial(layout)
        agents: list[Any] = [GreedyAgent(rng=random.Random(seed))]
        agents += [RandomGhost(i, random.Random(seed + i)) for i in range(1, state.num_agents)]
        record = run_game(state, agents, seed=seed)
        if record.num_moves >= moves:
            if record.num_moves == moves:
                return record
            return dataclasses.replace(
                record,
                actions=record.actions[:moves],
                scores=record.scores[:moves],
                move_seconds=record.move_seconds[:moves],
                outcome="aborted",
                failed_agent=None,
                error=None,
            )
        seed += 1


def bench_draw(frames: int = 300, cell_size: int = 24) -> dict[str, float]:
    """Median milliseconds per mediumClassic frame: draw only, and as an rgb_array."""
    from pacman.render.frame import FrameRenderer

    states = list(replay(long_record(frames)))
    renderer = FrameRenderer(states[0].layout, cell_size=cell_size)
    surface = renderer.render(states[0])
    draw, array = [], []
    for state in states:
        t0 = time.perf_counter()
        renderer.draw(surface, state, turn=1)
        draw.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        renderer.rgb_array(state)
        array.append(time.perf_counter() - t0)
    return {
        "draw_ms": round(statistics.median(draw) * 1000, 3),
        "rgb_array_ms": round(statistics.median(array) * 1000, 3),
        "first_frame_ms_including_maze_cache": round(draw[0] * 1000, 3),
    }


def bench_export(suffix: str, frames: int = 720, cell_size: int = 24) -> dict[str, Any]:
    """Export a ``frames``-frame game in a child process; seconds and peak RSS (MB)."""
    with tempfile.TemporaryDirectory() as tmp:
        record_path = Path(tmp) / "game.json"
        long_record(frames - 1).save(record_path)
        out = Path(tmp) / f"game{suffix}"
        code = (
            "import resource, time; from pacman.core.game import GameRecord; "
            "from pacman.render.export import export_game; "
            "t0 = time.perf_counter(); "
            f"n = export_game(GameRecord.load({str(record_path)!r}), {str(out)!r}, "
            f"cell_size={cell_size}, progress=False); "
            "t = time.perf_counter() - t0; "
            "me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; "
            "enc = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss; "
            "print(n, t, me, enc)"
        )
        t0 = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        wall = time.perf_counter() - t0
        written, inside, self_kb, encoder_kb = result.stdout.split()
        from pacman.render.frame import FrameRenderer

        layout = GameState.initial("mediumClassic").layout
        width, height = FrameRenderer(layout, cell_size=cell_size).size
        return {
            "format": suffix.lstrip("."),
            "frames": int(written),
            "frame_size": f"{width}x{height}",
            "export_s": round(float(inside), 2),
            "process_s": round(wall, 2),
            "peak_rss_mb": round(int(self_kb) / 1024, 1),
            "encoder_peak_rss_mb": round(int(encoder_kb) / 1024, 1),
            "file_kb": round(out.stat().st_size / 1024, 1),
        }


def bench_replay_load(moves: int = 1000) -> float:
    """Seconds to load a saved ``moves``-move record and replay all its states."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        long_record(moves).save(path)
        t0 = time.perf_counter()
        states = list(replay(GameRecord.load(path)))
        elapsed = time.perf_counter() - t0
        assert len(states) == moves + 1
        return round(elapsed, 4)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the figures as JSON."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.export")
    parser.add_argument("--frames", type=int, default=720, help="frames per export")
    parser.add_argument("--cell-size", type=int, default=24, help="pixels per cell")
    parser.add_argument("--skip-mp4", action="store_true", help="only the GIF export")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    figures: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "draw": bench_draw(cell_size=args.cell_size),
        "replay_load_s": bench_replay_load(),
        "export": [bench_export(".gif", args.frames, args.cell_size)],
    }
    if not args.skip_mp4:
        figures["export"].append(bench_export(".mp4", args.frames, args.cell_size))
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
