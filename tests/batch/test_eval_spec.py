from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pacman.batch import AgentSpec, main
from pacman.batch.cli import build_parser
from pacman.batch.spec import EvalConfig, EvalConfigError, build_cells, iter_tasks, load_config
from pacman.core.errors import AgentError


@pytest.mark.parametrize(
    ("text", "name", "args", "label"),
    [
        ("RandomAgent", "RandomAgent", (), "RandomAgent"),
        (" RandomAgent: ", "RandomAgent", (), "RandomAgent"),
        ("AlphaBetaAgent:depth=2", "AlphaBetaAgent", (("depth", "2"),), "AlphaBetaAgent:depth=2"),
        (
            "ExpectimaxAgent:evalFn=better,depth=3",
            "ExpectimaxAgent",
            (("depth", "3"), ("evalFn", "better")),
            "ExpectimaxAgent:depth=3,evalFn=better",
        ),
        ("my/agents.py:Mine", "my/agents.py:Mine", (), "my/agents.py:Mine"),
        (
            "my/agents.py:Mine:depth=4",
            "my/agents.py:Mine",
            (("depth", "4"),),
            "my/agents.py:Mine:depth=4",
        ),
    ],
)
def test_agent_spec_parsing(
    text: str, name: str, args: tuple[tuple[str, str], ...], label: str
) -> None:
    spec = AgentSpec.parse(text)
    assert (spec.name, spec.args, spec.label) == (name, args, label)
    assert AgentSpec.parse(spec.label) == spec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (":depth=2", "no agent name"),
        ("x.py:", "no class name"),
        ("AlphaBetaAgent:depth", "bad agent argument 'depth'"),
    ],
)
def test_bad_agent_specs(text: str, message: str) -> None:
    with pytest.raises(AgentError, match=message):
        AgentSpec.parse(text)


def _config(*argv: str) -> EvalConfig:
    return load_config(build_parser().parse_args(list(argv)))


def test_flags_make_the_grid_in_order() -> None:
    config = _config(
        "-p", "RandomAgent", "-p", "GreedyAgent", "-g", "RandomGhost", "-g", "DirectionalGhost",
        "-l", "smallClassic", "-l", "testClassic", "-n", "3", "-k", "1",
    )  # fmt: skip
    cells = build_cells(config)
    assert [c.key for c in cells[:3]] == [
        ("RandomAgent", "RandomGhost", "smallClassic", 1),
        ("RandomAgent", "RandomGhost", "testClassic", 1),
        ("RandomAgent", "DirectionalGhost", "smallClassic", 1),
    ]
    assert len(cells) == 8
    tasks = list(iter_tasks(config, cells))
    assert len(tasks) == 24
    assert len({t.seed for t in tasks}) == 24
    assert all(0 <= t.seed < 2**53 for t in tasks)  # exact in every JSON reader
    assert [t.game for t in tasks[:3]] == [0, 1, 2]


def test_argument_order_does_not_change_the_configuration_or_its_seeds() -> None:
    a = build_cells(_config("-p", "AlphaBetaAgent:depth=1,evalFn=better"))
    b = build_cells(_config("-p", "AlphaBetaAgent:evalFn=better,depth=1"))
    assert a[0].key == b[0].key
    assert a[0].series_seed(5, 2) == b[0].series_seed(5, 2)


def test_seeds_depend_on_base_seed_cell_and_game() -> None:
    (cell,) = build_cells(_config("-p", "RandomAgent"))
    (other,) = build_cells(_config("-p", "GreedyAgent"))
    seeds = {cell.series_seed(0, 0), cell.series_seed(1, 0), cell.series_seed(0, 1)}
    assert len(seeds | {other.series_seed(0, 0)}) == 4


def test_num_ghosts_is_capped_by_the_layout() -> None:
    (cell,) = build_cells(_config("-l", "testClassic", "-k", "4"))
    assert cell.num_ghosts == cell.layout.num_ghosts


def test_toml_config_with_strings_and_tables(tmp_path: Path) -> None:
    path = tmp_path / "eval.toml"
    path.write_text(
        'pacman = ["RandomAgent",\n'
        '  {agent = "AlphaBetaAgent", args = {depth = 2, evalFn = "better"}}]\n'
        'ghosts = "DirectionalGhost"\n'
        'layouts = ["testClassic"]\n'
        "games = 4\nseed = 9\ntimeout = 2\nmax_turns = 50\njobs = 0\n"
    )
    config = _config("--config", str(path))
    assert [s.label for s in config.pacman] == [
        "RandomAgent",
        "AlphaBetaAgent:depth=2,evalFn=better",
    ]
    assert [s.label for s in config.ghosts] == ["DirectionalGhost"]
    assert (config.games, config.seed, config.timeout, config.max_turns, config.jobs) == (
        4, 9, 2.0, 50, 0,
    )  # fmt: skip
    # flags win over the file
    assert _config("--config", str(path), "-n", "7", "-p", "GreedyAgent").games == 7
    assert [s.name for s in _config("--config", str(path), "-p", "GreedyAgent").pacman] == [
        "GreedyAgent"
    ]


