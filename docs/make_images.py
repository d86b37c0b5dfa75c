"""Regenerate the README images with the project itself: ``python docs/make_images.py``.

``docs/window.png`` is a screenshot of the pygame window (search overlay on) taken with
SDL's dummy video driver; ``docs/pacman.gif`` is an exported replay.
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from agents.players import AlphaBetaAgent, DirectionalGhost
from pacman.cli import main
from pacman.core.game import run_game
from pacman.core.state import GameState
from pacman.render.frame import import_pygame
from pacman.render.window import PygameWindow

DOCS = Path(__file__).resolve().parent


def window_screenshot(path: Path, turns: int = 14) -> None:
    """Play ``turns`` turns of depth-3 alpha-beta in the window and save what it shows."""
    state = GameState.initial("mediumClassic")
    agents = [AlphaBetaAgent(depth=3)]
    agents += [DirectionalGhost(i, random.Random(i)) for i in (1, 2)]
    window = PygameWindow(frame_time=0.0, overlay=True)
    window.attach(agents)
    window.start(state)
    run_game(state, agents, max_turns=turns, on_step=window.update)
    import_pygame().image.save(window.screenshot(), str(path))
    window.close()


if __name__ == "__main__":
    window_screenshot(DOCS / "window.png")
    with tempfile.TemporaryDirectory() as tmp:
        record = str(Path(tmp) / "game.json")
        main(
            [
                "-l",
                "mediumClassic",
                "-p",
                "AlphaBetaAgent",
                "-a",
                "depth=2",
                "--seed",
                "3",
                "-q",
                "--max-turns",
                "90",
                "--record",
                record,
            ]
        )
        main(["--replay", record, "--export", str(DOCS / "pacman.gif"), "--zoom", "0.75"])
