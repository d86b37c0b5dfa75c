"""The public grader of a student handout: the public tests, from answers stored as data.

``autograder handout`` builds a folder for students with the engine, the window, the
starter and this grader, but none of our reference searches or evaluation functions. The
expected answers of the public tests are data (``public_cases.json``, written by the
staff's full grader): for a tree, every accepted (actions, generated states) answer; for
a game trace, every accepted (actions, distinct states) answer at each Pacman move. q1
and q5 play seeded games with the student's own agents, as the classic grader does (q5:
the student's ``ExpectimaxAgent`` with their ``better_evaluation``).

The student's code runs in the same worker as in the full grader (its successors counted
by this process). What this grader does not do is say which bug it found: naming a bug
means reproducing it, which takes our searches. The full grader (staff, Gradescope) does.

Run it in the handout folder: ``python -m autograder [multi_agents.py] [-q q2]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from agents.ghosts import DirectionalGhost, RandomGhost
from autograder.grading.servers import PacmanServer, TreeServer
from autograder.grading.workers import RemoteAgent, SandboxProcess, StudentError, WorkerLost
from autograder.sandbox.protocol import (
    Decide,
    MakeAgent,
    Register,
    Seed,
    SetLayout,
    TreeDecide,
)
from autograder.tree import TreeGame
from pacman.core.game import AgentCrashError, derive_seed, run_game
from pacman.core.layout import Layout
from pacman.core.state import GameState
from pacman.loader import STUDENT_FILES
from pacman.runner import global_seed

__all__ = ["CASES", "PUBLIC_FORMAT", "grade", "main"]

PUBLIC_FORMAT: Final = "autograder-public-cases/1"
"""The ``format`` tag of ``public_cases.json``."""

CASES: Final = Path(__file__).with_name("public_cases.json")
"""Where the handout keeps the public tests."""

_GHOSTS: Final = {"RandomGhost": RandomGhost, "DirectionalGhost": DirectionalGhost}


def _answer(raw: object) -> str | None:
    """The student's action as text, or ``None`` for something that is not an action."""
    if isinstance(raw, str):
        return raw
    return None


def _tree(test: dict[str, Any], worker: SandboxProcess) -> tuple[bool, str]:
    game = TreeGame.from_edges(
        test["start"],
        [tuple(edge) for edge in test["edges"]],
        {name: float(value) for name, value in test["values"].items()},
        num_agents=test["num_agents"],
        win_states=test["win"],
        lose_states=test["lose"],
    )
    server = TreeServer(game)
    worker.send(Seed(derive_seed(0, "tree", test["name"])))
    deadline = time.monotonic() + test["seconds"]
    worker.call(MakeAgent("student", test["agent"], test["depth"], "tree"), deadline=deadline)
    raw = worker.call(TreeDecide(*server.begin()), deadline=deadline, serve=server.serve)
    action = _answer(raw)
    got = set(server.generated) | {test["start"]}
    for actions, generated in test["accepted"]:
        if action in actions and got == set(generated):
            return True, "right action and generated states"
    actions, generated = min(test["accepted"], key=lambda a: len(set(a[1]) ^ got))
    lines = [f"expected {' or '.join(actions)}, got {action if action else repr(raw)}"]
    if set(generated) - got:
        lines.append(f"missing states: {' '.join(sorted(set(generated) - got))}")
    if got - set(generated):
        lines.append(f"extra states: {' '.join(sorted(got - set(generated)))}")
    return False, "; ".join(lines)


def _trace(test: dict[str, Any], worker: SandboxProcess) -> tuple[bool, str]:
    layout = Layout.from_text(test["layout_text"], name=test["layout"])
    state = GameState.initial(layout, test["num_ghosts"])
    server = PacmanServer()
    worker.send(SetLayout(layout.name, layout.to_text()))
    worker.send(Seed(derive_seed(test["seed"], "student")))
    end: float = time.monotonic() + test["seconds"]
    move_seconds = float(test["move_seconds"])

    def deadline() -> float:
        return min(end, time.monotonic() + move_seconds)

    worker.call(MakeAgent("student", test["agent"], test["depth"], "score"), deadline=end)
    worker.call(
        Register(*server.begin(state)), deadline=deadline(), serve=server.serve,
        notice=server.notice,
    )  # fmt: skip
    turn = 0
    n = state.num_agents
    for index, action in enumerate(test["actions"]):
        if index % n == 0:
            raw = worker.call(
                Decide(*server.begin(state)), deadline=deadline(), serve=server.serve,
                notice=server.notice,
            )  # fmt: skip
            got = len(server.generated)
            answer = _answer(raw)
            accepted = test["moves"][turn]
            if not any(answer in best and got == count for best, count in accepted):
                best, count = min(accepted, key=lambda a: abs(a[1] - got))
                return False, (
                    f"move {turn + 1}: expected {' or '.join(best)} with {count} distinct "
                    f"states, got {answer if answer else repr(raw)} with {got}"
                )
            turn += 1
        state = state.successor(index % n, action)
    return True, f"all {turn} moves right"


