"""Grade every file of the classic-style corpus and compare with the classic grades.

Run from the repository root (not a test; the tests are in ``test_classic_corpus.py``)::

    python tests/autograder/corpus_report.py                # every variant
    python tests/autograder/corpus_report.py d_no_stop -j 2 # some variants, 2 workers each

For each variant of ``fixtures/classic_corpus`` it runs ``python -m autograder FILE
--format json`` and prints a table (points per question, ``got/expected``, ``!`` where
they differ), then, for every disagreement, the failing tests grouped by status,
diagnosis and first message (the test's description), with the verdict of the first of
them and the diagnoses given and expected. Expected grades are those of the classic
grader, in ``fixtures/classic_corpus/expected.toml``. The exit status is 0 when every
variant gets its expected points and diagnosis, 1 otherwise. A bug variant's diagnosis is
right when more than half of the failing tests of its broken question carry it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).with_name("fixtures") / "classic_corpus"
EXPECTED = CORPUS / "expected.toml"
QUESTIONS = ("q1", "q2", "q3", "q4", "q5")
REPO = Path(__file__).resolve().parents[2]


def load_expected() -> dict[str, dict[str, Any]]:
    """The expected grades, one table per variant folder."""
    with EXPECTED.open("rb") as f:
        return tomllib.load(f)


def grade(variant: str, *, jobs: int = 2, questions: tuple[str, ...] = ()) -> dict[str, Any]:
    """The autograder's JSON report for one variant (through the command line).

    Args:
        variant: A folder name of the corpus.
        jobs: SandboxProcess processes (``-j``).
        questions: Only these questions (default: all).
    """
    file = CORPUS / variant / "multiAgents.py"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "autograder", str(file), "--format", "json"]
        cmd += ["--output", str(out), "-j", str(jobs)]
        for q in questions:
            cmd += ["-q", q]
        env = dict(os.environ, PYTHONPATH=str(REPO), SDL_VIDEODRIVER="dummy")
        done = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0 or not out.exists():
            raise RuntimeError(f"{variant}: autograder exited {done.returncode}: {done.stderr}")
        return json.loads(out.read_text())  # type: ignore[no-any-return]


def question_results(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The report's questions by name."""
    return {q["name"]: q for q in report["questions"]}


def diagnoses(question: dict[str, Any]) -> Counter[str | None]:
    """How many of a question's tests that did not pass got each diagnosis (None: none)."""
    return Counter(
        t["diagnosis"] for t in question["tests"] if t["status"] != "passed" and not t.get("advice")
    )


def names_bug(question: dict[str, Any], name: str | list[str]) -> bool:
    """Whether more than half of the question's failing tests carry the diagnosis ``name``.

    That is when a report can say "most of these failures point to" that bug (issue 10).
    A list names bugs that give the same answers on the trees that catch them (any one
    of them counts).
    """
    given = diagnoses(question)
    names = [name] if isinstance(name, str) else name
    return sum(given[n] for n in names) * 2 > sum(given.values())


def describe_diagnoses(given: Counter[str | None]) -> str:
    """The diagnoses with their counts, most frequent first (``None``: no diagnosis)."""
    return ", ".join(f"{name} x{n}" for name, n in given.most_common()) or "no failing test"


def disagreements(expected: dict[str, Any], report: dict[str, Any]) -> list[str]:
    """The questions where the grade or the diagnosis is not the expected one."""
    got = question_results(report)
    wrong = []
    for q, points in expected["points"].items():
        if q not in got:
            continue
        name = expected.get("diagnosis", {}).get(q)
        if got[q]["points"] != points or (name is not None and not names_bug(got[q], name)):
            wrong.append(q)
    return wrong


def _first_line(messages: list[str]) -> str:
    text = next((m for m in messages if m.strip()), "(no message)")
    line = text.strip().splitlines()[0]
    return line if len(line) <= 150 else line[:147] + "..."


def _detail_line(messages: list[str]) -> str:
    """The first line of the message after the test's description (the verdict)."""
    rest = [m for m in messages[1:] if m.strip() and not m[0].isspace()]
    line = rest[0].strip().splitlines()[0] if rest else ""
    return line if len(line) <= 150 else line[:147] + "..."


