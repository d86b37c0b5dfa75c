"""The ``pacman`` command: play games in a window, as text or headless, record and replay."""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pacman import __version__
from pacman.batch import main as eval_main
from pacman.cli_parser import Parser
from pacman.core.errors import AgentError, LayoutError, PacmanError
from pacman.core.game import (
    AgentCrashError,
    AgentTimeoutError,
    GameRecord,
    replay,
    run_game,
)
from pacman.core.layout import Layout, layout_names, load_layout, shipped_layout_path
from pacman.core.state import GameState
from pacman.core.types import Direction
from pacman.registry import (
    PACMAN_AGENTS,
    REFERENCE_PREFIX,
    agent_names,
    parse_agent_args,
    student_agent_spec,
)
from pacman.render.display import Display
from pacman.render.export import export_game
from pacman.render.frame import DEFAULT_CELL_SIZE
from pacman.render.text import NullDisplay, TextDisplay
from pacman.render.window import open_window
from pacman.runner import MatchSpec, build_agents, game_seed

__all__ = ["build_parser", "load_replay", "main"]

PROG = "pacman"

FIXED_SEED = 188
"""The seed of the classic ``-f``/``--fixRandomSeed`` flag."""

CLASSIC_RECORD = "recorded-game.json"
"""Where the classic ``-r``/``--recordActions`` flag records games (``--record`` names)."""

MAX_ZOOM = 4.0
"""The largest ``--zoom``: 120-pixel cells (bigger frames exhaust memory, and pygame)."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``pacman`` command (classic flags)."""
    p = Parser(
        prog=PROG,
        description=(
            "Play Pacman: watch agents in a window (the default), as text (-t) or headless "
            "(-q). Without a display the window falls back to text."
        ),
        epilog=(
            "examples:\n"
            "  pacman -l smallClassic -p AlphaBetaAgent -a depth=2\n"
            "  pacman -l mediumClassic -p ExpectimaxAgent -a depth=2,evalFn=better -n 10 -q\n"
            "  pacman -p multi_agents.py:MinimaxAgent -a depth=3 -t\n"
            "  pacman -p AlphaBetaAgent --seed 7 --record game.json -q\n"
            "  pacman --replay game.json\n"
            "  pacman --replay game.json --export game.gif\n"
            "  pacman eval --help        (batch evaluation)\n"
            "\n"
            "the classic flags work too: --numGames, --numghosts, --agentArgs, --frameTime, -z,\n"
            "--textGraphics, --quietTextGraphics, --no-graphics, -f, -r, -c (see above)"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    p.add_argument(
        "-l",
        "--layout",
        default="mediumClassic",
        help="layout name or .lay path (default: %(default)s; see --list-layouts)",
    )
    p.add_argument(
        "-p",
        "--pacman",
        default=None,
        help="Pacman agent: a name (see --list-agents) or path/to/file.py:ClassName "
        "(default: KeyboardAgent in the window, else AlphaBetaAgent)",
    )
    p.add_argument(
        "-g",
        "--ghosts",
        default="RandomGhost",
        help="ghost agent for every ghost (default: %(default)s)",
    )
    p.add_argument(
        "-k",
        "--num-ghosts",
        type=_non_negative,
        default=None,
        help="number of ghosts (default: all the layout has)",
    )
    p.add_argument(
        "-n",
        "--num-games",
        type=_positive,
        default=1,
        help="number of games to play (default: %(default)s)",
    )
    p.add_argument(
        "-a",
        "--agent-args",
        default="",
        help="Pacman agent arguments, e.g. depth=3,evalFn=better",
    )
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no display: play headless and print the summary",
    )
    p.add_argument("-t", "--text", action="store_true", help="show the game as text")
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="random seed; the same seed replays the same games (default: random, "
        "printed in the summary)",
    )
    p.add_argument(
        "-f",
        "--fixRandomSeed",
        action="store_true",
        help=f"the classic flag: play with the fixed seed {FIXED_SEED} (as --seed {FIXED_SEED})",
    )
    p.add_argument(
        "--frame-time",
        type=_non_negative_float,
        default=0.1,
        help="seconds per move in the window or text display (default: %(default)s)",
    )
    p.add_argument(
        "--timeout",
        type=_positive_float,
        default=None,
        help="per-move time limit in seconds; a slower agent loses the game",
    )
    p.add_argument(
        "--max-turns", type=_positive, default=None, help="stop a game after this many Pacman moves"
    )
    p.add_argument(
        "--record",
        metavar="FILE",
        help="save each game's record as JSON (FILE; with -n > 1, FILE-1.json, FILE-2.json, ...)",
    )
    p.add_argument(
        "-r",
        "--recordActions",
        action="store_true",
        help=f"the classic flag: record each game as --record {CLASSIC_RECORD} does",
    )
    p.add_argument("--replay", metavar="FILE", help="replay a recorded game instead of playing")
    p.add_argument(
        "--zoom",
        type=_zoom,
        default=1.0,
        help=f"scale the window and exported frames, above 0 and at most {MAX_ZOOM:g} "
        "(default: %(default)s; the window still shrinks to fit the screen)",
    )
    p.add_argument(
        "--export",
        metavar="FILE",
        help="write the game as an animation (.gif, .mp4) or one frame (.png) without a "
        "display; with --replay it exports the record, otherwise each game played",
    )
    p.add_argument(
        "--frame",
        type=int,
        default=None,
        metavar="N",
        help="with --export FILE.png: the frame to write (0 = start; default: the last)",
    )
    p.add_argument(
        "--overlay",
        action="store_true",
        help="in the window, shade the cells the Pacman agent's search touched on its last "
        "move and show how many states it generated",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print a machine-readable JSON summary instead of the text summary",
    )
    p.add_argument(
        "--traceback", action="store_true", help="show the full traceback when an agent crashes"
    )
    p.add_argument(
        "-c",
        "--catchExceptions",
        action="store_true",
        help="the classic flag, always on here: a crashing agent loses its game and the "
        "series goes on",
    )
    p.add_argument("--list-layouts", action="store_true", help="list shipped layouts and exit")
    p.add_argument("--list-agents", action="store_true", help="list agent names and exit")
    # The classic command's spellings of our flags: accepted, and kept out of the list
    # above (the epilog names them), so errors name the flag that was typed.
    for flags, dest, kwargs in _CLASSIC_ALIASES:
        p.add_argument(
            *flags, dest=dest, default=argparse.SUPPRESS, help=argparse.SUPPRESS, **kwargs
        )
    return p


