"""The worker process: the only place the student's code runs.

Run as ``python -m autograder.sandbox.worker``.

The grader starts it with the channel on its standard input and output. The worker moves
the channel to private descriptors and points descriptors 0-2 elsewhere (input at the
null device, output and errors at the grader's capture file), so whatever the student's
code prints is captured and cannot disturb the channel.

Messages from the grader are pickled commands of `autograder.sandbox.protocol` (the
worker trusts the grader). Messages to the grader are the short tagged byte strings
described there, which the grader parses without unpickling, because a student could
write anything to the pipe.

Before the student's file is imported, the worker limits its own address space
(`MEMORY_LIMIT_BYTES`) and output, imports everything it needs itself, and then makes
our reference agents (``agents``) and the grader's modules (the autograder except this
``autograder.sandbox`` package) unimportable. After the import it refuses a
graded class whose action method, or a graded evaluation function, was not written in
the student's file. These checks stop the casual reuse of our reference code; they run
in the student's own process, so a determined submission can undo them. What it cannot
undo is on the grader's side: the counts, the expected answers (held in the grader's
memory) and the verdicts.
"""

from __future__ import annotations

import contextlib
import errno
import faulthandler
import json
import os
import pickle
import random
import signal
import sys
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Final

from autograder.sandbox import proxy
from autograder.sandbox.protocol import (
    ANSWER,
    RAISED,
    READY,
    Command,
    Decide,
    Evaluate,
    Load,
    MakeAgent,
    Play,
    Quit,
    Register,
    Seed,
    SetLayout,
    TreeDecide,
)
from autograder.sandbox.proxy import MAX_ACTION_CHARS, flush_notices, tree_value
from autograder.sandbox.student import BUILT_IN_EVALUATIONS, MultiAgentSearchAgent
from pacman.classic import (
    CLASSIC_FUNCTION_NAMES,
    MODULES,
    ClassicState,
    classic_evaluation,
    is_classic,
)
from pacman.core.layout import Layout
from pacman.loader import import_file

__all__ = ["MEMORY_LIMIT_BYTES", "OUTPUT_LIMIT_BYTES", "SubmissionError", "main"]

OUTPUT_LIMIT_BYTES: Final = 8 * 1024 * 1024
"""Largest capture file the student's printing may grow (writes past it fail)."""

MEMORY_LIMIT_BYTES: Final = 2 * 1024**3
"""Address space the worker may use (RLIMIT_AS): a bigger allocation raises MemoryError."""

_SANDBOX: Final = "autograder.sandbox"
"""The autograder package a submission may import: the worker, the proxies, the base
class (everything else of the autograder is the grader's)."""

_STUDENT_NAMES: Final = frozenset({"autograder", "autograder.student"})
"""The package itself and the public name of the base class (`autograder.student` re-exports
`autograder.sandbox.student`, the name starter files import)."""

_REFERENCE_PACKAGES: Final = ("agents", "autograder")
"""Packages whose code is not the student's: a graded method or function found there is
refused."""


_OUR_FOLDERS: Final = (
    Path(__file__).resolve().parents[2] / "agents",
    Path(__file__).resolve().parents[1],
)
"""Folders of our reference code and of the autograder, found without importing them."""


class SubmissionError(Exception):
    """The submission breaks a rule of the autograder (not a bug in its Python)."""


def is_blocked_module(name: str) -> bool:
    """Whether a submission may not import the module ``name``.

    >>> names = ("agents.players", "autograder.student", "autograder.sandbox.proxy", "pacman")
    >>> [is_blocked_module(n) for n in names]
    [True, False, False, False]
    >>> is_blocked_module("autograder.grading.catalogue")
    True
    """
    top = name.partition(".")[0]
    if top == "agents":
        return True
    if top != "autograder" or name in _STUDENT_NAMES:
        return False
    return name != _SANDBOX and not name.startswith(_SANDBOX + ".")


