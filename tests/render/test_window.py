from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pacman import GameState
from pacman.cli import main
from pacman.core.errors import RenderingUnavailableError
from pacman.core.game import GameRecord
from pacman.core.layout import load_layout
from pacman.core.types import Direction
from pacman.render.frame import PACMAN_COLOR
from pacman.render.keyboard import KeyboardAgent
from pacman.render.window import PygameWindow, display_problem

pg = pytest.importorskip("pygame")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the command open its window on the dummy driver (it shows text otherwise)."""
    monkeypatch.setattr("pacman.render.window.INVISIBLE_DRIVERS", frozenset())


@pytest.fixture
def window() -> PygameWindow:
    win = PygameWindow(frame_time=0.0)
    yield win
    win.close()


def press(key: int) -> None:
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def test_show_draws_the_state_like_the_renderer() -> None:
    state = GameState.initial("smallClassic")
    win = PygameWindow(state.layout, zoom=0.5, fps=0)
    try:
        win.show(state)
        shot = win.screenshot()
        renderer = win.renderer
        assert renderer is not None
        assert shot.get_size() == renderer.size
        x, y = state.pacman_position
        c = renderer.cell_size
        px = int(x * c + c / 2)
        py = int((state.height - 1 - y) * c + c / 2)
        assert tuple(shot.get_at((px, py)))[:3] == PACMAN_COLOR
    finally:
        win.close()
    assert win.is_closed
    win.close()  # twice is fine


def test_quit_key_stops_the_game(window: PygameWindow) -> None:
    window.start(GameState.initial("testClassic"))
    assert not window.should_stop()
    press(pg.K_q)
    assert window.should_stop()


def test_escape_and_close_button_stop_the_game(window: PygameWindow) -> None:
    window.start(GameState.initial("testClassic"))
    pg.event.post(pg.event.Event(pg.QUIT))
    assert window.should_stop()


def test_pause_and_single_step(window: PygameWindow) -> None:
    state = GameState.initial("testClassic")
    window.start(state)
    press(pg.K_SPACE)
    press(pg.K_n)
    assert not window.should_stop()  # paused, but one step was asked for
    assert window.paused
    press(pg.K_RIGHT)  # right arrow steps too while paused
    assert not window.should_stop()
    press(pg.K_SPACE)
    assert not window.should_stop()
    assert not window.paused


@pytest.mark.parametrize(
    ("key", "faster"), [("K_PLUS", True), ("K_EQUALS", True), ("K_MINUS", False)]
)
def test_speed_keys(key: str, faster: bool) -> None:
    win = PygameWindow(frame_time=0.1)
    try:
        win.start(GameState.initial("testClassic"))
        press(getattr(pg, key))
        win.poll()
        assert (win.frame_time < 0.1) is faster
        assert win.frame_time > 0
    finally:
        win.close()


@pytest.mark.parametrize(
    ("key", "direction"),
    [
        ("K_LEFT", Direction.WEST),
        ("K_a", Direction.WEST),
        ("K_RIGHT", Direction.EAST),
        ("K_d", Direction.EAST),
        ("K_UP", Direction.NORTH),
        ("K_w", Direction.NORTH),
        ("K_DOWN", Direction.SOUTH),
        ("K_s", Direction.SOUTH),
    ],
)
def test_arrows_and_wasd_steer_the_keyboard_agent(
    window: PygameWindow, key: str, direction: Direction
) -> None:
    agent = KeyboardAgent()
    window.attach([agent])
    window.start(GameState.initial("mediumClassic"))
    press(getattr(pg, key))
    window.poll()
    assert agent.wanted is direction


def test_keyboard_agent_keeps_going_until_a_turn_is_possible(window: PygameWindow) -> None:
    agent = KeyboardAgent()
    window.attach([agent])
    state = GameState.initial("mediumClassic")
    window.start(state)
    assert agent.get_action(state) is Direction.STOP  # waits for a key
    press(pg.K_LEFT)
    assert agent.get_action(state) is Direction.WEST
    state = state.successor(0, Direction.WEST)
    press(pg.K_UP)  # wall above: the wish is kept, Pacman keeps going West
    assert agent.get_action(state) is Direction.WEST
    state = state.successor(0, Direction.WEST)
    assert agent.get_action(state) is Direction.WEST
    # At (6, 1) the way north opens: the buffered turn is taken.
    state = state.successor(0, Direction.WEST)
    assert state.pacman_position == (6, 1)
    assert Direction.NORTH in state.legal_actions(0)
    assert agent.get_action(state) is Direction.NORTH


def test_keyboard_agent_without_window_says_what_is_wrong() -> None:
    with pytest.raises(RenderingUnavailableError, match="needs the pygame window"):
        KeyboardAgent().get_action(GameState.initial("testClassic"))


def test_overlay_collects_search_cells(window: PygameWindow) -> None:
    from agents.players import AlphaBetaAgent

    window.overlay = True
    agent = AlphaBetaAgent(depth=1)
    window.attach([agent])
    state = GameState.initial("smallClassic")
    window.start(state)
    action = agent.get_action(state)
    after = state.successor(0, action)
    window.update(state, 0, action, after)
    assert agent.last_result is not None
    assert window._generated == agent.last_result.generated > 0
    assert state.pacman_position not in window._shown_cells or len(window._shown_cells) > 1
    assert window._shown_cells  # Pacman's cells after each of its moves


@pytest.mark.parametrize(
    ("environ", "platform", "expected"),
    [
        ({}, "linux", "DISPLAY is not set"),
        ({"DISPLAY": ":0"}, "linux", None),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", None),
        ({"SDL_VIDEODRIVER": "dummy"}, "linux", None),
        ({}, "win32", None),
        ({}, "darwin", None),
    ],
)
def test_display_problem(environ: dict[str, str], platform: str, expected: str | None) -> None:
    assert display_problem(environ, platform) == expected


def test_pacman_command_plays_in_the_window(
    cli_window: None, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(
        [
            "-l",
            "smallClassic",
            "-p",
            "GreedyAgent",
            "--seed",
            "2",
            "--frame-time",
            "0",
            "--max-turns",
            "15",
            "--overlay",
            "--zoom",
            "0.5",
        ]
    )
    out, err = capsys.readouterr()
    assert status == 0
    assert "no window" not in err
    assert "Turn limit reached" in out or "Pacman" in out
    assert "%%%%" not in out  # not the text fallback


def test_quit_key_ends_the_run_with_the_summary(
    cli_window: None, capsys: pytest.CaptureFixture[str]
) -> None:
    pg.display.init()
    press(pg.K_q)  # queued before the game starts; read at the first poll
    status = main(["-l", "smallClassic", "-p", "GreedyAgent", "--seed", "2", "--frame-time", "0"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert "Game stopped" in out
    assert "Average Score" in out


def test_dummy_driver_makes_the_command_show_text(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["-l", "testClassic", "-p", "GreedyAgent", "--frame-time", "0", "--seed", "1"])
    out, err = capsys.readouterr()
    assert status == 0
    assert (
        err.strip()
        == "pacman: no window (SDL_VIDEODRIVER=dummy shows no window); showing the game as text"
    )
    assert "%%%%" in out


def test_without_a_display_the_command_falls_back_to_text() -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    }
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pacman",
            "-l",
            "testClassic",
            "-p",
            "GreedyAgent",
            "--frame-time",
            "0",
            "--seed",
            "1",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stderr.strip().splitlines() == [
        "pacman: no window (DISPLAY is not set); showing the game as text"
    ]
    assert "%%%%" in out.stdout
    assert "Average Score" in out.stdout


def test_replay_plays_back_in_the_window(
    cli_window: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.json"
    assert (
        main(
            [
                "-l",
                "smallClassic",
                "-p",
                "GreedyAgent",
                "--seed",
                "4",
                "-q",
                "--max-turns",
                "10",
                "--record",
                str(game),
            ]
        )
        == 0
    )
    capsys.readouterr()
    record = GameRecord.load(game)
    assert main(["--replay", str(game), "--frame-time", "0"]) == 0
    out, err = capsys.readouterr()
    assert "no window" not in err
    assert f"Score: {record.final_score}" in out


def test_window_rejects_a_bad_zoom() -> None:
    with pytest.raises(ValueError, match="zoom"):
        PygameWindow(zoom=0)


def test_window_fits_big_boards_on_the_screen(window: PygameWindow) -> None:
    layout = load_layout("originalClassic")
    window.show(GameState.initial(layout))
    w, h = pg.display.get_desktop_sizes()[0]
    assert window.renderer is not None
    rw, rh = window.renderer.size
    assert rw <= w
    assert rh <= h


def test_a_display_that_does_not_answer_counts_as_none() -> None:
    # DISPLAY names a server that is not there: SDL would quietly fall back to its
    # offscreen driver and the game would play unseen; the command must show text instead.
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = ":97"
    proc = subprocess.run(
        [sys.executable, "-m", "pacman", "-l", "testClassic", "-p", "GreedyAgent",
         "--frame-time", "0", "--seed", "1"],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "no usable display (display ':97' did not answer" in proc.stderr
    assert "showing the game as text" in proc.stderr
    assert "%%%" in proc.stdout  # the text board


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        (["K_PLUS"], "speed x1.5"),
        (["K_PLUS", "K_PLUS"], "speed x2.25"),
        (["K_MINUS"], "speed x0.67"),
        (["K_MINUS"] * 20, "speed x0.05 (slowest)"),
        (["K_EQUALS"] * 30, "speed x20 (fastest)"),
    ],
)
def test_speed_keys_say_the_new_speed(keys: list[str], message: str) -> None:
    win = PygameWindow(frame_time=0.1)
    try:
        win.start(GameState.initial("testClassic"))
        for key in keys:
            press(getattr(pg, key))
        win.poll()
        assert win.messages()[-1] == message
    finally:
        win.close()


def test_first_game_shows_the_key_hint_once(window: PygameWindow) -> None:
    window.start(GameState.initial("testClassic"))
    assert window.messages() == ["? for keys"]
    window._message_until = 0.0  # the hint has timed out
    window.start(GameState.initial("testClassic"))
    assert window.messages() == []


@pytest.mark.parametrize("key", ["K_h", "K_QUESTION", "K_SLASH"])
def test_help_key_toggles_the_key_list(window: PygameWindow, key: str) -> None:
    state = GameState.initial("minimaxClassic")  # a low board: the list still fits
    window.start(state)
    before = window.screenshot()
    press(getattr(pg, key))
    window.poll()
    assert window.help_shown
    window.show(state)
    shown = window.screenshot()
    assert any("pause" in line for line in window.messages())
    assert pg.image.tobytes(shown, "RGB") != pg.image.tobytes(before, "RGB")
    press(getattr(pg, key))
    window.poll()
    assert not window.help_shown


def test_a_lost_game_ends_with_pacman_gone() -> None:
    import random

    import numpy as np

    from pacman.core.game import run_game

    rng = random.Random(3)

    class _Wanderer:
        def __init__(self, index: int) -> None:
            self.index = index

        def get_action(self, state: GameState) -> str:
            return str(rng.choice(state.legal_actions(self.index)))

    state = GameState.initial("trappedClassic")
    win = PygameWindow(frame_time=0.01)
    try:
        win.start(state)
        record = None
        while record is None or record.outcome != "lose":
            record = run_game(state, [_Wanderer(i) for i in range(3)], on_step=win.update)
        win.finish(state, record)
        shot = pg.image.tobytes(win.screenshot(), "RGB")
        pixels = np.frombuffer(shot, dtype=np.uint8).reshape(-1, 3)
        assert not np.all(pixels == PACMAN_COLOR, axis=1).any()
    finally:
        win.close()
