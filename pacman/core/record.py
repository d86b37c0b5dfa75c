"""Game records: a compact, replayable account of one game, saved as JSON.

A `GameRecord` holds the layout text and the action list, so `replay` reproduces every
state of the game exactly, with no agents and no randomness. `pacman.core.game.run_game`
makes them.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from pacman.core.errors import PacmanError, RecordError
from pacman.core.layout import Layout
from pacman.core.state import GameState

__all__ = ["MAX_RECORD_BYTES", "RECORD_FORMAT", "GameRecord", "Outcome", "RecordError", "replay"]

RECORD_FORMAT: Final = "pacman-record/1"
"""The ``format`` tag written into every saved record."""

Outcome = Literal["win", "lose", "max_turns", "timeout", "crash", "illegal", "aborted"]
"""How a game ended: won, lost, cut at the turn limit, or ended by a failing agent."""


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
            RecordError: If the data is not a game record; the message names ``source``.
        """
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(f"{source}: not a game record (expected format {RECORD_FORMAT!r})")
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
            raise RecordError(f"{source}: malformed game record: {exc!r}") from None

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record as JSON."""
        Path(path).write_text(json.dumps(self.to_dict(), separators=(",", ":")) + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read a record written by `save`.

        Raises:
            RecordError: If the file is missing, not JSON, or not a record; the message
                names the file.
        """
        try:
            with open(path, "rb") as file:
                data = file.read(MAX_RECORD_BYTES + 1)
        except OSError as exc:
            raise RecordError(f"{path}: cannot read record: {exc.strerror or exc}") from None
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(f"{path}: not a game record (over {MAX_RECORD_BYTES // 2**20} MiB)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(
                f"{path}: not a game record: a binary file (byte 0x{data[exc.start]:02x} at "
                f"offset {exc.start} is not UTF-8 text)"
            ) from None
        try:
            raw = json.loads(text, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
        except ValueError as exc:  # Infinity, -Infinity or NaN
            raise RecordError(f"{path}: not a game record: {exc}") from None
        except RecursionError:
            raise RecordError(f"{path}: not a game record: JSON nested too deeply") from None
        try:
            return cls.from_dict(raw, source=str(path))
        except OverflowError as exc:  # a number too large for an int: 1e400
            raise RecordError(f"{path}: malformed game record: {exc}") from None


MAX_RECORD_BYTES = 64 * 2**20
"""The largest record file `GameRecord.load` reads (a 100,000-move game takes about 2 MiB)."""


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number a record can hold")


def replay(record: GameRecord) -> Iterator[GameState]:
    """Yield the start state and the state after every action of ``record``.

    The record's scores and outcome are checked against the replayed game, so a record
    that was cut short or edited is rejected rather than shown with a made-up result.

    Raises:
        RecordError: If an action in the record is illegal, a recorded score differs from
            the replayed one, or the outcome does not fit the final state (the record is
            corrupt or was made by a different engine version); the message names the
            move.
    """
    if len(record.scores) != len(record.actions):
        raise RecordError(
            f"record has {len(record.actions)} actions but {len(record.scores)} scores"
        )
    state = GameState.initial(record.layout(), record.num_ghosts)
    yield state
    n = state.num_agents
    for i, action in enumerate(record.actions):
        try:
            state = state.successor(i % n, action)
        except PacmanError as exc:
            raise RecordError(
                f"record move {i + 1} ({action!r}) cannot be replayed: {exc}"
            ) from None
        if state.score != record.scores[i]:
            raise RecordError(
                f"record move {i + 1} ({action!r}) gives score {state.score}, "
                f"but the record says {record.scores[i]}"
            )
        yield state
    ended = "win" if state.is_win() else "lose" if state.is_lose() else None
    # A finished game must say how it ended; one still in play must not claim an end.
    fits = record.outcome == ended if ended else record.outcome not in ("win", "lose")
    if not fits:
        actual = f"a {ended}" if ended else "a game still in play"
        raise RecordError(
            f"record says the game ended with {record.outcome!r}, "
            f"but its {len(record.actions)} moves give {actual}"
        )
