from __future__ import annotations

import io

import pytest

from pacman.render.display import Display
from pacman.render.text import NullDisplay, TextDisplay
from pacman.render.window import PygameWindow


@pytest.mark.parametrize("cls", [NullDisplay, TextDisplay, PygameWindow])
def test_every_display_has_every_method_of_the_protocol(cls: type) -> None:
    missing = [
        name
        for name in ("attach", "start", "update", "should_stop", "finish", "close")
        if not callable(getattr(cls, name, None))
    ]
    assert missing == []


@pytest.mark.parametrize("display", [NullDisplay(), TextDisplay(stream=io.StringIO())])
def test_the_text_displays_are_displays(display: object) -> None:
    assert isinstance(display, Display)


def test_an_object_without_attach_is_not_a_display() -> None:
    class Partial:
        def start(self, state: object) -> None: ...

    assert not isinstance(Partial(), Display)
