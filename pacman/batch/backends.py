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
import multiprocessing
import os
import signal
import socket
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

__all__ = [
    "PREFETCH",
    "Numbered",
    "Result",
    "check_ray_address",
    "default_jobs",
    "descendants",
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


def _worker_main(conn: Connection, beat: Any) -> None:
    """Worker loop: receive ``(number, task)``, send back ``(number, record)``; None stops.

    ``beat`` is a shared array of two doubles: the monotonic time of the game's last
    sign of progress (0 between games) and the agent about to move. The worker is a
    subreaper and kills whatever its agents started after each game.
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
            conn.send((number, record))
        except (BrokenPipeError, OSError):
            return


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
    beat: Any
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
        parent_conn, child_conn = ctx.Pipe()
        beat = ctx.Array("d", 2, lock=False)
        process = ctx.Process(target=_worker_main, args=(child_conn, beat), daemon=True)
        process.start()
        child_conn.close()
        return _GameProcess(process, parent_conn, beat)

    def replace(worker: _GameProcess) -> _GameProcess:
        worker.conn.close()
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
        """Read every result the worker has sent; true if its pipe is closed (it died)."""
        while worker.queued:
            try:
                if not worker.conn.poll():
                    return False
                number, record = worker.conn.recv()
            except (EOFError, OSError):
                return True
            worker.queued.popleft()
            done.append((number, record))
        return False

    def feed(worker: _GameProcess) -> None:
        while len(worker.queued) < PREFETCH:
            item = retry.popleft() if retry else next(source, None)
            if item is None:
                return
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
                    by_handle[w.conn] = w
                    by_handle[w.process.sentinel] = w
            if not by_handle:  # nothing running: hand out the games waiting for a retry
                for worker in list(workers):
                    feed(worker)
                continue
            done: list[Result] = []
            poll = None if watchdog is None else min(1.0, watchdog / 4)
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
            if watchdog is not None:
                now = time.monotonic()
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