def _whole(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be >= {least}, got {text}")
    return value


def _positive(text: str) -> int:
    return _whole(text, 1)


def _non_negative(text: str) -> int:
    return _whole(text, 0)


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    value = _number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def _non_negative_float(text: str) -> float:
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {text}")
    return value


def _zoom(text: str) -> float:
    value = _positive_float(text)
    if value > MAX_ZOOM:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_ZOOM:g}, got {text}")
    return value


_CLASSIC_ALIASES: tuple[tuple[tuple[str, ...], str, dict[str, Any]], ...] = (
    (("--numGames",), "num_games", {"type": _positive, "metavar": "N"}),
    (("--numghosts",), "num_ghosts", {"type": _non_negative, "metavar": "K"}),
    (("--agentArgs",), "agent_args", {"metavar": "ARGS"}),
    (("--frameTime",), "frame_time", {"type": _non_negative_float, "metavar": "SECONDS"}),
    (("-z",), "zoom", {"type": _zoom, "metavar": "ZOOM"}),
    (("--textGraphics",), "text", {"action": "store_true"}),
    (("--quietTextGraphics", "--no-graphics"), "quiet", {"action": "store_true"}),
)
"""Classic flags that are other names of ours: (flags, destination, argument options)."""


def _make_display(args: argparse.Namespace) -> Display:
    """The display the flags ask for; the window falls back to text without a display."""
    if args.quiet or args.json or args.export:
        return NullDisplay()
    if args.text:
        return TextDisplay(args.frame_time)
    try:
        return open_window(zoom=args.zoom, frame_time=args.frame_time, overlay=args.overlay)
    except (ImportError, PacmanError) as exc:
        reason = str(exc) or type(exc).__name__
        note = f"{PROG}: no window ({reason}); showing the game as text"
        print(note, file=sys.stderr)
        return TextDisplay(args.frame_time, header=note)


