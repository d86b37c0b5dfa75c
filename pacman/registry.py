"""The agent registry: build agents from command-line specs.

It sits above `agents` (``pacman.core <- agents <- pacman.registry``): the reference
agents are imported here, and `agents` knows nothing of names or files.

A spec is a name (``AlphaBetaAgent``) or a file and class (``path/to/file.py:ClassName``);
arguments come as ``depth=3,evalFn=better``.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import inspect
import random
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from agents import ghosts
from pacman.classic import ClassicAgent, ClassicState, is_classic
from pacman.core.errors import AgentError, describe_exception
from pacman.loader import STUDENT_FILES, import_file
from pacman.render.keyboard import KeyboardAgent

__all__ = [
    "GHOST_AGENTS",
    "OTHER_AGENTS",
    "PACMAN_AGENTS",
    "REFERENCE_PREFIX",
    "STUDENT_FILES",
    "agent_names",
    "load_evaluation",
    "make_agent",
    "parse_agent_args",
    "resolve_agent_class",
    "student_agent_spec",
]

_reference: ModuleType | None
_evaluations: ModuleType | None
try:  # our reference agents; a student handout (`autograder handout`) has none
    from agents import evaluation as _evaluations
    from agents import players as _reference
except ImportError:
    _reference = _evaluations = None

PACMAN_AGENTS: dict[str, type] = (
    {
        "MinimaxAgent": _reference.MinimaxAgent,
        "AlphaBetaAgent": _reference.AlphaBetaAgent,
        "ExpectimaxAgent": _reference.ExpectimaxAgent,
        "ReflexAgent": _reference.ReflexAgent,
        "GreedyAgent": _reference.GreedyAgent,
    }
    if _reference is not None
    else {}
)
PACMAN_AGENTS["RandomAgent"] = ghosts.RandomAgent
"""Pacman agents by command-line name."""

GHOST_AGENTS: dict[str, type] = {
    "RandomGhost": ghosts.RandomGhost,
    "DirectionalGhost": ghosts.DirectionalGhost,
}
"""Ghost agents by command-line name."""

OTHER_AGENTS: dict[str, type] = {"KeyboardAgent": KeyboardAgent}
"""Agents that are not in `agents`: you, at the keyboard of the window."""

_EVAL_KEYS = frozenset({"evalFn", "evaluate", "eval_fn", "evaluation"})


def _score(state: Any) -> float:
    """The state's score, as a float (the evaluation when there are no others)."""
    return float(state.score)


def get_evaluation(name: str) -> Callable[[Any], float]:
    """Our evaluation function of that name (only ``score`` in a student handout).

    Raises:
        ValueError: If the name is unknown; the message lists the known names.
    """
    if _evaluations is not None:
        return _evaluations.get_evaluation(name)  # type: ignore[no-any-return]
    if name in ("score", "scoreEvaluationFunction"):
        return _score
    raise ValueError(f"unknown evaluation function {name!r}; known: score")


def agent_names() -> list[str]:
    """Every agent name the command line accepts."""
    return sorted({*PACMAN_AGENTS, *GHOST_AGENTS, *OTHER_AGENTS})


def parse_agent_args(text: str | None) -> dict[str, str]:
    """Parse ``"depth=3,evalFn=better"`` into ``{"depth": "3", "evalFn": "better"}``.

    >>> parse_agent_args("depth=3, evalFn=better")
    {'depth': '3', 'evalFn': 'better'}
    >>> parse_agent_args("")
    {}

    Raises:
        AgentError: If an item has no ``=`` or an empty key.
    """
    args: dict[str, str] = {}
    if not text:
        return args
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise AgentError(f"bad agent argument {item!r}: expected key=value (e.g. depth=2)")
        args[key.strip()] = value.strip()
    return args


def _is_file_spec(name: str) -> bool:
    return ":" in name and name.rsplit(":", 1)[0].endswith(".py")