BAD_CONFIGS = [
    ("games = \n", "not valid TOML"),
    ("gamez = 3\n", "unknown key 'gamez'"),
    ("games = 'many'\n", "games must be a whole number, got 'many'"),
    ("games = true\n", "games must be a whole number"),
    ("games = 0\n", "games must be >= 1"),
    ("timeout = -1\n", "timeout must be > 0"),
    ("pacman = [3]\n", "pacman[0]: expected a spec string or a table"),
    ("pacman = [{agent = 'A', depth = 2}]\n", "pacman[0]: agent table has unknown keys ['depth']"),
    ("pacman = ['AlphaBetaAgent:depth']\n", "pacman[0]: bad agent argument 'depth'"),
    ("layouts = [1]\n", "layouts must be strings"),
    ("backend = 'spark'\n", "backend must be 'local' or 'ray'"),
    ("out = 'results.txt'\n", "out file 'results.txt' must end in .jsonl or .csv"),
    ("layouts = []\n", "layouts must name at least one layout"),
]


@pytest.mark.parametrize(("content", "message"), BAD_CONFIGS)
def test_bad_config_file_names_file_and_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "eval.toml"
    path.write_text(content)
    with pytest.raises(EvalConfigError, match=r"eval\.toml:\d+:\d+: ") as info:
        _config("--config", str(path))
    assert message in str(info.value)
    assert main(["--config", str(path), "-q"]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    assert re.match(rf"pacman eval: error: {re.escape(str(path))}:1:\d+: ", lines[0]), lines[0]


def test_flag_errors_name_the_flag_even_with_a_config(tmp_path: Path) -> None:
    path = tmp_path / "eval.toml"
    path.write_text("games = 3\n")
    with pytest.raises(EvalConfigError, match=r"^--max-turns: max_turns must be >= 1"):
        _config("--config", str(path), "--max-turns", "0")


def test_missing_config_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["--config", str(tmp_path / "nope.toml")]) == 1
    assert "nope.toml: cannot read config file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["-p", "MinimaxAgnt"],
            "Pacman agent 'MinimaxAgnt': unknown agent 'MinimaxAgnt'; did you mean",
        ),
        (["-p", "MinimaxAgent:dept=2"], "takes no argument 'dept'"),
        (["-p", "MinimaxAgent:depth=deep"], "argument depth='deep' is not a valid int"),
        (["-p", "MinimaxAgent:evalFn=nope"], "unknown evaluation function 'nope'"),
        (["-p", "MinimaxAgent:depth=0"], "depth must be an int >= 1"),
        (["-g", "PurpleGhost"], "ghost agent 'PurpleGhost': unknown agent"),
        (["-p", "missing.py:Agent"], "missing.py: no such file"),
        (["-l", "noSuchLayout"], "layout: noSuchLayout: no such layout"),
        (["-n", "0"], "--games: games must be >= 1, got 0"),
        (["-j", "-1"], "jobs must be >= 0"),
        (["--max-turns", "0"], "max_turns must be >= 1"),
        (["-o", "out.txt"], "must end in .jsonl or .csv"),
        (["-o", "/no-such-dir/r.jsonl"], "/no-such-dir/r.jsonl: cannot write results"),
        (["--plot", "scores.svg"], "must end in .png"),
        (["--backend", "ray", "-j", "0"], "--jobs: jobs 0 (play in this process) does not apply"),
    ],
)
def test_bad_input_fails_before_any_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    out = tmp_path / "r.jsonl"
    argv = [*argv, "-q"] if "-o" in argv else [*argv, "-q", "-o", str(out)]
    assert main(argv) == 1
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("pacman eval: error: ")
    assert message in lines[0]
    assert captured.out == ""
    assert not out.exists() or out.read_text() == ""


def test_bad_layout_file_gives_its_line_and_column(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.lay"
    bad.write_text("%%%%%\n%P.x%\n%%%%%\n")
    assert main(["-l", str(bad), "-q"]) == 1
    assert f"{bad}:2:4: unknown tile 'x'" in capsys.readouterr().err


def test_a_corrupt_results_file_is_refused_with_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text('{"not": "a record"}\n')
    assert main(["-p", "RandomAgent", "-n", "1", "-j", "0", "-q", "-o", str(out)]) == 1
    assert f"{out}:1: not a result record" in capsys.readouterr().err


def test_ray_address_is_checked_before_anything_runs() -> None:
    import socket

    from pacman.batch.backends import check_ray_address

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        check_ray_address(f"127.0.0.1:{port}")
        check_ray_address(f"ray://127.0.0.1:{port}")
    check_ray_address(None)
    check_ray_address("auto")
    with pytest.raises(EvalConfigError, match="cannot reach a Ray cluster"):
        check_ray_address(f"127.0.0.1:{port}", timeout=2)
    with pytest.raises(EvalConfigError, match="expected host:port"):
        check_ray_address("cluster")


_names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True)
_values = st.from_regex(r"[A-Za-z0-9_.+-]{1,8}", fullmatch=True)


@given(
    name=_names,
    args=st.dictionaries(_names, _values, max_size=4),
    in_file=st.booleans(),
)
def test_agent_spec_label_parses_back_to_the_same_spec(
    name: str, args: dict[str, str], in_file: bool
) -> None:
    text = f"dir/{name}.py:{name}" if in_file else name
    if args:
        text += ":" + ",".join(f"{k}={v}" for k, v in reversed(list(args.items())))
    spec = AgentSpec.parse(text)
    assert spec.args_dict == args
    assert [k for k, _ in spec.args] == sorted(args)
    assert AgentSpec.parse(spec.label) == spec
