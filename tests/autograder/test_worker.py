"""The worker and its proxies: the grader computes and counts, the worker only asks."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from agents.evaluation import score_evaluation
from agents.search import alpha_beta, expectimax, minimax
from autograder.grading.servers import PacmanServer, TreeServer
from autograder.grading.workers import BadAnswer, SandboxProcess, StudentError, WorkerLost
from autograder.sandbox.protocol import Decide, MakeAgent, Play, SetLayout, TreeDecide
from autograder.sandbox.proxy import decode_request, encode_request
from autograder.tree import TreeGame
from pacman import GameState

SEARCHES = {"MinimaxAgent": minimax, "AlphaBetaAgent": alpha_beta, "ExpectimaxAgent": expectimax}
SOLUTION = Path(__file__).with_name("fixtures") / "solution" / "multi_agents.py"


@pytest.fixture(scope="module")
def worker() -> SandboxProcess:
    w = SandboxProcess(SOLUTION)
    w.start()
    yield w  # type: ignore[misc]
    w.close()


def deadline(seconds: float = 10.0) -> float:
    return time.monotonic() + seconds


def decide(
    w: SandboxProcess, state: GameState, cls: str = "MinimaxAgent", depth: int = 2
) -> tuple[object, PacmanServer]:
    """Have the worker's ``cls`` choose a move at ``state``; the answer and the counting server."""
    w.send(SetLayout(state.layout.name, state.layout.to_text()))
    w.call(MakeAgent("student", cls, depth, "score"), deadline=deadline())
    server = PacmanServer()
    gid, fields = server.begin(state)
    answer = w.call(
        Decide(gid, fields), deadline=deadline(), serve=server.serve, notice=server.notice
    )
    return answer, server


@pytest.mark.parametrize(
    ("parent", "agent", "action", "data"),
    [(0, 0, "West", b"S0 0 West"), (12, 2, "North", b"S12 2 North"), (3, 1, "a b", b"S3 1 a b")],
)
def test_requests_round_trip_without_pickle(
    parent: int, agent: int, action: str, data: bytes
) -> None:
    assert encode_request(parent, agent, action) == data
    assert decode_request(data) == (parent, agent, action)


def test_malformed_request_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="no agent"):
        decode_request(b"S1 x West")


@pytest.mark.parametrize("cls", sorted(SEARCHES))
@pytest.mark.parametrize("layout", ["smallClassic", "trappedClassic", "testClassic"])
def test_grader_counts_exactly_what_the_reference_generates(
    worker: SandboxProcess, cls: str, layout: str
) -> None:
    state = GameState.initial(layout)
    action, server = decide(worker, state, cls)
    seen = {state}
    result = SEARCHES[cls](state, depth=2, evaluate=score_evaluation, observe=seen.add)
    assert action == str(result.action)
    assert server.generated == seen


def test_illegal_successor_request_raises_in_the_student_code(tmp_path: Path) -> None:
    student = tmp_path / "multi_agents.py"
    student.write_text(
        "class MinimaxAgent:\n"
        "    def __init__(self, depth=2, evaluate=None):\n"
        "        pass\n"
        "    def get_action(self, state):\n"
        "        try:\n"
        "            state.successor(0, 'Jump')\n"
        "        except ValueError as exc:\n"
        "            return 'caught ' + type(exc).__name__\n"
    )
    w = SandboxProcess(student)
    try:
        w.start()
        state = GameState.initial("testClassic")
        answer, server = decide(w, state)
        assert answer == "caught IllegalActionError"
        assert server.generated == {state}
    finally:
        w.close()


def test_tree_proxies_answer_from_the_grader(worker: SandboxProcess) -> None:
    game = TreeGame.from_edges(
        "A", [("A", "l", "B"), ("A", "r", "C")], {"B": 3, "C": 5}, num_agents=1
    )
    worker.call(MakeAgent("student", "MinimaxAgent", 1, "tree"), deadline=deadline())
    server = TreeServer(game)
    answer = worker.call(TreeDecide(*server.begin()), deadline=deadline(), serve=server.serve)
    assert answer == "r"
    assert server.generated == {"A", "B", "C"}


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "multi_agents.py"
    path.write_text("class Agent:\n    def get_action(self, state):\n" + body)
    return path