def load_evaluation(spec: str) -> Callable[[Any], float]:
    """The evaluation function of a ``path/to/file.py:function`` spec (``-a evalFn=...``).

    A classic camelCase function (``betterEvaluationFunction``) is called on the classic
    view of each state, as the classic game calls it.

    Raises:
        AgentError: If the file cannot load or has no such function.
    """
    path_text, _, name = spec.rpartition(":")
    module = _import_spec_file(path_text, spec)
    function = getattr(module, name, None)
    if not callable(function) or isinstance(function, type):
        found = sorted(
            n
            for n, v in vars(module).items()
            if inspect.isfunction(v) and v.__module__ == module.__name__
        )
        close = difflib.get_close_matches(name, found, n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise AgentError(f"{path_text}: no function {name!r}{hint} (functions defined: {found})")
    if name != name.lower():  # camelCase: a classic function of a classic state
        classic = function

        def evaluate(state: Any) -> float:
            return float(classic(ClassicState(state)))

        return evaluate
    return function  # type: ignore[no-any-return]


def _import_spec_file(path_text: str, spec: str) -> Any:
    path = Path(path_text)
    if not path.is_file():
        raise AgentError(f"{path_text}: no such file (from agent spec {spec!r})")
    # Named after the file's path by a stable digest (str hashes change per process).
    digest = hashlib.blake2b(str(path.resolve()).encode(), digest_size=8).hexdigest()
    module_name = f"_pacman_user_{digest}"
    try:
        return import_file(path, module_name)
    except SyntaxError as exc:
        raise AgentError(f"{path_text}:{exc.lineno}: syntax error: {exc.msg}") from None
    except SystemExit as exc:  # the file must not end the program that loads it
        raise AgentError(f"{path_text}: importing it called sys.exit({exc.code!r})") from None
    except Exception as exc:
        raise AgentError(f"{path_text}: importing it raised {describe_exception(exc)}") from exc


def _load_from_file(spec: str) -> type:
    path_text, _, class_name = spec.rpartition(":")
    module = _import_spec_file(path_text, spec)
    module_name = module.__name__
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        found = sorted(
            n
            for n, v in vars(module).items()
            if isinstance(v, type) and v.__module__ == module_name
        )
        close = difflib.get_close_matches(class_name, found, n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise AgentError(f"{path_text}: no class {class_name!r}{hint} (classes defined: {found})")
    return cls


REFERENCE_PREFIX = "agents."
"""Prefix naming our reference agent explicitly (``agents.MinimaxAgent``), whatever the
current folder holds."""


def _defines_class(path: Path, name: str) -> bool:
    """Whether the Python file defines a top-level class ``name`` (read, never run).

    A file that does not parse counts as defining it: playing it shows the student the
    syntax error, which is better than silently playing our agent.
    """
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (SyntaxError, ValueError):
        return True
    except OSError:
        return False
    return any(isinstance(node, ast.ClassDef) and node.name == name for node in tree.body)


def student_agent_spec(name: str, folder: Path | None = None) -> str | None:
    """The student's ``file.py:Class`` spec that an agent name stands for in ``folder``.

    As the classic ``pacman.py`` does, a name such as ``MinimaxAgent`` means the
    student's class when the folder (default: the current one) holds a student file
    (`STUDENT_FILES`) defining it, so a student never watches our agent believing it is
    theirs. ``None`` when no such file defines it, or for file specs and explicitly
    named reference agents.

    >>> student_agent_spec("agents.MinimaxAgent") is None
    True
    """
    if ":" in name or name.startswith(REFERENCE_PREFIX):
        return None
    base = Path.cwd() if folder is None else Path(folder)
    for file_name in STUDENT_FILES:
        path = base / file_name
        if path.is_file() and _defines_class(path, name):
            return f"{path if folder is not None else file_name}:{name}"
    return None


def resolve_agent_class(name: str) -> type:
    """The agent class for a name or a ``path/to/file.py:ClassName`` spec.

    Our agents are named plainly (``MinimaxAgent``) or explicitly as the reference
    (``agents.MinimaxAgent``).

    Raises:
        AgentError: If the name is unknown (with close matches) or the file cannot load.
    """
    if _is_file_spec(name):
        return _load_from_file(name)
    if name.startswith(REFERENCE_PREFIX) and name != REFERENCE_PREFIX:
        name = name[len(REFERENCE_PREFIX) :]
    if name in PACMAN_AGENTS:
        return PACMAN_AGENTS[name]
    if name in GHOST_AGENTS:
        return GHOST_AGENTS[name]
    if name in OTHER_AGENTS:
        return OTHER_AGENTS[name]
    close = difflib.get_close_matches(name, agent_names(), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise AgentError(
        f"unknown agent {name!r}{hint} (known: {', '.join(agent_names())}; "
        "or give path/to/file.py:ClassName)"
    )


def _convert(cls: type, key: str, raw: str, param: inspect.Parameter | None) -> Any:
    if key in _EVAL_KEYS:
        if _is_file_spec(raw):
            return load_evaluation(raw)
        try:
            return get_evaluation(raw)
        except ValueError as exc:
            raise AgentError(f"{cls.__name__}: {exc}") from None
    default = None if param is None else param.default
    kind = type(default) if default not in (None, inspect.Parameter.empty) else None
    try:
        if kind is bool:
            if raw.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(raw)
            return raw.lower() in ("true", "1", "yes")
        if kind is int:
            return int(raw)
        if kind is float:
            return float(raw)
    except ValueError:
        assert kind is not None
        raise AgentError(
            f"{cls.__name__}: argument {key}={raw!r} is not a valid {kind.__name__}"
        ) from None
    return raw


def make_agent(
    spec: str,
    index: int,
    *,
    args: Mapping[str, str] | None = None,
    rng: random.Random | None = None,
) -> Any:
    """Create an agent from its name (or file spec) and string arguments.

    Our own agents get their arguments converted to the types of their defaults
    (``depth="3"`` becomes ``3``; ``evalFn=better`` becomes the function). A class
    loaded from a file whose constructor takes ``evalFn``/``depth`` in the classic
    way receives them as strings, as the classic game passes them.

    Args:
        spec: Agent name, or ``path/to/file.py:ClassName``.
        index: Agent index it plays (0 for Pacman).
        args: Constructor arguments as strings (from ``-a``).
        rng: Random generator, passed to agents whose constructor takes ``rng``.

    Raises:
        AgentError: On an unknown agent, an unknown argument or a bad value.
    """
    cls = resolve_agent_class(spec)
    args = dict(args or {})
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        sig = None
    params = dict(sig.parameters) if sig is not None else {}
    accepts_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    kwargs: dict[str, Any] = {}
    classic = "evalFn" in params
    for key, raw in args.items():
        target = key
        if key in _EVAL_KEYS and not classic:
            target = "evaluate" if "evaluate" in params else key
        if target not in params and not accepts_any:
            # The command line's name for the evaluation function is evalFn.
            known = [
                "evalFn" if p == "evaluate" else p for p in params if p not in ("index", "rng")
            ]
            raise AgentError(
                f"{cls.__name__} takes no argument {key!r} (it takes: {', '.join(known) or 'none'})"
            )
        if classic and cls.__module__.startswith("_pacman_user_"):
            kwargs[target] = raw
        elif key in _EVAL_KEYS and _own_evaluation(cls, raw) is not None:
            kwargs[target] = _own_evaluation(cls, raw)
        else:
            kwargs[target] = _convert(cls, key, raw, params.get(target))
    if "index" in params:
        kwargs["index"] = index
    if "rng" in params and rng is not None:
        kwargs["rng"] = rng
    try:
        agent = cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise AgentError(f"cannot create {cls.__name__}({_show(args)}): {exc}") from None
    except SystemExit as exc:
        raise AgentError(
            f"cannot create {cls.__name__}({_show(args)}): it called sys.exit({exc.code!r})"
        ) from None
    if not callable(getattr(agent, "get_action", None)) and not callable(
        getattr(agent, "getAction", None)
    ):
        raise AgentError(f"{cls.__name__} has no get_action(state) method")
    if is_classic(cls):
        return ClassicAgent(agent)  # it plays on classic camelCase states
    return agent


def _own_evaluation(cls: type, name: str) -> Callable[[Any], float] | None:
    """The evaluation function ``name`` (or ``name_evaluation``) of a class's own file.

    ``-a evalFn=better`` on a class from a student's file means the student's
    ``better_evaluation``, not ours: the student watches their own function play.
    """
    if not cls.__module__.startswith("_pacman_user_"):
        return None
    module = sys.modules.get(cls.__module__)
    for candidate in (name, f"{name}_evaluation"):
        found = getattr(module, candidate, None)
        if callable(found) and not isinstance(found, type):
            return found  # type: ignore[no-any-return]
    return None


def _show(args: Mapping[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in args.items())
