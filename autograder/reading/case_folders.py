"""Folders of tree cases: TOML cases and classic ``GraphGameTreeTest`` files, by algorithm.

The packaged cases live in ``autograder/cases/<algorithm>/``; `load_tree_cases` reads
such a folder, or any folder mixing algorithms, into `TreeCase` values.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from autograder.algorithms import algorithm as algorithm_row
from autograder.reading.classic_format import read_graph_game_tree_test
from autograder.reading.tree_cases import TreeCase, key_lines, parse_tree_case, read_text
from autograder.results import CaseFormatError

__all__ = ["load_tree_cases", "read_tree_case"]


def read_tree_case(path: Path, *, name: str | None = None) -> TreeCase:
    """Read one case file: TOML (``.toml``) or a classic ``GraphGameTreeTest`` (``.test``).

    Raises:
        CaseFormatError: If the file is malformed or cannot be read.
    """
    path = Path(path)
    if path.suffix == ".test":
        case = read_graph_game_tree_test(path, name=name)
        if case is None:
            raise CaseFormatError(f"{path}:1: not a GraphGameTreeTest")
        return case
    return parse_tree_case(read_text(path), path=path, name=name)


def packaged_cases() -> Path:
    """The cases folder installed with the package."""
    return Path(str(resources.files("autograder") / "cases"))


def _case_files(algorithm: str, folder: Path | None) -> tuple[Path, list[Path], bool]:
    """The folder to scan, its case files, and whether it is an algorithm's own folder."""
    root = packaged_cases() if folder is None else Path(folder)
    if not root.is_dir():
        raise CaseFormatError(f"{root}:1: no such case folder")
    own = (root / algorithm).is_dir()
    base = root / algorithm if own else root
    files = sorted(p for p in base.rglob("*") if p.suffix in (".toml", ".test") and p.is_file())
    return base, files, own


def _load(algorithm: str, folder: Path | None, *, require_answer: bool) -> list[TreeCase]:
    algorithm_row(algorithm)  # raises ValueError when unknown
    base, files, own = _case_files(algorithm, folder)
    cases = []
    for path in files:
        name = f"{algorithm}/{path.relative_to(base).with_suffix('').as_posix()}"
        if path.suffix == ".test":
            case = read_graph_game_tree_test(path, name=name, require_answer=require_answer)
            if case is None:
                continue  # another classic test class (PacmanGameTreeTest, ...)
        else:
            case = parse_tree_case(
                read_text(path), path=path, name=name, require_answer=require_answer
            )
        if case.algorithm != algorithm:
            if own:
                raise CaseFormatError(
                    f"{path}:{key_lines(read_text(path)).get('algorithm', 1)}: algorithm "
                    f"{case.algorithm!r} does not match its folder {algorithm!r}"
                )
            continue
        cases.append(case)
    return sorted(cases, key=lambda c: c.name)


def load_tree_cases(
    algorithm: str, folder: Path | None = None, *, require_answer: bool = True
) -> list[TreeCase]:
    """Load the tree cases of one algorithm, sorted by name.

    Args:
        algorithm: The name of a row of `autograder.algorithms.ALGORITHMS`.
        folder: A cases folder. If it has a subfolder named after ``algorithm``, that
            subfolder is read and every file in it must be for ``algorithm``; otherwise
            the folder itself is read and cases for other algorithms are skipped. Both
            ``.toml`` cases and classic ``GraphGameTreeTest`` ``.test`` files (with their
            ``.solution``) are read, recursively. Default: the packaged cases.
        require_answer: Whether each case must hold its expected answer (``False`` to
            read cases whose answers are still to be generated).

    Returns:
        The cases, sorted by name.

    Raises:
        ValueError: If ``algorithm`` is unknown.
        CaseFormatError: If a file is malformed (the message names file and line).
    """
    return _load(algorithm, folder, require_answer=require_answer)
