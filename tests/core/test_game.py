from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents import AlphaBetaAgent, DirectionalGhost, RandomAgent
from pacman import Direction, GameState, IllegalActionError, PacmanError, RecordError
from pacman.core.game import (
    AgentCrashError,
    AgentTimeoutError,
    GameRecord,
    derive_seed,
    replay,
    run_game,
)


def play(seed: int, layout: str = "smallClassic", **kwargs: Any) -> GameRecord:
    start = GameState.initial(layout)
    agents: list[Any] = [RandomAgent(0, random.Random(derive_seed(seed, 0)))]
    agents += [
        DirectionalGhost(i, random.Random(derive_seed(seed, i))) for i in range(1, start.num_agents)
    ]
    return run_game(start, agents, seed=seed, **kwargs)


class Looping:
    def get_action(self, state: GameState) -> Direction:
        while True:
            pass


class Sleepy:
    def get_action(self, state: GameState) -> Direction:
        time.sleep(5)
        return Direction.STOP


class Crashing:
    def get_action(self, state: GameState) -> Direction:
        raise KeyError("boom")


class Cheating:
    def get_action(self, state: GameState) -> str:
        return "Teleport"


class Stopping:
    def get_action(self, state: GameState) -> Direction:
        return Direction.STOP


def with_ghosts(pacman: Any, layout: str = "smallClassic") -> tuple[GameState, list[Any]]:
    start = GameState.initial(layout)
    ghosts = [DirectionalGhost(i, random.Random(i)) for i in range(1, start.num_agents)]
    return start, [pacman, *ghosts]


def test_same_seed_same_game() -> None:
    assert play(3) == play(3)
    assert play(3).actions != play(4).actions


def test_game_is_reproducible_in_another_process() -> None:
    record = play(11)
    code = (
        "import json, sys; sys.path.insert(0, '.');"
        "from tests.core.test_game import play;"
        "print(json.dumps(play(11).to_dict()))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == record.to_dict()


def test_record_replays_every_state() -> None:
    record = play(5)
    states = list(replay(record))
    assert len(states) == record.num_moves + 1
    assert [s.score for s in states[1:]] == list(record.scores)
    assert states[-1].is_win() == (record.outcome == "win")
    assert states[-1].is_lose() == (record.outcome == "lose")


def test_record_json_round_trip(tmp_path: Path) -> None:
    record = play(7)
    path = tmp_path / "game.json"
    record.save(path)
    assert GameRecord.load(path) == record
    assert json.loads(path.read_text())["format"] == "pacman-record/1"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not JSON"),
        ('{"format": "other"}', "not a game record"),
        ('{"format": "pacman-record/1", "actions": []}', "malformed game record"),
        (None, "cannot read record"),
    ],
)
def test_bad_record_files(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(RecordError, match=message) as info:
        GameRecord.load(path)
    assert str(path) in str(info.value)
    # In the PacmanError family, and still a ValueError for callers that catch that.
    assert isinstance(info.value, PacmanError)
    assert isinstance(info.value, ValueError)


def test_corrupt_record_names_the_move() -> None:
    record = play(2)
    data = record.to_dict()
    data["actions"] = ["Stop", "Up"]
    data["scores"] = [-1, -1]
    broken = GameRecord.from_dict(data)
    with pytest.raises(RecordError, match=r"record move 2 \('Up'\)"):
        list(replay(broken))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(scores=d["scores"][:-1]), r"actions but \d+ scores"),
        (
            lambda d: d.update(actions=d["actions"][:10], scores=d["scores"][:10]),
            r"ended with 'lose', but its 10 moves give a game still in play",
        ),
        (
            lambda d: d["scores"].__setitem__(4, 99999),
            r"record move 5 .* but the record says 99999",
        ),
        (lambda d: d.update(outcome="win"), r"ended with 'win', but .* give a lose"),
        (lambda d: d.update(outcome="max_turns"), r"ended with 'max_turns', but .* give a lose"),
    ],
    ids=["lengths", "cut-short", "edited-score", "edited-outcome", "terminal-not-cut"],
)
def test_replay_rejects_a_record_whose_result_does_not_follow(
    edit: Callable[[dict[str, Any]], None], message: str
) -> None:
    record = play(2)
    assert record.outcome == "lose"
    data = record.to_dict()
    edit(data)
    with pytest.raises(RecordError, match=message):
        list(replay(GameRecord.from_dict(data)))


