"""Run a random legal policy on pacman/Pacman-v0 and print episode statistics.

Usage: python examples/random_policy.py [--episodes N] [--layout NAME] [--seed S]

Trains nothing: it shows the env loop, the action mask and Gymnasium's
RecordEpisodeStatistics wrapper, which puts each finished episode's return, length
and time into ``info["episode"]``.
"""

from __future__ import annotations

import argparse
import random

import gymnasium as gym
import numpy as np

import pacman  # noqa: F401  (registers pacman/Pacman-v0)


def main() -> None:
    """Play the episodes and print one line each, then the mean return."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--layout", default="smallClassic")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = gym.wrappers.RecordEpisodeStatistics(gym.make("pacman/Pacman-v0", layout=args.layout))
    rng = random.Random(args.seed)
    returns = []
    _, info = env.reset(seed=args.seed)
    for episode in range(1, args.episodes + 1):
        while True:
            legal = np.flatnonzero(info["action_mask"])  # never empty while the game runs
            _, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
            if terminated or truncated:
                break
        stats = info["episode"]
        outcome = "win" if env.unwrapped.state.is_win() else "lose" if terminated else "cut"
        print(f"episode {episode}: return {stats['r']:.0f}, {stats['l']} steps, {outcome}")
        returns.append(float(stats["r"]))
        _, info = env.reset()
    env.close()
    print(f"mean return over {len(returns)} episodes: {np.mean(returns):.1f}")


if __name__ == "__main__":
    main()
