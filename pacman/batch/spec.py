"""What to evaluate: agent specs, the evaluation config (flags or TOML) and its grid of games.

Everything here is checked before the first game runs: an unknown agent, a bad argument,
a missing layout or a malformed config file raises `EvalConfigError` with one line that
names the problem and where it is.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Literal

from pacman.core.errors import AgentError, LayoutError, PacmanError, describe_exception
from pacman.core.game import derive_seed
from pacman.core.layout import Layout, load_layout
from pacman.registry import make_agent, parse_agent_args
from pacman.tomlfile import TomlFile

__all__ = [
    "AgentSpec",
    "Backend",
    "Cell",
    "EvalConfig",
    "EvalConfigError",
    "GameTask",
    "build_cells",
    "iter_tasks",
    "load_config",
]

Backend = Literal["local", "ray"]
"""Where games run: local worker processes or a Ray cluster."""


class EvalConfigError(PacmanError, ValueError):
    """The evaluation's flags or config file are wrong; the message names the place."""


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """An agent and its arguments, as written on the command line.

    ``Name[:k=v,k=v]`` for a registered agent, ``path/to/file.py:Class[:k=v,...]`` for a
    class in a file. Arguments are kept sorted by key, so the same agent written with
    its arguments in another order is the same configuration (and gets the same seeds).

    >>> spec = AgentSpec.parse("AlphaBetaAgent:evalFn=better,depth=2")
    >>> spec.name, spec.label
    ('AlphaBetaAgent', 'AlphaBetaAgent:depth=2,evalFn=better')
    >>> AgentSpec.parse("my_agents.py:Mine:depth=3").label
    'my_agents.py:Mine:depth=3'
    """

    name: str
    """Registered agent name or ``path/to/file.py:Class``."""
    args: tuple[tuple[str, str], ...] = ()
    """Constructor arguments as strings, sorted by key."""

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        """Parse a spec string.

        Raises:
            AgentError: If the name is empty or an argument is not ``key=value``.
        """
        text = text.strip()
        cut = text.find(".py:")
        if cut >= 0:
            path = text[: cut + 3]
            class_name, _, arg_text = text[cut + 4 :].partition(":")
            name = f"{path}:{class_name.strip()}"
            if not class_name.strip():
                raise AgentError(f"agent spec {text!r}: no class name after {path + ':'!r}")
        else:
            name, _, arg_text = text.partition(":")
            name = name.strip()
            if not name:
                raise AgentError(f"agent spec {text!r}: no agent name")
        args = parse_agent_args(arg_text)
        return cls(name, tuple(sorted(args.items())))

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> AgentSpec:
        """Build a spec from a TOML table ``{agent = "Name", args = {depth = 2}}``.

        Raises:
            AgentError: If the table has no ``agent`` string or unknown keys.
        """
        unknown = sorted(set(table) - {"agent", "args"})
        if unknown:
            raise AgentError(f"agent table has unknown keys {unknown} (expected agent, args)")
        name = table.get("agent")
        if not isinstance(name, str) or not name.strip():
            raise AgentError('agent table needs agent = "Name" (or "file.py:Class")')
        raw = table.get("args", {})
        if not isinstance(raw, Mapping):
            raise AgentError(f"agent {name!r}: args must be a table, got {raw!r}")
        args: dict[str, str] = {}
        for key, value in raw.items():
            if isinstance(value, bool):
                args[key] = str(value).lower()
            elif isinstance(value, (str, int, float)):
                args[key] = str(value)
            else:
                raise AgentError(f"agent {name!r}: argument {key} = {value!r} is not a scalar")
        return cls(name.strip(), tuple(sorted(args.items())))

    @property
    def args_dict(self) -> dict[str, str]:
        """The arguments as a dict."""
        return dict(self.args)

    @property
    def args_text(self) -> str:
        """The arguments as ``k=v,k=v`` (empty when there are none)."""
        return ",".join(f"{k}={v}" for k, v in self.args)

    @property
    def label(self) -> str:
        """The canonical spec text: name, then the sorted arguments after a colon."""
        return f"{self.name}:{self.args_text}" if self.args else self.name

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class EvalConfig:
    """One evaluation: the grid (Pacman agents x ghosts x layouts x games) and how to run it."""

    pacman: tuple[AgentSpec, ...] = (AgentSpec("AlphaBetaAgent", (("depth", "2"),)),)
    """Pacman agents to compare."""
    ghosts: tuple[AgentSpec, ...] = (AgentSpec("RandomGhost"),)
    """Ghost policies (each game uses one for every ghost)."""
    layouts: tuple[str, ...] = ("smallClassic",)
    """Layout names or ``.lay`` paths."""
    num_ghosts: int | None = None
    """Ghosts per game (default: all the layout has)."""
    games: int = 10
    """Games per cell of the grid."""
    seed: int = 0
    """Base seed; each game's seed derives from it and the game's cell."""
    jobs: int | None = None
    """Worker processes (default: CPU count); 0 plays in this process."""
    timeout: float | None = None
    """Per-move time limit in seconds."""
    max_turns: int | None = None
    """Stop a game after this many Pacman moves."""
    out: str | None = None
    """Per-game results file (``.jsonl`` or ``.csv``); re-running skips games it holds."""
    backend: Backend = "local"
    """``local`` (process pool) or ``ray``."""
    address: str | None = None
    """Ray cluster address (default: start a local Ray instance)."""
    plot: str | None = None
    """PNG file for score distributions per configuration."""
    save_games: str | None = None
    """Folder for every game's replayable record (``pacman --replay``)."""


