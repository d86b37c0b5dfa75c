"""Evaluation games (q1, q5) end as the classic rules end them; time, not turns, bounds them.

A game is never cut at a move count (the classic grader plays every game to its end); an
endless game is stopped by the test's time limit and reported as such; a move that times
out makes that game a loss with its score at that point, so stalling never beats losing.
"""

from __future__ import annotations

import json
import textwrap
import time
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.grading.eval_games import EvalAgentCase, load_eval_agent_cases, run_eval_agent
from autograder.grading.traces import load_game_traces
from autograder.grading.workers import SandboxProcess
from pacman.core.layout import Layout, load_shipped_layout

# One dot at the far end of a corridor, no ghost: a game ends only when Pacman eats it.
CORRIDOR = Layout.from_text("%%%%%%\n%P  .%\n%%%%%%", name="corridor")


def case(**changes: object) -> EvalAgentCase:
    base = dict(
        name="probe",
        question="q1",
        description="probe",
        agent="Agent",
        source="student",
        layout="corridor",
        ghosts="RandomGhost",
        num_ghosts=0,
        num_games=3,
        seed=0,
        move_seconds=2.0,
        test_seconds=20.0,
        path=Path("probe.toml"),
        wins_thresholds=(1, 3),
        board=CORRIDOR,
    )
    base.update(changes)
    return EvalAgentCase(**base)  # type: ignore[arg-type]


def grade(tmp_path: Path, source: str, probe: EvalAgentCase) -> tuple[str, float, list[str]]:
    path = tmp_path / "multi_agents.py"
    path.write_text(textwrap.dedent(source))
    worker = SandboxProcess(path)
    try:
        result = run_eval_agent(probe, worker)
    finally:
        worker.close()
    return result.status, result.points, list(result.messages)


def test_the_shipped_evaluation_games_are_not_cut_at_a_move_count() -> None:
    assert all(c.max_turns is None for c in load_eval_agent_cases())


def test_a_game_longer_than_500_moves_is_played_to_its_win(tmp_path: Path) -> None:
    status, points, messages = grade(
        tmp_path,
        """
        class Agent:
            moves = 0

            def get_action(self, state):
                Agent.moves += 1
                return "Stop" if Agent.moves % 700 else "East"
        """,
        case(num_games=1, wins_thresholds=(1,)),
    )
    assert (status, points) == ("passed", 1.0), messages
    assert "outcomes: win" in messages


def test_an_endless_game_is_stopped_by_the_test_time_and_reported(tmp_path: Path) -> None:
    status, points, messages = grade(
        tmp_path,
        """
        class Agent:
            def get_action(self, state):
                return "Stop"
        """,
        case(test_seconds=1.5),
    )
    assert (status, points) == ("failed", 0.0)
    assert "outcomes: timeout, not played, not played" in messages
    assert any("ran out during game 1" in m and "games 2-3 as not played" in m for m in messages)


def test_a_move_timeout_is_a_loss_with_the_score_at_that_move(tmp_path: Path) -> None:
    # Three moves (score -3), then a move slower than the limit: the game scores -3, not 0.
    status, points, messages = grade(
        tmp_path,
        """
        import time

        class Agent:
            def __init__(self):
                self.moves = 0

            def get_action(self, state):
                self.moves += 1
                if self.moves > 3:
                    time.sleep(5)
                return "Stop"
        """,
        case(num_games=1, move_seconds=0.5, score_thresholds=(-2.0,), wins_thresholds=()),
    )
    assert (status, points) == ("failed", 0.0), messages
    assert "scores: -3" in messages
    assert "outcomes: timeout" in messages


# --- the submission's time budget, and crashes that cost a restart each ----------------


def report(tmp_path: Path, source: str, *args: str) -> dict[str, dict[str, object]]:
    path = tmp_path / "multi_agents.py"
    path.write_text(textwrap.dedent(source))
    out = tmp_path / "report.json"
    assert main([str(path), "--format", "json", "--output", str(out), *args]) == 0
    data = json.loads(out.read_text())
    return {t["name"]: t for q in data["questions"] for t in q["tests"]}


def test_tests_not_started_within_the_time_budget_are_reported_as_not_run(
    tmp_path: Path,
) -> None:
    t0 = time.monotonic()
    tests = report(
        tmp_path,
        """
        import time
        from autograder.sandbox.student import MultiAgentSearchAgent

        class MinimaxAgent(MultiAgentSearchAgent):
            def get_action(self, state):
                time.sleep(0.5)
                return state.legal_actions(0)[0]
        """,
        "-q",
        "q2",
        "-j",
        "1",
        "--time-budget",
        "2",
    )
    elapsed = time.monotonic() - t0
    skipped = [t for t in tests.values() if "time budget" in " ".join(t["messages"])]
    assert len(tests) - 6 <= len(skipped) < len(tests)
    assert all(t["status"] == "timeout" and t["points"] == 0 for t in skipped)
    assert elapsed < 15


def test_a_file_that_kills_its_worker_in_every_test_is_given_up_on(tmp_path: Path) -> None:
    tests = report(
        tmp_path,
        """
        import os
        from autograder.sandbox.student import MultiAgentSearchAgent

        class MinimaxAgent(MultiAgentSearchAgent):
            def get_action(self, state):
                os._exit(3)
        """,
        "-q",
        "q2",
        "-j",
        "1",
    )
    given_up = [t for t in tests.values() if "crashed the worker" in " ".join(t["messages"])]
    assert len(given_up) >= len(tests) - 2 > 0


def test_the_minimax_trace_accepts_the_search_with_and_without_stop() -> None:
    # The classic grader's minimax game test lists 59 and 35 states for its first move:
    # the reference search with Pacman's Stop and the same search without it.
    (case,) = [c for c in load_game_traces() if c.algorithm == "minimax"]
    assert case.trace is not None
    (_, with_stop), (best_ns, without_stop) = case.trace.accepted(0)
    assert (with_stop, without_stop) == (59, 35)
    assert "Stop" not in best_ns


TINY = "%%%%%\n%P .%\n%%%%%\n"


@pytest.mark.parametrize("name", ["openClassic", "openClassic.lay", "smallClassic.lay"])
def test_a_board_in_the_students_folder_never_replaces_a_graded_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    (tmp_path / name).write_text(TINY)
    monkeypatch.chdir(tmp_path)
    for case in [*load_eval_agent_cases(), *load_game_traces()]:
        assert case.board == load_shipped_layout(case.layout)
        assert case.board is not None
        assert case.board.to_text() != TINY


@pytest.mark.parametrize("question", ["q1", "q5"])
def test_the_report_prints_a_command_that_plays_a_graded_game_again(
    question: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A classic file: q1 plays its ReflexAgent, q5 our expectimax with its
    # betterEvaluationFunction; the printed command plays the same game (same score).
    import shlex

    from autograder.grading.suite import build_suite, run_suite, select
    from pacman.cli import main as pacman_main

    path = (
        Path(__file__).parent / "fixtures" / "classic_corpus" / "a_textbook_first_tie"
    ) / "multiAgents.py"
    (result,) = run_suite(path, select(build_suite(), [question]), jobs=1)
    (test,) = result.tests
    (line,) = [m for m in test.messages if m.startswith("watch game")]
    game = int(line.split()[2]) - 1
    scores = next(m for m in test.messages if m.startswith("scores: "))
    expected = int(scores.removeprefix("scores: ").split(", ")[game])
    command = shlex.split(line.partition(" again: ")[2])
    assert command[0] == "pacman"
    assert pacman_main([*command[1:], "-q", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [expected]
