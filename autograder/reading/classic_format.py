r"""Read classic Berkeley ``GraphGameTreeTest`` files into `TreeCase` (SPEC section 7).

A classic ``.test`` file holds lines ``key: "value"``; a value may span lines between
triple double quotes (opened after ``key:``, closed on a line of their own); lines
starting with ``#`` are comments. A
``GraphGameTreeTest`` gives ``alg`` (``MinimaxAgent``, ``AlphaBetaAgent`` or
``ExpectimaxAgent``), ``depth``, ``num_agents``, ``start_state``, ``win_states`` and
``lose_states`` (space separated), ``successors`` (lines ``state action next``),
``evaluation`` (lines ``state value``) and ``diagram``. The ``.solution`` file beside
it gives ``action`` and ``generated`` (sorted names, space separated).

>>> fields = parse_classic_text('class: "GraphGameTreeTest"\nalg: "MinimaxAgent"\n')
>>> fields["alg"]
('MinimaxAgent', 2)
"""

from __future__ import annotations

import re
from pathlib import Path

from autograder.algorithms import by_class
from autograder.reading.tree_cases import (
    TreeCase,
    check_answer,
    parse_edges,
    parse_values,
    validate_tree,
)
from autograder.results import CaseFormatError
from autograder.tree import TreeGame

__all__ = [
    "is_classic_folder",
    "parse_classic_text",
    "read_classic_file",
    "read_graph_game_tree_test",
    "write_solution",
]


_ONE_LINE = re.compile(r'([A-Za-z_]\w*):\s*"(.*)"\s*$')
_OPENING = re.compile(r'([A-Za-z_]\w*):\s*"""\s*$')


def parse_classic_text(text: str, where: str = "<test>") -> dict[str, tuple[str, int]]:
    """Parse the ``key: "value"`` lines of a classic test or solution file.

    Args:
        text: The file's content.
        where: The file, for messages.

    Returns:
        Each key's value and the line its value starts on (the line after the opening
        quotes for a multi-line value).

    Raises:
        CaseFormatError: On a line that is neither, an unclosed value or a repeated key.
    """
    fields: dict[str, tuple[str, int]] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        number = i + 1
        i += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        one = _ONE_LINE.match(line)
        opening = _OPENING.match(line)
        if opening:
            key, body = opening.group(1), []
            while i < len(lines) and lines[i].strip() != '"""':
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise CaseFormatError(f'{where}:{number}: value of {key!r} has no closing """')
            i += 1
            value, start = "\n".join(body), number + 1
        elif one:
            key, value, start = one.group(1), one.group(2), number
        else:
            raise CaseFormatError(f"{where}:{number}: expected 'key: \"value\"', got {line!r}")
        if key in fields:
            raise CaseFormatError(f"{where}:{number}: key {key!r} given twice")
        fields[key] = (value, start)
    return fields


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CaseFormatError(f"{path}:1: cannot read test file: {error}") from None


def read_classic_file(path: Path) -> dict[str, tuple[str, int]]:
    """The ``key: "value"`` fields of a classic ``.test``, ``.solution`` or ``CONFIG`` file.

    Raises:
        CaseFormatError: If it cannot be read or is malformed (naming file and line).
    """
    return parse_classic_text(_read(Path(path)), str(path))


def is_classic_folder(folder: Path) -> bool:
    """Whether ``folder`` is a classic ``test_cases`` folder, not a folder of our cases.

    A classic folder has a ``CONFIG`` at its top or in a question folder.
    """
    folder = Path(folder)
    if (folder / "CONFIG").is_file():
        return True
    return folder.is_dir() and any((q / "CONFIG").is_file() for q in folder.iterdir())


def read_graph_game_tree_test(
    path: Path, *, name: str | None = None, require_answer: bool = True
) -> TreeCase | None:
    """Read a classic ``.test`` file and its ``.solution`` into a `TreeCase`.

    Args:
        path: The ``.test`` file.
        name: The case name (default ``"<algorithm>/<file stem>"``).
        require_answer: Whether the ``.solution`` file must exist.

    Returns:
        The case, or ``None`` if the file holds another test class (for example a
        ``PacmanGameTreeTest``), which tree grading does not handle.

    Raises:
        CaseFormatError: If either file is malformed, naming the file and line.
    """
    path = Path(path)
    where = str(path)
    fields = parse_classic_text(_read(path), where)
    if "class" in fields and fields["class"][0] != "GraphGameTreeTest":
        return None

    def need(key: str) -> tuple[str, int]:
        if key not in fields:
            raise CaseFormatError(f"{where}:1: missing key {key!r}")
        return fields[key]

    def number(key: str) -> int:
        text, line = need(key)
        if not text.strip().isdigit() or int(text) < 1:
            raise CaseFormatError(
                f"{where}:{line}: {key} must be a whole number >= 1, got {text!r}"
            )
        return int(text)

    alg, alg_line = need("alg")
    classic_classes = by_class()  # the ``alg`` key names the classic agent class
    if alg not in classic_classes:
        raise CaseFormatError(
            f"{where}:{alg_line}: unknown alg {alg!r}; expected one of "
            + ", ".join(classic_classes)
        )
    depth = number("depth")
    num_agents = number("num_agents")
    start, start_line = need("start_state")
    edges, edge_lines = parse_edges(*need("successors"), where)
    values, value_lines = parse_values(*need("evaluation"), where)
    game = TreeGame.from_edges(
        start.strip(),
        edges,
        values,
        num_agents=num_agents,
        win_states=fields.get("win_states", ("", 0))[0].split(),
        lose_states=fields.get("lose_states", ("", 0))[0].split(),
    )

    def line_of(state: str) -> int:
        return edge_lines.get(state) or value_lines.get(state) or start_line

    validate_tree(game, depth, where, line_of, strict=False)
    action: str | None = None
    generated: list[str] | None = None
    solution = path.with_suffix(".solution")
    if solution.is_file():
        answer = parse_classic_text(_read(solution), str(solution))
        for key in ("action", "generated"):
            if key not in answer:
                raise CaseFormatError(f"{solution}:1: missing key {key!r}")
        action = answer["action"][0]
        generated = answer["generated"][0].split()
        check_answer(
            game, action, generated, str(solution), answer["action"][1], answer["generated"][1]
        )
    elif require_answer:
        raise CaseFormatError(f"{solution}:1: no solution file; run `autograder generate`")
    algorithm = classic_classes[alg].name
    return TreeCase(
        name=name or f"{algorithm}/{path.stem}",
        algorithm=algorithm,
        depth=depth,
        game=game,
        expected_action=action or "",
        expected_generated=frozenset(generated or ()),
        description=f"classic tree test {path.name}",
        tags=("classic",),
        path=path,
        diagram=fields.get("diagram", ("", 0))[0].strip("\n"),
    )


def write_solution(test_path: Path, action: str, generated: frozenset[str]) -> Path:
    """Write the ``.solution`` file of a classic tree test; returns its path."""
    solution = Path(test_path).with_suffix(".solution")
    solution.write_text(
        f"# This is the solution file for {Path(test_path).name}.\n"
        f'action: "{action}"\n'
        f'generated: "{" ".join(sorted(generated))}"\n',
        encoding="utf-8",
    )
    return solution