_SCALAR_KEYS: dict[str, tuple[type[Any], ...]] = {
    "num_ghosts": (int,),
    "games": (int,),
    "seed": (int,),
    "jobs": (int,),
    "timeout": (float,),  # a whole number is taken too
    "max_turns": (int,),
    "out": (str,),
    "backend": (str,),
    "address": (str,),
    "plot": (str,),
    "save_games": (str,),
}
_LIST_KEYS = ("pacman", "ghosts", "layouts")


def _check_ranges(config: EvalConfig, sources: Mapping[str, str]) -> None:
    """Raise for the first value out of range, naming the file or flag it came from."""
    problems = {
        "games": config.games < 1 and f"must be >= 1, got {config.games}",
        "num_ghosts": config.num_ghosts is not None
        and config.num_ghosts < 0
        and f"must be >= 0, got {config.num_ghosts}",
        "jobs": config.jobs is not None and config.jobs < 0 and f"must be >= 0, got {config.jobs}",
        "timeout": config.timeout is not None
        and not config.timeout > 0
        and f"must be > 0, got {config.timeout}",
        "max_turns": config.max_turns is not None
        and config.max_turns < 1
        and f"must be >= 1, got {config.max_turns}",
        "backend": config.backend not in ("local", "ray")
        and f"must be 'local' or 'ray', got {config.backend!r}",
        "pacman": not config.pacman and "must name at least one agent",
        "ghosts": not config.ghosts and "must name at least one agent",
        "layouts": not config.layouts and "must name at least one layout",
        "out": config.out is not None
        and Path(config.out).suffix.lower() not in (".jsonl", ".csv")
        and f"file {config.out!r} must end in .jsonl or .csv",
    }
    if config.backend == "ray" and config.jobs == 0:
        problems["jobs"] = "0 (play in this process) does not apply to the ray backend"
    for key, problem in problems.items():
        if problem:
            where = sources.get(key)
            message = f"{key} {problem}"
            raise EvalConfigError(f"{where}: {message}" if where else message)


def _specs_from_toml(doc: TomlFile, key: str, value: Any) -> tuple[AgentSpec, ...]:
    items = value if isinstance(value, list) else [value]
    specs = []
    for i, item in enumerate(items):
        where = f"{doc.at(key)}: {key}[{i}]"
        try:
            if isinstance(item, str):
                specs.append(AgentSpec.parse(item))
            elif isinstance(item, dict):
                specs.append(AgentSpec.from_table(item))
            else:
                raise AgentError(f"expected a spec string or a table, got {item!r}")
        except AgentError as exc:
            raise EvalConfigError(f"{where}: {exc}") from None
    return tuple(specs)