def details(variant: str, expected: dict[str, Any], report: dict[str, Any]) -> list[str]:
    """The failing tests of every question that disagrees, grouped by first message."""
    got = question_results(report)
    lines = []
    for q in disagreements(expected, report):
        question = got[q]
        name = expected.get("diagnosis", {}).get(q)
        names = [name] if isinstance(name, str) else name or []
        want = f", expected diagnosis {' or '.join(names)}" if names else ""
        lines.append(
            f"  {variant} {q}: {question['points']:g}/{question['max_points']:g}, "
            f"classic grader: {expected['points'][q]}{want}; "
            f"diagnoses of the failing tests: {describe_diagnoses(diagnoses(question))}"
        )
        groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
        for t in question["tests"]:
            if t["status"] != "passed" and not t.get("advice"):
                groups[(t["status"], str(t["diagnosis"]), _first_line(t["messages"]))].append(t)
        for (status, diagnosis, message), tests in groups.items():
            names = [t["name"].split("/", 1)[1] for t in tests]
            shown = ", ".join(names[:4]) + (f" (+{len(names) - 4} more)" if len(names) > 4 else "")
            lines.append(f"    {status:7} diagnosis={diagnosis}: {shown}")
            lines.append(f"            {message}")
            verdict = _detail_line(tests[0]["messages"])
            if verdict:
                lines.append(f"            {verdict}")
    return lines


def wrongly_failed(expected: dict[str, Any], report: dict[str, Any]) -> list[str]:
    """Tests that fail in questions the classic grader gives full points (as ``q2/name``)."""
    got = question_results(report)
    return [
        t["name"]
        for q, points in expected["points"].items()
        if q in got and points == got[q]["max_points"]
        for t in got[q]["tests"]
        if t["status"] != "passed" and not t.get("advice")
    ]


def causes(failed: dict[str, list[str]]) -> list[str]:
    """Per test (question prefix dropped), the variants it fails although it should pass."""
    by_test: dict[str, set[str]] = defaultdict(set)
    for variant, names in failed.items():
        for name in names:
            by_test[name.split("/", 1)[1]].add(variant)
    rows = sorted(by_test.items(), key=lambda item: (-len(item[1]), item[0]))
    return [f"  {len(vs):2} variants  {test}: {', '.join(sorted(vs))}" for test, vs in rows]


def main(argv: list[str] | None = None) -> int:
    """Grade the corpus and print the table and the disagreements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", help="folders of the corpus (default: all)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="autograder workers")
    args = parser.parse_args(argv)
    expected = load_expected()
    variants = args.variants or sorted(expected)
    unknown = [v for v in variants if v not in expected]
    if unknown:
        parser.error(f"not in {EXPECTED}: {', '.join(unknown)}")
    width = max(len(v) for v in variants)
    print(f"{'variant':{width}}  " + "  ".join(f"{q:>6}" for q in QUESTIONS) + "  verdict")
    all_details, agreeing, started = [], 0, time.monotonic()
    failed: dict[str, list[str]] = {}
    for variant in variants:
        want = expected[variant]
        report = grade(variant, jobs=args.jobs)
        got = question_results(report)
        wrong = disagreements(want, report)
        cells = []
        for q in QUESTIONS:
            mark = "!" if q in wrong else " "
            cells.append(f"{got[q]['points']:g}/{want['points'][q]}{mark}".rjust(6))
        verdict = "ok" if not wrong else "DIFFERS: " + " ".join(wrong)
        print(f"{variant:{width}}  " + "  ".join(cells) + f"  {verdict}", flush=True)
        agreeing += not wrong
        all_details += details(variant, want, report)
        failed[variant] = wrongly_failed(want, report)
    print(
        f"\n{agreeing}/{len(variants)} variants get the classic grade "
        f"({time.monotonic() - started:.0f} s). Cells are points got/classic; "
        "! marks a question whose points or diagnosis differ."
    )
    if any(failed.values()):
        print("\nTests failing in questions the classic grader gives full points, by test:")
        print("\n".join(causes(failed)))
    if all_details:
        print("\nDisagreements (failing tests grouped by status, diagnosis and first message):")
        print("\n".join(all_details))
    return 0 if agreeing == len(variants) else 1


if __name__ == "__main__":
    sys.exit(main())
