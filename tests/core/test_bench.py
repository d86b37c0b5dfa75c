"""The benchmark's harness counts what it claims to count (no timing is asserted)."""

from __future__ import annotations

import json

import pytest

from benchmarks import engine as bench
from pacman import GameState, layout_names
from tests.core.gen_perft import engine_perft


@pytest.mark.parametrize(("layout", "depth"), [("trappedClassic", 3), ("smallClassic", 2)])
def test_successor_harness_counts_the_perft_nodes(layout: str, depth: int) -> None:
    result = bench.bench_successors(layout, depth, seconds=0)
    assert result["runs"] == 3
    assert result["nodes"] == engine_perft(GameState.initial(layout), depth)[0]
    assert result["successors_per_s"] > 0


def test_every_shipped_layout_is_benchmarked() -> None:
    assert sorted(name for name, _ in bench.SUCCESSOR_CASES) == layout_names()


def test_state_bytes_and_game_figures() -> None:
    memory = bench.bench_state_bytes(count=2000)
    assert 0 < memory["bytes_per_state"] < 1000
    game = bench.bench_game(seconds=0)
    assert game["games"] == 3
    assert game["moves_per_s"] >= game["turns_per_s"] > 0


def test_main_prints_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench, "SUCCESSOR_CASES", (("testClassic", 1),))
    monkeypatch.setattr(bench, "bench_state_bytes", lambda: {"bytes_per_state": 1})
    assert bench.main(["--seconds", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [row["layout"] for row in out["successors"]] == ["testClassic"]
    assert out["successors"][0]["nodes"] == 15
    assert set(out) == {"python", "machine", "successors", "game", "memory"}
