"""The one progress bar: things done, things per second, time left, on one line of stderr.

Batch evaluation counts games with it and video export counts frames. On a terminal the
line is redrawn in place at most ten times a second; into a file or pipe a plain line is
written every ``interval`` seconds instead, so logs stay readable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress", "format_duration"]


def format_duration(seconds: float) -> str:
    """``h:mm:ss`` (or ``m:ss`` under an hour).

    >>> format_duration(75), format_duration(3725)
    ('1:15', '1:02:05')
    """
    s = max(0, round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """Progress of a run of ``total`` things, ``skipped`` of which were already done.

    Args:
        total: Things to do (games in the grid, frames to export).
        skipped: Games found in the results file, not played again.
        stream: Where to draw (default stderr).
        enabled: Draw nothing when false.
        interval: Seconds between lines when ``stream`` is not a terminal.
        unit: What is counted, in the plural (``"games"``, ``"frames"``).
        label: Text before the bar (e.g. ``"exporting game.gif"``).
    """

    def __init__(
        self,
        total: int,
        skipped: int = 0,
        *,
        stream: TextIO | None = None,
        enabled: bool = True,
        interval: float = 10.0,
        unit: str = "games",
        label: str | None = None,
    ) -> None:
        self.unit = unit
        self.label = label
        self.total = total
        self.skipped = skipped
        self.played = 0
        self.failed = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interval = 0.1 if self.tty else interval
        self.start = time.perf_counter()
        self.first: float | None = None
        """When the first game finished (the rate is measured from there)."""
        self._last_draw = -1e9

    def update(self, failed: bool = False) -> None:
        """Count one finished game (frame, ...) and redraw if it is time to."""
        self.played += 1
        self.failed += failed
        now = time.perf_counter()
        if self.first is None:
            self.first = now
        if now - self._last_draw >= self.interval:
            self._draw(now)

    def line(self, now: float | None = None) -> str:
        """The progress text."""
        now = time.perf_counter() if now is None else now
        elapsed = max(now - self.start, 1e-9)
        done = self.skipped + self.played
        # From the first finished game on: start-up (worker processes, Ray) is not play.
        if self.first is not None and self.played >= 2 and now > self.first:
            rate = (self.played - 1) / (now - self.first)
        else:
            rate = self.played / elapsed
        left = self.total - done
        eta = format_duration(left / rate) if rate > 0 else "?"
        width = 24
        filled = width * done // self.total if self.total else width
        bar = "#" * filled + "." * (width - filled)
        text = (
            f"[{bar}] {done}/{self.total} {self.unit}  {rate:.1f} {self.unit}/s  "
            f"{eta} left  {format_duration(elapsed)} elapsed"
        )
        if self.label:
            text = f"{self.label} {text}"
        if self.skipped:
            text += f"  ({self.skipped} from the results file)"
        if self.failed:
            text += f"  {self.failed} failed"
        return text

    def _draw(self, now: float) -> None:
        self._last_draw = now
        if not self.enabled:
            return
        if self.tty:
            self.stream.write("\r\x1b[2K" + self.line(now))
        else:
            self.stream.write(self.line(now) + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Draw the final state and end the line."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if self.tty:
            self.stream.write("\r\x1b[2K" + self.line(now) + "\n")
        else:
            self.stream.write(self.line(now) + "\n")
        self.stream.flush()
