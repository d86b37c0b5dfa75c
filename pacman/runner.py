"""Setting up and playing series of games: agent construction and seeding.

Shared by the ``pacman`` command and batch evaluation, so that one game is the same
game wherever it is played: its agents and their generators derive from the game's own
seed only.
"""

from __future__ import annotations

import random
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pacman.core.game import derive_seed
from pacman.core.layout import Layout
from pacman.registry import make_agent

__all__ = [
    "MatchSpec",
    "build_agents",
    "game_seed",
    "global_seed",
    "rerun_command",
    "seed_globals",
]


@dataclass(frozen=True)
class MatchSpec:
    """Who plays: the Pacman agent, the ghost agent and their arguments."""

    pacman: str = "AlphaBetaAgent"
    """Pacman agent name or ``path/to/file.py:Class``."""
    ghosts: str = "RandomGhost"
    """Ghost agent name, used for every ghost."""
    pacman_args: Mapping[str, str] = field(default_factory=dict)
    """String arguments for the Pacman agent (``-a``)."""
    ghost_args: Mapping[str, str] = field(default_factory=dict)
    """String arguments for each ghost."""


def game_seed(seed: int, game: int) -> int:
    """The seed of game number ``game`` (from 0) of a series started with ``seed``.

    The first game's seed is the series' own, so every game's recorded seed plays that
    game again as the first of a series: ``pacman --seed <its seed>``.

    >>> game_seed(7, 0)
    7
    >>> game_seed(7, 1) == game_seed(7, 1) != 7
    True
    """
    return seed if game == 0 else derive_seed(seed, "game", game)


def global_seed(seed: int) -> int:
    """The seed of the global generators for the game seeded ``seed`` (`seed_globals`)."""
    return derive_seed(seed, "student")


def seed_globals(seed: int) -> None:
    """Seed the generators an agent may draw from without being handed one.

    That is `random`, and NumPy's global generator when something imported NumPy (it is
    never imported for this). A student's agent that calls ``random.choice`` then plays
    the same game for the same seed, here, in batch evaluation and in the autograder.
    """
    value = global_seed(seed)
    random.seed(value)
    numpy_random = getattr(sys.modules.get("numpy"), "random", None)
    seeder = getattr(numpy_random, "seed", None)
    if callable(seeder):
        seeder(value % 2**32)


def build_agents(match: MatchSpec, layout: Layout, num_ghosts: int, seed: int) -> list[Any]:
    """Fresh agents for one game, each with its own generator derived from ``seed``.

    The global generators are seeded from ``seed`` first (`seed_globals`).

    Raises:
        AgentError: If an agent name or argument is wrong.
    """
    seed_globals(seed)
    k = min(num_ghosts, layout.num_ghosts)
    agents = [
        make_agent(
            match.pacman,
            0,
            args=match.pacman_args,
            rng=random.Random(derive_seed(seed, "agent", 0)),
        )
    ]
    for index in range(1, k + 1):
        agents.append(
            make_agent(
                match.ghosts,
                index,
                args=match.ghost_args,
                rng=random.Random(derive_seed(seed, "agent", index)),
            )
        )
    return agents


def rerun_command(
    match: MatchSpec,
    layout: str,
    num_ghosts: int,
    seed: int,
    *,
    timeout: float | None = None,
    max_turns: int | None = None,
) -> str | None:
    """The ``pacman`` command line that plays game 0 of the series ``seed`` again.

    That is how batch evaluation seeds each game, so this replays any game of a batch
    run, watched in the window. Returns ``None`` when the match has ghost arguments,
    which the ``pacman`` command has no flag for.

    >>> rerun_command(MatchSpec("AlphaBetaAgent", pacman_args={"depth": "2"}), "smallClassic", 2, 7)
    'pacman -l smallClassic -p AlphaBetaAgent -a depth=2 -g RandomGhost -k 2 --seed 7'
    """
    if match.ghost_args:
        return None
    words = ["pacman", "-l", layout, "-p", match.pacman]
    if match.pacman_args:
        words += ["-a", ",".join(f"{k}={v}" for k, v in match.pacman_args.items())]
    words += ["-g", match.ghosts, "-k", str(num_ghosts), "--seed", str(seed)]
    if max_turns is not None:
        words += ["--max-turns", str(max_turns)]
    if timeout is not None:
        words += ["--timeout", str(timeout)]
    return shlex.join(words)
