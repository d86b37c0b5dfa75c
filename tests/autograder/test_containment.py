"""What a submission starts dies with its worker, and the whole worker tree is capped.

The keeper (autograder/grading/keeper.py) is a subreaper: a process that leaves the
worker's group with ``setsid`` and forks again still ends when the worker is killed. Where
the grader may make control groups (root on a machine whose hierarchy is writable), one
worker and all it starts share one memory cap and one process cap.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from autograder.grading import workers
from autograder.grading.servers import PacmanServer
from autograder.grading.workers import MAX_PROCESSES, SandboxProcess, WorkerLost
from autograder.sandbox.protocol import Decide, MakeAgent, SetLayout
from pacman import GameState

CGROUPS = bool(workers._make_cgroups_probe())


def decide(tmp_path: Path, source: str, seconds: float = 20.0) -> tuple[SandboxProcess, object]:
    path = tmp_path / "multi_agents.py"
    path.write_text(textwrap.dedent(source))
    state = GameState.initial("testClassic")
    worker = SandboxProcess(path)
    worker.start()
    worker.send(SetLayout(state.layout.name, state.layout.to_text()))
    worker.call(MakeAgent("student", "Agent", None, None), deadline=time.monotonic() + 10)
    server = PacmanServer()
    try:
        answer: object = worker.call(
            Decide(*server.begin(state)), deadline=time.monotonic() + seconds, serve=server.serve
        )
    except WorkerLost as exc:
        answer = exc
    return worker, answer


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def test_a_daemon_that_left_the_group_dies_with_the_worker(tmp_path: Path) -> None:
    marker = tmp_path / "daemon.pid"
    worker, answer = decide(
        tmp_path,
        f"""
        import os, time

        class Agent:
            def get_action(self, state):
                if os.fork() == 0:
                    os.setsid()
                    if os.fork() == 0:
                        open({str(marker)!r}, "w").write(str(os.getpid()))
                        time.sleep(600)
                    os._exit(0)
                while not os.path.exists({str(marker)!r}):
                    time.sleep(0.01)
                return "Stop"
        """,
    )
    daemon = int(marker.read_text())
    assert answer == "Stop"
    assert alive(daemon)
    worker.close()
    end = time.monotonic() + 5
    while alive(daemon) and time.monotonic() < end:
        time.sleep(0.05)
    assert not alive(daemon)


@pytest.mark.skipif(not CGROUPS, reason="the grader may not make control groups here")
def test_forked_children_share_one_memory_cap(tmp_path: Path) -> None:
    worker, answer = decide(
        tmp_path,
        """
        import os, time

        class Agent:
            def get_action(self, state):
                kids = []
                for _ in range(3):
                    pid = os.fork()
                    if pid == 0:
                        hog = b"x" * (900 << 20)  # touched: resident, not just reserved
                        time.sleep(30)
                        os._exit(len(hog) & 1)
                    kids.append(pid)
                time.sleep(4)
                living = sum(os.waitpid(pid, os.WNOHANG) == (0, 0) for pid in kids)
                return str(living)
        """,
        seconds=30,
    )
    worker.close()
    # 2.7 GB cannot fit under one 2 GiB cap: a child (or the worker itself) was killed.
    assert isinstance(answer, WorkerLost) or int(str(answer)) < 3


@pytest.mark.skipif(not CGROUPS, reason="the grader may not make control groups here")
def test_a_fork_bomb_is_held_by_the_process_cap(tmp_path: Path) -> None:
    worker, answer = decide(
        tmp_path,
        """
        import os, time

        class Agent:
            def get_action(self, state):
                started = 0
                for _ in range(300):
                    try:
                        pid = os.fork()
                    except OSError:
                        break
                    if pid == 0:
                        time.sleep(60)
                        os._exit(0)
                    started += 1
                return str(started)
        """,
    )
    worker.close()
    assert int(str(answer)) < MAX_PROCESSES


FIXTURES = Path(__file__).parent / "fixtures" / "hostile"


@pytest.mark.parametrize("attack", ["half_message", "request_flood"])
def test_a_worker_that_jams_the_channel_costs_only_its_test(attack: str) -> None:
    worker = SandboxProcess(FIXTURES / attack / "multi_agents.py")
    state = GameState.initial("testClassic")
    try:
        worker.start()
        worker.send(SetLayout(state.layout.name, state.layout.to_text()))
        worker.call(
            MakeAgent("student", "MinimaxAgent", None, None), deadline=time.monotonic() + 10
        )
        server = PacmanServer()
        t0 = time.monotonic()
        with pytest.raises(WorkerLost) as info:
            worker.call(
                Decide(*server.begin(state)), deadline=time.monotonic() + 2, serve=server.serve
            )
        assert info.value.kind == "timeout"
        assert time.monotonic() - t0 < 8
        worker.start()  # and the next test gets a fresh worker
        assert worker.alive
    finally:
        worker.close()


_LATE_IMPORTS = """
import sys
from autograder.cli import main
from autograder.grading.workers import SandboxProcess

started = []
real_start = SandboxProcess.start

def start(self):
    if not started:
        started.append(set(sys.modules))
    real_start(self)

SandboxProcess.start = start
main([sys.argv[1], "--format", sys.argv[2], "--output", sys.argv[3], "-j", "1"])
ours = ("autograder", "pacman", "agents")
late = sorted(m for m in set(sys.modules) - started[0] if m.split(".")[0] in ours)
print("LATE", late)
"""


@pytest.mark.parametrize("form", ["text", "json", "gradescope"])
def test_no_grader_module_is_imported_once_student_code_may_run(tmp_path: Path, form: str) -> None:
    # Without --run-as the student's code could rewrite a module the grader imports late;
    # a fresh process, so that no earlier test has imported anything for the grader.
    bugs = Path(__file__).parent / "fixtures" / "bugs" / "multi_agents.py"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _LATE_IMPORTS, str(bugs), form, str(tmp_path / "report")],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, PYTHONPATH=str(root)),
    )
    assert "LATE []" in done.stdout, done.stdout + done.stderr
    assert "the submission runs with this grader's rights" in done.stderr


def test_the_hardening_benchmark_grades_both_ways_alike() -> None:
    # A figure, not a timed test: it only has to run and agree on the score.
    from benchmarks.grading import bench_hardening

    figure = bench_hardening(rounds=1, jobs=2)
    assert figure["score"] == 25.0
    assert set(figure["all_seconds"]) == {"hardened", "plain"}
    assert isinstance(figure["slowdown"], float)
