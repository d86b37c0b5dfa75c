"""The autograder command: listing, selecting, bad input, init, Gradescope output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from autograder.cli import STARTER, main

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = Path(__file__).with_name("fixtures") / "solution" / "multi_agents.py"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_questions_and_tests(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--list")
    assert code == 0
    for line in ("q1  Reflex agent (4 points", "q2  Minimax (5 points", "q5  Evaluation function"):
        assert line in out
    assert "q2/minimax-smallClassic  [trace]" in out
    assert "q1/reflex-openClassic  [eval]" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-q", "q9"], "unknown question 'q9'"),
        (["-t", "nope"], "unknown test 'nope'"),
        (["missing.py"], "missing.py: no such file"),
        (["--cases", "/no/such/folder"], "no such case folder"),
        (["-j", "0"], "--jobs must be at least 1"),
    ],
)
def test_bad_input_is_one_line_and_status_1(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 1
    assert err.startswith("autograder: error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_text_report_for_one_test(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(SOLUTION), "-t", "q2/minimax-smallClassic", "-v")
    assert code == 0
    assert "PASS    q2/minimax-smallClassic" in out
    # One test of an all-or-nothing question does not claim its points (issue 13).
    assert "q2         Minimax                          1/1     ?/5*" in out
    assert out.splitlines()[-3].split() == ["Total", "0/0"]


def test_gradescope_format_writes_results_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, str(SOLUTION), "-q", "q1", "--format", "gradescope")
    assert code == 0
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["score"] == 4
    assert "4/4 points" in out


def test_gradescope_format_writes_a_results_file_even_without_a_submission(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    code, _, _ = run(
        capsys, str(tmp_path / "none.py"), "--format", "gradescope", "--output", str(out)
    )
    assert code == 1
    data = json.loads(out.read_text())
    assert data["score"] == 0
    assert "could not grade" in data["output"]


def test_init_writes_the_starter_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "init", str(tmp_path))
    assert code == 0
    assert (tmp_path / "multi_agents.py").read_text() == STARTER.read_text()
    code, _, err = run(capsys, "init", str(tmp_path))
    assert code == 1
    assert "already exists" in err


def test_gradescope_package_has_executable_scripts_and_the_project(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "autograder.zip"
    code, _, _ = run(capsys, "gradescope-package", "--output", str(target))
    assert code == 0
    with zipfile.ZipFile(target) as zf:
        names = set(zf.namelist())
        for script in ("setup.sh", "run_autograder"):
            assert zf.getinfo(script).external_attr >> 16 & 0o111
        run_script = zf.read("run_autograder").decode()
    assert {"pyproject.toml", "autograder/cli.py", "pacman/core/state.py"} <= names
    assert "autograder/cases/game_traces/minimax-smallClassic.trace.json" in names
    assert not any("__pycache__" in n or n.startswith("tests/") for n in names)
    assert "$ROOT/results/results.json" in run_script
    assert "ROOT=${AUTOGRADER_ROOT:-/autograder}" in run_script


@pytest.mark.parametrize(
    ("submission", "expected"),
    [
        (None, "No multi_agents.py was found"),
        (Path(__file__).with_name("fixtures") / "syntax_error" / "multi_agents.py", "SyntaxError"),
    ],
)
def test_run_autograder_always_leaves_results_json(
    tmp_path: Path, submission: Path | None, expected: str
) -> None:
    from autograder.reports.gradescope import RUN_AUTOGRADER

    root = tmp_path / "autograder"
    bin_dir = root / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(sys.executable)
    command = bin_dir / "autograder"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m autograder "$@"\n')
    command.chmod(0o755)
    (root / "submission").mkdir()
    if submission is not None:
        (root / "submission" / "multi_agents.py").write_text(submission.read_text())
    script = tmp_path / "run_autograder"
    script.write_text(RUN_AUTOGRADER)
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "PYTHONPATH": str(ROOT)}
    subprocess.run(["bash", str(script)], env=env, check=True, capture_output=True)
    data = json.loads((root / "results" / "results.json").read_text())
    assert data["score"] == 0
    assert expected in json.dumps(data)


def test_python_dash_m_autograder_runs(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "autograder", "--list"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert "q3  Alpha-beta pruning" in out.stdout


def test_generate_reproduces_the_checked_in_traces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    packaged = ROOT / "autograder" / "cases"
    cases = tmp_path / "cases"
    shutil.copytree(packaged, cases)
    for trace in (cases / "game_traces").glob("*.trace.json"):
        trace.unlink()
    code, out, _ = run(capsys, "generate", "--cases", str(cases))
    assert code == 0
    traces = sorted((packaged / "game_traces").glob("*.trace.json"))
    assert len(traces) >= 4  # one per search question, two for expectimax
    for trace in traces:
        assert (cases / "game_traces" / trace.name).read_text() == trace.read_text()
    assert f"{len(traces)} files rewritten" in out
    code, out, _ = run(capsys, "generate", "--cases", str(cases))
    assert code == 0
    assert out.strip() == "every expected answer was current"


def test_run_as_an_unknown_user_is_one_line_and_grades_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, str(SOLUTION), "-q", "q2", "--run-as", "no-such-user-here")
    assert code == 1
    assert err == "autograder: error: --run-as: no user 'no-such-user-here' on this machine\n"
    assert "PASS" not in out


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="run_autograder drops to nobody as root"
)
def test_run_autograder_hides_the_cases_from_nobody(tmp_path: Path) -> None:
    """With --run-as nobody, the installed cases folder loses every right for others."""
    import pwd
    import shutil
    import stat

    try:
        pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user nobody on this machine")
    from autograder.reports.gradescope import RUN_AUTOGRADER

    # An installed package stand-in: `import autograder` finds it, with its cases folder.
    site = tmp_path / "site"
    cases = site / "autograder" / "cases"
    shutil.copytree(ROOT / "autograder" / "cases" / "game_traces", cases / "game_traces")
    (site / "autograder" / "__init__.py").write_text("")
    cases.chmod(0o755)
    root = tmp_path / "autograder"
    bin_dir = root / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(sys.executable)
    # The grader stand-in reports what it was given and the rights on the cases then.
    (bin_dir / "autograder").write_text(
        "#!/bin/sh\n"
        'for a in "$@"; do if [ "$prev" = --output ]; then out=$a; fi; prev=$a; done\n'
        f'printf \'{{"score": 0, "args": "%s", "mode": "%s"}}\' "$*" '
        f'"$(stat -c %a "{cases}")" > "$out"\n'
    )
    (bin_dir / "autograder").chmod(0o755)
    # A runuser stand-in that runs the command as is: here nobody cannot reach our Python.
    fake = tmp_path / "fakebin"
    fake.mkdir()
    (fake / "runuser").write_text(
        '#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n'
    )
    (fake / "runuser").chmod(0o755)
    (root / "submission").mkdir()
    (root / "submission" / "multi_agents.py").write_text(SOLUTION.read_text())
    script = tmp_path / "run_autograder"
    script.write_text(RUN_AUTOGRADER)
    env = {
        **os.environ,
        "AUTOGRADER_ROOT": str(root),
        "PYTHONPATH": str(site),
        "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}",
    }
    subprocess.run(["bash", str(script)], env=env, check=True, capture_output=True)
    data = json.loads((root / "results" / "results.json").read_text())
    assert "--run-as nobody" in data["args"]
    assert int(data["mode"], 8) & 0o077 == 0
    trace = next((cases / "game_traces").glob("*.trace.json"))
    assert trace.stat().st_mode & (stat.S_IROTH | stat.S_IRGRP) == 0


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.mkdir(), "is a folder; give the Python file"),
        (lambda p: p.write_text("notes"), "not a Python file"),
    ],
    ids=["folder", "text-file"],
)
def test_what_is_not_a_python_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, message: str
) -> None:
    target = tmp_path / "submission"
    make(target)
    code, out, err = run(capsys, str(target))
    assert code == 1
    assert out == ""
    assert err.count("\n") == 1
    assert message in err