def _games(test: dict[str, Any], worker: SandboxProcess) -> tuple[float, str]:
    layout = Layout.from_text(test["layout_text"], name=test["layout"])
    end = time.monotonic() + test["seconds"]
    scores, wins = [], 0
    for game in range(test["num_games"]):
        seed = derive_seed(test["seed"], "game", game)
        worker.send(SetLayout(layout.name, layout.to_text()))
        worker.send(Seed(global_seed(seed)))
        worker.call(
            MakeAgent("student", test["agent"], test["depth"], test["evaluation"]),
            deadline=min(end, time.monotonic() + test["move_seconds"]),
        )
        start = GameState.initial(layout, test["num_ghosts"])
        agents: list[Any] = [RemoteAgent(worker, test["move_seconds"], end)]
        ghost = _GHOSTS[test["ghosts"]]
        for i in range(1, start.num_agents):
            agents.append(ghost(i, random.Random(derive_seed(seed, "agent", i))))
        try:
            record = run_game(start, agents, seed=seed, should_stop=lambda: time.monotonic() >= end)
        except AgentCrashError as exc:
            if isinstance(exc.__cause__, StudentError | WorkerLost):
                raise exc.__cause__ from None
            raise
        scores.append(record.final_score)
        wins += record.outcome == "win"
    average = sum(scores) / len(scores)
    points = sum(average >= t for t in test["score_thresholds"])
    points += sum(wins >= t for t in test["wins_thresholds"])
    points += sum(len(scores) >= t for t in test["non_timeout_thresholds"])
    if test.get("wins_minimum") is not None and wins < test["wins_minimum"]:
        points = 0
    return float(points), f"{wins}/{len(scores)} wins, average score {average:.1f}"


def grade(path: Path, questions: Sequence[str] = (), *, out: Any = None) -> float:
    """Grade ``path`` on the public tests, print a line per test; return the points."""
    out = out if out is not None else sys.stdout
    data = json.loads(CASES.read_text(encoding="utf-8"))
    if data.get("format") != PUBLIC_FORMAT:
        raise ValueError(f"{CASES}: not the public cases of this handout")
    total = available = 0.0
    worker = SandboxProcess(path)
    try:
        for question in data["questions"]:
            if questions and question["name"] not in questions:
                continue
            results = []
            for test in question["tests"]:
                try:
                    worker.ensure()
                    worker.clear_output()
                    if test["kind"] == "tree":
                        ok, why = _tree(test, worker)
                        got = float(ok)
                    elif test["kind"] == "trace":
                        ok, why = _trace(test, worker)
                        got = float(ok)
                    else:
                        got, why = _games(test, worker)
                        ok = got == test["points"]
                except StudentError as exc:
                    ok, got, why = False, 0.0, f"your code raised {exc.describe()}"
                except WorkerLost as exc:
                    ok, got, why = False, 0.0, f"{exc.detail}{exc.stuck_at()}"
                results.append((test, ok, got))
                if not test.get("advice"):
                    mark = "PASS" if ok else "FAIL"
                    print(f"  {mark:5} {test['name']:40} {why}", file=out)
            graded = [(t, ok, got) for t, ok, got in results if not t.get("advice")]
            if question["all_or_nothing"]:
                points = question["points"] if all(ok for _, ok, _ in graded) else 0.0
            else:
                points = min(question["points"], sum(got for _, _, got in graded))
            total += points
            available += question["points"]
            print(f"{question['name']}: {points:g}/{question['points']:g}\n", file=out)
    finally:
        worker.close()
    print(f"Total: {total:g}/{available:g} (public tests; the course grades more)", file=out)
    return total


def main(argv: Sequence[str] | None = None) -> int:
    """Run the public grader; the exit status is 0 when grading ran."""
    parser = argparse.ArgumentParser(
        prog="autograder", description="Grade multi_agents.py on the public tests."
    )
    parser.add_argument("file", nargs="?", default=None, help="the file (default: here)")
    parser.add_argument("-q", "--question", action="append", default=[], help="q1..q5")
    args = parser.parse_args(argv)
    path = (
        Path(args.file)
        if args.file
        else next((Path(n) for n in STUDENT_FILES if Path(n).is_file()), Path(STUDENT_FILES[0]))
    )
    if not path.is_file():
        print(f"autograder: error: {path}: no such file", file=sys.stderr)
        return 1
    grade(path, args.question)
    return 0
