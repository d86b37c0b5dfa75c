"""Classic habits on the ``pacman`` command: the classic flags, the student's class taken
from the folder, and seeds that replay games of agents calling ``random`` (issue 10)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pacman.cli import CLASSIC_RECORD, FIXED_SEED, build_parser, main
from pacman.registry import (
    PACMAN_AGENTS,
    load_evaluation,
    resolve_agent_class,
    student_agent_spec,
)
from pacman.runner import game_seed

# A student's classic file: a random Pacman (it draws from the global `random`) and a
# minimax agent that only goes West when it can (so its games are easy to recognise).
CLASSIC_FILE = """\
import random
from game import Agent, Directions


class MinimaxAgent(Agent):
    def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
        self.index = 0
        self.depth = int(depth)

    def getAction(self, gameState):
        legal = gameState.getLegalActions(0)
        return Directions.WEST if Directions.WEST in legal else legal[0]


class RandomPacman(Agent):
    def getAction(self, gameState):
        return random.choice(gameState.getLegalActions(0))


def betterEvaluationFunction(currentGameState):
    return currentGameState.getScore() - 2 * currentGameState.getNumFood()


better = betterEvaluationFunction
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def student_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "multiAgents.py").write_text(CLASSIC_FILE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "dest", "value"),
    [
        (["--numGames", "3"], "num_games", 3),
        (["--agentArgs", "depth=3"], "agent_args", "depth=3"),
        (["--frameTime", "0.5"], "frame_time", 0.5),
        (["-z", "2"], "zoom", 2.0),
        (["--numghosts", "1"], "num_ghosts", 1),
        (["--textGraphics"], "text", True),
        (["--quietTextGraphics"], "quiet", True),
        (["--no-graphics"], "quiet", True),
        (["-f"], "fixRandomSeed", True),
        (["--fixRandomSeed"], "fixRandomSeed", True),
        (["-r"], "recordActions", True),
        (["--recordActions"], "recordActions", True),
        (["-c"], "catchExceptions", True),
        (["--catchExceptions"], "catchExceptions", True),
    ],
)
def test_classic_flags_are_aliases(argv: list[str], dest: str, value: Any) -> None:
    assert getattr(build_parser().parse_args(argv), dest) == value


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [("--numGmes", "--numGames"), ("--frametime", "--frameTime"), ("--layot", "--layout")],
)
def test_an_unknown_flag_gets_the_nearest_flag_classic_or_ours(
    capsys: pytest.CaptureFixture[str], typed: str, suggested: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args([typed, "1"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert len(err.splitlines()) == 1
    assert "did you mean" in err
    assert suggested in err


def test_fix_random_seed_plays_the_fixed_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["-l", "testClassic", "-p", "GreedyAgent", "-q", "--json"]
    status, out, _ = run(capsys, *argv, "-f")
    assert status == 0
    assert json.loads(out)["seed"] == FIXED_SEED
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "-f", "--seed", "3"])
    assert exit_.value.code == 2
    assert "choose one" in capsys.readouterr().err


def test_record_actions_records_each_game(
    capsys: pytest.CaptureFixture[str], student_folder: Path
) -> None:
    status, _, err = run(capsys, "-l", "testClassic", "-p", "GreedyAgent", "-q", "-r")
    assert status == 0
    assert (student_folder / CLASSIC_RECORD).is_file()
    assert CLASSIC_RECORD in err
    assert json.loads((student_folder / CLASSIC_RECORD).read_text())["layout_name"] == "testClassic"


def test_a_name_means_the_students_class_when_the_folder_has_their_file(
    capsys: pytest.CaptureFixture[str], student_folder: Path
) -> None:
    status, out, err = run(
        capsys, "-p", "MinimaxAgent", "-l", "testClassic", "-q", "--json", "--seed", "1"
    )
    assert status == 0
    assert "playing MinimaxAgent from multiAgents.py" in err
    assert "-p agents.MinimaxAgent" in err  # how to reach ours
    theirs = json.loads(out)
    # Explicitly ours: no note, and our agent plays (it does not only go West).
    status, out, err = run(
        capsys, "-p", "agents.MinimaxAgent", "-l", "testClassic", "-q", "--json", "--seed", "1"
    )
    assert status == 0
    assert "note" not in err
    assert json.loads(out)["scores"] != theirs["scores"]


def test_the_students_file_is_read_not_run_to_find_the_class(tmp_path: Path) -> None:
    (tmp_path / "multi_agents.py").write_text("raise SystemExit('ran!')\nclass Other: pass\n")
    assert student_agent_spec("MinimaxAgent", tmp_path) is None
    (tmp_path / "multiAgents.py").write_text("class MinimaxAgent:\n    pass\n")
    assert (
        student_agent_spec("MinimaxAgent", tmp_path)
        == f"{tmp_path / 'multiAgents.py'}:MinimaxAgent"
    )
    assert student_agent_spec("agents.MinimaxAgent", tmp_path) is None
    assert student_agent_spec("x.py:MinimaxAgent", tmp_path) is None


@pytest.mark.parametrize("name", sorted(PACMAN_AGENTS))
def test_reference_agents_have_an_explicit_name(name: str) -> None:
    assert resolve_agent_class(f"agents.{name}") is PACMAN_AGENTS[name]


def test_seed_repeats_games_of_an_agent_that_calls_random(
    capsys: pytest.CaptureFixture[str], student_folder: Path
) -> None:
    argv = ["-p", "multiAgents.py:RandomPacman", "-l", "smallClassic", "-q", "--json"]
    runs = [json.loads(run(capsys, *argv, "-n", "3", "--seed", "1")[1]) for _ in range(2)]
    assert runs[0]["scores"] == runs[1]["scores"]
    assert len(set(runs[0]["scores"])) > 1  # the games differ from each other


def test_a_games_recorded_seed_plays_that_game_again(
    capsys: pytest.CaptureFixture[str], student_folder: Path
) -> None:
    argv = ["-p", "multiAgents.py:RandomPacman", "-l", "smallClassic", "-q", "--json"]
    series = json.loads(run(capsys, *argv, "-n", "3", "--seed", "5", "--record", "g.json")[1])
    record = json.loads((student_folder / "g-3.json").read_text())
    assert record["seed"] == game_seed(5, 2)
    again = json.loads(run(capsys, *argv, "--seed", str(record["seed"]))[1])
    assert again["scores"] == [series["scores"][2]]


def test_an_evaluation_function_from_a_file(student_folder: Path) -> None:
    from pacman.core.layout import load_layout
    from pacman.core.state import GameState

    state = GameState.initial(load_layout("testClassic"), 1)
    evaluate = load_evaluation("multiAgents.py:betterEvaluationFunction")
    assert evaluate(state) == state.score - 2 * state.num_food
    with pytest.raises(Exception, match="did you mean betterEvaluationFunction"):
        load_evaluation("multiAgents.py:betterEvaluationFunctio")


def test_pacman_eval_plays_a_classic_file(
    capsys: pytest.CaptureFixture[str], student_folder: Path
) -> None:
    grid = ["-p", "multiAgents.py:MinimaxAgent:depth=2", "-l", "testClassic", "-n", "2"]
    status = main(["eval", *grid, "-j", "0", "-q", "--json"])
    out = capsys.readouterr().out
    assert status == 0
    (row,) = json.loads(out)["configs"]
    assert row["games"] == 2
    assert row["failed"] == 0


def test_evalfn_on_a_students_class_means_the_students_own_function(tmp_path: Path) -> None:
    from pacman.registry import make_agent

    file = tmp_path / "multi_agents.py"
    file.write_text(
        "from autograder.student import MultiAgentSearchAgent\n\n"
        "class ExpectimaxAgent(MultiAgentSearchAgent):\n"
        "    def get_action(self, state):\n"
        "        return 'Stop'\n\n"
        "def better_evaluation(state):\n"
        "    return 42.0\n"
    )
    agent = make_agent(f"{file}:ExpectimaxAgent", 0, args={"evalFn": "better"})
    assert agent.evaluate(None) == 42.0  # not our better evaluation
