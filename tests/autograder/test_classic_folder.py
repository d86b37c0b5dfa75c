"""A classic ``test_cases`` folder graded as the classic command grades it (issue 10).

The fixture folder (fixtures/classic_test_cases, written for these tests in the classic
format) holds every test class of the multi-agent project: tree tests, Pacman game tests
and eval-agent tests, with the questions' points in ``CONFIG`` files.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from autograder.cli import main
from autograder.grading.suite import build_suite, select, suite_questions

FIXTURES = Path(__file__).parent / "fixtures"
FOLDER = FIXTURES / "classic_test_cases"
CORPUS = FIXTURES / "classic_corpus"


def grade(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any], str]:
    status = main([*argv, "--format", "json"])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if status == 0 else {}), err


def test_every_test_class_is_read_with_classic_names_and_points() -> None:
    specs = build_suite(FOLDER)
    assert [(s.name, s.kind) for s in specs] == [
        ("q1/grade-agent", "eval"),
        ("q2/0-three-agents", "tree"),
        ("q2/1-pacman-game", "trace"),
        ("q3/0-three-agents", "tree"),
        ("q3/1-pacman-game", "trace"),
        ("q4/0-three-agents", "tree"),
        ("q4/1-pacman-game", "trace"),
        ("q5/grade-agent", "eval"),
    ]
    questions = suite_questions(FOLDER)
    assert [(q.name, q.points, q.all_or_nothing) for q in questions] == [
        ("q1", 4, False),
        ("q2", 5, True),
        ("q3", 5, True),
        ("q4", 5, True),
        ("q5", 6, False),
    ]
    q5 = specs[-1].case
    assert (q5.agent, q5.source, q5.evaluation, q5.num_games) == (
        "ExpectimaxAgent",
        "student",
        "student:better_evaluation",
        3,
    )


def test_a_correct_classic_file_gets_every_point(capsys: pytest.CaptureFixture[str]) -> None:
    file = CORPUS / "a_textbook_first_tie" / "multiAgents.py"
    status, report, _ = grade(capsys, str(file), "--test-directory", str(FOLDER))
    assert status == 0
    assert (report["score"], report["max_score"]) == (25, 25)
    names = [t["name"] for q in report["questions"] for t in q["tests"]]
    assert "q2/1-pacman-game" in names  # the game tests ran, not skipped
    assert not any(n.count("/") > 1 for n in names)  # never q2/q2/...


@pytest.mark.parametrize(
    ("variant", "failing"),
    [
        ("bug_depth_per_agent", {"q2/0-three-agents", "q2/1-pacman-game"}),
        ("bug_prune_on_equality", {"q3/1-pacman-game"}),
    ],
)
def test_a_buggy_file_fails_the_classic_game_test(
    capsys: pytest.CaptureFixture[str], variant: str, failing: set[str]
) -> None:
    file = CORPUS / variant / "multiAgents.py"
    status, report, _ = grade(capsys, str(file), "--cases", str(FOLDER), "-q", "q2", "-q", "q3")
    assert status == 0
    failed = {t["name"] for q in report["questions"] for t in q["tests"] if t["status"] != "passed"}
    assert failed == failing


def test_a_classic_test_path_names_the_folder_and_the_test(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(FOLDER, tmp_path / "test_cases")
    shutil.copy(CORPUS / "a_textbook_first_tie" / "multiAgents.py", tmp_path)
    monkeypatch.chdir(tmp_path)
    # The classic habit: --student-code, --no-graphics, --mute and -t by path.
    status, report, _ = grade(
        capsys,
        "--student-code",
        "multiAgents.py",
        "--no-graphics",
        "--mute",
        "-t",
        "test_cases/q2/1-pacman-game.test",
    )
    assert status == 0
    (question,) = report["questions"]
    assert [t["name"] for t in question["tests"]] == ["q2/1-pacman-game"]


@pytest.mark.parametrize(
    ("where", "text", "message"),
    [
        ("q2/9-other.test", 'class: "MysteryTest"\n', "test class 'MysteryTest' cannot be run"),
        ("q2/CONFIG", 'max_points: "5"\nclass: "OddQuestion"\n', "question class 'OddQuestion'"),
        ("CONFIG", 'order: "q1 q9"\n', "question 'q9' has no folder"),
    ],
)
def test_what_cannot_be_run_is_named_never_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str, text: str, message: str
) -> None:
    folder = tmp_path / "test_cases"
    shutil.copytree(FOLDER, folder)
    (folder / where).write_text(text)
    file = CORPUS / "a_textbook_first_tie" / "multiAgents.py"
    status, _, err = grade(capsys, str(file), "--cases", str(folder))
    assert status == 1
    assert message in err
    assert str(folder / where.split("/")[0]) in err
    assert len(err.strip().splitlines()) == 1


def test_classic_test_paths_select_tests() -> None:
    specs = build_suite(FOLDER)
    chosen = select(specs, (), ["test_cases/q3/0-three-agents.test", "q4/1-pacman-game"])
    assert [s.name for s in chosen] == ["q3/0-three-agents", "q4/1-pacman-game"]


def test_student_code_and_the_file_must_agree(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["a.py", "--student-code", "b.py"]) == 1
    assert "two files given" in capsys.readouterr().err


CLASSIC_STUB = """\
import util
from game import Agent


def scoreEvaluationFunction(currentGameState):
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
        self.index = 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)


class AlphaBetaAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        "*** YOUR CODE HERE ***"
        util.raiseNotDefined()
"""


def test_a_classic_stub_is_reported_as_not_written_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The classic starter's stubs call util.raiseNotDefined(); the report must word it
    # the way it words our starter's stubs, not "... not implemented yet is not written yet".
    file = tmp_path / "multiAgents.py"
    file.write_text(CLASSIC_STUB, encoding="utf-8")
    main([str(file), "-q", "q3"])
    out = capsys.readouterr().out
    assert "Your AlphaBetaAgent raised: NotImplementedError: getAction is not written yet" in out
    assert "implemented" not in out