def test_max_turns_counts_pacman_moves() -> None:
    start, agents = with_ghosts(Stopping())
    record = run_game(start, agents, max_turns=7)
    assert record.outcome == "max_turns"
    assert record.num_turns == 7
    assert record.num_moves == 7 * start.num_agents


def test_stopping_forever_costs_one_point_per_turn() -> None:
    start = GameState.initial("testClassic", num_ghosts=0)
    record = run_game(start, [Stopping()], max_turns=5)
    assert record.scores == (-1, -2, -3, -4, -5)


@pytest.mark.parametrize("agent", [Looping(), Sleepy()])
def test_slow_agent_is_interrupted(agent: Any) -> None:
    start, agents = with_ghosts(agent)
    t0 = time.perf_counter()
    record = run_game(start, agents, timeout=0.2, catch_errors=True)
    assert time.perf_counter() - t0 < 4  # interrupted, not waited for
    assert record.outcome == "timeout"
    assert record.failed_agent == 0
    assert "timed out" in (record.error or "")
    with pytest.raises(AgentTimeoutError, match="agent 0"):
        run_game(start, agents, timeout=0.2)


def test_crashing_agent() -> None:
    start, agents = with_ghosts(Crashing())
    record = run_game(start, agents, catch_errors=True)
    assert (record.outcome, record.failed_agent) == ("crash", 0)
    assert "KeyError" in (record.error or "")
    with pytest.raises(AgentCrashError, match=r"agent 0 .*KeyError") as info:
        run_game(start, agents)
    assert isinstance(info.value.__cause__, KeyError)


def test_illegal_action_is_rejected_with_legal_list() -> None:
    start, agents = with_ghosts(Cheating())
    record = run_game(start, agents, catch_errors=True)
    assert record.outcome == "illegal"
    with pytest.raises(IllegalActionError, match=r"'Teleport'.*legal: \["):
        run_game(start, agents)


def test_register_initial_state_and_classic_get_action() -> None:
    class Classic:
        def __init__(self) -> None:
            self.registered: list[GameState] = []

        def registerInitialState(self, state: GameState) -> None:
            self.registered.append(state)

        def getAction(self, state: GameState) -> str:
            return "Stop"

    agent = Classic()
    start, agents = with_ghosts(agent)
    run_game(start, agents, max_turns=3)
    assert agent.registered == [start]


def test_should_stop_aborts() -> None:
    start, agents = with_ghosts(AlphaBetaAgent(1))
    calls = iter(range(100))
    record = run_game(start, agents, should_stop=lambda: next(calls) >= 4)
    assert record.outcome == "aborted"
    assert record.num_moves == 4


def test_on_step_sees_every_move() -> None:
    seen: list[tuple[int, Direction]] = []
    start, agents = with_ghosts(AlphaBetaAgent(1))
    record = run_game(start, agents, on_step=lambda b, i, a, s: seen.append((i, a)))
    assert [str(a) for _, a in seen] == list(record.actions)
    assert [i for i, _ in seen] == [k % start.num_agents for k in range(record.num_moves)]


def test_wrong_number_of_agents() -> None:
    with pytest.raises(ValueError, match="needs 3 agents"):
        run_game(GameState.initial("smallClassic"), [Stopping()])


class Exiting:
    def get_action(self, state: GameState) -> Direction:
        raise SystemExit(3)


def test_an_agent_calling_sys_exit_has_crashed() -> None:
    start, agents = with_ghosts(Exiting())
    record = run_game(start, agents, catch_errors=True)
    assert record.outcome == "crash"
    assert record.error is not None
    assert "SystemExit: 3" in record.error


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\xff", "not a game record: a binary file"),
        (b'{"format": Infinity}', "Infinity is not a number a record can hold"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b"{", "not JSON"),
        (b"x" * 65, "over 0 MiB"),
    ],
)
def test_loading_a_bad_record_raises_record_error_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes, message: str
) -> None:
    # Every caller of GameRecord.load is protected, not only the pacman command (issue 13).
    from pacman.core import record as record_module

    if message.startswith("over"):
        monkeypatch.setattr(record_module, "MAX_RECORD_BYTES", 64)
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(RecordError, match=message) as info:
        GameRecord.load(path)
    assert str(info.value).startswith(str(path))
