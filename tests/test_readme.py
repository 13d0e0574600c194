"""The README's 30-second example runs and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).parent.parent / "README.md"


def test_the_readme_example_prints_what_it_promises() -> None:
    text = README.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None, "the README has no Python example"
    source = code.group(1)
    promised = [
        line.split("#", 1)[1].strip()
        for line in source.splitlines()
        if "print(" in line and "#" in line
    ]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "README.md", "exec"), {})
    printed = out.getvalue()
    for expected in promised:
        assert expected in printed, f"the README promises {expected!r}; it printed:\n{printed}"
