"""Score distributions per configuration as a PNG (needs the optional ``plot`` extra)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from pacman.batch.stats import ConfigStats

__all__ = ["config_label", "plot_scores"]


def config_label(stats: ConfigStats) -> str:
    """A short label for a configuration: ``pacman vs ghosts on layout (k ghosts)``."""
    pacman, ghosts, layout, k = stats.key
    return f"{pacman} vs {ghosts}\non {layout} (k={k})"


def plot_scores(stats: Sequence[ConfigStats], path: str | os.PathLike[str]) -> None:
    """Write a box plot of final scores (with win rates) per configuration to ``path``.

    Raises:
        ImportError: If matplotlib is not installed.
    """
    import matplotlib

    matplotlib.use("Agg")  # files only: never open a window
    import matplotlib.pyplot as plt

    shown = [s for s in stats if s.games]
    height = 1.0 + 0.7 * max(1, len(shown))
    fig, ax = plt.subplots(figsize=(9, height))
    try:
        if shown:
            ax.boxplot(
                [list(s.scores) for s in shown],
                orientation="horizontal",
                tick_labels=[config_label(s) for s in shown],
                showmeans=True,
            )
            ax.invert_yaxis()  # first configuration on top, as in the table
            for i, s in enumerate(shown, 1):
                ax.annotate(
                    f"win {s.wins}/{s.games}",
                    xy=(1.0, i),
                    xycoords=("axes fraction", "data"),
                    xytext=(4, 0),
                    textcoords="offset points",
                    va="center",
                    fontsize=8,
                )
        ax.set_xlabel("final score")
        ax.set_title("Score distribution per configuration")
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        fig.savefig(path, dpi=100)
    finally:
        plt.close(fig)
