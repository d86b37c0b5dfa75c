"""Where games run: in this process, in a pool of local worker processes, or on Ray.

Each backend takes numbered `GameTask`s and yields ``(number, record)`` pairs as games
finish (in completion order). Every task yields exactly one record: a game whose worker
dies or whose Ray task fails is recorded as a crash, and the run goes on.

The local pool starts its workers with the ``spawn`` method, on purpose: a spawned
worker is a fresh interpreter that inherits nothing from the parent (no open results
file, no signal handlers, no student module the parent imported while checking the
specs, no threads whose locks ``fork`` could copy while held), and it behaves the same on
Linux, macOS and Windows. Start-up costs one interpreter and an import of the engine per
worker (a fraction of a second, once per run).

Ctrl-C: workers ignore SIGINT, so the terminal's interrupt reaches only the parent,
which stops handing out games, terminates its workers and re-raises
`KeyboardInterrupt` for the caller to report. Games already written stay written.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import json
import multiprocessing
import os
import signal
import socket
import struct
import sys
import time
from collections import deque
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from pacman.batch.play import failed_record, play_task
from pacman.batch.result import GameResult
from pacman.batch.spec import EvalConfigError, GameTask
from pacman.core.errors import PacmanError
from pacman.core.record import GameRecord

__all__ = [
    "MAX_FRAME_BYTES",
    "PREFETCH",
    "FrameReader",
    "Numbered",
    "Result",
    "check_ray_address",
    "decode_result",
    "default_jobs",
    "descendants",
    "encode_result",
    "hard_limit",
    "iter_inline",
    "iter_local",
    "iter_ray",
    "kill_descendants",
]

Numbered = tuple[int, GameTask]
"""A game and its number in the grid."""
Result = tuple[int, GameResult]
"""A game's number and its result."""

PREFETCH = 2
"""Games queued per worker, so a worker never waits for the parent between games."""


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def iter_inline(tasks: Iterable[Numbered]) -> Generator[Result, None, None]:
    """Play every game in this process, one after the other (``--jobs 0``; for debugging)."""
    for number, task in tasks:
        yield number, play_task(task)


def _become_subreaper() -> None:
    """Make this process a child subreaper (Linux): orphaned descendants become ours."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (Linux ``/proc``; empty elsewhere), children first."""
    parents: dict[int, list[int]] = {}
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return []
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry))
    found: list[int] = []
    todo = [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found.extend(children)
        todo.extend(children)
    return found


def kill_descendants(pid: int, rounds: int = 3) -> None:
    """Kill every process below ``pid``, again while new ones appear (a fork bomb).

    Meant for a worker that is a subreaper (`_become_subreaper`): processes its agent
    started stay below it even when their parent died or they called ``setsid``, so
    killing its descendants before it kills them all.
    """
    for _ in range(rounds):
        found = descendants(pid)
        if not found:
            return
        for child in found:
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)
        if pid == os.getpid():  # reap our own children
            with contextlib.suppress(ChildProcessError):
                while os.waitpid(-1, os.WNOHANG)[0]:
                    pass


