"""The worker's keeper: it starts the worker and, when the worker ends, kills all it left.

The grader runs this file as a script (``python -I keeper.py [options] -- command ...``),
never as an import, so it starts fast and reads nothing of the project or of the
student's folder. It

1. makes itself a child subreaper (Linux ``PR_SET_CHILD_SUBREAPER``): any process the
   worker's code starts, even one that calls ``setsid`` and forks again, stays below it
   instead of being handed to ``init`` when its parent dies;
2. joins the control groups it is given (memory and process caps for the whole tree);
3. forks the worker: with ``--nproc`` it caps the number of processes of the worker's
   user (``RLIMIT_NPROC``), with ``--uid``/``--gid`` it drops to that user, then execs
   the command with the keeper's standard streams (the grader's channel);
4. lets go of those streams itself, so the grader sees the channel close when the
   worker dies, and waits; when the worker ends, or on ``SIGTERM`` from the grader, it
   kills every process left below it, repeatedly, until none is left;
5. ends the way the worker ended (the same exit status or signal), so the grader can
   tell the student what happened.

On ``SIGUSR1`` it passes the signal on to the worker, which then writes its stack to the
capture file (the grader asks where a timed-out search was before killing it).

Without subreapers (not Linux), step 4 only kills what is still its child.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import sys
import time

_PR_SET_CHILD_SUBREAPER = 36
_KILL_SECONDS = 5.0
"""How long the keeper keeps killing what its tree starts before it gives up."""


def _become_subreaper() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (read from /proc)."""
    found: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: the fields follow the last ')'.
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and fields[1] == str(parent).encode():
            found.append(int(name))
    return found


def _reap() -> None:
    """Collect every child that has ended (without waiting for the others)."""
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _kill_all() -> None:
    """Kill everything below the keeper until nothing is left (or time runs out).

    Killing a process hands its children to the keeper (the subreaper), so each round
    kills what the last one uncovered; a fork bomb is held by the process cap.
    """
    me = os.getpid()
    end = time.monotonic() + _KILL_SECONDS
    while time.monotonic() < end:
        kids = _children(me)
        if not kids:
            _reap()
            return
        for pid in kids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)
        _reap()


def _parse(argv: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    if "--" not in argv:
        raise SystemExit("keeper: usage: keeper.py [--uid N --gid N --nproc N --cgroup F] -- cmd")
    cut = argv.index("--")
    options: dict[str, list[str]] = {}
    words = argv[:cut]
    for key, value in zip(words[::2], words[1::2], strict=True):
        options.setdefault(key.lstrip("-"), []).append(value)
    return options, argv[cut + 1 :]


def _start_worker(options: dict[str, list[str]], command: list[str]) -> int:
    pid = os.fork()
    if pid:
        return pid
    try:  # the worker: limits, then the unprivileged user, then the command
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if "nproc" in options:
            n = int(options["nproc"][0])
            resource.setrlimit(resource.RLIMIT_NPROC, (n, n))
        if "gid" in options:
            os.setgroups([])
            os.setgid(int(options["gid"][0]))
        if "uid" in options:
            os.setuid(int(options["uid"][0]))
        os.execvp(command[0], command)
    except BaseException as exc:
        os.write(2, f"keeper: cannot start the worker: {exc}\n".encode())
    os._exit(127)


def main(argv: list[str]) -> None:
    """Run the keeper (see the module docstring)."""
    options, command = _parse(argv)
    _become_subreaper()
    for procs in options.get("cgroup", []):
        with open(procs, "w") as f:
            f.write(str(os.getpid()))
    worker = _start_worker(options, command)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)

    def stop(_signum: int, _frame: object) -> None:
        with contextlib.suppress(OSError):
            os.kill(worker, signal.SIGKILL)

    def dump(_signum: int, _frame: object) -> None:
        # The grader asks where a timed-out worker is: the worker dumps its stack.
        with contextlib.suppress(OSError):
            os.kill(worker, signal.SIGUSR1)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGUSR1, dump)
    status = 0
    while True:
        try:
            pid, st = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        if pid == worker:
            status = st
            break
    _kill_all()
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


if __name__ == "__main__":
    main(sys.argv[1:])
