"""Scoring constants and timing rules of the classic game (SPEC §4)."""

from __future__ import annotations

from typing import Final

__all__ = [
    "COLLISION_TOLERANCE",
    "SCARED_TIME",
    "SCORE_EAT_GHOST",
    "SCORE_FOOD",
    "SCORE_LOSE",
    "SCORE_WIN",
    "TIME_PENALTY",
]

SCORE_FOOD: Final = 10
"""Points for eating one food dot."""
SCORE_WIN: Final = 500
"""Bonus for eating the last food dot."""
SCORE_EAT_GHOST: Final = 200
"""Points for eating a scared ghost."""
SCORE_LOSE: Final = -500
"""Score change when a ghost catches Pacman."""
TIME_PENALTY: Final = 1
"""Points lost on every Pacman move."""
SCARED_TIME: Final = 40
"""Ghost moves a capsule keeps every ghost scared for."""
COLLISION_TOLERANCE: Final = 0.7
"""Pacman and a ghost collide when their Manhattan distance is at most this."""
