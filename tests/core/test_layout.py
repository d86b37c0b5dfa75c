"""Layouts: the shipped files, the text format (SPEC §2) and located errors."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from pacman import GameState, Layout, LayoutError, layout_names, load_layout
from pacman.core.layout import MAX_LAYOUT_BYTES, MAX_LAYOUT_CELLS
from pacman.core.types import Direction

SHIPPED = [
    "capsuleClassic",
    "contestClassic",
    "mediumClassic",
    "minimaxClassic",
    "openClassic",
    "originalClassic",
    "powerClassic",
    "smallClassic",
    "testClassic",
    "trappedClassic",
    "trickyClassic",
]
LAYOUT_DIR = Path(__file__).resolve().parents[2] / "layouts"


def test_the_eleven_classic_layouts_are_shipped() -> None:
    assert layout_names() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_layout_loads_by_name_and_path_from_any_directory(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # nowhere near the package
    by_name = load_layout(name)
    assert by_name.name == name
    assert load_layout(f"{name}.lay") == by_name
    assert load_layout(LAYOUT_DIR / f"{name}.lay") == by_name
    assert load_layout(str(LAYOUT_DIR / f"{name}.lay")) == by_name
    # A relative path is read relative to the working directory.
    (tmp_path / "copy.lay").write_text((LAYOUT_DIR / f"{name}.lay").read_text())
    assert load_layout("copy.lay") == by_name
    assert load_layout("copy.lay").name == "copy"
    assert GameState.initial(name).num_ghosts == by_name.num_ghosts


# name -> (width, height, Pacman, ghosts, food, capsules), counted by hand from the files.
SHAPES = {
    "mediumClassic": (20, 11, (9, 1), ((8, 5), (11, 5)), 97, 2),
    "smallClassic": (20, 7, (9, 1), ((8, 5), (11, 5)), 55, 2),
    # Ghost order (1, 1), (5, 2), (7, 3): all key 1, so by x even though y decreases.
    "minimaxClassic": (9, 5, (2, 3), ((1, 1), (5, 2), (7, 3)), 2, 0),
    "testClassic": (5, 10, (1, 1), ((2, 7),), 8, 0),
    "trappedClassic": (8, 5, (4, 3), ((1, 2), (6, 3)), 4, 0),
}


@pytest.mark.parametrize(("name", "shape"), SHAPES.items())
def test_shipped_layout_contents(name: str, shape: tuple[object, ...]) -> None:
    lay = load_layout(name)
    got = (
        lay.width,
        lay.height,
        lay.pacman_start,
        lay.ghost_starts,
        len(lay.food),
        len(lay.capsules),
    )
    assert got == shape


COORDS = """
%%%%%%
%P. o%
%.%G %
%%%%%%
"""


def test_coordinates_count_y_from_the_bottom() -> None:
    lay = Layout.from_text(COORDS)
    assert (lay.width, lay.height) == (6, 4)
    assert lay.pacman_start == (1, 2)  # second text line = second row from the top
    assert lay.ghost_starts == ((3, 1),)
    assert sorted(lay.food) == [(1, 1), (2, 2)]
    assert lay.capsules == ((4, 2),)
    assert lay.is_wall(0, 0)
    assert lay.is_wall(2, 1)
    assert not lay.is_wall(3, 1)
    assert lay.is_wall(-1, 0)  # off the board counts as wall
    assert (2, 1) in lay.walls
    assert len(lay.walls) == 6 * 4 - 7


def test_surrounding_white_space_is_stripped() -> None:
    padded = "\n".join(f"  {row}   \t" for row in COORDS.strip().splitlines()) + "\n\n"
    lay = Layout.from_text(padded)
    assert lay == Layout.from_text(COORDS)
    assert lay.rows == tuple(COORDS.strip().splitlines())


def test_minimax_classic_carries_trailing_spaces() -> None:
    raw = (LAYOUT_DIR / "minimaxClassic.lay").read_text()
    assert any(line != line.rstrip() for line in raw.splitlines())
    assert all(len(row) == 9 for row in load_layout("minimaxClassic").rows)


def test_round_trip_through_text_and_pickle() -> None:
    lay = load_layout("mediumClassic")
    assert Layout.from_text(lay.to_text()) == lay
    copy = pickle.loads(pickle.dumps(lay))
    assert copy == lay
    assert copy.name == lay.name
    assert len(pickle.dumps(GameState.initial(lay))) < 2000  # tables are not pickled


BAD = [
    # (name, content, expected "line:col: message" after the file name)
    ("unknown character", "%%%%%\n%P.x%\n%%%%%\n", "2:4: unknown tile 'x'"),
    ("unknown character after indentation", "%%%%%\n  %Px.%\n%%%%%\n", "2:5: unknown tile 'x'"),
    ("tab inside a row", "%%%%%\n%P\t.%\n%%%%%\n", "2:3: unknown tile '\\t'"),
    ("ragged row, short", "%%%%%\n%P.%\n%%%%%\n", "2:5: ragged row of width 4; line 1 has width 5"),
    ("ragged row, long", "%%%%\n%P.%%\n%%%%\n", "2:5: ragged row of width 5; line 1 has width 4"),
    ("no Pacman", "%%%%%\n%..G%\n%%%%%\n", "1:1: no Pacman start 'P'"),
    ("two Pacmen", "%%%%%\n%P.P%\n%%%%%\n", "2:4: second Pacman start 'P'"),
    ("open border, east", "%%%%%\n%P...\n%%%%%\n", "2:5: border cell is '.'"),
    ("open border, west", "%%%%%\n.P..%\n%%%%%\n", "2:1: border cell is '.'"),
    # A blank where the west wall should be is stripped away: the row comes out short.
    ("blank west border", "%%%%%\n P..%\n%%%%%\n", "2:6: ragged row of width 4; line 1"),
    ("open border, top", "%%.%%\n%P..%\n%%%%%\n", "1:3: border cell is '.'"),
    ("open border, bottom", "%%%%%\n%P..%\n%%G%%\n", "3:3: border cell is 'G'"),
    ("empty file", "", "1:1: empty layout"),
    ("only white space", "\n   \n\n", "1:1: empty layout"),
    ("walled-in ghost", "%%%%%\n%P%G%\n%%%%%\n", "2:4: ghost 1 at (3, 1) is walled in"),
    ("leading blank lines keep line numbers", "\n\n%%%%%\n%P.x%\n%%%%%\n", "4:4: unknown tile"),
]


@pytest.mark.parametrize(("content", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_layout_names_file_line_and_column(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.lay"
    path.write_text(content)
    with pytest.raises(LayoutError) as info:
        load_layout(path)
    text = str(info.value)
    assert text.startswith(f"{path}:{message}")
    assert "\n" not in text
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: ", text)
    assert isinstance(info.value, ValueError)
    # The same text without a file names its source instead.
    with pytest.raises(LayoutError, match=rf"^inline:{re.escape(message)}"):
        Layout.from_text(content, name="inline")


def test_unknown_name_lists_the_shipped_layouts() -> None:
    with pytest.raises(LayoutError, match=r"^mediumClasic: no such layout.*mediumClassic"):
        load_layout("mediumClasic")


def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "binary.lay"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(LayoutError, match=rf"^{re.escape(str(path))}: cannot read layout file"):
        load_layout(path)


def _open_board(width: int, height: int) -> str:
    inner = "%" + "." * (width - 2) + "%"
    rows = ["%" * width, "%P" + "." * (width - 3) + "%", *[inner] * (height - 3), "%" * width]
    return "\n".join(rows)


@pytest.mark.parametrize(
    ("width", "height"),
    [(400, 400), (MAX_LAYOUT_CELLS + 1, 3), (3, MAX_LAYOUT_CELLS + 1), (65, 64)],
)
def test_a_board_over_the_cell_limit_is_refused_with_its_place(width: int, height: int) -> None:
    with pytest.raises(LayoutError, match=r"^big:\d+:1: layout too large"):
        Layout.from_text(_open_board(width, height), name="big")


def test_a_board_at_the_cell_limit_loads_and_plays() -> None:
    layout = Layout.from_text(_open_board(64, 64), name="edge")
    state = GameState.initial(layout)
    assert state.successor(0, Direction.EAST).score == -1 + 10


def test_a_huge_layout_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.lay"
    path.write_bytes(b"%" * (MAX_LAYOUT_BYTES + 10))
    with pytest.raises(LayoutError, match=r"huge\.lay: layout file too large"):
        Layout.from_file(path)


def test_distance_tables_stay_within_their_budget() -> None:
    layout = Layout.from_text(_open_board(64, 64), name="edge")
    nav = layout.nav
    cells = [(x, y) for x in range(1, 63) for y in range(1, 63)]
    for cell in cells[:400]:
        assert layout.maze_distance(cell, (62, 62)) == abs(62 - cell[0]) + abs(62 - cell[1])
    assert 0 < len(nav._dist) <= nav._max_tables < 400
