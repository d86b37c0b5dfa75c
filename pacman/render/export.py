"""Export a recorded game as an animated GIF, an MP4 video or a single PNG frame.

Frames are drawn one at a time by `FrameRenderer` on one off-screen Surface and
streamed to the encoder, so memory stays flat however long the game is:

- GIF: every frame is mapped onto one fixed palette (the renderer's colours), only the
  rectangle that changed since the previous frame is encoded (Pillow's LZW encoder),
  and the bytes go straight to the file.
- MP4: raw RGB frames are piped to ffmpeg (H.264) through imageio-ffmpeg.
- PNG: one frame, written by pygame.

No display is needed. Frame ``0`` is the start position and frame ``i`` the position
after the ``i``-th move (every agent's move is one frame).
"""

from __future__ import annotations

import importlib
import os
import struct
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from pacman.core.errors import PacmanError
from pacman.core.game import GameRecord, replay
from pacman.core.state import GameState
from pacman.progress import Progress
from pacman.render import frame as _frame
from pacman.render.frame import DEFAULT_CELL_SIZE, FrameRenderer

__all__ = ["EXPORT_FORMATS", "ExportError", "export_game", "frame_palette"]

EXPORT_FORMATS: Final = (".gif", ".mp4", ".png")
"""File suffixes `export_game` can write."""


class ExportError(PacmanError, ValueError):
    """An export cannot be done: unknown format, frame out of range, missing encoder."""