def started(path: Path, agent: str = "Agent") -> tuple[SandboxProcess, GameState]:
    """A worker on ``path`` with its agent made, and the testClassic start state."""
    w = SandboxProcess(path)
    w.start()
    state = GameState.initial("testClassic")
    w.send(SetLayout(state.layout.name, state.layout.to_text()))
    w.call(MakeAgent("student", agent, None, None), deadline=deadline())
    return w, state


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("        return None\n", BadAnswer("None")),
        ("        return 7\n", BadAnswer("7")),
        ("        return 'North'\n", "North"),
    ],
)
def test_answers_come_back_as_text(tmp_path: Path, body: str, expected: object) -> None:
    w, state = started(write(tmp_path, body))
    try:
        server = PacmanServer()
        assert (
            w.call(Decide(*server.begin(state)), deadline=deadline(), serve=server.serve)
            == expected
        )
    finally:
        w.close()


@pytest.mark.parametrize(
    ("body", "kind", "needle"),
    [
        (
            "        raise RuntimeError('boom')\n",
            StudentError,
            "RuntimeError: boom (at multi_agents.py:4 in get_action)",
        ),
        ("        import sys; sys.exit(2)\n", StudentError, "called sys.exit(2)"),
        ("        import os; os._exit(5)\n", WorkerLost, "exited with status 5"),
        ("        while True: pass\n", WorkerLost, "timed out"),
    ],
)
def test_failures_are_reported_and_the_worker_restarts(
    tmp_path: Path, body: str, kind: type[Exception], needle: str
) -> None:
    w, state = started(write(tmp_path, "        print('hello')\n" + body))
    try:
        server = PacmanServer()
        with pytest.raises(kind) as info:
            w.call(Decide(*server.begin(state)), deadline=deadline(0.5), serve=server.serve)
        assert needle in str(info.value)
        assert w.output().startswith("hello")
        w.ensure()  # a dead worker is replaced; a live one is kept
        assert w.alive
    finally:
        w.close()


def test_printed_output_is_capped(tmp_path: Path) -> None:
    w, state = started(write(tmp_path, "        print('x' * 100000)\n        return 'Stop'\n"))
    try:
        w.call(Play(PacmanServer().begin(state)[1]), deadline=deadline())
        text = w.output(limit=50)
        assert text.startswith("x" * 50)
        assert "output cut: 100001 bytes" in text
    finally:
        w.close()


def test_import_failure_is_kept_for_every_test(tmp_path: Path) -> None:
    path = tmp_path / "multi_agents.py"
    path.write_text("import no_such_module_here\n")
    w = SandboxProcess(path)
    try:
        with pytest.raises(StudentError, match="ModuleNotFoundError"):
            w.start()
        with pytest.raises(StudentError):
            w.ensure()
        assert w.starts == 1
    finally:
        w.close()


def test_a_state_from_an_earlier_test_is_refused() -> None:
    state = GameState.initial("testClassic")
    earlier, now = PacmanServer(), PacmanServer()
    old, _ = earlier.begin(state)
    now.begin(state)
    reply = now.serve(old, 0, "North")
    assert reply[0] == "e"
    assert "earlier test" in reply[2]


def test_processes_the_student_starts_die_with_the_worker(tmp_path: Path) -> None:
    import os

    pid_file = tmp_path / "child.pid"
    student = tmp_path / "multi_agents.py"
    student.write_text(
        "import subprocess\n"
        "child = subprocess.Popen(['sleep', '60'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "class MinimaxAgent:\n"
        "    def get_action(self, state):\n"
        "        return 'Stop'\n"
    )
    w = SandboxProcess(student)
    w.start()
    pid = int(pid_file.read_text())
    w.close()
    for _ in range(100):  # the kill is asynchronous: give the kernel a moment
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        # a killed child of the (dead) worker is reaped by init; a zombie counts as gone
        with open(f"/proc/{pid}/stat") as stat:
            if stat.read().split(") ")[-1].startswith("Z"):
                break
        time.sleep(0.02)
    else:
        pytest.fail(f"the student's child process {pid} outlived the worker")


def _nobody() -> tuple[str, str]:
    """The user nobody and an interpreter it can run the worker with (else skip)."""
    import os
    import pwd
    import sys

    if os.geteuid() != 0:
        pytest.skip("switching users needs root")
    try:
        pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user nobody")
    # The venv's interpreter may live where nobody cannot reach (under /root); the worker
    # needs only this project's pure-Python code, so a system Python 3.11+ serves too.
    for python in (sys.executable, "/usr/bin/python3"):
        try:
            SandboxProcess(SOLUTION, python=python, run_as="nobody")
        except ValueError:
            continue
        return "nobody", python
    pytest.skip("no interpreter that user nobody can run the worker with")


