from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pacman.cli import build_parser, main
from pacman.core.game import derive_seed

ROOT = Path(__file__).resolve().parents[1]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_quiet_games_print_the_classic_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        capsys, "-l", "smallClassic", "-p", "AlphaBetaAgent", "-a", "depth=2", "-n", "3", "-q",
        "--seed", "1",
    )  # fmt: skip
    assert code == 0
    for label in ("Average Score:", "Scores:", "Win Rate:", "Record:", "Seed:          1"):
        assert label in out


def test_same_seed_same_scores(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("-l", "smallClassic", "-p", "ExpectimaxAgent", "-a", "depth=1", "-n", "3", "--json")
    first = json.loads(run_cli(capsys, *args, "--seed", "9")[1])
    second = json.loads(run_cli(capsys, *args, "--seed", "9")[1])
    other = json.loads(run_cli(capsys, *args, "--seed", "10")[1])
    assert first == second
    assert first["scores"] != other["scores"] or first["turns"] != other["turns"]
    assert set(first) >= {"average_score", "scores", "win_rate", "outcomes", "seed", "turns"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-l", "noSuchLayout"], "noSuchLayout: no such layout"),
        (["-p", "MinimaxAgnt"], "unknown agent 'MinimaxAgnt'; did you mean MinimaxAgent"),
        (["-p", "MinimaxAgent", "-a", "depth=deep"], "argument depth='deep' is not a valid int"),
        (["-p", "MinimaxAgent", "-a", "dept=2"], "takes no argument 'dept'"),
        (["-p", "MinimaxAgent", "-a", "evalFn=nope"], "unknown evaluation function 'nope'"),
        (["-p", "MinimaxAgent", "-a", "depth"], "bad agent argument 'depth'"),
        (["-p", "missing.py:Agent"], "missing.py: no such file"),
        (["-g", "PurpleGhost"], "unknown agent 'PurpleGhost'"),
    ],
)
def test_bad_input_gives_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run_cli(capsys, *argv, "-q")
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert message in lines[0]


BAD_LAYOUTS = [
    ("%%%%%\n%P.x%\n%%%%%\n", ":2:4: unknown tile 'x'"),
    ("%%%%%\n%P.%\n%%%%%\n", ":2:5: ragged row of width 4; line 1 has width 5"),
    ("%%%%%\n%..G%\n%%%%%\n", ":1:1: no Pacman start 'P'"),
    ("%%%%%\n%P.P%\n%%%%%\n", ":2:4: second Pacman start 'P'"),
    ("%%%%%\n%P...\n%%%%%\n", ":2:5: border cell is '.'"),
    ("%%%%%\n.P..%\n%%%%%\n", ":2:1: border cell is '.'"),
    ("%%.%%\n%P..%\n%%%%%\n", ":1:3: border cell is '.'"),
    ("", ":1:1: empty layout"),
    ("\n   \n\n", ":1:1: empty layout"),
    ("%%%%%\n%P%G%\n%%%%%\n", ":2:4: ghost 1 at (3, 1) is walled in"),
]


@pytest.mark.parametrize(("content", "message"), BAD_LAYOUTS)
def test_malformed_layout_file_gives_one_line_naming_the_place(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    bad = tmp_path / "bad.lay"
    bad.write_text(content)
    code, _, err = run_cli(capsys, "-l", str(bad), "-q")
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"pacman: error: {bad}{message}")


def test_student_agent_from_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    agent = tmp_path / "my_agents.py"
    agent.write_text(
        "class Lazy:\n"
        "    def __init__(self, patience='1'):\n"
        "        self.patience = patience\n"
        "    def get_action(self, state):\n"
        "        return state.legal_actions(0)[0]\n"
    )
    code, out, _ = run_cli(
        capsys, "-l", "testClassic", "-p", f"{agent}:Lazy", "-a", "patience=3", "-q",
        "--max-turns", "5", "--seed", "1",
    )  # fmt: skip
    assert code == 0
    assert "Turn limit reached" in out


