"""The one TOML reader: places, types, and the same typo reported the same way everywhere."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from autograder.grading.eval_games import read_eval_agent_case
from autograder.grading.traces import read_game_trace_case
from autograder.reading.tree_cases import parse_tree_case
from autograder.results import CaseFormatError
from pacman.batch.cli import build_parser
from pacman.batch.spec import EvalConfigError, load_config
from pacman.tomlfile import TomlFile

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "autograder" / "cases"


def doc(text: str) -> TomlFile:
    return TomlFile(text, "f.toml", ValueError)


def test_keys_are_placed_by_line_and_column_outside_strings_and_tables() -> None:
    d = doc("a = 1\n  b = '''\nc = 2\n'''\nd = 3\n[t]\ne = 4\n")
    assert [d.at(k) for k in ("a", "b", "d")] == ["f.toml:1:1", "f.toml:2:3", "f.toml:5:1"]
    assert d.at("c") == d.at("e") == d.at(None) == "f.toml:1:1"  # not top-level keys


@pytest.mark.parametrize(
    ("value", "kinds", "expected"),
    [
        ("3", (int,), 3),
        ("3", (float,), 3.0),
        ("2.5", (float,), 2.5),
        ("'x'", (str,), "x"),
        ("true", (bool,), True),
    ],
)
def test_values_of_the_asked_kind_are_returned(
    value: str, kinds: tuple[type, ...], expected: object
) -> None:
    got = doc(f"k = {value}\n").get("k", *kinds)
    assert got == expected
    assert type(got) is type(expected)


@pytest.mark.parametrize(
    ("value", "kinds", "message"),
    [
        ("true", (int,), "f.toml:1:1: k must be a whole number, got True"),
        ("1.5", (int,), "f.toml:1:1: k must be a whole number, got 1.5"),
        ("'3'", (int, float), "f.toml:1:1: k must be a whole number or a number, got '3'"),
        ("[1]", (str,), "f.toml:1:1: k must be a string, got [1]"),
    ],
)
def test_values_of_another_kind_are_refused(
    value: str, kinds: tuple[type, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        doc(f"k = {value}\n").get("k", *kinds)


def test_toml_syntax_errors_carry_the_parsers_place() -> None:
    with pytest.raises(ValueError, match=r"^f\.toml:2:\d+: not valid TOML: ") as info:
        doc("a = 1\nb = \n")
    assert "(at line" not in str(info.value)


def test_missing_and_unknown_keys() -> None:
    with pytest.raises(ValueError, match=r"^f\.toml:1:1: missing key 'b'; add it$"):
        doc("a = 1\n").check_keys(["a", "b"], ["b"], {"b": "; add it"})
    with pytest.raises(ValueError, match=r"^f\.toml:2:1: unknown key 'c' \(known: a, b\)$"):
        doc("a = 1\nc = 2\n").check_keys(["b", "a"])


def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"nope\.toml: cannot read config file: "):
        TomlFile.read(tmp_path / "nope.toml", ValueError, "config file")


def _eval_config(path: Path) -> None:
    load_config(build_parser().parse_args(["--config", str(path)]))


def _tree_case(path: Path) -> None:
    parse_tree_case(path.read_text(), path=path)


def _with_typo(text: str) -> str:
    """The file with a misspelt key as its second line."""
    first, _, rest = text.partition("\n")
    return f"{first}\ncolour = 'red'\n{rest}"


READERS: list[tuple[str, Callable[[Path], object], str, type[Exception]]] = [
    ("eval config", _eval_config, "games = 3\nlayouts = ['testClassic']\n", EvalConfigError),
    (
        "tree case",
        _tree_case,
        (CASES / "minimax" / "lecture-3x3.toml").read_text(),
        CaseFormatError,
    ),
    (
        "eval-agent case",
        read_eval_agent_case,
        (CASES / "eval_agents" / "reflex-openClassic.toml").read_text(),
        CaseFormatError,
    ),
    (
        "game-trace case",
        read_game_trace_case,
        (CASES / "game_traces" / "minimax-smallClassic.toml").read_text(),
        CaseFormatError,
    ),
]


@pytest.mark.parametrize(
    ("reader", "text", "error"), [r[1:] for r in READERS], ids=[r[0] for r in READERS]
)
def test_every_reader_reports_a_misspelt_key_the_same_way(
    tmp_path: Path, reader: Callable[[Path], object], text: str, error: type[Exception]
) -> None:
    path = tmp_path / "file.toml"
    path.write_text(text)
    reader(path)  # the file as it is reads
    path.write_text(_with_typo(text))
    with pytest.raises(error) as info:
        reader(path)
    assert re.match(
        rf"^{re.escape(str(path))}:2:1: unknown key 'colour' \(known: ", str(info.value)
    )