def _values_from_toml(path: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The values of a config file, and the ``path:line:col`` each is written at."""
    doc = TomlFile.read(path, EvalConfigError, "config file")
    doc.check_keys([*_SCALAR_KEYS, *_LIST_KEYS])
    values: dict[str, Any] = {}
    for key, value in doc.data.items():
        if key in ("pacman", "ghosts"):
            values[key] = _specs_from_toml(doc, key, value)
        elif key == "layouts":
            items = value if isinstance(value, list) else [value]
            if not all(isinstance(v, str) for v in items):
                raise doc.fail(key, f"layouts must be strings, got {value!r}")
            values[key] = tuple(items)
        else:
            values[key] = doc.check(key, value, *_SCALAR_KEYS[key])
    return values, {key: doc.at(key) for key in values}


def load_config(args: argparse.Namespace) -> EvalConfig:
    """Merge a TOML config file (``args.config``) with command-line flags (flags win).

    Raises:
        EvalConfigError: On a malformed file, an unknown key, a bad spec or a value out of
            range; the message starts with the file name for problems in the file.
    """
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}  # where each value came from, for error messages
    if getattr(args, "config", None):
        from_file, places = _values_from_toml(args.config)
        values.update(from_file)
        sources.update(places)
    for key in ("pacman", "ghosts"):
        texts = getattr(args, key, None)
        if texts:
            try:
                values[key] = tuple(AgentSpec.parse(t) for t in texts)
            except AgentError as exc:
                raise EvalConfigError(f"--{key}: {exc}") from None
            sources[key] = f"--{key}"
    if getattr(args, "layouts", None):
        values["layouts"] = tuple(args.layouts)
        sources["layouts"] = "--layout"
    for key in _SCALAR_KEYS:
        value = getattr(args, key, None)
        if value is not None:
            values[key] = value
            sources[key] = "--" + key.replace("_", "-")
    names = {f.name for f in fields(EvalConfig)}
    config = EvalConfig(**{k: v for k, v in values.items() if k in names})
    _check_ranges(config, sources)
    return config


@dataclass(frozen=True, slots=True)
class Cell:
    """One configuration of the grid: who plays whom, where."""

    pacman: AgentSpec
    """The Pacman agent."""
    ghosts: AgentSpec
    """The ghost policy."""
    layout_label: str
    """The layout as given (name or path)."""
    layout: Layout = field(compare=False, hash=False)
    """The loaded layout."""
    num_ghosts: int
    """Ghosts that play (at most the layout's)."""

    @property
    def key(self) -> tuple[str, str, str, int]:
        """What identifies the configuration in results and summaries."""
        return (self.pacman.label, self.ghosts.label, self.layout_label, self.num_ghosts)

    def series_seed(self, seed: int, game: int) -> int:
        """The seed of game ``game`` of this cell (see `GameTask.seed`).

        53 bits, so that the seed survives JSON readers that hold numbers as doubles
        (jq, JavaScript) and can be copied from the results to the command line.
        """
        return derive_seed(seed, "eval", *self.key, game) >> 10


CHECK_SECONDS = 60.0
"""Time for creating every agent of a grid once, in the process that checks them."""


def _agent_problem(spec: AgentSpec, index: int, role: str) -> str | None:
    """What is wrong with creating the agent, as one line, or ``None``."""
    try:
        make_agent(spec.name, index, args=spec.args_dict, rng=random.Random(0))
    except AgentError as exc:
        return f"{role} {spec.label!r}: {exc}"
    except Exception as exc:
        return f"{role} {spec.label!r}: creating it raised {describe_exception(exc)}"
    return None


def _check_agents_main(conn: Connection, items: list[tuple[AgentSpec, int, str]]) -> None:
    """Create each agent once and send back the first problem (or none), as JSON."""
    for spec, index, role in items:
        problem = _agent_problem(spec, index, role)
        if problem is not None:
            break
    conn.send_bytes(json.dumps({"problem": problem}).encode())


def check_agents(items: list[tuple[AgentSpec, int, str]], *, apart: bool = True) -> None:
    """Create every agent of a grid once, to refuse bad specs before any game.

    With ``apart`` the agents are created in a process of their own: agent files are
    code, and this process must run none of it (an agent's constructor could change
    how other agents' games are played).

    Raises:
        EvalConfigError: With the first problem, in one line.
    """
    if not apart:
        for spec, index, role in items:
            problem = _agent_problem(spec, index, role)
            if problem is not None:
                raise EvalConfigError(problem)
        return
    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_check_agents_main, args=(send, items), daemon=True)
    process.start()
    send.close()
    try:
        if not receive.poll(CHECK_SECONDS):
            raise EvalConfigError(
                f"creating the agents took more than {CHECK_SECONDS:g} s "
                "(an endless loop in an agent's file or constructor?)"
            )
        try:
            answer = json.loads(receive.recv_bytes(1 << 20))
            problem = answer["problem"] if isinstance(answer, dict) else "?"
        except (EOFError, OSError, ValueError, KeyError):
            process.join(5)
            raise EvalConfigError(
                f"creating the agents ended their process (exit code {process.exitcode})"
            ) from None
        if problem is not None:
            raise EvalConfigError(str(problem)[:2000])
    finally:
        receive.close()
        if process.is_alive():
            process.kill()
        process.join(5)


def build_cells(config: EvalConfig, *, check_apart: bool = False) -> list[Cell]:
    """Load every layout and check every agent once; return the grid's cells in order.

    Args:
        config: The grid.
        check_apart: Create the agents in a process of their own (see `check_agents`),
            as a run with worker processes does; otherwise here.

    Raises:
        EvalConfigError: On the first bad layout or agent.
    """
    layouts: dict[str, Layout] = {}
    for name in config.layouts:
        if name not in layouts:
            try:
                layouts[name] = load_layout(name)
            except LayoutError as exc:
                raise EvalConfigError(f"layout: {exc}") from None
    check_agents(
        [(spec, 0, "Pacman agent") for spec in _unique(config.pacman)]
        + [(spec, 1, "ghost agent") for spec in _unique(config.ghosts)],
        apart=check_apart,
    )
    cells = []
    for pacman in _unique(config.pacman):
        for ghosts in _unique(config.ghosts):
            for name, layout in layouts.items():
                k = layout.num_ghosts if config.num_ghosts is None else config.num_ghosts
                cells.append(Cell(pacman, ghosts, name, layout, min(k, layout.num_ghosts)))
    return cells


def _unique(specs: Sequence[AgentSpec]) -> list[AgentSpec]:
    return list(dict.fromkeys(specs))


@dataclass(frozen=True, slots=True)
class GameTask:
    """Everything a worker needs to play one game: small, picklable, self-contained.

    The game is game 0 of the ``pacman`` command's series with seed `seed`, so
    ``pacman -l LAYOUT -p NAME -a ARGS -g GHOST -k K --seed SEED`` (with the same
    ``--max-turns``) plays it again; `pacman.runner.rerun_command` writes that line.
    """

    pacman: AgentSpec
    """The Pacman agent."""
    ghosts: AgentSpec
    """The ghost policy."""
    layout_label: str
    """The layout as given."""
    layout_name: str
    """The layout's own name."""
    layout_text: str
    """The layout's text (workers need no layout files)."""
    num_ghosts: int
    """Ghosts that play."""
    game: int
    """The game's number within its cell."""
    seed: int
    """The game's series seed (derived from the base seed and the cell)."""
    timeout: float | None
    """Per-move time limit."""
    max_turns: int | None
    """Pacman-move limit."""
    keep_record: bool = False
    """Whether to return the full replayable game record too."""

    @property
    def key(self) -> tuple[str, str, str, int, int, int, int | None, float | None]:
        """The identity of the game in a results file (for resuming)."""
        return (
            self.pacman.label,
            self.ghosts.label,
            self.layout_label,
            self.num_ghosts,
            self.game,
            self.seed,
            self.max_turns,
            self.timeout,
        )


def iter_tasks(config: EvalConfig, cells: Sequence[Cell]) -> Iterator[GameTask]:
    """Every game of the grid, cell by cell."""
    for cell in cells:
        text = cell.layout.to_text()
        for game in range(config.games):
            yield GameTask(
                pacman=cell.pacman,
                ghosts=cell.ghosts,
                layout_label=cell.layout_label,
                layout_name=cell.layout.name,
                layout_text=text,
                num_ghosts=cell.num_ghosts,
                game=game,
                seed=cell.series_seed(config.seed, game),
                timeout=config.timeout,
                max_turns=config.max_turns,
                keep_record=config.save_games is not None,
            )