class _BlockReference:
    """A `sys.meta_path` finder refusing our reference code and the grader's data."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> None:
        if is_blocked_module(name):
            raise ImportError(f"{name} is not available to submissions", name=name)
        return None


_SHIM: Final = MODULES
"""Classic ``util`` and ``game`` modules, for classic submissions (last on ``sys.path``)."""


class _SubmissionServer:
    def __init__(self, rx: Connection, tx: Connection) -> None:
        self.rx = rx
        self.tx = tx
        self.module: Any = None
        self.path = ""
        self.agent: Any = None
        self.classic = False
        """Whether the agent is a classic camelCase one (gets `ClassicState` objects)."""
        self.layout: Any = None
        self.layouts: dict[str, Any] = {}
        self.channel = _Duplex(rx, tx)

    # ----------------------------------------------------------------- replies

    def ok(self, **info: Any) -> None:
        _notify(self.channel)
        self.tx.send_bytes(READY + json.dumps(info).encode())

    def answer(self, action: Any) -> None:
        _notify(self.channel)

        if action is None:
            text = "\x00None"
        elif isinstance(action, str):
            text = str(action)[:MAX_ACTION_CHARS]
        else:
            text = "\x00" + repr(action)[:MAX_ACTION_CHARS]
        self.tx.send_bytes(ANSWER + text.encode(errors="replace"))

    def fail(self, exc: BaseException) -> None:
        _notify(self.channel)
        frames = traceback.extract_tb(exc.__traceback__)
        mine = [f for f in frames if self.path and _same_file(f.filename, self.path)]
        where = ""
        if mine:
            last = mine[-1]
            where = f"{Path(last.filename).name}:{last.lineno} in {last.name}"
        elif isinstance(exc, SyntaxError) and exc.lineno is not None:
            where = f"{Path(exc.filename or self.path).name}:{exc.lineno}"
        shown = mine[-6:]
        trace = "".join(traceback.format_list(shown)) if shown else ""
        trace = trace.replace(f'"{self.path}"', f'"{Path(self.path).name}"')
        if isinstance(exc, SystemExit):
            message = f"called sys.exit({exc.code!r})"
        elif isinstance(exc, SyntaxError):
            message = f"{exc.msg}"
        elif isinstance(exc, NotImplementedError):
            message = f"{exc or 'this function'} is not written yet"
            trace = ""  # the place says it all
        elif isinstance(exc, OSError) and exc.errno == errno.EFBIG:
            message = f"printed more than the {OUTPUT_LIMIT_BYTES // 2**20} MB output limit"
        elif isinstance(exc, MemoryError):
            message = f"used more than the {MEMORY_LIMIT_BYTES // 2**30} GiB memory limit"
        elif isinstance(exc, KeyError) and len(exc.args) == 1 and isinstance(exc.args[0], str):
            message = exc.args[0]  # str(KeyError) would quote it
        else:
            message = str(exc)
        info = {"type": type(exc).__name__, "message": message, "where": where, "trace": trace}
        self.tx.send_bytes(RAISED + json.dumps(info).encode())

    # ----------------------------------------------------------------- checks

    def check_own_method(self, cls: type, name: str) -> None:
        """Refuse ``cls`` if its method ``name`` comes from our code, not the student's.

        The starter's base class does not count: its method only says it is unwritten.

        Raises:
            SubmissionError: If the method is defined in ``agents`` or ``autograder``.
        """
        for klass in cls.__mro__:
            if name in vars(klass):
                break
        else:
            return
        if klass is MultiAgentSearchAgent:
            return  # raises "not written yet" when called
        method = vars(klass)[name]
        method = getattr(method, "__func__", method)  # staticmethod / classmethod
        origin = _foreign_origin(getattr(method, "__module__", None) or klass.__module__)
        if origin is None and klass.__module__ != self.module.__name__:
            origin = _foreign_origin(klass.__module__)
        if origin is None:
            origin = self._foreign_file(method)
        if origin is not None:
            raise SubmissionError(
                f"{cls.__name__}.{name} comes from {origin}, not from your file: write your own"
            )

    def check_own_function(self, fn: Any, name: str) -> None:
        """Refuse the function ``fn`` (graded as ``name``) if it is one of ours.

        Raises:
            SubmissionError: If it is defined in ``agents`` or ``autograder``.
        """
        target = getattr(fn, "__func__", fn)
        origin = _foreign_origin(getattr(target, "__module__", None)) or self._foreign_file(target)
        if origin is not None:
            raise SubmissionError(f"{name} comes from {origin}, not from your file: write your own")

    def _foreign_file(self, function: Any) -> str | None:
        """Our file a function's code was written in, or ``None``.

        Whatever module name the file was loaded under (a file of ours loaded by path);
        the student's own file is theirs.
        """
        code = getattr(function, "__code__", None)
        filename = getattr(code, "co_filename", None)
        if not isinstance(filename, str) or _same_file(filename, self.path):
            return None
        try:
            where = Path(filename).resolve()
        except (OSError, RuntimeError, ValueError):
            return None
        for package in _OUR_FOLDERS:
            if where.is_relative_to(package):
                return f"{package.name}/{where.relative_to(package).as_posix()}"
        return None

    # ----------------------------------------------------------------- commands

    def load(self, path: str) -> None:
        self.path = str(Path(path).resolve())
        name = "_student_" + "".join(c if c.isalnum() else "_" for c in Path(path).stem)
        self.module = import_file(self.path, name)
        self.ok(names=sorted(n for n in vars(self.module) if not n.startswith("_")))

    def make_agent(self, source: str, name: str, depth: int | None, evaluation: str | None) -> None:

        evaluate: Any = None
        if evaluation == "tree":
            evaluate = tree_value
        elif evaluation is not None and evaluation.startswith("student:"):
            evaluate = self.student_function(evaluation.partition(":")[2])
        elif evaluation is not None:
            evaluate = BUILT_IN_EVALUATIONS[evaluation]
        if source != "student":
            # No reference agent runs here, next to the student's code (issue 11).
            raise ValueError(f"the worker runs only the student's agents, not {source!r} ones")
        cls: Any = getattr(self.module, name, None)
        if not isinstance(cls, type):
            raise AttributeError(f"the file defines no class {name!r}")
        self.classic = is_classic(cls)
        self.check_own_method(cls, "getAction" if self.classic else "get_action")
        if self.classic:
            # A classic agent takes its depth as a string and holds evaluationFunction.
            self.agent = cls() if depth is None else cls(depth=str(depth))
            if evaluate is not None:
                self.agent.evaluationFunction = classic_evaluation(evaluate)
        else:
            kwargs: dict[str, Any] = {}
            if depth is not None:
                kwargs["depth"] = depth
            if evaluate is not None:
                kwargs["evaluate"] = evaluate
            self.agent = cls(**kwargs)
        self.ok()

    def student_function(self, name: str) -> Any:
        """The student's function ``name``, or its classic camelCase version, wrapped."""
        fn = getattr(self.module, name, None)
        if callable(fn):
            self.check_own_function(fn, name)
            return fn
        classic_name = CLASSIC_FUNCTION_NAMES.get(name, "")
        classic = getattr(self.module, classic_name, None)
        if callable(classic):
            self.check_own_function(classic, classic_name)
            return lambda state: classic(ClassicState(state))
        raise AttributeError(f"the file defines no function {name!r}")

    def evaluate_states(self, function: str, states: tuple[tuple[Any, ...], ...]) -> None:
        """Score each state with the student's evaluation function; reply the numbers."""
        source, _, name = function.partition(":")
        if source != "student":
            raise ValueError(f"the worker evaluates only with the student's functions: {function}")
        evaluate = self.student_function(name)
        values = []
        for fields in states:
            value = evaluate(proxy.local_state(self.layout, fields))
            if isinstance(value, bool) or not isinstance(value, int | float):
                try:  # a NumPy number, say
                    value = float(value)
                except (TypeError, ValueError):
                    raise TypeError(
                        f"{name} returned {type(value).__name__} {repr(value)[:80]}, not a number"
                    ) from None
            values.append(float(value))
        self.ok(values=values)

    def set_layout(self, name: str, text: str) -> None:
        layout = self.layouts.get(text)
        if layout is None:
            layout = Layout.from_text(text, name=name)
            self.layouts[text] = layout
        self.layout = layout

    def decide(self, state: Any) -> None:
        if self.classic:
            self.answer(self.agent.getAction(ClassicState(state)))
        else:
            self.answer(self.agent.get_action(state))

    def register(self, state: Any) -> None:
        if self.classic:
            register = getattr(self.agent, "registerInitialState", None)
            state = ClassicState(state)
        else:
            register = getattr(self.agent, "register_initial_state", None)
        if register is not None:
            register(state)
        self.ok()

    def handle(self, message: Command) -> None:
        if isinstance(message, Decide | Play | TreeDecide | Register):
            proxy.begin_decision()
        match message:
            case Load(path):
                self.load(path)
            case MakeAgent(source, name, depth, evaluation):
                self.make_agent(source, name, depth, evaluation)
            case SetLayout(name, text):
                self.set_layout(name, text)
            case Seed(seed):
                _seed_everything(seed)
            case Decide(number, fields):
                self.decide(proxy.pacman_proxy(self.channel, self.layout, number, fields))
            case Play(fields):
                self.decide(proxy.local_state(self.layout, fields))
            case TreeDecide(num_agents, number, info):
                self.decide(proxy.tree_proxy(self.channel, num_agents, number, info))
            case Evaluate(function, states):
                self.evaluate_states(function, states)
            case Register(number, fields):
                if number is None:  # successors generated locally
                    self.register(proxy.local_state(self.layout, fields))
                else:
                    self.register(proxy.pacman_proxy(self.channel, self.layout, number, fields))
            case _:
                raise ValueError(f"unknown worker command {message!r}")

    def run(self) -> None:
        self.ok(ready=True)
        while True:
            try:
                data = self.rx.recv_bytes()
            except EOFError:
                return
            message = pickle.loads(data)
            if isinstance(message, Quit):
                return
            silent = isinstance(message, SetLayout | Seed)
            try:
                self.handle(message)
            except BaseException as exc:  # the student's code may raise anything
                if silent:
                    raise
                self.fail(exc)
            finally:
                _flush()


