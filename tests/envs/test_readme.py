from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def section_code() -> list[str]:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Gymnasium and PettingZoo")
    end = text.index("\n## ", start + 1)  # the next section
    return re.findall(r"```python\n(.*?)```", text[start:end], flags=re.DOTALL)


def test_the_readme_section_code_runs() -> None:
    blocks = section_code()
    assert len(blocks) == 3
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    assert namespace["observations"] is not None
    assert namespace["penv"].agents == []  # type: ignore[attr-defined]
