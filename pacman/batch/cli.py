"""The ``pacman eval`` command: a grid of headless games, a results file and a summary."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from pacman.batch.evaluate import EvalResult, run_evaluation
from pacman.batch.plot import plot_scores
from pacman.batch.spec import EvalConfigError, load_config
from pacman.batch.stats import failure_lines, format_table
from pacman.cli_parser import Parser
from pacman.core.errors import PacmanError
from pacman.runner import MatchSpec, rerun_command

__all__ = ["build_parser", "main"]

PROG = "pacman eval"

_EPILOG = """\
SPEC is Name[:k=v,k=v] (e.g. AlphaBetaAgent:depth=2,evalFn=better) or
path/to/file.py:Class[:k=v,...]. -p, -g and -l repeat; the grid is every
Pacman agent x every ghost x every layout, -n games each.

examples:
  pacman eval -p AlphaBetaAgent:depth=1 -p AlphaBetaAgent:depth=2 -l smallClassic -n 50
  pacman eval -p ExpectimaxAgent:depth=2,evalFn=better -g RandomGhost -g DirectionalGhost \\
      -l smallClassic -l mediumClassic -n 20 --timeout 1 --out results.jsonl --plot scores.png
  pacman eval --config eval.toml            (keys: pacman, ghosts, layouts, games, ...)
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``pacman eval``."""
    p = Parser(
        prog=PROG,
        description="Play many headless games in parallel and summarise who wins.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--config", metavar="FILE.toml", help="read the grid and options from TOML")
    p.add_argument(
        "-p",
        "--pacman",
        action="append",
        metavar="SPEC",
        help="Pacman agent (repeatable; default AlphaBetaAgent:depth=2)",
    )
    p.add_argument(
        "-g",
        "--ghosts",
        action="append",
        metavar="SPEC",
        help="ghost policy for every ghost (repeatable; default RandomGhost)",
    )
    p.add_argument(
        "-l",
        "--layout",
        dest="layouts",
        action="append",
        metavar="LAYOUT",
        help="layout name or .lay path (repeatable; default smallClassic)",
    )
    p.add_argument(
        "-k", "--num-ghosts", type=int, help="number of ghosts (default: all the layout has)"
    )
    p.add_argument("-n", "--games", type=int, help="games per configuration (default 10)")
    p.add_argument("--seed", type=int, help="base seed (default 0); game seeds derive from it")
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        help="worker processes (default: CPU count; 0 = play in this process)",
    )
    p.add_argument("--timeout", type=float, help="per-move time limit in seconds")
    p.add_argument("--max-turns", type=int, help="stop a game after this many Pacman moves")
    p.add_argument(
        "-o",
        "--out",
        metavar="FILE",
        help="per-game results, .jsonl or .csv; re-running skips the games it holds",
    )
    p.add_argument("--plot", metavar="FILE.png", help="score distributions (needs matplotlib)")
    p.add_argument(
        "--save-games", metavar="DIR", help="save every game's record for pacman --replay"
    )
    p.add_argument(
        "--backend", choices=("local", "ray"), help="local process pool (default) or Ray"
    )
    p.add_argument("--address", help="Ray cluster address (default: start Ray locally)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    return p


def _error(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 1


def _print_report(result: EvalResult, as_json: bool) -> None:
    summaries = result.summaries()
    if as_json:
        print(
            json.dumps({"played": result.played, "skipped": result.skipped, "configs": summaries})
        )
        return
    print(format_table(summaries))
    hints = []
    for stats, summary in zip(result.stats.values(), summaries, strict=True):
        if not summary.get("failed_seeds"):
            continue
        cell = next(c for c in result.cells if c.key == stats.key)
        command = rerun_command(
            MatchSpec(
                cell.pacman.name,
                cell.ghosts.name,
                cell.pacman.args_dict,
                cell.ghosts.args_dict,
            ),
            cell.layout_label,
            cell.num_ghosts,
            summary["failed_seeds"][0],
            timeout=result.config.timeout,
            max_turns=result.config.max_turns,
        )
        if command is not None:
            hints.append(f"  {command} -t")
    reasons = failure_lines(summaries)
    if reasons:
        print("\nWhy games failed (the first error of each configuration; --json has all):")
        print("\n".join(reasons))
    if hints:
        print("\nWatch a failed game again with:")
        print("\n".join(hints))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``pacman eval``.

    Returns:
        0 on success (failed games are results, not errors), 1 on bad input, 2 on a
        usage error, 130 when interrupted.
    """
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        config = load_config(args)
    except EvalConfigError as exc:
        return _error(str(exc))
    try:
        result = run_evaluation(config, progress=not args.quiet)
    except KeyboardInterrupt:
        where = f"; finished games are in {config.out}" if config.out else ""
        print(
            f"\n{PROG}: interrupted{where} (run the same command again to resume)",
            file=sys.stderr,
        )
        return 130
    except PacmanError as exc:
        return _error(str(exc))
    except OSError as exc:  # the results file or a saved game could not be written
        return _error(f"{exc.filename or 'output'}: cannot write: {exc.strerror or exc}")
    if result.foreign:
        print(
            f"{PROG}: note: {result.foreign} records in {config.out} come from other "
            "settings (agents, layouts, seed, --max-turns or --timeout) and are not counted",
            file=sys.stderr,
        )
    try:
        _print_report(result, args.json)
        sys.stdout.flush()
    except BrokenPipeError:  # `pacman eval ... | head`: the reader has all it wanted
        sys.stdout = None  # no second error when Python flushes it at exit
        return 0
    if config.plot is not None:
        try:
            plot_scores(list(result.stats.values()), config.plot)
        except OSError as exc:
            return _error(f"{config.plot}: cannot write plot: {exc.strerror}")
        print(f"\nscore plot written to {config.plot}", file=sys.stderr)
    return 0