def test_run_as_keeps_the_student_away_from_the_graders_files(tmp_path: Path) -> None:
    import os
    import tempfile

    user, python = _nobody()
    secret = tmp_path / "results.json"  # pytest's tmp_path is root's alone (mode 0700)
    secret.write_text("grader's")
    shared = Path(tempfile.mkdtemp(prefix="student-"))
    try:
        shared.chmod(0o755)
        student = shared / "multi_agents.py"
        student.write_text(
            "import os\n"
            "try:\n"
            f"    open({str(secret)!r}, 'w').write('forged')\n"
            "    WHO = 'wrote'\n"
            "except OSError:\n"
            "    WHO = 'denied uid %d' % os.getuid()\n"
            "class MinimaxAgent:\n"
            "    def __init__(self, depth=2, evaluate=None):\n"
            "        pass\n"
            "    def get_action(self, state):\n"
            "        return WHO\n"
        )
        student.chmod(0o644)
        w = SandboxProcess(student, python=python, run_as=user)
        try:
            w.start()
            answer, _ = decide(w, GameState.initial("testClassic"))
        finally:
            w.close()
    finally:
        for f in shared.iterdir():
            f.unlink()
        shared.rmdir()
    assert isinstance(answer, str)
    assert answer.startswith("denied uid ")
    assert int(answer.split()[-1]) != os.getuid()
    assert secret.read_text() == "grader's"


def test_run_as_an_unknown_user_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no user 'no-such-user-here'"):
        SandboxProcess(SOLUTION, run_as="no-such-user-here")


def test_run_as_a_user_who_cannot_run_the_interpreter_is_a_clear_error(tmp_path: Path) -> None:
    import os

    if os.geteuid() != 0:
        pytest.skip("switching users needs root")
    hidden = tmp_path / "python"  # pytest's tmp_path is root's alone (mode 0700)
    hidden.symlink_to("/usr/bin/env")
    with pytest.raises(ValueError, match=r"that user cannot run .*python with the grader"):
        SandboxProcess(SOLUTION, python=str(hidden), run_as="nobody")


@pytest.mark.parametrize(
    "payload",
    [
        b"U" + b"9" * 5000,  # a number past int()'s digit limit
        b"X" + b"[" * 200_000,  # JSON nested past the recursion limit
        b"S99999 0 West",  # a successor of a state the grader never sent
        b"Snot a request",
        b"Q",  # no such message
    ],
    ids=["huge-number", "deep-json", "unknown-state", "bad-request", "unknown-kind"],
)
def test_a_worker_breaking_the_protocol_fails_only_itself(tmp_path: Path, payload: bytes) -> None:
    student = tmp_path / "multi_agents.py"
    student.write_text(
        "class MinimaxAgent:\n"
        "    def __init__(self, depth=2, evaluate=None):\n"
        "        pass\n"
        "    def get_action(self, state):\n"
        f"        state._channel.send_bytes({payload!r})\n"
        # A successor request gets an answer (or the worker is killed); notices get none.
        f"        if {payload[:1] == b'S'}:\n"
        "            state._channel.recv_bytes()\n"
        "        return 'Stop'\n"
    )
    w = SandboxProcess(student)
    try:
        w.start()
        try:
            answer, _ = decide(w, GameState.initial("testClassic"))
        except (WorkerLost, StudentError):
            return  # the worker is failed; the grader carries on
        assert answer in ("Stop", "West", "East", "North", "South") or isinstance(answer, BadAnswer)
    finally:
        w.close()


@pytest.mark.parametrize(("argv", "status"), [(["true"], 0), (["sh", "-c", "kill -9 $$"], -9)])
def test_exit_status_is_read_without_reaping_the_worker(argv: list[str], status: int) -> None:
    import subprocess

    from autograder.grading.workers import _exit_status

    proc = subprocess.Popen(argv)
    for _ in range(500):
        code = _exit_status(proc.pid)
        if code is not None:
            break
        time.sleep(0.01)
    assert code == status
    # Not reaped: the pid (the worker's process-group id) stays reserved until kill().
    assert Path(f"/proc/{proc.pid}").exists()
    assert proc.returncode is None
    assert proc.wait() == status