def _record_path(base: str, game: int, num_games: int) -> Path:
    path = Path(base)
    if num_games == 1:
        return path
    suffix = path.suffix or ".json"
    return path.with_name(f"{path.stem}-{game + 1}{suffix}")


def _where(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f" (at {last.filename}:{last.lineno} in {last.name})"


def _summary(records: list[GameRecord], seed: int) -> dict[str, Any]:
    scores = [r.final_score for r in records]
    wins = sum(r.is_win for r in records)
    return {
        "layout": records[0].layout_name if records else None,
        "agents": list(records[0].agents) if records else [],
        "seed": seed,
        "num_games": len(records),
        "average_score": sum(scores) / len(scores) if scores else 0.0,
        "scores": scores,
        "wins": wins,
        "win_rate": wins / len(records) if records else 0.0,
        "outcomes": [r.outcome for r in records],
        "turns": [r.num_turns for r in records],
    }


def _print_summary(summary: dict[str, Any]) -> None:
    n = summary["num_games"]
    print(f"Average Score: {summary['average_score']:g}")
    print(f"Scores:        {', '.join(str(s) for s in summary['scores'])}")
    print(f"Win Rate:      {summary['wins']}/{n} ({summary['win_rate']:.2f})")
    names = {"win": "Win", "lose": "Loss"}
    record = ", ".join(names.get(o, o.replace("_", " ").title()) for o in summary["outcomes"])
    print(f"Record:        {record}")
    print(f"Seed:          {summary['seed']}")


def load_replay(path: str) -> tuple[GameRecord, list[GameState]]:
    """Read the record at ``path`` and replay it, checking every move.

    Raises:
        ValueError: If the file cannot be read or is not a valid record; the one-line
            message starts with ``path``.
    """
    try:
        record = GameRecord.load(path)
        states = list(replay(record))
    except OverflowError as exc:  # a number too large for an int: 1e400
        raise ValueError(f"{path}: malformed game record: {exc}") from None
    except (ValueError, PacmanError) as exc:
        message = str(exc)
        if not message.startswith(path):
            message = f"{path}: {message}"
        raise ValueError(message) from None
    return record, states


def _replay(args: argparse.Namespace) -> int:
    try:
        record, states = load_replay(args.replay)
    except ValueError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    if args.export:
        if not _export(record, args.export, args):
            return 1
        return 0
    display = _make_display(args)
    try:
        display.start(states[0])
        n = states[0].num_agents
        for i, (before, after) in enumerate(itertools.pairwise(states)):
            if display.should_stop():
                break
            display.update(before, i % n, Direction(record.actions[i]), after)
        display.finish(states[-1], record)
    finally:
        display.close()
    summary = _summary([record], record.seed if record.seed is not None else 0)
    if args.json:
        print(json.dumps(summary))
    else:
        _print_game_line(record)
    return 0


def _export(record: GameRecord, path: str | Path, args: argparse.Namespace) -> bool:
    """Export ``record`` to ``path`` as the flags say; print one line; False on failure."""
    try:
        frames = export_game(
            record,
            path,
            cell_size=max(4, round(DEFAULT_CELL_SIZE * args.zoom)),
            frame_time=args.frame_time,
            frame=args.frame,
        )
    except (ImportError, ValueError, PacmanError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return False
    shown = "1 frame" if frames == 1 else f"{frames} frames"
    print(f"{PROG}: wrote {path} ({shown})", file=sys.stderr)
    return True


def _print_game_line(record: GameRecord) -> None:
    if record.outcome == "win":
        print(f"Pacman emerges victorious! Score: {record.final_score}")
    elif record.outcome == "lose":
        print(f"Pacman died! Score: {record.final_score}")
    elif record.outcome == "max_turns":
        print(f"Turn limit reached. Score: {record.final_score}")
    elif record.outcome == "aborted":
        print(f"Game stopped. Score: {record.final_score}")
    else:
        print(f"Game ended: {record.error}. Score: {record.final_score}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``pacman`` command.

    Returns:
        The exit status: 0 on success, 1 when a layout, agent or record is bad or an
        agent fails, 2 on a usage error.
    """
    try:
        status = _main(argv)
        sys.stdout.flush()
    except BrokenPipeError:  # `pacman -t ... | head`: the reader has all it wanted
        sys.stdout = None  # no second error when Python flushes it at exit
        return 0
    return status


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "eval":
        return int(eval_main(argv[1:]))
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.list_layouts:
        print("\n".join(layout_names()))
        return 0
    if args.list_agents:
        print("\n".join(agent_names()))
        return 0
    problem = _conflict(args)
    if problem:
        parser.error(problem)
    if args.fixRandomSeed and args.seed is None:
        args.seed = FIXED_SEED
    if args.recordActions and args.record is None:
        args.record = CLASSIC_RECORD
    if args.replay:
        return _replay(args)
    try:
        return _play(args)
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130


def _conflict(args: argparse.Namespace) -> str | None:
    """What is wrong with this combination of flags, or ``None``."""
    if args.frame is not None and not (args.export or "").lower().endswith(".png"):
        return "--frame needs --export FILE.png"
    if args.quiet and args.text:
        return "-q (no display) and -t (text display) exclude each other; choose one"
    if args.fixRandomSeed and args.seed is not None and args.seed != FIXED_SEED:
        return f"-f fixes the seed to {FIXED_SEED} and --seed gives {args.seed}; choose one"
    return None


def _play(args: argparse.Namespace) -> int:
    try:
        layout: Layout = load_layout(args.layout)
        pacman_args = parse_agent_args(args.agent_args)
        if shipped_layout_path(args.layout) is not None and Path(args.layout).is_file():
            print(
                f"{PROG}: note: playing the file {args.layout} in this folder, not the "
                f"shipped layout of that name",
                file=sys.stderr,
            )
    except (LayoutError, AgentError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    if args.num_ghosts is not None and args.num_ghosts > layout.num_ghosts:
        have = layout.num_ghosts
        print(
            f"{PROG}: error: -k {args.num_ghosts}: layout {layout.name} has "
            f"{have} ghost start{'s' * (have != 1)} (use -k 0 to {have})",
            file=sys.stderr,
        )
        return 1
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    num_ghosts = layout.num_ghosts if args.num_ghosts is None else args.num_ghosts
    display = _make_display(args)
    windowed = not isinstance(display, (NullDisplay, TextDisplay))
    # Without our search agents (a student handout), a random Pacman plays by default.
    headless = "AlphaBetaAgent" if "AlphaBetaAgent" in PACMAN_AGENTS else "RandomAgent"
    pacman = args.pacman or ("KeyboardAgent" if windowed else headless)
    own = None if args.pacman is None else student_agent_spec(args.pacman)
    if own is not None:
        ours = f" (ours: -p {REFERENCE_PREFIX}{pacman})" if pacman in PACMAN_AGENTS else ""
        print(
            f"{PROG}: note: playing {pacman} from {own.rpartition(':')[0]} in this folder{ours}",
            file=sys.stderr,
        )
        pacman = own
    if pacman == "KeyboardAgent" and not windowed:
        why = "with -q or -t" if (args.quiet or args.text or args.json) else "without a display"
        print(
            f"{PROG}: error: KeyboardAgent plays with the keys in the game window, "
            f"which does not open {why}",
            file=sys.stderr,
        )
        display.close()
        return 1
    series = _Series(args, MatchSpec(pacman=pacman, ghosts=args.ghosts, pacman_args=pacman_args))
    try:
        status = series.play(layout, num_ghosts, seed, display)
    except KeyboardInterrupt:
        status = 130
        print(f"\n{PROG}: interrupted during game {series.current + 1}", file=sys.stderr)
        series.report_kept()
    finally:
        display.close()
    if status == 1 and not series.records:
        return 1  # bad input (an agent that cannot be built): the error says why
    summary = _summary(series.records, seed)
    if args.json:
        print(json.dumps(summary))
    elif series.records:
        _print_summary(summary)
    if args.recordActions and series.saved:
        print(f"{PROG}: recorded {', '.join(map(str, series.saved))}", file=sys.stderr)
    return status


def _crashed_at_start(state: GameState, agents: Sequence[Any], seed: int, error: str) -> GameRecord:
    """The record of a game whose agent crashed before the first move (in its set-up)."""
    return GameRecord(
        layout_name=state.layout.name,
        layout_text=state.layout.to_text(),
        num_ghosts=state.num_agents - 1,
        agents=tuple(type(agent).__name__ for agent in agents),
        actions=(),
        scores=(),
        outcome="crash",
        seed=seed,
        error=error,
    )


class _Series:
    """The games of one ``pacman`` run, played one after the other.

    A game whose agent crashes or plays an illegal move costs only that game (as the
    classic ``-c`` did); the series goes on and ends with the summary of every game
    played. Ctrl-C ends it with the summary of the games finished so far.
    """

    def __init__(self, args: argparse.Namespace, match: MatchSpec) -> None:
        self.args = args
        self.match = match
        self.records: list[GameRecord] = []
        self.saved: list[Path] = []
        self.current = 0
        self._hinted = False

    def play(self, layout: Layout, num_ghosts: int, seed: int, display: Display) -> int:
        """Play the games; the exit status (0, or 1 if a game failed or a file was not written)."""
        args = self.args
        status = 0
        latest: list[GameState] = []  # the current game's latest state, for display.finish

        def on_step(before: GameState, agent: int, action: Direction, after: GameState) -> None:
            latest[0] = after
            display.update(before, agent, action, after)

        for game in range(args.num_games):
            self.current = game
            gseed = game_seed(seed, game)
            state = GameState.initial(layout, num_ghosts)
            try:
                agents = build_agents(self.match, layout, num_ghosts, gseed)
                display.attach(agents)
            except AgentError as exc:
                print(f"{PROG}: error: {exc}", file=sys.stderr)
                return 1
            display.start(state)
            latest[:] = [state]
            record: GameRecord | None
            try:
                record = run_game(
                    state,
                    agents,
                    timeout=args.timeout,
                    max_turns=args.max_turns,
                    on_step=on_step,
                    catch_errors=False,
                    seed=gseed,
                    should_stop=display.should_stop,
                )
            except AgentTimeoutError as exc:
                # A slow agent loses that game (the classic rule); the series goes on.
                record = exc.record  # type: ignore[attr-defined]
            except AgentCrashError as exc:
                self._report_crash(exc, game)
                record = getattr(exc, "record", None) or _crashed_at_start(
                    state, agents, gseed, str(exc)
                )
                status = 1
            except PacmanError as exc:  # an illegal move
                print(f"{PROG}: error: game {game + 1}: {exc}", file=sys.stderr)
                record = getattr(exc, "record", None)
                status = 1
            if record is None:  # an illegal move without a record: nothing to show or keep
                continue
            self.records.append(record)
            display.finish(latest[0], record)
            if not self._keep(record, game) and status == 0:
                status = 1
            if not args.json:
                _print_game_line(record)
            if record.outcome == "aborted":
                break
        return status

    def _report_crash(self, exc: AgentCrashError, game: int) -> None:
        cause = exc.__cause__ or exc
        if self.args.traceback:
            traceback.print_exception(cause)
        where = f"game {game + 1}: " if self.args.num_games > 1 else ""
        print(f"{PROG}: error: {where}{exc}{_where(cause)}", file=sys.stderr)
        if not self.args.traceback and not self._hinted:
            self._hinted = True
            print(f"{PROG}: (run with --traceback for the full traceback)", file=sys.stderr)

    def _keep(self, record: GameRecord, game: int) -> bool:
        """Save and export ``record`` as the flags ask; False if a file was not written."""
        args = self.args
        if args.record:
            path = _record_path(args.record, game, args.num_games)
            try:
                record.save(path)
            except OSError as exc:
                print(f"{PROG}: error: cannot write {path}: {exc.strerror}", file=sys.stderr)
                return False
            self.saved.append(path)
        if args.export:
            return _export(record, _record_path(args.export, game, args.num_games), args)
        return True

    def report_kept(self) -> None:
        """Say which games the summary covers and which records were kept."""
        done = len(self.records)
        games = "no finished game" if done == 0 else f"{done} finished game{'s' * (done != 1)}"
        kept = f"; records kept: {', '.join(map(str, self.saved))}" if self.saved else ""
        print(f"{PROG}: the summary covers {games}{kept}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