def frame_palette() -> list[tuple[int, int, int]]:
    """The fixed GIF palette: every colour the renderer draws, plus text shading.

    Antialiased text blends its colour with the black background, so a ramp of those
    blends is included; anything else maps to the nearest entry.
    """
    base = [
        _frame.BACKGROUND,
        _frame.WALL_COLOR,
        _frame.FOOD_COLOR,
        _frame.PACMAN_COLOR,
        _frame.SCARED_COLOR,
        _frame.SCARED_FLASH_COLOR,
        _frame.EYE_WHITE,
        _frame.PUPIL_COLOR,
        _frame.SCARED_FACE_COLOR,
        (230, 40, 40),
        *_frame.GHOST_COLORS,
    ]
    r, g, b, a = _frame.OVERLAY_COLOR
    base.append((r * a // 255, g * a // 255, b * a // 255))
    for text in (_frame.TEXT_COLOR, _frame.INFO_COLOR, (255, 255, 255)):
        for level in range(1, 17):
            base.append(tuple(v * level // 16 for v in text))  # type: ignore[arg-type]
    colors: list[tuple[int, int, int]] = []
    for color in base:
        if color not in colors:
            colors.append(color)
    return colors[:256]


def _progress_bar(label: str, total: int, enabled: bool | None) -> Progress:
    """The export's progress bar on stderr.

    ``enabled=None`` shows it only when stderr is a terminal and the export is long
    enough to be worth it.
    """
    if enabled is None:
        enabled = total >= 50 and sys.stderr.isatty()
    return Progress(total, enabled=enabled, unit="frames", label=label)


def export_game(
    game: GameRecord | Sequence[GameState],
    path: str | os.PathLike[str],
    *,
    cell_size: int = DEFAULT_CELL_SIZE,
    frame_time: float = 0.1,
    frame: int | None = None,
    progress: bool | None = None,
) -> int:
    """Write a game as a GIF, MP4 or PNG, chosen by the suffix of ``path``.

    Args:
        game: A game record (replayed to get its states), or the states of one game.
        path: Output file: ``.gif``, ``.mp4`` or ``.png``.
        cell_size: Pixels per board cell.
        frame_time: Seconds each frame is shown (GIF delay; MP4 runs at ``1 / frame_time``
            frames per second).
        frame: For PNG, which frame to write (0 = start, default: the last one).
        progress: Show a progress bar on stderr: ``None`` (default) does so for long
            exports when stderr is a terminal.

    Returns:
        The number of frames written.

    Raises:
        ExportError: On an unknown suffix, a frame out of range, a missing encoder or
            an unwritable file.
        ValueError: If the record cannot be replayed.
    """
    states = list(replay(game)) if isinstance(game, GameRecord) else game
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in EXPORT_FORMATS:
        raise ExportError(
            f"{out}: cannot export to {suffix or 'a file without suffix'!r}; "
            f"use one of {', '.join(EXPORT_FORMATS)}"
        )
    if not states:
        raise ExportError(f"{out}: nothing to export (no states)")
    if not frame_time > 0:
        raise ExportError(f"frame time must be > 0 to export, got {frame_time!r}")
    if frame is not None and suffix != ".png":
        raise ExportError(f"--frame selects one frame of a .png export, not of {suffix}")
    renderer = FrameRenderer(states[0].layout, cell_size=cell_size)
    try:
        if suffix == ".png":
            return _write_png(renderer, states, out, frame)
        bar = _progress_bar(f"exporting {out.name}", len(states), progress)
        frames = _frames(renderer, states, bar)
        write = _write_gif if suffix == ".gif" else _write_mp4
        write(frames, renderer.size, out, frame_time)
        bar.close()
        return len(states)
    except OSError as exc:
        raise ExportError(f"{out}: cannot write: {exc.strerror or exc}") from None


def _require(module: str, package: str, what: str) -> Any:
    """Import an optional encoder module, or say which package to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ExportError(
            f"{what} export needs {package}: pip install 'pacman-multiagent[video]'"
        ) from None


def _frames(renderer: FrameRenderer, states: Sequence[GameState], bar: Progress) -> Iterator[bytes]:
    """Yield each state's frame as packed RGB bytes (turn numbers in the info bar).

    The bar counts a frame once the consumer asks for the frame after, so it counts
    frames encoded, not only drawn.
    """
    n = states[0].num_agents
    for i, state in enumerate(states):
        yield renderer.rgb_bytes(state, turn=(i + n - 1) // n)
        bar.update()


def _write_png(
    renderer: FrameRenderer, states: Sequence[GameState], out: Path, frame: int | None
) -> int:
    last = len(states) - 1
    index = last if frame is None else frame
    if not -len(states) <= index <= last:
        raise ExportError(f"frame {frame} is out of range: this game has frames 0 to {last}")
    index %= len(states)
    n = states[0].num_agents
    surface = renderer.render(states[index], turn=(index + n - 1) // n)
    pg = _frame.import_pygame()
    try:
        pg.image.save(surface, str(out))
    except pg.error as exc:
        raise ExportError(f"{out}: cannot write: {exc}") from None
    return 1


# ---------------------------------------------------------------------- GIF


def _gif_header(width: int, height: int, palette: list[tuple[int, int, int]]) -> bytes:
    """GIF89a header: screen descriptor, global colour table, loop-forever extension."""
    table = bytearray()
    for color in palette:
        table += bytes(color)
    table += bytes(3 * (256 - len(palette)))
    packed = 0x80 | 0x70 | 0x07  # global table, 8-bit colour resolution, 256 entries
    return (
        b"GIF89a"
        + struct.pack("<HHBBB", width, height, packed, 0, 0)
        + bytes(table)
        + b"!\xff\x0bNETSCAPE2.0\x03\x01"
        + struct.pack("<H", 0)
        + b"\x00"
    )


def _write_gif(frames: Iterator[bytes], size: tuple[int, int], out: Path, delay: float) -> None:
    image = _require("PIL.Image", "Pillow", "GIF")
    gif = _require("PIL.GifImagePlugin", "Pillow", "GIF")
    import numpy as np

    width, height = size
    colors = frame_palette()
    palette_image = image.new("P", (1, 1))
    flat = [v for c in colors for v in c]
    palette_image.putpalette(flat + flat[:3] * (256 - len(colors)))
    delay_ms = max(10, round(delay * 1000))
    previous: Any = None
    with open(out, "wb") as fp:
        fp.write(_gif_header(width, height, colors))
        for data in frames:
            rgb = image.frombuffer("RGB", (width, height), data, "raw", "RGB", 0, 1)
            indexed = rgb.quantize(palette=palette_image, dither=image.Dither.NONE)
            pixels = np.frombuffer(data, dtype=np.uint8).reshape(height, width * 3)
            if previous is None:
                box = (0, 0, width, height)
            else:
                box = _changed_box(previous, pixels, width)
            previous = pixels
            x0, y0 = box[0], box[1]
            part = indexed if box == (0, 0, width, height) else indexed.crop(box)
            for chunk in gif.getdata(part, offset=(x0, y0), duration=delay_ms, disposal=1):
                fp.write(chunk)
        fp.write(b";")


def _changed_box(before: Any, after: Any, width: int) -> tuple[int, int, int, int]:
    """The pixel rectangle ``(x0, y0, x1, y1)`` where two RGB frames differ (never empty)."""
    import numpy as np

    diff = before != after
    rows = np.flatnonzero(diff.any(axis=1))
    if rows.size == 0:
        return (0, 0, 1, 1)
    cols = np.flatnonzero(diff[rows[0] : rows[-1] + 1].any(axis=0)) // 3
    return (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)


# ---------------------------------------------------------------------- MP4


def _write_mp4(frames: Iterator[bytes], size: tuple[int, int], out: Path, delay: float) -> None:
    imageio_ffmpeg = _require("imageio_ffmpeg", "imageio-ffmpeg", "MP4")
    width, height = size
    # H.264 in yuv420p needs even sizes: pad with background on the right and bottom.
    pad_w, pad_h = width % 2, height % 2
    writer = imageio_ffmpeg.write_frames(
        str(out),
        (width + pad_w, height + pad_h),
        fps=1.0 / delay,
        codec="libx264",
        pix_fmt_out="yuv420p",
        macro_block_size=1,
        quality=7,
        ffmpeg_log_level="error",
    )
    writer.send(None)
    try:
        for data in frames:
            writer.send(_pad(data, width, height, pad_w, pad_h) if pad_w or pad_h else data)
    finally:
        writer.close()


def _pad(data: bytes, width: int, height: int, pad_w: int, pad_h: int) -> bytes:
    row = width * 3
    out = bytearray()
    extra = bytes(3 * pad_w)
    for y in range(height):
        out += data[y * row : (y + 1) * row] + extra
    out += bytes((width + pad_w) * 3 * pad_h)
    return bytes(out)
