"""The grader's side of a worker process: start it, talk to it, time it, kill it.

One `SandboxProcess` runs one student file in a child process (`autograder.sandbox.worker`).
The grader sends a command and serves the worker's successor requests until the answer comes back,
enforcing a deadline by killing the process. A worker that dies, hangs or breaks the
protocol is replaced on the next test, so one bad test never stops the grading.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import itertools
import json
import os
import pickle
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from autograder.sandbox.protocol import (
    ANSWER,
    FAILED,
    NOTICE,
    RAISED,
    READY,
    SUCCESSOR,
    Command,
    Load,
    Play,
    Quit,
    Register,
)
from autograder.sandbox.proxy import decode_request, state_fields
from autograder.sandbox.worker import MEMORY_LIMIT_BYTES

__all__ = [
    "OUTPUT_SHOWN_CHARS",
    "BadAnswer",
    "RemoteAgent",
    "SandboxProcess",
    "StudentError",
    "WorkerLost",
]

OUTPUT_SHOWN_CHARS: Final = 2000
"""How much of the student's printed output is kept per test."""

_MAX_MESSAGE: Final = 1 << 20
_MAX_DIGITS: Final = 12
MAX_PROCESSES: Final = 64
"""Processes (and threads) one worker and all it starts may have at once: a pids control
group where the grader may make one, else ``RLIMIT_NPROC`` of the ``--run-as`` user."""

_KEEPER: Final = str(Path(__file__).with_name("keeper.py"))
_KEEPER_SECONDS: Final = 6.0
_SEND_SECONDS: Final = 10.0
"""How long the worker may take to read a command the grader sends it."""
_STARTUP_SECONDS: Final = 60.0
_IMPORT_SECONDS: Final = 15.0
_PROJECT_ROOT: Final = str(Path(__file__).resolve().parents[2])

Serve = Callable[[int, int, str], Any]
"""Answers one successor request ``(parent id, agent, action)`` with a reply to pickle."""


class StudentError(Exception):
    """The student's code raised: the type, message, place and a short traceback."""

    def __init__(self, info: dict[str, str]) -> None:
        self.type = str(info.get("type", "Exception"))
        self.message = str(info.get("message", ""))
        self.where = str(info.get("where", ""))
        self.trace = str(info.get("trace", ""))
        super().__init__(self.describe())

    def describe(self) -> str:
        """One line: ``"ZeroDivisionError: division by zero (at multi_agents.py:3 in f)"``."""
        text = f"{self.type}: {self.message}" if self.message else self.type
        if self.type == "SystemExit":
            text = self.message
        return f"{text} (at {self.where})" if self.where else text


_DUMP_SECONDS: Final = 0.5
"""How long a timed-out worker has to dump its stack (`SandboxProcess._where_stuck`)."""
_DUMP_BYTES: Final = 64 * 1024
"""The most of a stack dump read."""
_FRAME: Final = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+) in (?P<func>\S+)')


def _student_frame(dump: str, student_file: Path) -> str | None:
    """The innermost frame of the student's file in a `faulthandler` dump, or ``None``.

    As ``"line 74 of multi_agents.py, in get_action"`` (a dump lists innermost first).
    """
    for line in dump.splitlines():
        found = _FRAME.match(line)
        if found and Path(found["file"]).name == student_file.name:
            return f"line {found['line']} of {student_file.name}, in {found['func']},"
    return None


class WorkerLost(Exception):
    """The worker timed out, died or sent garbage; it has been killed."""

    def __init__(
        self, kind: Literal["timeout", "crash"], detail: str, where: str | None = None
    ) -> None:
        self.kind = kind
        self.detail = detail
        self.where = where
        """For a timeout: the line of the student's file it was running, if known."""
        super().__init__(detail)

    def stuck_at(self) -> str:
        """A sentence saying where a timed-out search was, or ``""`` when unknown."""
        return f" It was running {self.where} when stopped." if self.where else ""


