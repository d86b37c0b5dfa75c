"""Per-game results files: JSON lines or CSV, appended one game at a time, read back to resume.

A JSONL line is one `GameResult` (`GameResult.to_dict`: its fields in order); the
wall-clock figures sit apart in its ``timing`` object, so two runs of the same grid give
byte-identical lines once ``timing`` is removed. A CSV file has one column per field
(``timing_seconds`` and so on at the end; agent arguments as ``k=v,k=v``).

Each line is flushed as soon as its game ends, so an interrupted run loses nothing it
finished, and a half-written last line (a killed process) is ignored when resuming.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from pacman.batch.result import DETERMINISTIC_FIELDS, TIMING_FIELDS, GameResult
from pacman.batch.spec import AgentSpec, EvalConfigError
from pacman.registry import parse_agent_args

__all__ = ["CSV_COLUMNS", "ResultsWriter", "iter_results"]

CSV_COLUMNS: tuple[str, ...] = (
    *DETERMINISTIC_FIELDS,
    *(f"timing_{name}" for name in TIMING_FIELDS),
)
"""The columns of a CSV results file, in order."""

_INT = ("num_ghosts", "game", "seed", "score", "turns", "moves")
_OPT_INT = ("max_turns", "nodes", "failed_agent")
_OPT_FLOAT = ("timeout", "nodes_per_move", *(f"timing_{n}" for n in TIMING_FIELDS))


def _is_csv(path: Path) -> bool:
    return path.suffix.lower() == ".csv"


def _to_csv_row(result: GameResult) -> list[str]:
    flat = result.to_dict()
    flat["pacman_args"] = AgentSpec("_", tuple(sorted(result.pacman_args.items()))).args_text
    flat["ghost_args"] = AgentSpec("_", tuple(sorted(result.ghost_args.items()))).args_text
    for name in TIMING_FIELDS:
        flat[f"timing_{name}"] = getattr(result.timing, name)
    row = []
    for column in CSV_COLUMNS:
        value = flat[column]
        if value is None:
            row.append("")
        elif isinstance(value, bool):
            row.append("true" if value else "false")
        else:
            row.append(str(value))
    return row


def _from_csv_row(row: dict[str, str]) -> GameResult:
    record: dict[str, Any] = dict(row)
    for name in _INT:
        record[name] = int(row[name])
    for name in _OPT_INT:
        record[name] = int(row[name]) if row[name] else None
    for name in _OPT_FLOAT:
        record[name] = float(row[name]) if row[name] else None
    if row["win"] not in ("true", "false"):
        raise ValueError(f"win: {row['win']!r} is not true or false")
    record["win"] = row["win"] == "true"
    record["error"] = row["error"] or None
    record["pacman_args"] = parse_agent_args(row["pacman_args"])
    record["ghost_args"] = parse_agent_args(row["ghost_args"])
    record["timing"] = {name: record.pop(f"timing_{name}") for name in TIMING_FIELDS}
    return GameResult.from_dict(record)  # checks every field's type and the identity


def iter_results(path: str | os.PathLike[str]) -> Iterator[GameResult]:
    """Read the results of a results file, one at a time (none if it does not exist).

    A truncated last line (the process was killed while writing it) is skipped.

    Raises:
        EvalConfigError: If a line is not a result record; the message gives file and line.
    """
    p = Path(path)
    if not p.exists():
        return
    try:
        with open(p, encoding="utf-8", newline="") as f:
            if _is_csv(p):
                yield from _iter_csv(p, f, _ends_with_newline(p))
            else:
                yield from _iter_jsonl(p, f)
    except (OSError, UnicodeDecodeError) as exc:
        raise EvalConfigError(f"{p}: cannot read results file: {exc}") from None


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() == 0:
            return True
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def _not_a_record(p: Path, line: int) -> EvalConfigError:
    return EvalConfigError(
        f"{p}:{line}: not a result record of pacman eval "
        "(use another --out file, or delete this one to start over)"
    )


def _iter_jsonl(p: Path, f: TextIO) -> Iterator[GameResult]:
    for number, line in enumerate(f, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise TypeError("not an object")
            record = GameResult.from_dict(data)
        except (
            json.JSONDecodeError,
            KeyError,
            TypeError,
            ValueError,
            AttributeError,
            RecursionError,
        ):
            if not line.endswith("\n"):
                return  # the half-written last line of a killed run
            raise _not_a_record(p, number) from None
        yield record


def _iter_csv(p: Path, f: TextIO, complete: bool) -> Iterator[GameResult]:
    reader = csv.DictReader(f)
    if reader.fieldnames is None:
        return
    if tuple(reader.fieldnames) != CSV_COLUMNS:
        raise EvalConfigError(f"{p}:1: not a results file of pacman eval (unexpected columns)")
    rows = iter(reader)
    row = next(rows, None)
    while row is not None:
        line = reader.line_num
        following = next(rows, None)
        try:
            record = _from_csv_row(row)
        except (KeyError, TypeError, ValueError, AttributeError):
            if following is None and not complete:
                return  # the half-written last row of a killed run
            raise _not_a_record(p, line) from None
        yield record
        row = following


class ResultsWriter:
    """Appends records to a results file, flushing each one.

    Args:
        path: A ``.jsonl`` or ``.csv`` file; created (with its header, for CSV) if needed.

    Raises:
        EvalConfigError: If the file cannot be opened for writing.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.csv = _is_csv(self.path)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            if not fresh:
                _drop_partial_last_line(self.path)
            # backslashreplace: an agent's error text with a lone surrogate is written as
            # its escape instead of failing the whole run.
            self._file: TextIO = open(  # noqa: SIM115
                self.path, "a", encoding="utf-8", errors="backslashreplace", newline=""
            )
        except OSError as exc:
            raise EvalConfigError(f"{self.path}: cannot write results: {exc.strerror}") from None
        self._csv_writer = csv.writer(self._file, lineterminator="\n") if self.csv else None
        if self._csv_writer is not None and fresh:
            self._csv_writer.writerow(CSV_COLUMNS)
            self._file.flush()

    def write(self, result: GameResult) -> None:
        """Append one result and flush it to the file."""
        if self._csv_writer is not None:
            self._csv_writer.writerow(_to_csv_row(result))
        else:
            self._file.write(json.dumps(result.to_dict(), separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _drop_partial_last_line(path: Path) -> None:
    """Cut a half-written last line left by a killed run, so appends start on a new line."""
    with open(path, "rb+") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        if size == 0:
            return
        f.seek(size - 1)
        if f.read(1) == b"\n":
            return
        block = min(size, 1 << 16)
        f.seek(size - block)
        tail = f.read(block)
        cut = tail.rfind(b"\n")
        if cut >= 0:
            f.truncate(size - block + cut + 1)
        elif block == size:
            f.truncate(0)
        else:  # a last line longer than the block: end it, so the next record starts clean
            f.write(b"\n")