class _Duplex:
    """The two one-way pipes as one channel for the proxies."""

    __slots__ = ("recv_bytes", "send_bytes")

    def __init__(self, rx: Connection, tx: Connection) -> None:
        self.recv_bytes = rx.recv_bytes
        self.send_bytes = tx.send_bytes


def _notify(channel: _Duplex) -> None:
    flush_notices(channel)


def _foreign_origin(module: object) -> str | None:
    """The module name if it belongs to our packages (``agents``, ``autograder``)."""
    if not isinstance(module, str):
        return None
    if module.partition(".")[0] in _REFERENCE_PACKAGES:
        return module
    return None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # the student may have closed it
            stream.flush()


def _die_with_the_grader() -> None:
    """Ask Linux to kill this process when the grader dies (no orphaned endless loops)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):  # no libc to ask: the grader still kills on timeout
        return


def _seed_everything(seed: int) -> None:
    """Seed the generators a submission may draw from.

    That is `random`, and NumPy's global generator when the submission imported NumPy
    (it is never imported here for that).
    """
    random.seed(seed)
    numpy = sys.modules.get("numpy")
    numpy_random = getattr(numpy, "random", None)
    seeder = getattr(numpy_random, "seed", None)
    if callable(seeder):
        with contextlib.suppress(Exception):  # a broken or fake numpy must not stop a test
            seeder(seed % 2**32)


def _limit_output() -> None:
    try:
        import resource
        import signal
    except ImportError:  # not POSIX: no limit
        return
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT_LIMIT_BYTES, OUTPUT_LIMIT_BYTES))


def _limit_memory() -> None:
    try:
        import resource
    except ImportError:  # not POSIX: no limit
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = MEMORY_LIMIT_BYTES if hard == resource.RLIM_INFINITY else min(hard, MEMORY_LIMIT_BYTES)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _block_reference_code() -> None:
    """Make our reference code and the grader's modules unimportable.

    This module imported what the worker needs (at the top, before any student code);
    those references stay usable after the modules are forgotten here.
    """
    for name in [n for n in sys.modules if is_blocked_module(n)]:
        del sys.modules[name]
        parent, _, child = name.rpartition(".")
        if parent in sys.modules:  # `import autograder` must not hand out the submodule
            with contextlib.suppress(AttributeError):
                delattr(sys.modules[parent], child)
    sys.meta_path.insert(0, _BlockReference())


def main() -> None:
    """Run the worker on the channel the grader set up (standard input and output)."""
    rx_fd = os.dup(0)
    tx_fd = os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # the student's prints go to the capture file, like its errors
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(write_through=True)
    _limit_output()
    _die_with_the_grader()
    # On SIGUSR1 (sent by the grader when a test times out) the stack goes to the capture
    # file, so the report can say which line of the student's file was running.
    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=False)
    # Our modules were imported above, before the student's folder is on sys.path (a
    # student's pacman.py must not shadow the engine); now the block.
    _block_reference_code()
    _limit_memory()
    sys.path.append(_SHIM)
    worker = _SubmissionServer(Connection(rx_fd, writable=False), Connection(tx_fd, readable=False))
    worker.run()


if __name__ == "__main__":
    main()
