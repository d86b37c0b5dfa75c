"""Running a game: turn order, per-move time limits, and a compact, replayable record.

`run_game` plays agents against each other from a start state and returns a
`GameRecord`. The record holds the layout text and the action list, so `replay`
reproduces every state of the game exactly, with no agents and no randomness.
"""

from __future__ import annotations

import json
import math
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from hashlib import blake2b
from pathlib import Path
from typing import Any, Final, Literal

from pacman.core.errors import IllegalActionError, PacmanError
from pacman.core.layout import Layout
from pacman.core.state import GameState
from pacman.core.types import Direction

__all__ = [
    "RECORD_FORMAT",
    "AgentCrashError",
    "AgentTimeoutError",
    "GameRecord",
    "Outcome",
    "derive_seed",
    "replay",
    "run_game",
]

RECORD_FORMAT: Final = "pacman-record/1"
"""The ``format`` tag written into every saved record."""

Outcome = Literal["win", "lose", "max_turns", "timeout", "crash", "illegal", "aborted"]
"""How a game ended: won, lost, cut at the turn limit, or ended by a failing agent."""


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


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to replay a game exactly, plus how it ended.

    Moves are in turn order: agent ``i % num_agents`` played ``actions[i]``.
    """

    layout_name: str
    """The layout's name."""
    layout_text: str
    """The full layout text, so that games on custom layout files replay anywhere."""
    num_ghosts: int
    """How many ghosts played."""
    agents: tuple[str, ...]
    """A description of each agent, by index (e.g. ``"AlphaBetaAgent(depth=2, ...)"``)."""
    actions: tuple[str, ...]
    """Every action played, in turn order."""
    scores: tuple[int, ...]
    """The score after each action."""
    outcome: Outcome
    """How the game ended."""
    seed: int | None = None
    """The seed the game was played with, if any."""
    failed_agent: int | None = None
    """Index of the agent that crashed, timed out or played an illegal move."""
    error: str | None = None
    """What went wrong, when an agent failed."""
    move_seconds: tuple[float, ...] = field(default=(), compare=False)
    """Seconds each action took to choose (not saved to JSON: it varies run to run)."""

    @property
    def final_score(self) -> int:
        """The score at the end of the game."""
        return self.scores[-1] if self.scores else 0

    @property
    def is_win(self) -> bool:
        """Whether Pacman won."""
        return self.outcome == "win"

    @property
    def num_moves(self) -> int:
        """Actions played by all agents."""
        return len(self.actions)

    @property
    def num_turns(self) -> int:
        """Moves Pacman made (one turn is Pacman's move and the ghosts' replies)."""
        return math.ceil(len(self.actions) / (self.num_ghosts + 1))

    def layout(self) -> Layout:
        """The layout the game was played on."""
        return Layout.from_text(self.layout_text, name=self.layout_name)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (without the timing, which is not reproducible)."""
        d = asdict(self)
        d.pop("move_seconds")
        d["agents"] = list(self.agents)
        d["actions"] = list(self.actions)
        d["scores"] = list(self.scores)
        return {"format": RECORD_FORMAT, **d}

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, source: str = "<record>") -> GameRecord:
        """Rebuild a record from `to_dict` output.

        Raises:
            ValueError: If the data is not a game record; the message names ``source``.
        """
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise ValueError(f"{source}: not a game record (expected format {RECORD_FORMAT!r})")
        try:
            return cls(
                layout_name=str(data["layout_name"]),
                layout_text=str(data["layout_text"]),
                num_ghosts=int(data["num_ghosts"]),
                agents=tuple(str(a) for a in data["agents"]),
                actions=tuple(str(a) for a in data["actions"]),
                scores=tuple(int(s) for s in data["scores"]),
                outcome=data["outcome"],
                seed=data.get("seed"),
                failed_agent=data.get("failed_agent"),
                error=data.get("error"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{source}: malformed game record: {exc!r}") from None

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record as JSON."""
        Path(path).write_text(json.dumps(self.to_dict(), separators=(",", ":")) + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read a record written by `save`.

        Raises:
            ValueError: If the file is missing, not JSON, or not a record.
        """
        try:
            data = json.loads(Path(path).read_text())
        except OSError as exc:
            raise ValueError(f"{path}: cannot read record: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
        return cls.from_dict(data, source=str(path))


def replay(record: GameRecord) -> Iterator[GameState]:
    """Yield the start state and the state after every action of ``record``.

    The record's scores and outcome are checked against the replayed game, so a record
    that was cut short or edited is rejected rather than shown with a made-up result.

    Raises:
        ValueError: If an action in the record is illegal, a recorded score differs from
            the replayed one, or the outcome does not fit the final state (the record is
            corrupt or was made by a different engine version); the message names the
            move.
    """
    if len(record.scores) != len(record.actions):
        raise ValueError(
            f"record has {len(record.actions)} actions but {len(record.scores)} scores"
        )
    state = GameState.initial(record.layout(), record.num_ghosts)
    yield state
    n = state.num_agents
    for i, action in enumerate(record.actions):
        try:
            state = state.successor(i % n, action)
        except PacmanError as exc:
            raise ValueError(
                f"record move {i + 1} ({action!r}) cannot be replayed: {exc}"
            ) from None
        if state.score != record.scores[i]:
            raise ValueError(
                f"record move {i + 1} ({action!r}) gives score {state.score}, "
                f"but the record says {record.scores[i]}"
            )
        yield state
    ended = "win" if state.is_win() else "lose" if state.is_lose() else None
    # A finished game must say how it ended; one still in play must not claim an end.
    fits = record.outcome == ended if ended else record.outcome not in ("win", "lose")
    if not fits:
        actual = f"a {ended}" if ended else "a game still in play"
        raise ValueError(
            f"record says the game ended with {record.outcome!r}, "
            f"but its {len(record.actions)} moves give {actual}"
        )


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
                f"agent {index} ({names[index]}) crashed before the game: "
                f"{type(exc).__name__}: {exc}"
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
            error = f"{who} crashed: {type(exc).__name__}: {exc}"
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
