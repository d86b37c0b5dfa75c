"""Running an evaluation: check everything, skip games already done, play the rest, summarise.

`run_evaluation` is the library entry point behind ``pacman eval``; the command only adds
argument parsing and printing.
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from pacman.batch.backends import (
    check_ray_address,
    default_jobs,
    hard_limit,
    iter_inline,
    iter_local,
    iter_ray,
)
from pacman.batch.result import GameResult
from pacman.batch.results import ResultsWriter, iter_results
from pacman.batch.spec import Cell, EvalConfig, EvalConfigError, GameTask, build_cells, iter_tasks
from pacman.batch.stats import ConfigStats
from pacman.core.game import GameRecord
from pacman.progress import Progress

__all__ = ["FAILED_OUTCOMES", "EvalResult", "check_extras", "run_evaluation"]

FAILED_OUTCOMES = frozenset({"crash", "timeout", "illegal"})
"""Outcomes that mean an agent failed (the game counts as not won)."""


@dataclass
class EvalResult:
    """What an evaluation produced."""

    config: EvalConfig
    """The evaluation that was run."""
    cells: list[Cell]
    """The grid's configurations, in order."""
    stats: dict[tuple[str, str, str, int], ConfigStats]
    """Running totals per configuration, in grid order."""
    played: int
    """Games played by this run."""
    skipped: int
    """Games found in the results file and not played again."""
    foreign: int = 0
    """Records in the results file from other settings (agents, seed, limits): ignored."""

    def summaries(self) -> list[dict[str, Any]]:
        """One summary dict per configuration, in grid order."""
        return [s.summary() for s in self.stats.values()]


def check_extras(config: EvalConfig) -> None:
    """Fail early when an optional dependency the config needs is missing.

    Raises:
        EvalConfigError: If ``--plot`` lacks matplotlib or ``--backend ray`` lacks Ray.
    """
    if config.plot is not None and importlib.util.find_spec("matplotlib") is None:
        raise EvalConfigError("--plot needs matplotlib: pip install 'pacman-multiagent[plot]'")
    if config.backend == "ray" and importlib.util.find_spec("ray") is None:
        raise EvalConfigError("--backend ray needs Ray: pip install 'pacman-multiagent[ray]'")
    if config.plot is not None and Path(config.plot).suffix.lower() != ".png":
        raise EvalConfigError(f"--plot file {config.plot!r} must end in .png")
    if config.backend == "ray":
        check_ray_address(config.address)


def _belongs(record: GameResult, cell: Cell, config: EvalConfig) -> bool:
    game = record.game
    return bool(
        0 <= game < config.games
        and record.seed == cell.series_seed(config.seed, game)
        and record.max_turns == config.max_turns
        and record.timeout == config.timeout
    )


def run_evaluation(
    config: EvalConfig,
    *,
    progress: bool = True,
    stream: TextIO | None = None,
    on_record: Callable[[GameResult], None] | None = None,
) -> EvalResult:
    """Play every game of ``config``'s grid not already in its results file.

    Args:
        config: The evaluation.
        progress: Draw a progress bar on ``stream``.
        stream: Where the progress bar goes (default stderr).
        on_record: Called with every new game's result (after it is written).

    Returns:
        The grid and its statistics, counting the games from the results file too.

    Raises:
        EvalConfigError: Before any game runs, if an agent, layout, the results file or
            an optional dependency is wrong.
        KeyboardInterrupt: When interrupted; the games finished so far are written.
    """
    check_extras(config)
    # Agents play in worker processes, never here (-j 0 plays here, for debugging): so
    # they are checked in a process of their own too.
    cells = build_cells(config, check_apart=config.backend == "ray" or config.jobs != 0)
    by_key = {cell.key: cell for cell in cells}
    stats = {cell.key: ConfigStats(cell.key) for cell in cells}
    done: set[tuple[tuple[str, str, str, int], int]] = set()
    foreign = 0
    if config.out is not None:
        for record in iter_results(config.out):
            cell_key = record.key[:4]
            cell = by_key.get(cell_key)
            if cell is None or not _belongs(record, cell, config):
                foreign += 1
                continue
            if (cell.key, record.game) not in done:
                done.add((cell.key, record.game))
                stats[cell.key].add(record)
    save_dir = Path(config.save_games) if config.save_games is not None else None
    if save_dir is not None:
        try:
            save_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise EvalConfigError(f"{save_dir}: cannot create folder: {exc.strerror}") from None
    writer = ResultsWriter(config.out) if config.out is not None else None
    total = len(cells) * config.games

    def todo() -> Iterator[tuple[int, GameTask]]:
        for number, task in enumerate(iter_tasks(config, cells)):
            if (task.key[:4], task.game) not in done:
                yield number, task

    remaining = total - len(done)
    bar = Progress(total, len(done), stream=stream, enabled=progress)
    jobs = default_jobs() if config.jobs is None else config.jobs
    if config.backend == "ray":
        results = iter_ray(todo(), config.jobs, config.address)
    elif jobs == 0 or remaining == 0:
        results = iter_inline(todo())
    else:
        results = iter_local(todo(), min(jobs, remaining), watchdog=hard_limit(config.timeout))
    played = 0
    try:
        with contextlib.closing(results):
            for _, record in results:
                if save_dir is not None and record.game_record is not None:
                    path = save_dir / f"game-{record.seed}.json"
                    GameRecord.from_dict(record.game_record).save(path)
                if writer is not None:
                    writer.write(record)
                stats[record.key[:4]].add(record)
                played += 1
                bar.update(failed=record.outcome in FAILED_OUTCOMES)
                if on_record is not None:
                    on_record(record)
    finally:
        if writer is not None:
            writer.close()
        bar.close()
    return EvalResult(config, cells, stats, played, len(done), foreign)
