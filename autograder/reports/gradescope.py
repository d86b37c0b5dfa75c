"""The Gradescope autograder package: ``setup.sh``, ``run_autograder`` and this project.

Gradescope unpacks the zip into ``/autograder/source``, runs ``setup.sh`` once when it
builds the image, and ``run_autograder`` for every submission; the submission is in
``/autograder/submission`` and the scores must land in
``/autograder/results/results.json``. ``run_autograder`` always writes that file, even
when grading cannot run, so the student sees why instead of a blank failure. (The
``AUTOGRADER_ROOT`` environment variable moves ``/autograder`` elsewhere, for testing.)

Where it can, ``run_autograder`` runs the student's code as ``nobody`` (``--run-as``) and
then also takes every permission for others off the installed package's ``cases``
folder, so the student's code can neither rewrite nor read the expected answers; the
grader, as root, has read them all before. Where it cannot (not root, no ``nobody``, or
``nobody`` cannot run the grader's Python), the student's code runs as root and could
read the case files; it still cannot change what it is graded against, which the grader
holds in memory.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Final

__all__ = ["failure_results", "write_package"]

SETUP_SH: Final = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
set -euo pipefail
PY=""
for candidate in python3.13 python3.12 python3.11; do
    if command -v "$candidate" >/dev/null 2>&1; then PY="$candidate"; break; fi
done
if [ -z "$PY" ]; then
    apt-get update
    apt-get install -y python3.11 python3.11-venv
    PY=python3.11
fi
"$PY" -m venv /autograder/venv
/autograder/venv/bin/pip install --upgrade pip
/autograder/venv/bin/pip install /autograder/source
"""
"""Installs Python 3.11+ if needed and the project into ``/autograder/venv``."""

RUN_AUTOGRADER: Final = """#!/usr/bin/env bash
# Gradescope runs this for every submission. It always leaves a results.json.
ROOT=${AUTOGRADER_ROOT:-/autograder}
RESULTS=$ROOT/results/results.json
mkdir -p "$ROOT/results"
fallback() {
    "$ROOT/venv/bin/python" - "$1" "$RESULTS" <<'PY' || \\
        printf '{"score": 0, "output": "The autograder could not run."}\\n' > "$RESULTS"
import sys
from autograder.reports.gradescope import failure_results
open(sys.argv[2], "w").write(failure_results(sys.argv[1]))
PY
}
FILE=$(find "$ROOT/submission" -name multi_agents.py -print -quit)
[ -n "$FILE" ] || FILE=$(find "$ROOT/submission" -name multiAgents.py -print -quit)  # classic
if [ -z "$FILE" ]; then
    fallback "No multi_agents.py was found in your submission. Submit the file itself."
    exit 0
fi
rm -f "$RESULTS"
cd "$(dirname "$FILE")"
# Gradescope runs this as root: run the student's code as nobody, so that it cannot
# touch the results or the grader (it only needs to read the submission).
# Only where nobody can run the grader's Python and read the file; else as root.
RUN_AS=()
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v runuser >/dev/null 2>&1; then
    chmod -R a+rX "$ROOT/submission"
    if runuser -u nobody -- "$ROOT/venv/bin/python" -c \\
        'import sys, autograder; open(sys.argv[1]).close()' "$FILE" >/dev/null 2>&1; then
        RUN_AS=(--run-as nobody)
    fi
fi
if [ ${#RUN_AS[@]} -gt 0 ]; then
    # nobody must not read the expected answers either: the grader (root) reads every
    # case into memory before any student code starts, and never reads them again.
    CASES=$("$ROOT/venv/bin/python" -c \\
        'import autograder, os; print(os.path.join(os.path.dirname(autograder.__file__), "cases"))')
    if [ -n "$CASES" ] && [ -d "$CASES" ]; then
        chmod -R go-rwx "$CASES"
    fi
    # Nor our reference searches and evaluations (the worker imports none of them): a
    # file that loaded them by path could hand their answers in as its own.
    AGENTS=$("$ROOT/venv/bin/python" -c \
        'import agents, os; print(os.path.dirname(agents.__file__))' 2>/dev/null)
    for DIR in "$AGENTS" "$ROOT/source"; do
        if [ -n "$DIR" ] && [ -d "$DIR" ]; then
            chmod -R go-rwx "$DIR"
        fi
    done
fi
"$ROOT/venv/bin/autograder" "$FILE" --format gradescope --output "$RESULTS" "${RUN_AS[@]}"
if [ ! -s "$RESULTS" ]; then
    fallback "The autograder stopped before it could write a report; please tell the staff."
fi
exit 0
"""
"""Grades ``multi_agents.py`` from the submission into ``results.json``."""

_SOURCES: Final = ("pacman", "agents", "autograder", "layouts")
_TOP_FILES: Final = ("pyproject.toml", "README.md", "LICENSE")
_SKIP_PARTS: Final = frozenset({"__pycache__", ".venv", ".git", "build"})


def failure_results(message: str) -> str:
    """A ``results.json`` giving zero points with ``message`` (when grading cannot run).

    >>> json.loads(failure_results("no file"))["score"]
    0
    """
    return json.dumps({"score": 0, "output": message, "tests": []}) + "\n"


def project_root() -> Path:
    """The project's source folder (the one with ``pyproject.toml``).

    Raises:
        ValueError: If this installation has no source folder (installed from a wheel).
    """
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file():
        raise ValueError(
            f"{root}: no pyproject.toml here; run gradescope-package from a source checkout "
            "installed with `pip install -e .`"
        )
    return root


def write_package(output: Path) -> Path:
    """Write the autograder zip: the two scripts at its root and the project's source.

    Returns:
        The path written.

    Raises:
        ValueError: If the project's source folder cannot be found.
        OSError: If the zip cannot be written.
    """
    root = project_root()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in (("setup.sh", SETUP_SH), ("run_autograder", RUN_AUTOGRADER)):
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o755 << 16  # executable, as Gradescope requires
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, text)
        for name in _TOP_FILES:
            if (root / name).is_file():
                zf.write(root / name, name)
        for top in _SOURCES:
            for path in sorted((root / top).rglob("*")):
                rel = path.relative_to(root)
                if path.is_file() and not _SKIP_PARTS & set(rel.parts) and path.suffix != ".pyc":
                    zf.write(path, rel.as_posix())
    return output
