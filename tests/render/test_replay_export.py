from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pacman import GameState
from pacman.cli import main
from pacman.core.game import GameRecord, replay, run_game
from pacman.render.export import ExportError, export_game, frame_palette
from pacman.render.frame import FrameRenderer
from pacman.runner import MatchSpec, build_agents

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "game.json"
    status = main(
        [
            "-l",
            "smallClassic",
            "-p",
            "GreedyAgent",
            "-g",
            "DirectionalGhost",
            "--seed",
            "5",
            "-q",
            "--max-turns",
            "12",
            "--record",
            str(path),
        ]
    )
    assert status == 0
    return path


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_record_and_replay_give_the_same_states_and_scores(seed: int, tmp_path: Path) -> None:
    layout_state = GameState.initial("smallClassic")
    agents = build_agents(MatchSpec(pacman="GreedyAgent"), layout_state.layout, 2, seed)
    seen = [layout_state]
    record = run_game(
        layout_state,
        agents,
        seed=seed,
        max_turns=40,
        on_step=lambda before, agent, action, after: seen.append(after),
    )
    path = tmp_path / "g.json"
    record.save(path)
    loaded = GameRecord.load(path)
    states = list(replay(loaded))
    assert states == seen
    assert [s.score for s in states[1:]] == list(loaded.scores)
    assert loaded.final_score == seen[-1].score


def test_replay_as_text_matches_the_record(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = GameRecord.load(record_file)
    assert main(["--replay", str(record_file), "-t", "--frame-time", "0"]) == 0
    out = capsys.readouterr().out
    assert f"score: {record.final_score}" in out
    assert main(["--replay", str(record_file), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["scores"] == [record.final_score]


@pytest.mark.parametrize("suffix", [".gif", ".mp4"])
def test_animation_decodes_to_one_frame_per_move(
    record_file: Path, tmp_path: Path, suffix: str
) -> None:
    record = GameRecord.load(record_file)
    out = tmp_path / f"game{suffix}"
    assert main(["--replay", str(record_file), "--export", str(out)]) == 0
    expected = record.num_moves + 1
    if suffix == ".gif":
        with Image.open(out) as im:
            assert im.n_frames == expected
            assert im.size == FrameRenderer(record.layout()).size
    else:
        ffmpeg = pytest.importorskip("imageio_ffmpeg")
        frames, _ = ffmpeg.count_frames_and_secs(str(out))
        assert frames == expected


def test_gif_frames_show_the_replayed_states(record_file: Path, tmp_path: Path) -> None:
    record = GameRecord.load(record_file)
    states = list(replay(record))
    out = tmp_path / "game.gif"
    export_game(record, out, cell_size=12)
    renderer = FrameRenderer(states[0].layout, cell_size=12)
    board = renderer.board_height
    n = states[0].num_agents
    with Image.open(out) as im:
        for k in (0, 1, len(states) // 2, len(states) - 1):
            im.seek(k)
            got = np.asarray(im.convert("RGB"))
            want = np.frombuffer(
                renderer.rgb_bytes(states[k], turn=(k + n - 1) // n), dtype=np.uint8
            ).reshape(got.shape)
            # The board is drawn in palette colours only: exact. Text may round.
            assert np.array_equal(got[:board], want[:board])
            assert np.abs(got.astype(int) - want.astype(int)).max() <= 16


def test_mp4_has_even_size_for_odd_boards(tmp_path: Path) -> None:
    pytest.importorskip("imageio_ffmpeg")
    state = GameState.initial("testClassic")  # 5 x 5: odd with cell size 5
    states = [state, state.successor(0, "North")]
    out = tmp_path / "odd.mp4"
    assert export_game(states, out, cell_size=5) == 2
    assert out.stat().st_size > 0


@pytest.mark.parametrize(("frame", "index"), [(None, -1), (0, 0), (3, 3), (-1, -1)])
def test_png_writes_the_chosen_frame(
    record_file: Path, tmp_path: Path, frame: int | None, index: int
) -> None:
    record = GameRecord.load(record_file)
    states = list(replay(record))
    out = tmp_path / "frame.png"
    args = ["--replay", str(record_file), "--export", str(out), "--zoom", "0.5"]
    if frame is not None:
        args += ["--frame", str(frame)]
    assert main(args) == 0
    renderer = FrameRenderer(states[0].layout, cell_size=12)
    with Image.open(out) as im:
        got = np.asarray(im.convert("RGB"))
    k = index % len(states)
    n = states[0].num_agents
    want = np.frombuffer(
        renderer.rgb_bytes(states[k], turn=(k + n - 1) // n), dtype=np.uint8
    ).reshape(got.shape)
    assert np.array_equal(got, want)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--export", "x.avi"], "cannot export to '.avi'"),
        (["--export", "x.png", "--frame", "100000"], "out of range"),
        (["--export", "x.gif", "--frame-time", "0"], "frame time must be > 0"),
    ],
)
def test_bad_exports_give_one_line(
    record_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    args = [a if not a.startswith("x.") else str(tmp_path / a) for a in args]
    assert main(["--replay", str(record_file), *args]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("pacman: error:")
    assert message in err[0]


def test_frame_without_png_export_is_a_usage_error(record_file: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--replay", str(record_file), "--frame", "2"])
    assert exc.value.code == 2


def test_export_after_playing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "played.gif"
    assert (
        main(
            [
                "-l",
                "testClassic",
                "-p",
                "GreedyAgent",
                "--seed",
                "1",
                "-n",
                "2",
                "--export",
                str(out),
            ]
        )
        == 0
    )
    assert (tmp_path / "played-1.gif").is_file()
    assert (tmp_path / "played-2.gif").is_file()
    assert "Average Score" in capsys.readouterr().out


def test_export_is_quiet_when_not_a_terminal(
    record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export_game(GameRecord.load(record_file), tmp_path / "q.gif")
    assert capsys.readouterr().err == ""


def test_progress_bar_when_asked(
    record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = GameRecord.load(record_file)
    export_game(record, tmp_path / "p.gif", progress=True)
    err = capsys.readouterr().err
    assert "exporting p.gif [" in err
    assert f"{record.num_moves + 1}/{record.num_moves + 1} frames" in err


def test_palette_holds_every_drawing_colour() -> None:
    from pacman.render import frame

    palette = frame_palette()
    assert len(palette) <= 256
    for colour in (frame.WALL_COLOR, frame.PACMAN_COLOR, frame.SCARED_COLOR, *frame.GHOST_COLORS):
        assert colour in palette


def test_export_rejects_an_empty_game(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="nothing to export"):
        export_game([], tmp_path / "e.gif")


@pytest.mark.parametrize("moves", [1, 300, 1000])
def test_the_export_benchmark_replays_its_own_cut_record(moves: int) -> None:
    from benchmarks.export import long_record

    record = long_record(moves)
    states = list(replay(record))
    assert len(states) == moves + 1
    assert record.outcome == "aborted" or states[-1].is_terminal()
