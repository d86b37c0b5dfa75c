from __future__ import annotations

import json

import pytest

from benchmarks import envs as bench


def test_bench_prints_every_figure_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--steps", "60", "--repeats", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    figures = result["steps_per_s"]
    assert set(figures) == {
        "pacman",
        "pacman_env_only",
        "pacman_parallel",
        "peer_draw_only",
        "minigrid",
    }
    assert all(figures[k] > 0 for k in figures if k != "minigrid")


def test_bench_names_a_broken_minigrid_interpreter() -> None:
    with pytest.raises(SystemExit, match="cannot run '/no/such/python'"):
        bench.main(["--steps", "10", "--repeats", "1", "--minigrid-python", "/no/such/python"])
