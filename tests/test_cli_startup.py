"""Issue 31, item 3 (start-up): a command run loads its own group of the command line alone."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import import_module
from pathlib import Path

from calhamer.cli import COMMANDS, GROUPS
from calhamer.cli.io import Parser

SRC = Path(__file__).resolve().parents[1] / "src"


def test_item_3_each_command_is_listed_with_its_group() -> None:
    found = {}
    for group in GROUPS:
        parser = Parser(prog="calhamer")
        sub = parser.add_subparsers(dest="command", parser_class=Parser)
        import_module(f"calhamer.cli.{group}").add_parsers(sub)
        found.update(dict.fromkeys(sub.choices, group))
    assert found == COMMANDS


def test_item_3_adjudicate_loads_no_other_command_group() -> None:
    code = ("import json, sys\nfrom calhamer.cli import main\nmain(['adjudicate', '--help'])\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('calhamer.cli.'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env={"PYTHONPATH": str(SRC), "PATH": ""})
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert "calhamer.cli.phase" in loaded
    assert not {"calhamer.cli.games", "calhamer.cli.render", "calhamer.cli.serve",
                "calhamer.cli.geometry", "calhamer.cli.board"} & set(loaded)


def test_item_3_the_top_level_help_still_lists_every_command() -> None:
    done = subprocess.run([sys.executable, "-m", "calhamer", "--help"], capture_output=True,
                          text=True, check=True, env={"PYTHONPATH": str(SRC), "PATH": ""})
    for command in COMMANDS:
        assert command in done.stdout
