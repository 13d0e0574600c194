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


def test_the_readme_random_bot_plays_100_standard_games_to_a_year_limit() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("## For bot authors", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None, "the README's bot section has no Python example"
    source = code.group(1)
    assert "range(100)" in source and 'max_year=1905' in source
    assert len([line for line in source.splitlines() if line.strip()]) <= 25
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "README.md", "exec"), {})
    assert "100 of 100 games drawn" in out.getvalue()
