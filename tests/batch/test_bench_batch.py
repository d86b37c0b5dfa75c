"""The batch benchmark runs and reports its figures (not a timed test)."""

from __future__ import annotations

from benchmarks.batch import bench_two_agents


def test_the_two_agent_figure_reports_start_up_apart() -> None:
    figure = bench_two_agents(rounds=1, max_turns=2)
    assert figure["figure"] == "two_agents"
    assert figure["startup_seconds_1_worker"] > 0
    assert figure["speedup"] > 0
    assert "speedup_without_startup" in figure