@dataclass(frozen=True, slots=True)
class BadAnswer:
    """The student's code answered with something that is not a string (shown as repr)."""

    shown: str


class _ChannelTimeout(Exception):
    """A read or write with the worker missed its deadline."""


class _Pipe:
    """One end of the channel with the worker; every read and write has a deadline.

    Messages are framed as `multiprocessing.connection` frames them (a 4-byte big-endian
    length, or -1 and an 8-byte length, then the bytes), so the worker keeps its
    `Connection`. The descriptor is non-blocking: a worker that sends half a message, or
    stops reading while the grader writes, costs its test a timeout, never a hang.
    """

    def __init__(self, fd: int, events: int) -> None:
        os.set_blocking(fd, False)
        self.fd = fd
        self.poller = select.poll()
        self.poller.register(fd, events)
        self.buffer = bytearray()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)

    def _wait(self, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not self.poller.poll(remaining * 1000.0):
            raise _ChannelTimeout

    def _read(self, n: int, deadline: float) -> bytes:
        while len(self.buffer) < n:
            self._wait(deadline)
            try:
                chunk = os.read(self.fd, max(1 << 16, n - len(self.buffer)))
            except BlockingIOError:
                continue
            if not chunk:
                raise EOFError
            self.buffer += chunk
        data = bytes(self.buffer[:n])
        del self.buffer[:n]
        return data

    def recv(self, deadline: float, limit: int) -> bytes:
        """The next whole message, by ``deadline``.

        Raises:
            _ChannelTimeout: If it has not fully arrived by then.
            EOFError: If the worker closed its end.
            OSError: If the announced length is over ``limit``.
        """
        (size,) = struct.unpack("!i", self._read(4, deadline))
        if size == -1:
            (size,) = struct.unpack("!Q", self._read(8, deadline))
        if not 0 <= size <= limit:
            raise OSError(f"a message of {size} bytes (at most {limit})")
        return self._read(size, deadline)

    def send(self, data: bytes, deadline: float) -> None:
        """Write one whole message by ``deadline``.

        Raises:
            _ChannelTimeout: If the worker has not taken it all by then.
            OSError: If the worker closed its end.
        """
        n = len(data)
        header = struct.pack("!i", n) if n <= 0x7FFFFFFF else struct.pack("!iQ", -1, n)
        view = memoryview(header + data)
        while view:
            self._wait(deadline)
            try:
                written = os.write(self.fd, view)
            except BlockingIOError:
                continue
            view = view[written:]


class SandboxProcess:
    """A child process that imports the student's file and answers the grader.

    On Linux the worker is killed when the thread that started it ends (so no endless
    loop outlives the grader): start, use and close a worker in the same thread.

    The worker leads a process group of its own, and killing it kills the whole group:
    a process the student's code started dies with the worker. With ``run_as``, a grader
    running as root (Gradescope) runs the worker as that unprivileged user, so the
    student's code cannot touch the grader's files, such as the results it writes.

    Args:
        path: The student's Python file.
        python: The interpreter to run the worker with.
        run_as: A user name to run the worker as (needs root); ``None`` runs it as the
            grader's own user.
        hardened: ``False`` starts the worker without its keeper process (no subreaper,
            no control groups): only for measuring what that costs
            (``python -m benchmarks.grading``), never for grading.

    Raises:
        ValueError: If ``run_as`` names no user, the grader is not root, or that user
            cannot run ``python`` with this project.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        python: str = sys.executable,
        run_as: str | None = None,
        hardened: bool = True,
    ) -> None:
        self.hardened = hardened
        self.path = Path(path).resolve()
        self.python = python
        self._identity = _identity(run_as, python)
        self._cgroups: list[Path] = []
        self.load_error: StudentError | None = None
        """Set when importing the student's file failed (every test then fails at once)."""
        self.starts = 0
        """How many worker processes were started (restarts included)."""
        self._proc: subprocess.Popen[bytes] | None = None
        self._tx: _Pipe | None = None
        self._rx: _Pipe | None = None
        self._out = tempfile.TemporaryFile(mode="a+b")  # noqa: SIM115 (closed in close())
        # O_APPEND on the descriptor itself (mode "a" on a file made by descriptor does not
        # set it): the worker then writes at the end even after the grader truncates the
        # file between tests, instead of leaving a run of NUL bytes before its output, and
        # the 8 MB limit on the file counts per test.
        fd = self._out.fileno()
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)

    # --------------------------------------------------------------- lifecycle

    @property
    def alive(self) -> bool:
        """Whether a worker process is running."""
        proc = self._proc
        return proc is not None and proc.returncode is None and _exit_status(proc.pid) is None

    def start(self) -> None:
        """Start a fresh worker (killing any old one) and import the student's file.

        Raises:
            WorkerLost: If the worker does not start or dies while importing the file.
            StudentError: If importing the file raised (also kept in `load_error`).
        """
        self.kill()
        env = _worker_env()
        self._out.truncate(0)
        self._cgroups = _make_cgroups() if self.hardened else []
        keeper = [self.python, "-I", _KEEPER]
        if self._identity:
            keeper += ["--uid", str(self._identity["user"]), "--gid", str(self._identity["group"])]
            keeper += ["--nproc", str(MAX_PROCESSES)]
        for folder in self._cgroups:
            keeper += ["--cgroup", str(folder / "cgroup.procs")]
        worker = [self.python, "-P", "-m", "autograder.sandbox.worker"]
        self._proc = subprocess.Popen(
            [*keeper, "--", *worker] if self.hardened or self._identity else worker,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._out,
            cwd=self.path.parent,
            env=env,
            process_group=0,
        )
        assert self._proc.stdin is not None
        assert self._proc.stdout is not None
        self._tx = _Pipe(os.dup(self._proc.stdin.fileno()), select.POLLOUT)
        self._rx = _Pipe(os.dup(self._proc.stdout.fileno()), select.POLLIN)
        self._proc.stdin.close()
        self._proc.stdout.close()
        self.starts += 1
        self.call(None, deadline=time.monotonic() + _STARTUP_SECONDS)  # the greeting
        try:
            self.call(Load(str(self.path)), deadline=time.monotonic() + _IMPORT_SECONDS)
        except StudentError as exc:
            self.load_error = exc
            raise
        except WorkerLost as exc:
            what = (
                f"importing it took more than {_IMPORT_SECONDS:g} s "
                "(an endless loop, or slow work, at the top level of the file?)"
                if exc.kind == "timeout"
                else exc.detail
            )
            self.load_error = StudentError({"type": "ImportError", "message": what})
            raise self.load_error from None

    def ensure(self) -> None:
        """Start a worker if none is running (after a crash or timeout, say).

        Raises:
            WorkerLost: If the worker cannot start.
            StudentError: If importing the file raised.
        """
        if self.load_error is not None:
            raise self.load_error
        if not self.alive:
            self.start()

    def kill(self) -> None:
        """Kill the worker process and every process it started, if any."""
        for conn in (self._tx, self._rx):
            if conn is not None:
                conn.close()
        self._tx = self._rx = None
        proc, self._proc = self._proc, None
        if proc is not None:
            # The keeper kills the worker and everything below it, even processes that
            # left the group with setsid, then ends; the group kill below is the fallback.
            if _exit_status(proc.pid) is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(proc.pid, signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=_KEEPER_SECONDS)
            # The whole group, even when the worker has exited: its children may not have.
            # Nothing reaps the worker before this line (`alive` and `_lost` look without
            # reaping), so its pid, which is the group's id, cannot have been reused.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        for folder in self._cgroups:
            with contextlib.suppress(OSError):
                folder.rmdir()
        self._cgroups = []

    def close(self) -> None:
        """Stop the worker and release the capture file."""
        if self.alive and self._tx is not None:
            try:
                self._tx.send(pickle.dumps(Quit(), 5), time.monotonic() + 1.0)
                assert self._proc is not None
                self._proc.wait(timeout=2)
            except (OSError, _ChannelTimeout, subprocess.TimeoutExpired):
                pass
        self.kill()
        self._out.close()

    def _where_stuck(self) -> str | None:
        """The line of the student's file the worker is running, asked before killing it.

        The worker dumps its stack into the capture file on ``SIGUSR1`` (the keeper passes
        the signal on); the dump is read and cut off again, so the student's output stays
        as it was. ``None`` when the worker does not answer within `_DUMP_SECONDS`.
        """
        proc = self._proc
        if proc is None or _exit_status(proc.pid) is not None:
            return None
        fd = self._out.fileno()
        before = os.fstat(fd).st_size
        try:
            os.kill(proc.pid, signal.SIGUSR1)
        except OSError:
            return None
        end = time.monotonic() + _DUMP_SECONDS
        size = before
        while time.monotonic() < end:
            time.sleep(0.02)
            now = os.fstat(fd).st_size
            if now > before and now == size:
                break  # the dump has stopped growing
            size = now
        dump = os.pread(fd, _DUMP_BYTES, before).decode(errors="replace")
        with contextlib.suppress(OSError):
            os.ftruncate(fd, before)
        return _student_frame(dump, self.path)

    # ------------------------------------------------------------------ output

    def clear_output(self) -> None:
        """Forget what the student's code printed so far."""
        self._out.truncate(0)

    def output(self, limit: int = OUTPUT_SHOWN_CHARS) -> str:
        """What the student's code printed since `clear_output`, cut to ``limit`` chars."""
        size = os.fstat(self._out.fileno()).st_size
        data = os.pread(self._out.fileno(), limit * 4, 0)
        text = data.decode(errors="replace")
        if len(text) > limit or size > len(data):
            text = text[:limit] + f"\n... (output cut: {size} bytes printed in all)"
        return text

    # ---------------------------------------------------------------- messages

    def send(self, message: Command) -> None:
        """Send a command that has no reply (a layout, a seed).

        Raises:
            WorkerLost: If the worker is gone.
        """
        if self._tx is None:
            raise WorkerLost("crash", "the worker process is not running")
        try:
            self._tx.send(pickle.dumps(message, 5), time.monotonic() + _SEND_SECONDS)
        except _ChannelTimeout:
            self.kill()
            raise WorkerLost("timeout", "stopped reading the grader's messages") from None
        except OSError:
            raise self._lost() from None

    def call(
        self,
        message: Command | None,
        *,
        deadline: float,
        serve: Serve | None = None,
        notice: Callable[[int], None] | None = None,
    ) -> str | BadAnswer | dict[str, Any]:
        """Send a command and serve the worker's requests until it answers.

        Args:
            message: The command (`autograder.sandbox.protocol`), or ``None`` to wait for
                the start-up greeting without sending anything.
            deadline: `time.monotonic` time by which the answer must come; the worker is
                killed when it passes.
            serve: Answers successor requests (none are allowed when omitted).
            notice: Told the number of each state sent ahead that the worker handed over.
                Without it, such notices are ignored.

        Returns:
            The action text (or a `BadAnswer`) for a decision, the info dict otherwise.

        Raises:
            StudentError: The student's code raised.
            WorkerLost: Timeout, death or a malformed message; the worker is killed.
        """
        if message is not None:
            self.send(message)
        rx = self._rx
        if rx is None:
            raise WorkerLost("crash", "the worker process is not running")
        while True:
            try:
                data = rx.recv(deadline, _MAX_MESSAGE)
            except _ChannelTimeout:
                where = self._where_stuck()
                self.kill()
                raise WorkerLost("timeout", "timed out", where) from None
            except (EOFError, OSError):
                raise self._lost() from None
            try:
                answer = self._handle(data, serve, notice, deadline)
            except (StudentError, WorkerLost):
                raise
            except Exception as exc:  # whatever its bytes break here fails the worker only
                self.kill()
                raise WorkerLost(
                    "crash", f"the worker broke the protocol ({type(exc).__name__})"
                ) from None
            if answer is not None:
                return answer

    def _handle(
        self,
        data: bytes,
        serve: Serve | None,
        notice: Callable[[int], None] | None,
        deadline: float,
    ) -> str | BadAnswer | dict[str, Any] | None:
        """Act on one message from the worker: the answer, or ``None`` to keep waiting."""
        tx = self._tx
        assert tx is not None
        kind = data[:1]
        if kind == SUCCESSOR and serve is not None:
            try:
                reply = serve(*decode_request(data))
            except ValueError as exc:
                reply = (FAILED, "ValueError", str(exc))
            try:
                tx.send(pickle.dumps(reply, 5), deadline)
            except _ChannelTimeout:  # it asks and asks without reading the answers
                self.kill()
                raise WorkerLost("timeout", "timed out") from None
            except OSError:
                raise self._lost() from None
        elif kind == NOTICE and notice is not None:
            for number in data[1:].split(b","):
                # Anything else is not a number we sent (and a huge one would be slow).
                if number.isdigit() and len(number) <= _MAX_DIGITS:
                    notice(int(number))
        elif kind == NOTICE:
            pass  # notices outside a counted decision count nothing
        elif kind == ANSWER:
            text = data[1:].decode(errors="replace")
            return BadAnswer(text[1:]) if text.startswith("\x00") else text
        elif kind == RAISED:
            error = StudentError(_json(data[1:]))
            if error.type == "RecursionError":
                # The overflow may have struck between a successor request and its reply:
                # a stale reply would be read as the next test's command. A fresh worker
                # for the next test keeps this test's crash from failing another.
                self.kill()
            raise error
        elif kind == READY:
            return _json(data[1:])
        else:
            self.kill()
            raise WorkerLost("crash", f"the worker sent a malformed message {data[:40]!r}")
        return None

    def _lost(self) -> WorkerLost:
        proc = self._proc
        code = None
        if proc is not None:  # wait for its status without reaping it (see `kill`)
            end = time.monotonic() + 2.0
            while (code := _exit_status(proc.pid)) is None and time.monotonic() < end:
                time.sleep(0.01)
        self.kill()
        if code is None:
            return WorkerLost("crash", "the worker process stopped answering")
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            return WorkerLost("crash", f"the worker process was killed by signal {name}")
        return WorkerLost(
            "crash", f"the worker process exited with status {code} (os._exit or a crash?)"
        )


