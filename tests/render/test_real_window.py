"""A real window under Xvfb: start the game, send keys, take a screenshot, check it.

Skipped cleanly where Xvfb or xdotool is not installed (``apt-get install xvfb xdotool``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pacman.render.frame import PACMAN_COLOR, WALL_COLOR

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
    reason="needs Xvfb and xdotool",
)


@pytest.fixture
def xdisplay() -> Iterator[str]:
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as pipe:
            number = pipe.readline().strip()
        if not number:
            pytest.skip("Xvfb did not start")
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def xdotool(display: str, *args: str) -> None:
    subprocess.run(
        ["xdotool", *args], env={**os.environ, "DISPLAY": display}, check=True, timeout=10
    )


def wait_for(predicate: object, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def test_window_plays_pauses_and_quits_on_keys(xdisplay: str) -> None:
    image_grab = pytest.importorskip("PIL.ImageGrab")
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = xdisplay
    game = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pacman",
            "-l",
            "smallClassic",
            "-p",
            "KeyboardAgent",
            "--frame-time",
            "0.05",
            "--seed",
            "1",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:

        def window_shown() -> bool:
            shot = image_grab.grab(xdisplay=xdisplay)
            return shot.getbbox() is not None

        assert wait_for(window_shown, 20), "the window never appeared"
        # No window manager: keys go to the window under the pointer.
        shot = image_grab.grab(xdisplay=xdisplay)
        left, top, right, bottom = shot.getbbox()
        xdotool(xdisplay, "mousemove", str((left + right) // 2), str((top + bottom) // 2))
        xdotool(xdisplay, "key", "Left")
        time.sleep(0.6)
        xdotool(xdisplay, "key", "space")
        time.sleep(0.4)
        shot = image_grab.grab(xdisplay=xdisplay).convert("RGB")
        colours = {c for _, c in shot.getcolors(maxcolors=1 << 16)}
        assert WALL_COLOR in colours
        assert PACMAN_COLOR in colours
        xdotool(xdisplay, "key", "q")
        out, err = game.communicate(timeout=20)
    finally:
        if game.poll() is None:
            game.kill()
            game.communicate()
    assert game.returncode == 0, err
    assert "no window" not in err
    assert "Game stopped" in out
    assert "Average Score" in out
    # Pacman went left: it ate at least one dot before the pause.
    score = int(out.split("Game stopped. Score:")[1].split()[0])
    assert score > 0
