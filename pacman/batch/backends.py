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

import multiprocessing
import os
import signal
import socket
from collections import deque
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from pacman.batch.play import failed_record, play_task
from pacman.batch.spec import EvalConfigError, GameTask

__all__ = [
    "PREFETCH",
    "check_ray_address",
    "default_jobs",
    "iter_inline",
    "iter_local",
    "iter_ray",
]

Numbered = tuple[int, GameTask]
Result = tuple[int, dict[str, Any]]

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


def _worker_main(conn: Connection) -> None:
    """Worker loop: receive ``(number, task)``, send back ``(number, record)``; None stops."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        number, task = message
        try:
            record = play_task(task)
        except KeyboardInterrupt as exc:  # raised by the agent itself: SIGINT is ignored
            record = failed_record(task, f"the game failed: KeyboardInterrupt: {exc}")
        try:
            conn.send((number, record))
        except (BrokenPipeError, OSError):
            return


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    queued: deque[Numbered] = field(default_factory=deque)


def iter_local(tasks: Iterable[Numbered], jobs: int) -> Generator[Result, None, None]:
    """Play the games in ``jobs`` spawned worker processes.

    A worker that dies (an agent calling ``os._exit``, a segfault, the OOM killer)
    costs the game it was playing, recorded as a crash; the games queued behind it go
    to a fresh worker.

    Args:
        tasks: Numbered games, consumed lazily.
        jobs: Number of worker processes (>= 1).
    """
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    ctx = multiprocessing.get_context("spawn")
    source = iter(tasks)
    retry: deque[Numbered] = deque()
    workers: list[_Worker] = []

    def start() -> _Worker:
        parent_conn, child_conn = ctx.Pipe()
        process = ctx.Process(target=_worker_main, args=(child_conn,), daemon=True)
        process.start()
        child_conn.close()
        return _Worker(process, parent_conn)

    def next_task() -> Numbered | None:
        if retry:
            return retry.popleft()
        return next(source, None)

    def feed(worker: _Worker) -> _Worker:
        while len(worker.queued) < PREFETCH:
            item = next_task()
            if item is None:
                break
            try:
                worker.conn.send(item)
            except (BrokenPipeError, OSError):  # an idle worker died: replace it
                retry.appendleft(item)
                retry.extendleft(reversed(worker.queued))
                worker.process.join(5)
                worker.conn.close()
                replacement = start()
                workers[workers.index(worker)] = replacement
                worker = replacement
                continue
            worker.queued.append(item)
        return worker

    try:
        for _ in range(jobs):
            workers.append(start())
            feed(workers[-1])
        while any(w.queued for w in workers):
            by_handle: dict[Any, _Worker] = {}
            for w in workers:
                if w.queued:
                    by_handle[w.conn] = w
                    by_handle[w.process.sentinel] = w
            done: list[Result] = []
            for handle in wait(list(by_handle)):
                worker = by_handle[handle]
                if worker not in workers:
                    continue  # already replaced through its other handle
                alive = worker.process.is_alive()  # before draining: see below
                dead = False
                while worker.queued:
                    try:
                        if not worker.conn.poll():
                            break
                        number, record = worker.conn.recv()
                    except (EOFError, OSError):
                        dead = True
                        break
                    worker.queued.popleft()
                    done.append((number, record))
                # Dead before the drain and still owing games: everything it sent was read.
                if (dead or not alive) and worker.queued:
                    worker.process.join(5)
                    code = worker.process.exitcode
                    number, task = worker.queued.popleft()
                    done.append(
                        (number, failed_record(task, f"the worker process died (exit code {code})"))
                    )
                    retry.extend(worker.queued)
                    worker.queued.clear()
                    worker.conn.close()
                    workers[workers.index(worker)] = start()
            for worker in list(workers):
                feed(worker)
            yield from done
    finally:
        _stop(workers)


def _stop(workers: list[_Worker]) -> None:
    """Ask idle workers to quit; terminate the busy ones (interrupted or abandoned run)."""
    for w in workers:
        if w.queued:
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
