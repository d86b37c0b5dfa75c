"""Play pacman/Pacman-v0 yourself with the arrow keys (or WASD), via gymnasium.utils.play.

Usage: python examples/play_keyboard.py [--layout NAME] [--zoom Z] [--fps F]

Hold a key to keep moving; with no key pressed Pacman stops. A new game starts when one
ends; close the window or press Escape to quit. Needs a display.
"""

from __future__ import annotations

import argparse
import warnings

import gymnasium as gym
import pygame

import pacman  # noqa: F401  (registers pacman/Pacman-v0)
from pacman.core.errors import RenderingUnavailableError
from pacman.render.window import require_visible_display

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # play() warns on import that matplotlib is missing
    from gymnasium.utils.play import play

# Action indices of the env: 0 West, 1 Stop, 2 East, 3 North, 4 South.
KEYS_TO_ACTION = {
    (pygame.K_LEFT,): 0,
    (pygame.K_a,): 0,
    (pygame.K_RIGHT,): 2,
    (pygame.K_d,): 2,
    (pygame.K_UP,): 3,
    (pygame.K_w,): 3,
    (pygame.K_DOWN,): 4,
    (pygame.K_s,): 4,
}
STOP = 1


def main() -> None:
    """Open the window and play until it is closed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--layout", default="mediumClassic")
    parser.add_argument("--zoom", type=float, default=1.0)
    parser.add_argument("--fps", type=int, default=6)
    args = parser.parse_args()
    try:
        require_visible_display()
    except RenderingUnavailableError as exc:
        raise SystemExit(f"play_keyboard.py: this example needs a display: {exc}") from None
    env = gym.make("pacman/Pacman-v0", layout=args.layout, render_mode="rgb_array")
    # Illegal moves (into a wall) are played as Stop, so any key is safe to press.
    play(env, keys_to_action=KEYS_TO_ACTION, noop=STOP, fps=args.fps, zoom=args.zoom, seed=0)


if __name__ == "__main__":
    main()
