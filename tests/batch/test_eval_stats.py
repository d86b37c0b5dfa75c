from __future__ import annotations

import dataclasses
import math
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacman.batch.result import RECORD_FIELDS, TIMING_FIELDS, GameResult, Timing
from pacman.batch.results import CSV_COLUMNS, ResultsWriter, iter_results
from pacman.batch.stats import (
    ConfigStats,
    failure_lines,
    format_table,
    quartiles,
    wilson_interval,
)


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (5, 10, 0.2366, 0.7634),
        (1, 1, 0.2065, 1.0),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_interval_known_values(wins: int, games: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(wins, games)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_contains_the_rate_and_stays_in_0_1(case: tuple[int, int]) -> None:
    wins, games = case
    lo, hi = wilson_interval(wins, games)
    assert 0.0 <= lo <= wins / games <= hi <= 1.0
    assert hi - lo > 0
    # more games, same rate: a narrower interval
    lo2, hi2 = wilson_interval(wins * 4, games * 4)
    assert hi2 - lo2 < hi - lo


@pytest.mark.parametrize(("wins", "games"), [(-1, 3), (4, 3), (0, 0)])
def test_wilson_interval_rejects_impossible_counts(wins: int, games: int) -> None:
    with pytest.raises(ValueError, match="wins <= games"):
        wilson_interval(wins, games)


def test_quartiles() -> None:
    assert quartiles([7]) == (7.0, 7.0, 7.0)
    assert quartiles([1, 2, 3, 4]) == (1.75, 2.5, 3.25)
    with pytest.raises(ValueError, match="no values"):
        quartiles([])


def _record(
    score: int, outcome: str, turns: int, per_move: float | None, nodes: int | None
) -> GameResult:
    return GameResult(
        pacman="A",
        pacman_args={},
        ghosts="G",
        ghost_args={},
        layout="L",
        num_ghosts=2,
        game=0,
        seed=score + 1000,
        max_turns=None,
        timeout=None,
        outcome=outcome,
        win=outcome == "win",
        score=score,
        turns=turns,
        moves=turns * 3,
        nodes=nodes,
        nodes_per_move=None if nodes is None else nodes / max(1, turns),
        failed_agent=None,
        error=None,
        timing=Timing(1.0, per_move, per_move),
    )


def test_config_stats_summary() -> None:
    stats = ConfigStats(("A", "G", "L", 2))
    stats.add(_record(500, "win", 10, 0.002, 100))
    stats.add(_record(-300, "lose", 30, 0.001, 300))
    stats.add(_record(0, "crash", 0, None, None))
    stats.add(_record(100, "timeout", 5, 0.5, None))
    s = stats.summary()
    assert (s["games"], s["wins"], s["win_rate"], s["failed"]) == (4, 1, 0.25, 2)
    assert s["win_rate_ci95"] == list(wilson_interval(1, 4))
    assert s["score_mean"] == 75
    assert math.isclose(s["score_sd"], 330.4037933)
    assert (s["score_q1"], s["score_median"], s["score_q3"]) == (-75.0, 50.0, 200.0)
    # time per move weighted by moves: (0.02 + 0.03 + 2.5) / 45
    assert math.isclose(s["seconds_per_move"], 2.55 / 45)
    assert s["nodes_per_move"] == 400 / 40
    assert s["outcomes"] == {"crash": 1, "lose": 1, "timeout": 1, "win": 1}
    assert s["failed_seeds"] == [1000, 1100]


def test_table_has_one_row_per_configuration() -> None:
    a = ConfigStats(("AlphaBetaAgent:depth=2", "RandomGhost", "smallClassic", 2))
    a.add(_record(500, "win", 10, 0.002, 100))
    b = ConfigStats(("RandomAgent", "RandomGhost", "smallClassic", 2))
    table = format_table([a.summary(), b.summary()]).splitlines()
    assert len(table) == 4
    assert "win% [95% CI]" in table[0]
    assert table[2].startswith("AlphaBetaAgent:depth=2")
    assert "100 [21, 100]" in table[2]
    assert " 500.0 " in table[2]
    assert table[3].split()[-1] == "-"  # no games yet


def test_the_table_fits_in_100_columns_and_failures_say_why() -> None:
    long = ConfigStats(
        ("some/long/folder/multiAgents.py:ExpectimaxAgent:depth=2,evalFn=better",
         "DirectionalGhost", "mediumClassic", 2)
    )  # fmt: skip
    long.add(_record(500, "win", 10, 0.002, 100))
    crashy = ConfigStats(("Crashy", "RandomGhost", "smallClassic", 1))
    for outcome in ("crash", "crash", "timeout", "lose"):
        crashy.add(_record(0, outcome, 1, None, None))
    summaries = [long.summary(), crashy.summary()]
    table = format_table(summaries)
    assert max(len(line) for line in table.splitlines()) <= 100
    assert "ExpectimaxAgent" in table  # the class survives the shortening
    assert summaries[1]["failed_by"] == {"crash": 2, "timeout": 1}
    (line,) = failure_lines(summaries)
    assert line.startswith("  Crashy on smallClassic: 2 crash, 1 timeout")
    assert len(line) <= 100


def test_failure_lines_escape_and_cut_the_error() -> None:
    stats = ConfigStats(("A", "G", "L", 1))
    bad = dataclasses.replace(
        _record(0, "crash", 1, None, None), error="boom\x1b[31m\nFAKE " + "x" * 300
    )
    stats.add(bad)
    (line,) = failure_lines([stats.summary()])
    assert "\x1b" not in line
    assert "\n" not in line
    assert len(line) <= 100


def test_progress_line_counts_rate_from_the_first_game() -> None:
    import io

    from pacman.progress import Progress

    stream = io.StringIO()
    bar = Progress(10, skipped=2, stream=stream, interval=0.0)
    bar.start -= 100.0  # a slow start-up
    bar.update()
    bar.first = 0.0
    bar.played = 5
    line = bar.line(now=2.0)
    assert "7/10 games" in line
    assert "2.0 games/s" in line  # 4 games in 2 s after the first one
    assert "0:02 left" in line  # 3 games to go at 2 games/s, rounded
    assert "(2 from the results file)" in line
    assert stream.getvalue().count("\n") == 1  # not a terminal: whole lines


def test_result_fields_keep_the_results_file_order() -> None:
    """The files' columns are read off the dataclass: its field order is the format."""
    assert RECORD_FIELDS == (
        "pacman", "pacman_args", "ghosts", "ghost_args", "layout", "num_ghosts", "game",
        "seed", "max_turns", "timeout", "outcome", "win", "score", "turns", "moves", "nodes",
        "nodes_per_move", "failed_agent", "error", "timing",
    )  # fmt: skip
    assert TIMING_FIELDS == ("seconds", "seconds_per_move", "max_seconds_per_move")
    assert CSV_COLUMNS[-3:] == tuple(f"timing_{n}" for n in TIMING_FIELDS)


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_result_survives_its_file(tmp_path: Path, suffix: str) -> None:
    result = _record(500, "win", 10, 0.002, 100)
    path = tmp_path / f"r{suffix}"
    with ResultsWriter(path) as writer:
        writer.write(result)
    assert list(iter_results(path)) == [result]
    with pytest.raises(FrozenInstanceError):
        result.score = 0  # type: ignore[misc]
