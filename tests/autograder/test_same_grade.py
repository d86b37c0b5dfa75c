"""Same file, same grade: every test and game starts from a seed fixed by the test.

A submission that draws from `random` (or NumPy's global generator) gets the same grade,
test by test, on every run and with any number of workers (SPEC section 6).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from autograder.cli import main

# A full minimax search that then plays a random action half of the time: right or
# wrong by chance, test by test.
GAMBLER = """
    import random

    import numpy

    from autograder.sandbox.student import MultiAgentSearchAgent


    class MinimaxAgent(MultiAgentSearchAgent):
        def get_action(self, state):
            n = state.num_agents

            def value(s, agent, depth):
                if s.is_terminal() or (agent == 0 and depth == self.depth):
                    return self.evaluate(s)
                nxt, nd = (agent + 1, depth) if agent + 1 < n else (0, depth + 1)
                vals = [value(s.successor(agent, a), nxt, nd) for a in s.legal_actions(agent)]
                return max(vals) if agent == 0 else min(vals)

            actions = list(state.legal_actions(0))
            nxt, nd = (1, 0) if n > 1 else (0, 1)
            vals = [value(state.successor(0, a), nxt, nd) for a in actions]
            if numpy.random.random() < 0.5:
                return random.choice(actions)
            return actions[vals.index(max(vals))]
"""


def verdicts(tmp_path: Path, file: Path, jobs: int, run: int) -> dict[str, str]:
    out = tmp_path / f"report-{jobs}-{run}.json"
    args = [str(file), "-q", "q2", "-j", str(jobs), "--format", "json", "--output", str(out)]
    assert main(args) == 0
    report = json.loads(out.read_text())
    return {t["name"]: t["status"] for q in report["questions"] for t in q["tests"]}


@pytest.mark.parametrize(("jobs", "runs"), [(1, 4), (2, 3), (4, 3)])
def test_a_random_file_gets_the_same_verdicts_on_every_run(
    tmp_path: Path, jobs: int, runs: int
) -> None:
    file = tmp_path / "multi_agents.py"
    file.write_text(textwrap.dedent(GAMBLER))
    first = verdicts(tmp_path, file, 1, -1)
    assert set(first.values()) >= {"passed", "failed"}  # it does depend on its draws
    for run in range(runs):
        assert verdicts(tmp_path, file, jobs, run) == first
