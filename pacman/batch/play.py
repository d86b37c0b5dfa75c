"""Playing one game of an evaluation and turning it into a `GameResult`.

This is the code that runs in worker processes (local pool or Ray), so it imports only
the engine and the agents. `play_task` never raises for anything an agent does: a crash,
a timeout, an illegal move, even ``sys.exit`` inside an agent becomes the game's outcome.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pacman.batch.result import GameResult, Timing
from pacman.batch.spec import GameTask
from pacman.core.game import GameRecord, run_game
from pacman.core.layout import Layout
from pacman.core.state import GameState
from pacman.core.types import Direction
from pacman.runner import MatchSpec, build_agents, game_seed

__all__ = ["Heartbeat", "failed_record", "play_task"]

Heartbeat = Callable[[int], None]
"""Told which agent is about to move: before the game and after each move."""

_layouts: dict[tuple[str, str], Layout] = {}
"""Layouts parsed in this process, so a worker parses each one once."""


def _layout(task: GameTask) -> Layout:
    key = (task.layout_name, task.layout_text)
    layout = _layouts.get(key)
    if layout is None:
        layout = _layouts[key] = Layout.from_text(task.layout_text, name=task.layout_name)
    return layout


def _base(task: GameTask) -> dict[str, Any]:
    """The result fields that say which game ``task`` is."""
    return {
        "pacman": task.pacman.name,
        "pacman_args": task.pacman.args_dict,
        "ghosts": task.ghosts.name,
        "ghost_args": task.ghosts.args_dict,
        "layout": task.layout_label,
        "num_ghosts": task.num_ghosts,
        "game": task.game,
        "seed": task.seed,
        "max_turns": task.max_turns,
        "timeout": task.timeout,
    }


def failed_record(
    task: GameTask,
    error: str,
    seconds: float = 0.0,
    *,
    outcome: str = "crash",
    failed_agent: int | None = None,
) -> GameResult:
    """The result of a game that ended without a game record (its worker failed).

    Score, turns and moves are 0: what was played is lost with the worker.
    """
    return GameResult(
        **_base(task),
        outcome=outcome,
        win=False,
        score=0,
        turns=0,
        moves=0,
        nodes=None,
        nodes_per_move=None,
        failed_agent=failed_agent,
        error=error,
        timing=Timing(round(seconds, 6), None, None),
    )


def play_task(task: GameTask, heartbeat: Heartbeat | None = None) -> GameResult:
    """Play the game ``task`` describes and return its result.

    With ``task.keep_record`` the result also carries the replayable game
    (`GameResult.game_record`), which is never written to a results file.

    Args:
        task: The game.
        heartbeat: Called with the index of the agent about to move, before the game
            and after every move (a watchdog uses it to spot an agent that hangs).
    """
    t0 = time.perf_counter()
    if heartbeat is not None:
        heartbeat(0)  # from here on, agent code runs: creating the agents is watched too
    try:
        return _play(task, t0, heartbeat)
    except (Exception, SystemExit) as exc:
        # SystemExit: an agent called sys.exit(); run_game only catches Exception.
        return failed_record(
            task, f"the game failed: {type(exc).__name__}: {exc}", time.perf_counter() - t0
        )


def _play(task: GameTask, t0: float, heartbeat: Heartbeat | None) -> GameResult:
    layout = _layout(task)
    match = MatchSpec(
        pacman=task.pacman.name,
        ghosts=task.ghosts.name,
        pacman_args=task.pacman.args_dict,
        ghost_args=task.ghosts.args_dict,
    )
    # Game 0 of the series `task.seed`: what `pacman --seed <task.seed>` plays first.
    seed = game_seed(task.seed, 0)
    agents = build_agents(match, layout, task.num_ghosts, seed)
    pacman = agents[0]
    nodes = 0
    searches = 0

    def count_nodes(before: GameState, agent: int, action: Direction, after: GameState) -> None:
        nonlocal nodes, searches
        if heartbeat is not None:
            heartbeat(agent + 1 if agent + 1 < after.num_agents else 0)
        if agent == 0:
            generated = getattr(getattr(pacman, "last_result", None), "generated", None)
            if isinstance(generated, int) and not isinstance(generated, bool):
                nodes += generated
                searches += 1

    record = run_game(
        GameState.initial(layout, task.num_ghosts),
        agents,
        timeout=task.timeout,
        max_turns=task.max_turns,
        on_step=count_nodes,
        catch_errors=True,
        seed=seed,
    )
    return _result(task, record, nodes if searches else None, searches, time.perf_counter() - t0)


def _result(
    task: GameTask, record: GameRecord, nodes: int | None, searches: int, seconds: float
) -> GameResult:
    n = record.num_ghosts + 1
    pacman_seconds = record.move_seconds[::n]
    return GameResult(
        **_base(task),
        outcome=record.outcome,
        win=record.is_win,
        score=record.final_score,
        turns=record.num_turns,
        moves=record.num_moves,
        nodes=nodes,
        nodes_per_move=round(nodes / searches, 3) if nodes is not None else None,
        failed_agent=record.failed_agent,
        error=record.error,
        timing=Timing(
            seconds=round(seconds, 6),
            seconds_per_move=(
                round(sum(pacman_seconds) / len(pacman_seconds), 7) if pacman_seconds else None
            ),
            max_seconds_per_move=round(max(pacman_seconds), 7) if pacman_seconds else None,
        ),
        game_record=record.to_dict() if task.keep_record else None,
    )
