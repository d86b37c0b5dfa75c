"""The text display: redrawn in place on a terminal, scrolling into a pipe."""

from __future__ import annotations

import io
import random

import pytest

from pacman.core.game import run_game
from pacman.core.state import GameState
from pacman.core.types import Direction
from pacman.render.text import CLEAR_SCREEN, CURSOR_HOME, TextDisplay, render_text


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _FirstLegal:
    def get_action(self, state: GameState) -> str:
        return str(state.legal_actions(0)[-1])


class _RandomGhost:
    def __init__(self, index: int) -> None:
        self.index = index
        self.rng = random.Random(index)

    def get_action(self, state: GameState) -> str:
        return str(self.rng.choice(state.legal_actions(self.index)))


def _play(stream: io.StringIO) -> GameState:
    display = TextDisplay(0.0, stream)
    state = GameState.initial("smallClassic")
    display.start(state)
    last = [state]

    def on_step(before: GameState, agent: int, action: object, after: GameState) -> None:
        last[0] = after
        display.update(before, agent, action, after)  # type: ignore[arg-type]

    run_game(state, [_FirstLegal(), _RandomGhost(1), _RandomGhost(2)], on_step=on_step, max_turns=6)
    return last[0]


def test_on_a_terminal_each_board_is_drawn_over_the_last() -> None:
    out = _Terminal()
    final = _play(out)
    text = out.getvalue()
    assert text.startswith(CLEAR_SCREEN)
    assert text.count(CURSOR_HOME) == 6 + 1  # six turns, plus the clear at the start
    assert text.rstrip().endswith(render_text(final).splitlines()[-1] + "\x1b[J")


@pytest.mark.parametrize("stream", [io.StringIO(), _Terminal()])
def test_into_a_pipe_boards_scroll_without_escapes(stream: io.StringIO) -> None:
    display = TextDisplay(0.0, stream, in_place=False if isinstance(stream, _Terminal) else None)
    display.start(GameState.initial("smallClassic"))
    text = stream.getvalue()
    assert "\x1b" not in text
    assert text == render_text(GameState.initial("smallClassic")) + "\n"
    assert display.in_place is False


def test_a_header_stays_above_the_board_on_a_terminal() -> None:
    out = _Terminal()
    display = TextDisplay(0.0, out, header="pacman: no window (why); showing the game as text")
    state = GameState.initial("smallClassic")
    display.start(state)
    display.update(state, state.num_agents - 1, Direction.STOP, state)
    frames = out.getvalue().split(CURSOR_HOME)[1:]
    assert len(frames) == 2
    for frame in frames:
        assert frame.removeprefix("\x1b[2J").startswith("pacman: no window (why)")
