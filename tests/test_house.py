"""The house as issue 38 measured it: no function, method or class of ``tracker/`` above
complexity 25 (radon's cyclomatic complexity, which counts boolean operators and
comprehensions too, unlike ruff's C901): a longer one is split into named steps. And a module
defining named tuples keeps its annotations evaluated (see :mod:`tracker.db.queries`)."""

from __future__ import annotations

import re
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class

TRACKER = Path(__file__).resolve().parent.parent / "tracker"
LIMIT = 25
#: Modules that define a named tuple and keep ``from __future__ import annotations``: most of
#: their annotations name what they import only for the type checker (one small record each).
TEXT_ANNOTATIONS = {"tracker/cli/context.py", "tracker/cli/plot.py"}


def _blocks(path: Path) -> list[tuple[str, int]]:
    out = []
    for block in cc_visit(path.read_text(encoding="utf-8")):
        out.append((block.name, block.complexity))
        if isinstance(block, Class):
            out += [(f"{block.name}.{m.name}", m.complexity) for m in block.methods]
    return out


def test_no_function_is_above_complexity_25() -> None:
    found = {
        f"{path.relative_to(TRACKER.parent)}:{name}": complexity
        for path in sorted(TRACKER.rglob("*.py"))
        for name, complexity in _blocks(path)
    }
    assert len(found) > 1500  # the whole package was read
    assert {where: n for where, n in found.items() if n > LIMIT} == {}


def test_named_tuples_have_evaluated_annotations() -> None:
    found = set()
    for path in sorted(TRACKER.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if re.search(r"^class \w+\(NamedTuple\):", text, re.MULTILINE) and re.search(
            r"^from __future__ import annotations$", text, re.MULTILINE
        ):
            found.add(path.relative_to(TRACKER.parent).as_posix())
    assert found == TEXT_ANNOTATIONS
