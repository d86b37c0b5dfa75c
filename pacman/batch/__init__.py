"""Batch evaluation: many headless games in parallel, per-game results and statistics.

``pacman eval`` runs a grid of Pacman agents x ghost policies x layouts x games in
worker processes (or on Ray), writes one record per game and prints a summary per
configuration. The same grid and seed give the same games, on any backend and with
any number of workers.
"""

from __future__ import annotations

from pacman.batch.cli import main
from pacman.batch.evaluate import EvalResult, run_evaluation
from pacman.batch.spec import AgentSpec, EvalConfig, EvalConfigError
from pacman.batch.stats import wilson_interval

__all__ = [
    "AgentSpec",
    "EvalConfig",
    "EvalConfigError",
    "EvalResult",
    "main",
    "run_evaluation",
    "wilson_interval",
]
