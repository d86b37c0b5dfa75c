from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADLESS = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def run(code_or_script: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *code_or_script],
        cwd=ROOT,
        env=HEADLESS,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


def test_random_policy_example_prints_episode_statistics() -> None:
    out = run(["examples/random_policy.py", "--episodes", "2", "--layout", "smallClassic"])
    lines = out.stdout.splitlines()
    assert lines[0].startswith("episode 1: return ")
    assert lines[1].startswith("episode 2: return ")
    assert lines[2].startswith("mean return over 2 episodes: ")


def test_keyboard_example_plays_until_the_window_closes() -> None:
    # A timer posts QUIT after a few frames, as closing the window would.
    code = (
        "import runpy, sys, pygame\n"
        "pygame.init()\n"
        "pygame.time.set_timer(pygame.QUIT, 300, loops=1)\n"
        "sys.argv = ['play_keyboard.py', '--layout', 'testClassic']\n"
        "runpy.run_path('examples/play_keyboard.py', run_name='__main__')\n"
        "print('closed')\n"
    )
    assert run(["-c", code]).stdout.strip().endswith("closed")


def test_keyboard_example_maps_keys_to_the_documented_actions() -> None:
    code = (
        "import runpy\n"
        "ns = runpy.run_path('examples/play_keyboard.py')\n"
        "from pacman.envs.encoding import ACTION_NAMES\n"
        "import pygame\n"
        "print(ACTION_NAMES[ns['KEYS_TO_ACTION'][(pygame.K_UP,)]],"
        " ACTION_NAMES[ns['KEYS_TO_ACTION'][(pygame.K_LEFT,)]], ACTION_NAMES[ns['STOP']])\n"
    )
    assert run(["-c", code]).stdout.split()[-3:] == ["North", "West", "Stop"]
