"""Running a game: turn order, per-move time limits and failing agents.

`run_game` plays agents against each other from a start state and returns a
`GameRecord` (`pacman.core.record`, re-exported here: the record is what a game gives).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Sequence
from hashlib import blake2b
from typing import Any

from pacman.core.errors import IllegalActionError, PacmanError, describe_exception
from pacman.core.record import RECORD_FORMAT, GameRecord, Outcome, RecordError, replay
from pacman.core.state import GameState
from pacman.core.types import Direction

__all__ = [
    "RECORD_FORMAT",
    "AgentCrashError",
    "AgentTimeoutError",
    "GameRecord",
    "Outcome",
    "RecordError",
    "derive_seed",
    "replay",
    "run_game",
]


class AgentTimeoutError(PacmanError, TimeoutError):
    """An agent took longer than the per-move time limit."""


class AgentCrashError(PacmanError, RuntimeError):
    """An agent raised an exception; the original is chained as ``__cause__``."""


def derive_seed(seed: int, *parts: object) -> int:
    """A stable 63-bit seed derived from ``seed`` and any labels (same in every process).

    Python's ``hash`` of a string changes between processes, so derived seeds use a
    cryptographic hash of the labels' text instead.

    >>> derive_seed(1, "ghost", 2) == derive_seed(1, "ghost", 2)
    True
    >>> derive_seed(1, "ghost", 2) != derive_seed(1, "ghost", 3)
    True
    """
    text = repr((seed, *parts)).encode()
    return int.from_bytes(blake2b(text, digest_size=8).digest(), "big") >> 1


StepCallback = Callable[[GameState, int, Direction, GameState], None]
"""Called after every move with (state before, agent index, action, state after)."""


def _describe(agent: Any) -> str:
    text = repr(agent)
    if text.startswith("<"):  # default object repr: use the class name
        return type(agent).__name__
    return text


def run_game(
    state: GameState,
    agents: Sequence[Any],
    *,
    timeout: float | None = None,
    max_turns: int | None = None,
    on_step: StepCallback | None = None,
    catch_errors: bool = False,
    seed: int | None = None,
    agent_names: Sequence[str] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> GameRecord:
    """Play a game from ``state`` until it is won or lost (or cut short).

    Agents move in turn order 0, 1, ..., k, 0, ... Each agent needs a
    ``get_action(state)`` method (classic ``getAction`` works too) and may have
    ``register_initial_state(state)``, called once before the first move.

    Args:
        state: The start state.
        agents: One agent per agent index of ``state``.
        timeout: Per-move time limit in seconds. In the main thread on POSIX a slow
            agent is interrupted; elsewhere the limit is checked after the move.
        max_turns: Stop after this many Pacman moves (outcome ``"max_turns"``).
        on_step: Called after every move (for displays and statistics).
        catch_errors: Record a crashing, slow or illegal agent as the game's outcome
            instead of raising.
        seed: Stored in the record, for reference.
        agent_names: Descriptions stored in the record (default: the agents' reprs).
        should_stop: Polled before every move; when it returns true the game ends with
            outcome ``"aborted"`` (a closed window, say).

    Returns:
        The game record.

    Raises:
        ValueError: If the number of agents does not match the state.
        AgentTimeoutError: If an agent is too slow and ``catch_errors`` is false.
        IllegalActionError: If an agent plays an illegal move and ``catch_errors`` is false.
        AgentCrashError: If an agent raises and ``catch_errors`` is false; the agent's
            exception is its ``__cause__``. Each of these three carries the record of the
            game up to the failure as its ``record`` attribute.
    """
    n = state.num_agents
    if len(agents) != n:
        raise ValueError(
            f"this game needs {n} agents (Pacman and {n - 1} ghosts), got {len(agents)}"
        )
    if timeout is not None and timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout!r}")
    names = tuple(agent_names) if agent_names is not None else tuple(_describe(a) for a in agents)
    start = state
    actions: list[str] = []
    scores: list[int] = []
    seconds: list[float] = []
    outcome: Outcome | None = None
    failed: int | None = None
    error: str | None = None

    def finish() -> GameRecord:
        assert outcome is not None
        return GameRecord(
            layout_name=start.layout.name,
            layout_text=start.layout.to_text(),
            num_ghosts=n - 1,
            agents=names,
            actions=tuple(actions),
            scores=tuple(scores),
            outcome=outcome,
            seed=seed,
            failed_agent=failed,
            error=error,
            move_seconds=tuple(seconds),
        )

    for index, agent in enumerate(agents):
        register = getattr(agent, "register_initial_state", None) or getattr(
            agent, "registerInitialState", None
        )
        if register is None:
            continue
        try:
            register(start)
        except (Exception, SystemExit) as exc:  # an agent calling sys.exit crashed
            error = (
                f"agent {index} ({names[index]}) crashed before the game: {describe_exception(exc)}"
            )
            if not catch_errors:
                raise AgentCrashError(error) from exc
            outcome, failed = "crash", index
            return finish()

    turns = 0
    agent_index = 0
    while not state.is_terminal():
        if agent_index == 0:
            if max_turns is not None and turns >= max_turns:
                outcome = "max_turns"
                return finish()
            turns += 1
        if should_stop is not None and should_stop():
            outcome = "aborted"
            return finish()
        agent = agents[agent_index]
        choose = getattr(agent, "get_action", None) or agent.getAction
        t0 = time.perf_counter()
        try:
            action = _timed_call(choose, state, timeout)
            elapsed = time.perf_counter() - t0
            if timeout is not None and elapsed > timeout:
                raise AgentTimeoutError(f"took {elapsed:.3f} s, over the {timeout:g} s limit")
            legal = state.legal_actions(agent_index)
            if action not in legal:
                where = state.agent_position(agent_index)
                shown = [str(a) for a in legal]
                raise IllegalActionError(
                    f"returned illegal action {action!r} at {where}; legal: {shown}"
                )
        except AgentTimeoutError as exc:
            who = f"agent {agent_index} ({names[agent_index]})"
            outcome, failed, error = "timeout", agent_index, f"{who} timed out: {exc}"
            if not catch_errors:
                raise _with_record(AgentTimeoutError(f"{who} {exc}"), finish()) from None
            return finish()
        except IllegalActionError as exc:
            who = f"agent {agent_index} ({names[agent_index]})"
            outcome, failed, error = "illegal", agent_index, f"{who} {exc}"
            if not catch_errors:
                raise _with_record(IllegalActionError(error), finish()) from None
            return finish()
        except (Exception, SystemExit) as exc:  # an agent calling sys.exit crashed
            who = f"agent {agent_index} ({names[agent_index]})"
            outcome, failed = "crash", agent_index
            error = f"{who} crashed: {describe_exception(exc)}"
            if not catch_errors:
                raise _with_record(AgentCrashError(error), finish()) from exc
            return finish()
        seconds.append(elapsed)
        before = state
        state = state.successor(agent_index, action)
        actions.append(str(action))
        scores.append(state.score)
        if on_step is not None:
            on_step(before, agent_index, Direction(action), state)
        agent_index = agent_index + 1 if agent_index + 1 < n else 0
    outcome = "win" if state.is_win() else "lose"
    return finish()


def _with_record(error: PacmanError, record: GameRecord) -> PacmanError:
    """``error`` carrying the record of the game up to the failure, as ``error.record``."""
    error.record = record  # type: ignore[attr-defined]
    return error


def _timed_call(fn: Callable[[GameState], Any], state: GameState, timeout: float | None) -> Any:
    """Call ``fn(state)``, interrupting it after ``timeout`` seconds where signals allow."""
    if (
        timeout is None
        or not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        return fn(state)

    def on_alarm(signum: int, frame: Any) -> None:
        raise AgentTimeoutError(f"did not answer within the {timeout:g} s limit")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return fn(state)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
