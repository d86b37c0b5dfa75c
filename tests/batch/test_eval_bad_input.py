"""Bad input to ``pacman eval`` gets one line, never a traceback (issue 13, batch user)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pacman.batch.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


GRID = ("-l", "testClassic", "-n", "1", "-j", "0", "-q", "--max-turns", "5")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\x01\xff\xfe", "cannot read config file"),
        (("a = " + "[" * 5000 + "]" * 5000 + "\n").encode(), "nested too deeply"),
    ],
)
def test_a_bad_config_file_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, message: str
) -> None:
    config = tmp_path / "eval.toml"
    config.write_bytes(content)
    code, _, err = run(capsys, "--config", str(config))
    assert code == 1
    assert message in err
    assert len(err.strip().splitlines()) == 1


def _good_line(capsys: pytest.CaptureFixture[str], out: Path) -> dict[str, object]:
    assert run(capsys, "-p", "RandomAgent", *GRID, "-o", str(out))[0] == 0
    data: dict[str, object] = json.loads(out.read_text().splitlines()[0])
    return data


CORRUPTIONS = {
    "win as a string": {"win": "yes"},
    "score as text": {"score": "lots"},
    "seed as a bool": {"seed": True},
    "unknown outcome": {"outcome": "victory"},
    "timing not an object": {"timing": 3},
    "infinite time": {"timing": {"seconds": 1e999, "seconds_per_move": None,
                                 "max_seconds_per_move": None}},
    "arguments not strings": {"pacman_args": {"depth": 2}},
    "error not text": {"error": ["x"]},
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
def test_a_corrupted_results_file_is_one_line_on_resume(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    out = tmp_path / "r.jsonl"
    data = _good_line(capsys, out)
    data.update(CORRUPTIONS[kind])
    out.write_text(json.dumps(data) + "\n")
    code, _, err = run(capsys, "-p", "RandomAgent", *GRID, "-o", str(out))
    assert code == 1
    assert f"{out}:1: not a result record" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "line", ["[" * 100_000 + "]" * 100_000, "[1, 2]", '"text"', "{" + '"a": {' * 50 + "}" * 51]
)
def test_results_lines_that_are_not_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str
) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text(line + "\n")
    code, _, err = run(capsys, "-p", "RandomAgent", *GRID, "-o", str(out))
    assert code == 1
    assert f"{out}:1: not a result record" in err


def test_csv_results_keep_an_error_with_a_lone_surrogate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    agent = tmp_path / "surrogate.py"
    agent.write_text(
        "class A:\n    def get_action(self, state):\n"
        "        raise RuntimeError('bad ' + chr(0xDCFF))\n"
    )
    out = tmp_path / "r.csv"
    argv = ("-p", f"{agent}:A", *GRID, "-o", str(out))
    assert run(capsys, *argv)[0] == 0
    assert "bad \\udcff" in out.read_text(encoding="utf-8")
    code, _, err = run(capsys, *argv)  # resumes: the file reads back
    assert code == 0, err


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("import sys\nsys.exit(3)\n", "importing it called sys.exit(3)"),
        (
            "import sys\nclass A:\n    def __init__(self):\n        sys.exit(5)\n"
            "    def get_action(self, state):\n        return 'Stop'\n",
            "cannot create A(): it called sys.exit(5)",
        ),
    ],
)
def test_an_agent_file_that_exits_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, source: str, message: str
) -> None:
    agent = tmp_path / "exits.py"
    agent.write_text(source)
    code, _, err = run(capsys, "-p", f"{agent}:A", *GRID)
    assert code == 1
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_an_exception_that_cannot_print_itself_is_still_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    agent = tmp_path / "badstr.py"
    agent.write_text(
        "class E(Exception):\n    def __str__(self):\n        raise RuntimeError('no')\n"
        "class A:\n    def get_action(self, state):\n        raise E()\n"
    )
    code, out, _ = run(capsys, "-p", f"{agent}:A", *GRID, "--json")
    assert code == 0
    (config,) = json.loads(out)["configs"]
    assert config["first_error"] == "agent 0 (A) crashed: E (its message could not be shown)"
