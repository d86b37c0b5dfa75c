from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pacman.batch import main, run_evaluation
from pacman.batch.cli import build_parser
from pacman.batch.result import DETERMINISTIC_FIELDS, RECORD_FIELDS, TIMING_FIELDS
from pacman.batch.results import CSV_COLUMNS, iter_results
from pacman.batch.spec import EvalConfig, load_config
from pacman.cli import main as pacman_main

ROOT = Path(__file__).resolve().parents[2]

GRID = (
    "-p", "AlphaBetaAgent:depth=1", "-p", "RandomAgent",
    "-g", "RandomGhost", "-g", "DirectionalGhost",
    "-l", "smallClassic", "-l", "testClassic",
    "-n", "2", "--max-turns", "60", "--seed", "3",
)  # fmt: skip


def config(*argv: str) -> EvalConfig:
    return load_config(build_parser().parse_args(list(argv)))


def deterministic_lines(path: Path) -> list[str]:
    """Each record without its timing, serialised, in grid order."""
    records = list(iter_results(path))
    lines = [
        json.dumps({k: getattr(r, k) for k in DETERMINISTIC_FIELDS}, separators=(",", ":"))
        for r in records
    ]
    return sorted(lines)


def test_records_hold_every_field(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = run_evaluation(config(*GRID, "-j", "0", "-o", str(out)), progress=False)
    assert (result.played, result.skipped) == (16, 0)
    lines = out.read_text().splitlines()
    assert len(lines) == 16
    first = json.loads(lines[0])
    assert tuple(first) == RECORD_FIELDS
    assert tuple(first["timing"]) == TIMING_FIELDS
    assert first["pacman"] == "AlphaBetaAgent"
    assert first["pacman_args"] == {"depth": "1"}
    assert first["layout"] == "smallClassic"
    assert first["max_turns"] == 60
    by_agent: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        record = json.loads(line)
        by_agent.setdefault(record["pacman"], []).append(record)
        assert record["outcome"] in ("win", "lose", "max_turns")
        assert record["turns"] <= 60
        assert record["win"] == (record["outcome"] == "win")
    # search agents report states generated per move; the random agent does not
    assert all(r["nodes"] > 0 and r["nodes_per_move"] > 0 for r in by_agent["AlphaBetaAgent"])
    assert all(r["nodes"] is None for r in by_agent["RandomAgent"])
    summaries = result.summaries()
    assert len(summaries) == 8
    assert all(s["games"] == 2 for s in summaries)


def test_same_grid_same_records_for_any_job_count(tmp_path: Path) -> None:
    runs = []
    for jobs in ("0", "1", "2"):
        out = tmp_path / f"r{jobs}.jsonl"
        run_evaluation(config(*GRID, "-j", jobs, "-o", str(out)), progress=False)
        runs.append(deterministic_lines(out))
    assert runs[0] == runs[1] == runs[2]
    assert len(runs[0]) == 16
    other = tmp_path / "other.jsonl"
    run_evaluation(config(*GRID[:-1], "4", "-j", "0", "-o", str(other)), progress=False)
    assert deterministic_lines(other) != runs[0]


def test_a_game_replays_with_the_pacman_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.jsonl"
    run_evaluation(
        config("-p", "ExpectimaxAgent:depth=1", "-g", "DirectionalGhost", "-l", "smallClassic",
               "-n", "2", "-j", "0", "-o", str(out), "--max-turns", "80"),
        progress=False,
    )  # fmt: skip
    for record in iter_results(out):
        code = pacman_main(
            ["-l", "smallClassic", "-p", "ExpectimaxAgent", "-a", "depth=1", "-g",
             "DirectionalGhost", "-k", "2", "--seed", str(record.seed), "--max-turns", "80",
             "--json"]
        )  # fmt: skip
        assert code == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["scores"] == [record.score]
        assert summary["turns"] == [record.turns]
        assert summary["outcomes"] == [record.outcome]


def test_resume_skips_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    base = (
        "-p",
        "RandomAgent",
        "-l",
        "testClassic",
        "--max-turns",
        "30",
        "-j",
        "0",
        "-o",
        str(out),
    )
    first = run_evaluation(config(*base, "-n", "3"), progress=False)
    assert (first.played, first.skipped) == (3, 0)
    # a run killed while writing leaves a half line: it is dropped, and that game replayed
    with out.open("a") as f:
        f.write('{"pacman":"RandomAg')
    second = run_evaluation(config(*base, "-n", "5"), progress=False)
    assert (second.played, second.skipped) == (2, 3)
    third = run_evaluation(config(*base, "-n", "5"), progress=False)
    assert (third.played, third.skipped) == (0, 5)
    assert third.summaries()[0]["games"] == 5
    assert len(out.read_text().splitlines()) == 5
    # interrupted and resumed, or played in one go: the same records
    fresh = tmp_path / "fresh.jsonl"
    run_evaluation(config(*base[:-1], str(fresh), "-n", "5"), progress=False)
    assert deterministic_lines(out) == deterministic_lines(fresh)
    # another seed is another set of games; the old records are left alone
    fourth = run_evaluation(config(*base, "-n", "2", "--seed", "1"), progress=False)
    assert (fourth.played, fourth.skipped, fourth.foreign) == (2, 0, 5)
    assert fourth.summaries()[0]["games"] == 2
    assert len(out.read_text().splitlines()) == 7


def test_csv_results_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    base = ("-p", "AlphaBetaAgent:depth=1", "-l", "testClassic", "--max-turns", "30", "-j", "0")
    run_evaluation(config(*base, "-n", "2", "-o", str(out)), progress=False)
    with out.open("a") as f:
        f.write("AlphaBetaAgent,depth=1,RandomGh")  # a killed run's half row
    second = run_evaluation(config(*base, "-n", "3", "-o", str(out)), progress=False)
    assert (second.played, second.skipped) == (1, 2)
    with out.open() as f:
        rows = list(csv.DictReader(f))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [r["game"] for r in rows] == ["0", "1", "2"]
    assert rows[0]["pacman_args"] == "depth=1"
    jsonl = tmp_path / "r.jsonl"
    run_evaluation(config(*base, "-n", "3", "-o", str(jsonl)), progress=False)
    assert deterministic_lines(out) == deterministic_lines(jsonl)


def test_failing_agents_cost_their_game_not_the_run(bad_agents: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    specs = [
        f"{bad_agents}:{name}"
        for name in ("Crasher", "Exiter", "Killer", "Sleeper", "Stubborn", "Illegal")
    ]
    argv = [a for spec in specs for a in ("-p", spec)]
    result = run_evaluation(
        config(*argv, "-p", "RandomAgent", "-l", "testClassic", "-n", "2", "-j", "2",
               "--timeout", "0.2", "--max-turns", "20", "-o", str(out)),
        progress=False,
    )  # fmt: skip
    assert result.played == 14
    outcomes: dict[str, set[str]] = {}
    errors: dict[str, str] = {}
    for record in iter_results(out):
        name = record.pacman.rsplit(":", 1)[-1]
        outcomes.setdefault(name, set()).add(record.outcome)
        errors[name] = record.error or ""
    assert outcomes["Crasher"] == {"crash"}
    assert "ZeroDivisionError" in errors["Crasher"]
    assert outcomes["Exiter"] == {"crash"}
    assert "SystemExit" in errors["Exiter"]
    assert outcomes["Killer"] == {"crash"}
    assert "worker process died (exit code 3)" in errors["Killer"]
    assert outcomes["Sleeper"] == {"timeout"}
    assert outcomes["Stubborn"] == {"timeout"}
    assert "agent 0 made no move for 1.4 s despite the 0.2 s limit" in errors["Stubborn"]
    assert outcomes["Illegal"] == {"illegal"}
    assert outcomes["RandomAgent"] <= {"win", "lose", "max_turns"}
    failed = {s["pacman"].rsplit(":", 1)[-1]: s["failed"] for s in result.summaries()}
    assert failed == {
        "Crasher": 2, "Exiter": 2, "Killer": 2, "Sleeper": 2, "Stubborn": 2, "Illegal": 2,
        "RandomAgent": 0,
    }  # fmt: skip


def test_command_prints_table_and_rerun_hint(
    bad_agents: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["-p", f"{bad_agents}:Crasher", "-l", "testClassic", "-n", "1", "-j", "0",
                 "--max-turns", "10"])  # fmt: skip
    assert code == 0
    captured = capsys.readouterr()
    assert "win% [95% CI]" in captured.out
    # Why it failed, in one line under the table (issue 13).
    assert "Why games failed" in captured.out
    assert "bad_agents.py:Crasher on testClassic: 1 crash; first: " in captured.out
    assert f"pacman -l testClassic -p {bad_agents}:Crasher -g RandomGhost -k 1 --seed" in (
        captured.out
    )
    assert "1/1 games" in captured.err  # the progress line


def test_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["-p", "RandomAgent", "-l", "testClassic", "-n", "3", "-j", "0", "-q", "--json",
                 "--max-turns", "10"])  # fmt: skip
    assert code == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    summary = json.loads(captured.out)
    assert summary["played"] == 3
    (cell,) = summary["configs"]
    assert cell["games"] == 3
    assert 0 <= cell["win_rate_ci95"][0] <= cell["win_rate"] <= cell["win_rate_ci95"][1] <= 1


def test_saved_games_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.jsonl"
    games = tmp_path / "games"
    code = main(["-p", "GreedyAgent", "-g", "DirectionalGhost:prob_attack=0.5", "-l",
                 "testClassic", "-n", "2", "-j", "0", "-q", "-o", str(out),
                 "--save-games", str(games)])  # fmt: skip
    assert code == 0
    capsys.readouterr()
    for record in iter_results(out):
        path = games / f"game-{record.seed}.json"
        assert pacman_main(["--replay", str(path), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["scores"] == [record.score]


def test_plot_is_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "scores.png"
    code = main(["-p", "RandomAgent", "-p", "GreedyAgent", "-l", "testClassic", "-n", "3",
                 "-j", "0", "-q", "--plot", str(png), "--max-turns", "10"])  # fmt: skip
    assert code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ctrl_c_stops_workers_and_keeps_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    argv = [sys.executable, "-m", "pacman", "eval", "-p", "AlphaBetaAgent:depth=2",
            "-l", "mediumClassic", "-n", "200", "-j", "2", "--max-turns", "40",
            "-o", str(out)]  # fmt: skip
    proc = subprocess.Popen(
        argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and len(out.read_text().splitlines()) >= 2:
                break
            time.sleep(0.05)
        else:
            pytest.fail("no game finished within 60 s")
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert "interrupted; finished games are in" in err
    assert "Traceback" not in err
    # no worker outlives the run (multiprocessing's resource tracker may take a moment)
    deadline = time.monotonic() + 10
    while True:
        leftover = subprocess.run(
            ["ps", "-o", "pid=,args=", "-s", str(proc.pid)], capture_output=True, text=True
        ).stdout.strip()
        if not leftover or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert leftover == ""
    records = list(iter_results(out))
    assert 2 <= len(records) < 200


LEAVES_A_DAEMON = """
import os
import time


class Forker:
    # Starts a daemon that leaves the worker's session, writes its pid, then stalls
    # past the watchdog so the worker is killed.
    def get_action(self, state):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                with open(os.environ["PIDFILE"], "w") as f:
                    f.write(str(os.getpid()))
                time.sleep(120)
            os._exit(0)
        while True:
            try:
                time.sleep(10)
            except Exception:
                pass
"""


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds processes through /proc")
def test_processes_an_agent_leaves_behind_are_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 11 item 5: pacman eval left forked children alive after its watchdog.
    agent = tmp_path / "forker.py"
    agent.write_text(LEAVES_A_DAEMON)
    pidfile = tmp_path / "daemon.pid"
    monkeypatch.setenv("PIDFILE", str(pidfile))
    result = run_evaluation(
        config("-p", f"{agent}:Forker", "-l", "testClassic", "-n", "1", "-j", "1",
               "--timeout", "0.2"),
        progress=False,
    )  # fmt: skip
    assert result.played == 1
    deadline = time.monotonic() + 5
    while not pidfile.is_file() and time.monotonic() < deadline:
        time.sleep(0.05)
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(pid)


SABOTEURS = """
import os
import struct

from pacman import runner


class Saboteur:
    # Patches the agent factory in its own process: a rival playing in the same
    # process would get a broken agent.
    def __init__(self):
        runner.make_agent = lambda *args, **kwargs: 1 / 0

    def get_action(self, state):
        return state.legal_actions(0)[0]


class Garbage:
    # Writes a frame of garbage where the worker sends its results, then plays on.
    def get_action(self, state):
        for fd in range(3, 64):
            try:
                os.write(fd, struct.pack("!i", 5) + b"{junk")
            except OSError:
                pass
        return state.legal_actions(0)[0]


class HalfFrame:
    # Writes half a frame (a length and no body), then plays on.
    def get_action(self, state):
        for fd in range(3, 64):
            try:
                os.write(fd, struct.pack("!i", 1000))
            except OSError:
                pass
        return state.legal_actions(0)[0]
"""


def test_an_agent_cannot_sabotage_a_rival_or_the_parent(tmp_path: Path) -> None:
    # Issue 13: agents of a grid run apart, and garbage from a worker costs only its game.
    agents = tmp_path / "saboteurs.py"
    agents.write_text(SABOTEURS)
    out = tmp_path / "r.jsonl"
    grid = ("-l", "testClassic", "-n", "3", "-j", "1", "--max-turns", "5", "-o", str(out))
    result = run_evaluation(
        config("-p", f"{agents}:Saboteur", "-p", "RandomAgent", "-p", f"{agents}:Garbage",
               "-p", f"{agents}:HalfFrame", "-p", "GreedyAgent", *grid),
        progress=False,
    )  # fmt: skip
    assert result.played == 15
    outcomes: dict[str, set[str]] = {}
    for record in iter_results(out):
        outcomes.setdefault(record.pacman.rsplit(":", 1)[-1], set()).add(record.outcome)
    assert outcomes["RandomAgent"] <= {"win", "lose", "max_turns"}  # not sabotaged
    assert outcomes["GreedyAgent"] <= {"win", "lose", "max_turns"}
    assert "Saboteur" in outcomes  # its own games are its own business
    assert outcomes["Garbage"] == {"crash"}
    assert outcomes["HalfFrame"] == {"crash"}
    # Nor the parent: checking the specs ran the agents' files in a process of its own.
    from pacman import registry, runner

    assert runner.make_agent is registry.make_agent
