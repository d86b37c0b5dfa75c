"""Perft-style successor counts (STYLE §9) recomputed and compared with perft.toml.

The expectations were produced by the naive reference rules (``gen_perft.py``); here the
engine recomputes them. A mismatch means the engine's rules changed.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from pacman import GameState, Layout, layout_names, load_layout
from tests.core import naive_rules
from tests.core.gen_perft import MICRO, engine_perft

TABLE: list[dict[str, Any]] = tomllib.loads(
    Path(__file__).with_name("perft.toml").read_text(encoding="utf-8")
)["case"]


def layout_of(case: dict[str, Any]) -> Layout:
    if case["source"] == "micro":
        return Layout.from_text(MICRO[case["layout"]], name=case["layout"])
    return load_layout(case["layout"])


ROWS = [
    (case["layout"], depth, tuple(case[f"d{depth}"]))
    for case in TABLE
    for depth in (1, 2, 3)
    if f"d{depth}" in case
]


def test_table_covers_every_shipped_layout_and_micro_layout() -> None:
    names = {case["layout"] for case in TABLE}
    assert names == set(layout_names()) | set(MICRO)
    assert all("d1" in case and "d2" in case for case in TABLE)


@pytest.mark.parametrize(("name", "depth", "expected"), ROWS, ids=[f"{n}-d{d}" for n, d, _ in ROWS])
def test_engine_perft(name: str, depth: int, expected: tuple[int, int]) -> None:
    case = next(c for c in TABLE if c["layout"] == name)
    layout = layout_of(case)
    start = GameState.initial(layout)
    assert start.num_ghosts == case["num_ghosts"]
    assert engine_perft(start, depth) == expected


@pytest.mark.parametrize("case", TABLE, ids=[c["layout"] for c in TABLE])
def test_reference_model_agrees_at_depth_2(case: dict[str, Any]) -> None:
    reference = naive_rules.parse(layout_of(case).to_text())
    assert naive_rules.perft(reference, 2) == tuple(case["d2"])