def _exit_status(pid: int) -> int | None:
    """How child ``pid`` ended (a negative signal number if killed), without reaping it.

    Returns ``None`` while it runs (or if it was already reaped).
    """
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return None
    if info is None:
        return None
    return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status


_CGROUP_ROOT: Final = Path("/sys/fs/cgroup")
_CGROUP_NUMBERS: Final = itertools.count()


def _make_cgroups() -> list[Path]:
    """Control groups capping one worker tree's memory and processes, where the grader may.

    cgroup v2 (one folder with both controllers) or v1 (a folder in the memory and in the
    pids hierarchy); an empty list where neither can be made (not root, a read-only
    hierarchy, as in most containers): the per-process limits then hold alone.
    """
    name = f"autograder-{os.getpid()}-{next(_CGROUP_NUMBERS)}"
    limits = {"memory": str(MEMORY_LIMIT_BYTES), "pids": str(MAX_PROCESSES)}
    if (_CGROUP_ROOT / "cgroup.controllers").is_file():
        both = {"memory.max": limits["memory"], "pids.max": limits["pids"]}
        plans = [(_CGROUP_ROOT / name, both)]
    else:
        plans = [
            (_CGROUP_ROOT / "memory" / name, {"memory.limit_in_bytes": limits["memory"]}),
            (_CGROUP_ROOT / "pids" / name, {"pids.max": limits["pids"]}),
        ]
    made: list[Path] = []
    try:
        for folder, files in plans:
            folder.mkdir()
            made.append(folder)
            for file, value in files.items():
                (folder / file).write_text(value)
    except OSError:
        for folder in made:
            with contextlib.suppress(OSError):
                folder.rmdir()
        return []
    return made