def test_crashing_student_agent_names_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    agent = tmp_path / "broken.py"
    agent.write_text("class Broken:\n    def get_action(self, state):\n        return 1 / 0\n")
    code, _, err = run_cli(capsys, "-p", f"{agent}:Broken", "-q", "--seed", "1")
    assert code == 1
    assert "ZeroDivisionError" in err
    assert f"{agent}:3" in err


def test_syntax_error_in_student_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    agent = tmp_path / "typo.py"
    agent.write_text("class A:\n    def get_action(self, state)\n        pass\n")
    code, _, err = run_cli(capsys, "-p", f"{agent}:A", "-q")
    assert code == 1
    assert f"{agent}:2: syntax error" in err


def test_record_and_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out, _ = run_cli(capsys, "-l", "smallClassic", "-p", "GreedyAgent", "-q",
                           "--seed", "4", "--record", str(path))  # fmt: skip
    assert code == 0
    recorded = json.loads(path.read_text())
    code, out, _ = run_cli(capsys, "--replay", str(path), "--json")
    assert code == 0
    assert json.loads(out)["scores"] == [recorded["scores"][-1]]
    code, out, _ = run_cli(capsys, "--replay", str(path), "-t", "--frame-time", "0")
    assert code == 0
    assert "score:" in out


def test_record_series_writes_one_file_per_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, _ = run_cli(capsys, "-l", "smallClassic", "-p", "GreedyAgent", "-q", "-n", "2",
                         "--seed", "4", "--record", str(tmp_path / "g.json"))  # fmt: skip
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g-1.json", "g-2.json"]


def test_replay_of_a_bad_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("[]")
    code, _, err = run_cli(capsys, "--replay", str(path), "-q")
    assert code == 1
    assert "not a game record" in err


def test_lists(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--list-layouts")
    assert code == 0
    assert "mediumClassic" in out.split()
    code, out, _ = run_cli(capsys, "--list-agents")
    assert code == 0
    assert "AlphaBetaAgent" in out.split()


def test_text_display_shows_boards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "-l", "testClassic", "-p", "GreedyAgent", "-t",
                           "--frame-time", "0", "--seed", "2")  # fmt: skip
    assert code == 0
    assert out.count("score:") >= 2


