from __future__ import annotations

from pathlib import Path

import pytest

BAD_AGENTS = """
import os
import sys
import time


class Crasher:
    def __init__(self):
        self.moves = 0

    def get_action(self, state):
        self.moves += 1
        if self.moves == 3:
            return 1 / 0
        return state.legal_actions(0)[0]


class Exiter:
    def get_action(self, state):
        sys.exit(4)


class Killer:
    def get_action(self, state):
        os._exit(3)


class Sleeper:
    def get_action(self, state):
        time.sleep(5)
        return state.legal_actions(0)[0]


class Stubborn:
    # swallows the per-move timeout and keeps thinking
    def get_action(self, state):
        while True:
            try:
                time.sleep(10)
            except Exception:
                pass


class Illegal:
    def get_action(self, state):
        return "Up"
"""


@pytest.fixture
def bad_agents(tmp_path: Path) -> Path:
    path = tmp_path / "bad_agents.py"
    path.write_text(BAD_AGENTS)
    return path