@functools.cache
def _make_cgroups_probe() -> bool:
    """Whether this grader can make control groups (made once, then removed)."""
    made = _make_cgroups()
    for folder in made:
        with contextlib.suppress(OSError):
            folder.rmdir()
    return bool(made)


def _json(data: bytes) -> dict[str, Any]:
    try:
        value = json.loads(data.decode(errors="replace"))
    except (ValueError, RecursionError):  # RecursionError: deeply nested brackets
        return {"type": "ProtocolError", "message": "the worker sent malformed JSON"}
    return value if isinstance(value, dict) else {"type": "ProtocolError", "message": "bad info"}


def _worker_env() -> dict[str, str]:
    """The worker's environment: this one, with the project importable."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_PROJECT_ROOT, env.get("PYTHONPATH", "")) if p)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


@functools.cache  # one probe per user and interpreter, however many workers
def _identity(run_as: str | None, python: str) -> dict[str, Any]:
    """The ``user`` and ``group`` the worker runs as with ``run_as`` (empty: the grader's).

    Checks once that the user can start the worker at all (run the interpreter and import
    the project), so a misconfigured grader fails in one line, not in every test.
    """
    if run_as is None:
        return {}
    import pwd

    try:
        user = pwd.getpwnam(run_as)
    except KeyError:
        raise ValueError(f"--run-as: no user {run_as!r} on this machine") from None
    if os.geteuid() != 0:
        raise ValueError(f"--run-as {run_as}: only a grader running as root can switch users")
    identity: dict[str, Any] = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    try:
        probe = subprocess.run(
            [python, "-P", "-c", "import autograder.sandbox.worker"],
            env=_worker_env(),
            cwd="/",
            capture_output=True,
            timeout=_STARTUP_SECONDS,
            **identity,
        )
        problem = probe.stderr.decode(errors="replace").strip().splitlines()[-1:]
        failed = probe.returncode != 0
    except (OSError, subprocess.TimeoutExpired) as exc:
        problem, failed = [str(exc)], True
    if failed:
        why = problem[0] if problem else "it exited with an error"
        raise ValueError(f"--run-as {run_as}: that user cannot run {python} with the grader: {why}")
    return identity


class RemoteAgent:
    """The student's Pacman agent as a game loop sees it: every move asks the worker.

    The state goes as plain fields (`Play`): the worker generates successors locally, as
    evaluation games need no count.

    Args:
        worker: The worker holding the agent (made with `MakeAgent`).
        move_limit: Seconds for one move.
        test_deadline: When the whole test must end (`time.monotonic` time).
    """

    def __init__(self, worker: SandboxProcess, move_limit: float, test_deadline: float) -> None:
        self.worker = worker
        self.move_limit = move_limit
        self.test_deadline = test_deadline

    def deadline(self) -> float:
        """The deadline of the next move."""
        return min(self.test_deadline, time.monotonic() + self.move_limit)

    def register_initial_state(self, state: Any) -> None:
        """Call the agent's ``register_initial_state`` in the worker."""
        self.worker.call(Register(None, state_fields(state)), deadline=self.deadline())

    def get_action(self, state: Any) -> Any:
        """The agent's move (the text it returned, if not an action)."""
        answer = self.worker.call(Play(state_fields(state)), deadline=self.deadline())
        return answer.shown if isinstance(answer, BadAnswer) else answer