def test_module_entry_point_without_display() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["SDL_VIDEODRIVER"] = "dummy"
    proc = subprocess.run(
        [sys.executable, "-m", "pacman", "-l", "testClassic", "-p", "GreedyAgent",
         "--frame-time", "0", "--seed", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "showing the game as text" in proc.stderr
    assert "Win Rate:" in proc.stdout


def test_display_is_shown_the_final_state_of_each_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pacman import cli
    from pacman.core.game import GameRecord, replay
    from pacman.core.state import GameState
    from pacman.render.text import NullDisplay

    finished: list[tuple[GameState, GameRecord]] = []

    class Recording(NullDisplay):
        def finish(self, state: GameState, record: GameRecord) -> None:
            finished.append((state, record))

    monkeypatch.setattr(cli, "_make_display", lambda args: Recording())
    code, _, _ = run_cli(
        capsys, "-l", "smallClassic", "-p", "GreedyAgent", "-n", "2", "--seed", "4"
    )
    assert code == 0
    assert len(finished) == 2
    for state, record in finished:
        assert state == list(replay(record))[-1]
        assert state.is_terminal()


def test_output_cut_short_by_a_closed_pipe_is_not_an_error() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = subprocess.run(
        f"{sys.executable} -m pacman -l smallClassic -p GreedyAgent -t --frame-time 0 "
        "--seed 1 -n 3 | head -n 1",
        shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.stdout.count("\n") == 1
    assert "Traceback" not in proc.stderr
    assert "BrokenPipeError" not in proc.stderr


def test_a_timed_out_game_is_lost_and_the_series_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text(
        "import time\n"
        "class Slow:\n"
        "    def get_action(self, state):\n"
        "        time.sleep(0.2)\n"
        "        return state.legal_actions(0)[0]\n"
    )
    code, out, _ = run_cli(
        capsys, "-l", "testClassic", "-p", f"{slow}:Slow", "--timeout", "0.05", "-n", "2", "-q",
        "--seed", "1", "--json",
    )  # fmt: skip
    assert code == 0
    summary = json.loads(out)
    assert summary["num_games"] == 2
    assert summary["outcomes"] == ["timeout", "timeout"]
    assert summary["wins"] == 0


@pytest.mark.parametrize(("flags", "why"), [(("-q",), "with -q or -t"), (("-t",), "with -q or -t")])
def test_keyboard_agent_without_the_window_is_refused_before_playing(
    capsys: pytest.CaptureFixture[str], flags: tuple[str, ...], why: str
) -> None:
    code, out, err = run_cli(capsys, "-l", "testClassic", "-p", "KeyboardAgent", *flags)
    assert code == 1
    assert err.strip().endswith(f"which does not open {why}")
    assert "%" not in out  # no board drawn first


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-k", "-1"], "argument -k/--num-ghosts: must be >= 0, got -1"),
        (["-n", "0"], "argument -n/--num-games: must be >= 1, got 0"),
        (["--seed", "abc"], "argument --seed: invalid int value: 'abc'"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_usage_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err == f"pacman: error: {message} (see pacman --help)\n"


# ----------------------------------------------------------- issue 13: flags


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--layot", "smallClassic"],
         "unrecognized arguments: --layot smallClassic; did you mean --layout"),
        (["-n", "abc"], "argument -n/--num-games: expected a whole number, got 'abc'"),
        (["-n", "0"], "argument -n/--num-games: must be >= 1, got 0"),
        (["-k", "x"], "argument -k/--num-ghosts: expected a whole number, got 'x'"),
        (["--timeout", "soon"], "argument --timeout: expected a number, got 'soon'"),
        (["--timeout", "nan"], "argument --timeout: expected a finite number, got 'nan'"),
        (["-q", "-t"], "-q (no display) and -t (text display) exclude each other"),
        (["--frame-time", "-1"], "argument --frame-time: must be >= 0, got -1"),
        (["--zoom", "100", "--export", "z.png"], "argument --zoom: must be at most 4, got 100"),
        (["--zoom", "0"], "argument --zoom: must be > 0, got 0"),
        (["--frame", "3"], "--frame needs --export FILE.png"),
    ],
)  # fmt: skip
def test_usage_errors_name_the_problem_not_internals(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(f"pacman: error: {message}")
    assert "_positive" not in err
    assert "invalid" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-l", "mediumClasic"],
         "mediumClasic: no such layout file or shipped layout; did you mean mediumClassic"),
        (["-l", "testClassic", "-k", "9"],
         "-k 9: layout testClassic has 1 ghost start (use -k 0 to 1)"),
        (["-l", "smallClassic", "-k", "3"],
         "-k 3: layout smallClassic has 2 ghost starts (use -k 0 to 2)"),
    ],
)  # fmt: skip
def test_bad_layout_choices_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run_cli(capsys, *argv, "-q")
    assert code == 1
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(f"pacman: error: {message}")


def test_class_name_in_a_file_gets_a_did_you_mean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    agent = tmp_path / "file.py"
    agent.write_text("class MinimaxAgent:\n    def get_action(self, s):\n        return 'Stop'\n")
    code, _, err = run_cli(capsys, "-p", f"{agent}:MinmaxAgent", "-q")
    assert code == 1
    assert len(err.strip().splitlines()) == 1
    assert "no class 'MinmaxAgent'; did you mean MinimaxAgent?" in err