def _worker_main(conn: Connection, beat: Any, results: Connection) -> None:
    """Worker loop: receive ``(number, task)``, send back ``(number, record)``; None stops.

    ``beat`` is a shared array of three doubles: the monotonic time of the game's last
    sign of progress (0 between games), the agent about to move, and the number of
    results sent. The worker is a
    subreaper and kills whatever its agents started after each game. Tasks come pickled
    on ``conn`` (from the parent, trusted); results go back on ``results`` as JSON
    frames (`encode_result`), which the parent reads without unpickling anything an
    agent could have written.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _become_subreaper()

    def heartbeat(agent: int) -> None:
        beat[0] = time.monotonic()
        beat[1] = agent

    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        number, task = message
        try:
            record = play_task(task, heartbeat)
        except KeyboardInterrupt as exc:  # raised by the agent itself: SIGINT is ignored
            record = failed_record(task, f"the game failed: KeyboardInterrupt: {exc}")
        beat[0] = 0.0
        kill_descendants(os.getpid())  # nothing an agent started outlives its game
        try:
            results.send_bytes(encode_result(number, record))
        except (BrokenPipeError, OSError):
            return
        beat[2] += 1  # results sent: the parent knows a whole frame is on its way


FRAME_GRACE = 2.0
"""Seconds a result the worker says it sent may take to arrive whole."""

MAX_FRAME_BYTES = 256 * 2**20
"""The largest result frame a worker may send (a kept game record included)."""


def encode_result(number: int, record: GameResult) -> bytes:
    """A result as the worker sends it: JSON, with the kept game record if any."""
    data = {"number": number, "result": record.to_dict(), "game_record": record.game_record}
    return json.dumps(data, separators=(",", ":")).encode()


def decode_result(data: bytes) -> Result:
    """A result frame from a worker, checked field by field.

    Raises:
        ValueError: If the frame is not a result (garbage an agent wrote, say).
    """
    try:
        obj = json.loads(data)
        if not isinstance(obj, dict) or set(obj) != {"number", "result", "game_record"}:
            raise ValueError("not a result frame")
        number = obj["number"]
        if isinstance(number, bool) or not isinstance(number, int):
            raise ValueError("no game number")
        if not isinstance(obj["result"], dict):
            raise ValueError("no result")
        result = GameResult.from_dict(obj["result"])
        game_record = obj["game_record"]
        if game_record is not None:
            if not isinstance(game_record, dict):
                raise ValueError("a game record that is not an object")
            GameRecord.from_dict(game_record)  # raises if it is not a record
    except (KeyError, TypeError, ValueError, RecursionError, OverflowError, PacmanError) as exc:
        raise ValueError(f"malformed result from the worker: {exc}") from None
    return number, dataclasses.replace(result, game_record=game_record)


class FrameReader:
    """Reads length-prefixed frames from a pipe without ever blocking.

    The worker writes frames as `multiprocessing.connection.Connection.send_bytes` does
    (a 4-byte big-endian length, or -1 and an 8-byte length, then the bytes). The parent
    reads what is there when the pipe is readable and keeps a partial frame for later,
    so a worker that writes half a frame (an agent writing to the pipe) cannot stop the
    parent; a length beyond `MAX_FRAME_BYTES` is refused.
    """

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.fd = connection.fileno()
        os.set_blocking(self.fd, False)
        self.buffer = bytearray()
        self.closed = False

    def read(self) -> list[bytes]:
        """The complete frames readable now (``closed`` is set at end of file).

        Raises:
            ValueError: On a frame longer than `MAX_FRAME_BYTES`.
        """
        while not self.closed:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            except OSError:
                self.closed = True
                break
            if not chunk:
                self.closed = True
                break
            self.buffer += chunk
        frames: list[bytes] = []
        while True:
            if len(self.buffer) < 4:
                return frames
            (size,) = struct.unpack("!i", self.buffer[:4])
            start = 4
            if size == -1:
                if len(self.buffer) < 12:
                    return frames
                (size,) = struct.unpack("!Q", self.buffer[4:12])
                start = 12
            if size < 0 or size > MAX_FRAME_BYTES:
                raise ValueError(f"a result frame of {size} bytes from the worker")
            if len(self.buffer) < start + size:
                return frames
            frames.append(bytes(self.buffer[start : start + size]))
            del self.buffer[: start + size]


def hard_limit(timeout: float | None) -> float | None:
    """Seconds without progress after which a worker is killed: ``2 * timeout + 1``.

    The per-move limit interrupts an agent with a signal, which an agent can defeat
    (a long call into C code, or an ``except Exception`` that swallows the timeout);
    the parent then stops the whole worker. The limit also covers creating the agents
    and ``register_initial_state``, which the per-move limit does not. ``None``
    without a per-move limit.

    >>> hard_limit(0.5), hard_limit(None)
    (2.0, None)
    """
    return None if timeout is None else 2 * timeout + 1


@dataclass
class _GameProcess:
    process: BaseProcess
    conn: Connection
    """Tasks go to the worker here (pickled: the parent is trusted)."""
    reader: FrameReader
    """Results come back here, as JSON frames."""
    beat: Any
    received: int = 0
    """Results read from it (compared with the count it reports in ``beat[2]``)."""
    behind_since: float | None = None
    """Since when it reports more results sent than arrived whole (a corrupted pipe)."""
    agent: str | None = None
    """The Pacman agent spec whose games it plays: one worker never plays two (an agent's
    file could otherwise change what a rival's games do)."""
    queued: deque[Numbered] = field(default_factory=deque)


def iter_local(
    tasks: Iterable[Numbered], jobs: int, *, watchdog: float | None = None
) -> Generator[Result, None, None]:
    """Play the games in ``jobs`` spawned worker processes.

    A worker that dies (an agent calling ``os._exit``, a segfault, the OOM killer)
    costs the game it was playing, recorded as a crash; the games queued behind it go
    to a fresh worker. So does a worker whose game shows no progress for ``watchdog``
    seconds (see `hard_limit`), recorded as a timeout of the agent that was to move.

    Args:
        tasks: Numbered games, consumed lazily.
        jobs: Number of worker processes (>= 1).
        watchdog: Seconds without progress before a worker is killed (``None``: never).
    """
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    ctx = multiprocessing.get_context("spawn")
    source = iter(tasks)
    retry: deque[Numbered] = deque()
    workers: list[_GameProcess] = []

    def start() -> _GameProcess:
        task_in, task_out = ctx.Pipe(duplex=False)
        result_in, result_out = ctx.Pipe(duplex=False)
        beat = ctx.Array("d", 3, lock=False)
        process = ctx.Process(target=_worker_main, args=(task_in, beat, result_out), daemon=True)
        process.start()
        task_in.close()
        result_out.close()
        return _GameProcess(process, task_out, FrameReader(result_in), beat)

    def replace(worker: _GameProcess) -> _GameProcess:
        worker.conn.close()
        worker.reader.connection.close()
        if worker.process.is_alive():
            _kill_worker(worker.process)
        worker.process.join(5)
        replacement = start()
        workers[workers.index(worker)] = replacement
        return replacement

    def fail_head(worker: _GameProcess, record: GameResult) -> Result:
        """Give up the worker's running game; its queued games go back in line."""
        number, _ = worker.queued.popleft()
        retry.extend(worker.queued)
        worker.queued.clear()
        replace(worker)
        return number, record

    def drain(worker: _GameProcess, done: list[Result]) -> bool:
        """Read every result the worker has sent; true if the worker is gone.

        Gone: it died, or it sent something that is not a result and was replaced.
        """
        try:
            frames = worker.reader.read()
            for frame in frames:
                number, record = decode_result(frame)
                if not worker.queued or number != worker.queued[0][0]:
                    raise ValueError("malformed result from the worker: not the game it played")
                worker.queued.popleft()
                worker.received += 1
                done.append((number, record))
        except ValueError as exc:  # garbage on its pipe: its game fails, not the run
            if worker.queued:
                _, task = worker.queued[0]
                done.append(fail_head(worker, failed_record(task, str(exc))))
            else:
                replace(worker)
            return True
        return worker.reader.closed

    def feed(worker: _GameProcess) -> None:
        while len(worker.queued) < PREFETCH:
            item = retry.popleft() if retry else next(source, None)
            if item is None:
                return
            agent = item[1].pacman.label
            if worker.agent is not None and agent != worker.agent:
                retry.appendleft(item)
                if worker.queued:
                    return  # another agent's games: after this worker's own
                worker = replace(worker)  # a fresh process for the next agent
                continue
            worker.agent = agent
            try:
                worker.conn.send(item)
            except (BrokenPipeError, OSError):
                retry.appendleft(item)
                if not worker.queued:  # died idle: nothing lost, replace it now
                    worker = replace(worker)
                    continue
                return  # died in a game: the main loop sees its sentinel
            worker.queued.append(item)

    try:
        for _ in range(jobs):
            workers.append(start())
            feed(workers[-1])
        while any(w.queued for w in workers) or retry:
            by_handle: dict[Any, _GameProcess] = {}
            for w in workers:
                if w.queued:
                    by_handle[w.reader.connection] = w
                    by_handle[w.process.sentinel] = w
            if not by_handle:  # nothing running: hand out the games waiting for a retry
                for worker in list(workers):
                    feed(worker)
                continue
            done: list[Result] = []
            poll = 1.0 if watchdog is None else min(1.0, watchdog / 4)
            for handle in wait(list(by_handle), timeout=poll):
                worker = by_handle[handle]
                if worker not in workers:
                    continue  # already replaced through its other handle
                alive = worker.process.is_alive()  # before draining: see below
                dead = drain(worker, done)
                # Dead before the drain and still owing games: everything it sent was read.
                if (dead or not alive) and worker.queued:
                    worker.process.join(5)
                    code = worker.process.exitcode
                    _, task = worker.queued[0]
                    message = f"the worker process died (exit code {code})"
                    done.append(fail_head(worker, failed_record(task, message)))
            now = time.monotonic()
            for worker in list(workers):
                # It says it sent a result that never arrived whole: something else was
                # written on its pipe (half a frame, say). Its game fails, not the run.
                if worker.queued and worker.beat[2] > worker.received:
                    if worker.behind_since is None:
                        worker.behind_since = now
                    elif now - worker.behind_since > FRAME_GRACE:
                        _, task = worker.queued[0]
                        message = "the worker's result did not arrive whole (garbage on its pipe)"
                        done.append(fail_head(worker, failed_record(task, message)))
                else:
                    worker.behind_since = None
            if watchdog is not None:
                for worker in list(workers):
                    since = worker.beat[0]
                    if worker.queued and since and now - since > watchdog:
                        drain(worker, done)  # the head may have ended; its result unread
                    if worker.queued and since and now - since > watchdog:
                        _, task = worker.queued[0]
                        agent = int(worker.beat[1])
                        message = (
                            f"agent {agent} made no move for {watchdog:g} s despite the "
                            f"{task.timeout:g} s limit; its worker process was stopped"
                        )
                        record = failed_record(
                            task, message, now - since, outcome="timeout", failed_agent=agent
                        )
                        done.append(fail_head(worker, record))
            for worker in list(workers):
                feed(worker)
            yield from done
    finally:
        _stop(workers)


def _kill_worker(process: BaseProcess) -> None:
    """Kill a worker and, first, everything its agents started (still below it)."""
    if process.pid is not None:
        kill_descendants(process.pid)
    process.kill()


def _stop(workers: list[_GameProcess]) -> None:
    """Ask idle workers to quit; terminate the busy ones (interrupted or abandoned run)."""
    for w in workers:
        if w.queued:
            if w.process.pid is not None:
                kill_descendants(w.process.pid)
            w.process.terminate()
        else:
            try:
                w.conn.send(None)
            except (BrokenPipeError, OSError):
                w.process.terminate()
    for w in workers:
        w.process.join(5)
        if w.process.is_alive():  # pragma: no cover - a worker ignoring SIGTERM
            w.process.kill()
            w.process.join()
        w.conn.close()
        w.reader.connection.close()


def iter_ray(
    tasks: Iterable[Numbered], jobs: int | None, address: str | None
) -> Generator[Result, None, None]:
    """Play the games as Ray tasks, on a cluster at ``address`` or a local Ray instance.

    At most ``jobs`` games (default: twice the cluster's CPUs) are submitted at a time,
    so the driver's memory does not grow with the grid. A task that fails inside Ray
    (its worker died, say) is recorded as a crash.

    Raises:
        ImportError: If Ray is not installed (``pip install 'pacman-multiagent[ray]'``).
    """
    import ray  # type: ignore[import-not-found,unused-ignore]

    # Ray's driver prints cluster messages ("(raylet) A worker died ...") on stdout,
    # where they would corrupt `--json`; send them to stderr while Ray is up.
    with contextlib.redirect_stdout(sys.stderr):
        yield from _iter_ray(ray, tasks, jobs, address)


def _iter_ray(
    ray: Any, tasks: Iterable[Numbered], jobs: int | None, address: str | None
) -> Generator[Result, None, None]:
    started = not ray.is_initialized()
    if started:
        ray.init(
            address=address,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
    try:
        if jobs is None:
            cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call,unused-ignore]
            jobs = 2 * max(1, int(cpus))
        remote = ray.remote(num_cpus=1, max_retries=0)(play_task)
        source = iter(tasks)
        pending: dict[Any, Numbered] = {}
        try:
            while True:
                while len(pending) < jobs:
                    item = next(source, None)
                    if item is None:
                        break
                    pending[remote.remote(item[1])] = item
                if not pending:
                    return
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    number, task = pending.pop(ref)
                    try:
                        record = ray.get(ref)
                    except ray.exceptions.RayError as exc:
                        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                        record = failed_record(
                            task, f"the Ray task failed: {type(exc).__name__}: {reason}"
                        )
                    yield number, record
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
    finally:
        if started:
            ray.shutdown()


def check_ray_address(address: str | None, timeout: float = 5.0) -> None:
    """Check that a ``host:port`` (or ``ray://host:port``) Ray address accepts connections.

    Ray itself retries an unreachable address for a long time; this fails in seconds.
    ``None``, ``"auto"`` and ``"local"`` are left to Ray.

    Raises:
        EvalConfigError: If the address is malformed or nothing listens there.
    """
    if address is None or address in ("auto", "local"):
        return
    rest = address.removeprefix("ray://")
    host, sep, port_text = rest.rpartition(":")
    if not sep or not host or not port_text.isdigit():
        raise EvalConfigError(
            f"--address {address!r}: expected host:port, ray://host:port, auto or local"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port_text)), timeout=timeout).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise EvalConfigError(
            f"--address {address!r}: cannot reach a Ray cluster: {reason}"
        ) from None