@pytest.mark.parametrize("command", ["pacman", "autograder"])
def test_version(capsys: pytest.CaptureFixture[str], command: str) -> None:
    import autograder.cli
    import pacman

    entry = {"pacman": main, "autograder": autograder.cli.main}[command]
    with pytest.raises(SystemExit) as exit_info:
        entry(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"{command} {pacman.__version__}"


# ------------------------------------------------- issue 13: a series goes on

COUNTED_AGENT = """
import pathlib

COUNTER = pathlib.Path(__file__).with_name("games.txt")


class Flaky:
    def __init__(self):
        games = int(COUNTER.read_text()) + 1 if COUNTER.exists() else 1
        COUNTER.write_text(str(games))
        self.game = games
        self.moves = 0

    def get_action(self, state):
        self.moves += 1
        if self.game == FAILING_GAME and self.moves == 3:
            raise FAILURE
        return state.legal_actions(0)[0]
"""


def _flaky_agent(tmp_path: Path, failure: str) -> str:
    path = tmp_path / "flaky.py"
    path.write_text(COUNTED_AGENT + f"\nFAILING_GAME = 2\nFAILURE = {failure}\n")
    return f"{path}:Flaky"


def test_a_crash_costs_only_its_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    agent = _flaky_agent(tmp_path, "ZeroDivisionError('boom')")
    code, out, err = run_cli(
        capsys, "-l", "testClassic", "-p", agent, "-n", "3", "-q", "--seed", "1",
        "--max-turns", "20", "--record", str(tmp_path / "g.json"),
    )  # fmt: skip
    assert code == 1
    assert "game 2: agent 0 (Flaky) crashed: ZeroDivisionError: boom" in err
    assert "Record:        Turn limit reached" not in out
    record_line = next(line for line in out.splitlines() if line.startswith("Record:"))
    assert record_line.split(":", 1)[1].split(",")[1].strip() == "Crash"
    assert "Win Rate:      0/3" in out
    assert sorted(p.name for p in tmp_path.glob("g-*.json")) == ["g-1.json", "g-2.json", "g-3.json"]


def test_ctrl_c_prints_the_summary_of_finished_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    agent = _flaky_agent(tmp_path, "KeyboardInterrupt()")
    code, out, err = run_cli(
        capsys, "-l", "testClassic", "-p", agent, "-n", "4", "-q", "--seed", "1",
        "--max-turns", "20", "--record", str(tmp_path / "g.json"),
    )  # fmt: skip
    assert code == 130
    assert "interrupted during game 2" in err
    assert f"the summary covers 1 finished game; records kept: {tmp_path / 'g-1.json'}" in err
    assert "Win Rate:      0/1" in out
    assert sorted(p.name for p in tmp_path.glob("g-*.json")) == ["g-1.json"]


def test_ctrl_c_in_json_mode_still_prints_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    agent = _flaky_agent(tmp_path, "KeyboardInterrupt()")
    code, out, _ = run_cli(
        capsys, "-l", "testClassic", "-p", agent, "-n", "3", "--json", "--seed", "1",
        "--max-turns", "20",
    )  # fmt: skip
    assert code == 130
    assert json.loads(out)["num_games"] == 1


def test_readme_quick_start_plays_short_games_that_mostly_win(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The first command a user runs shows a good game: won, and short enough to watch."""
    import re
    import shlex

    readme = (ROOT / "README.md").read_text()
    quick = readme[readme.index("## Quick start") :]
    command = re.search(r"pip install \. && (pacman [^\n]*)", quick)
    assert command is not None
    words = shlex.split(command.group(1))[1:]
    code, out, _ = run_cli(capsys, *words, "-n", "20", "--seed", "1", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["win_rate"] >= 0.75
    # the window animates each agent's move (3 a turn here) for --frame-time seconds
    move_seconds = build_parser().parse_args(words).frame_time
    assert max(summary["turns"]) * 3 * move_seconds < 60


# ------------------------------------------------ issue 13: replay errors


def _good_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    path = tmp_path / "good.json"
    # The game the messages below were written for (game 0 of series 1 before a game's
    # own seed became the series seed of its replay).
    seed = str(derive_seed(1, "game", 0))
    run_cli(capsys, "-l", "testClassic", "-p", "GreedyAgent", "--seed", seed, "-q",
            "--record", str(path))  # fmt: skip
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _edited(data: dict[str, Any], **changes: object) -> str:
    return json.dumps({**data, **changes})


def _bad_record(kind: str, d: dict[str, Any]) -> str | bytes:
    scores: list[int] = d["scores"]
    makers: dict[str, Callable[[], str | bytes]] = {
        "binary": lambda: b"\x00\x01\xff\xfe",
        "length mismatch": lambda: _edited(d, scores=scores[:-2]),
        "bad layout": lambda: _edited(d, layout_text="%%%\n%x%\n%%%\n"),
        "unplayable layout": lambda: _edited(d, layout_text="%%%%%\n%P  %\n%%%%%\n"),
        "deeply nested": lambda: "[" * 100_000 + "]" * 100_000,
        "Infinity": lambda: _edited(d, scores=[float("inf")]),
        "NaN": lambda: _edited(d, seed=float("nan")),
        "huge number": lambda: _edited(d).replace('"num_ghosts": 1', '"num_ghosts": 1e400'),
        "not JSON": lambda: "{",
        "not a record": lambda: "[]",
        "too large": lambda: b" " * (64 * 2**20 + 1),
    }
    return makers[kind]()


BAD_RECORDS = [
    ("binary", "not a game record: a binary file (byte 0xff at offset 2"),
    ("length mismatch", "record has 43 actions but 41 scores"),
    ("bad layout", "testClassic:2:2: unknown tile 'x'"),
    ("unplayable layout", "record move 2 ('South') cannot be replayed"),
    ("deeply nested", "not a game record: JSON nested too deeply"),
    ("Infinity", "not a game record: Infinity is not a number"),
    ("NaN", "not a game record: NaN is not a number"),
    ("huge number", "malformed game record: cannot convert float infinity"),
    ("not JSON", ":1:2: not JSON"),
    ("not a record", "not a game record (expected format"),
    ("too large", "not a game record (over 64 MiB)"),
]


@pytest.mark.parametrize(("kind", "message"), BAD_RECORDS)
def test_replay_errors_name_the_file_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str, message: str
) -> None:
    content = _bad_record(kind, _good_record(tmp_path, capsys))
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    code, _, err = run_cli(capsys, "--replay", str(path), "-q")
    assert code == 1
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"pacman: error: {path}")
    assert message in err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_replay_of_an_endless_file_stops(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "--replay", "/dev/zero")
    assert code == 1
    assert err == "pacman: error: /dev/zero: not a game record (over 64 MiB)\n"


def test_a_crash_before_the_first_move_is_counted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    agent = tmp_path / "early.py"
    agent.write_text(
        "class Early:\n"
        "    def register_initial_state(self, state):\n"
        "        raise RuntimeError('no set-up')\n"
        "    def get_action(self, state):\n"
        "        return 'Stop'\n"
    )
    code, out, err = run_cli(capsys, "-l", "testClassic", "-p", f"{agent}:Early", "-n", "2", "-q",
                             "--seed", "1")  # fmt: skip
    assert code == 1
    assert "crashed before the game: RuntimeError: no set-up" in err
    assert "Record:        Crash, Crash" in out
    assert "Win Rate:      0/2" in out


CORPUS = Path(__file__).resolve().parent / "autograder" / "fixtures" / "classic_corpus"


@pytest.mark.parametrize(
    ("variant", "agent", "args"),
    [
        ("a_textbook_first_tie", "AlphaBetaAgent", "depth=2"),
        ("h2_eval_bfs_queue_state_data", "ExpectimaxAgent", "depth=2,evalFn=better"),
        ("l_top_level_actions_import", "ReflexAgent", ""),
    ],
)
def test_a_classic_file_plays_unchanged(variant: str, agent: str, args: str) -> None:
    # A classic multiAgents.py imports util and game and calls the camelCase API.
    folder = CORPUS / variant
    command = [
        sys.executable,
        "-m",
        "pacman",
        "-p",
        f"multiAgents.py:{agent}",
        "-l",
        "smallClassic",
    ]
    command += ["-k", "1", "-q", "-n", "1", "--seed", "3"] + (["-a", args] if args else [])
    done = subprocess.run(
        command,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1])),
    )
    assert done.returncode == 0, done.stderr
    assert "Win Rate:" in done.stdout
