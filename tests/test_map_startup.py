"""Issue 31, item 3 (start-up): a shipped board, checked by the map file's model when it was
shipped (``maps/checked.txt``), loads without the model; every other file is checked as
before. Timings are in benchmarks/bench_startup.py, never here."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from calhamer import map as maps
from calhamer.documents import maps as models
from calhamer.documents.map_tables import DEFAULTS, NESTED, plain_map_file
from calhamer.errors import MapError
from calhamer.map import Map, build_map, load_map, shipped_map_hashes

SRC = Path(__file__).resolve().parents[1] / "src"


def _shipped_names() -> list[str]:
    return sorted(shipped_map_hashes())


def _tables(m: Map) -> dict[str, object]:
    """Everything a board holds but how it was made and its file."""
    skip = {"_file", "_tables", "recipe"}
    return {f.name: getattr(m, f.name) for f in dataclasses.fields(m) if f.name not in skip}


def test_item_3_the_checked_list_is_up_to_date() -> None:
    listed = {}
    with open(maps._CHECKED_LIST, encoding="utf-8") as f:
        for line in f:
            digest, name = line.split()
            listed[name] = digest
    assert listed == shipped_map_hashes(), (
        "a shipped map is new or changed: run PYTHONPATH=src python "
        "scripts/check_shipped_maps.py")


@pytest.mark.parametrize("name", ["standard", "godip/twenty-twenty", "dpjudge/1898",
                                  "standard-dp", "superdiplomacy", "kriegsplomacy"])
def test_item_3_a_shipped_board_reads_alike_without_the_model(name: str) -> None:
    # Read as load_map reads a shipped board (load_map's cached Map may have had its model read
    # by an earlier test; a fresh process's path is checked by the no-pydantic test below).
    trusted, shipped = maps._read_with_parents(name, seen=(), trust=True)
    assert shipped
    fast = build_map(plain_map_file(trusted), name, tables=trusted)
    assert fast._file is None  # built from the plain tables
    data, shipped = maps._read_with_parents(name, seen=(), trust=False)
    assert not shipped
    checked = build_map(maps._checked(data, name), name)
    assert _tables(fast) == _tables(checked)
    assert fast.file == checked.file  # the model, read on first use


def test_item_3_every_shipped_board_reads_alike_without_the_model() -> None:
    for name in _shipped_names():
        data, _ = maps._read_with_parents(name, seen=(), trust=False)
        plain = build_map(plain_map_file(data), name, tables=data)
        checked = build_map(maps._checked(data, name), name)
        assert _tables(plain) == _tables(checked), name


def test_item_3_the_plain_reading_has_the_models_defaults() -> None:
    for kind, defaults in DEFAULTS.items():
        model = getattr(models, kind)
        fields = model.model_fields
        assert set(defaults) == set(fields), kind
        for key, default in defaults.items():
            if fields[key].is_required():
                assert default is None, (kind, key)  # a checked file always has it
                continue
            value = fields[key].get_default(call_default_factory=True)
            if isinstance(value, models.Document):
                value = {}  # a table left out: read as an empty one, whose defaults are here
            assert value == default, (kind, key)
    for (kind, key), (_how, nested) in NESTED.items():
        assert key in DEFAULTS[kind] and nested in DEFAULTS


def test_item_3_a_minimal_file_reads_alike_both_ways() -> None:
    data = {"provinces": {"AAA": {"sc": True, "home": "X"}, "BBB": {"type": "sea"},
                          "CCC": {"type": "coast", "coasts": ["NC", "SC"]}},
            "powers": {"X": {}}, "minor_powers": {"M": {}},
            "army": {}, "fleet": {"BBB": "CCC/NC"},
            "calendar": {"seasons": [{"code": "S", "name": "Spring"}]}}
    plain = build_map(plain_map_file(data), "mini", tables=data)
    checked = build_map(maps._checked(data, "mini"), "mini")
    assert _tables(plain) == _tables(checked)


def test_item_3_a_user_file_is_checked_even_as_a_shipped_ones_copy(tmp_path: Path) -> None:
    copy = tmp_path / "standard-copy.toml"
    shutil.copy(os.path.join(maps._MAPS, "standard.toml"), copy)
    # The same text as a checked shipped file, but not among the shipped files: checked.
    _, shipped = maps._read(str(copy))
    assert not shipped
    text = copy.read_text(encoding="utf-8").replace('type = "sea"', 'type = "ocean"', 1)
    copy.write_text(text, encoding="utf-8")
    with pytest.raises(MapError, match=r"provinces\.\w+\.type"):
        load_map(str(copy))


def test_item_3_a_changed_shipped_file_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(maps, "_checked_hashes", lambda: frozenset())
    _, shipped = maps._read("standard")
    assert not shipped
    monkeypatch.undo()
    _, shipped = maps._read("standard")
    assert shipped


def test_item_3_adjudicating_a_plain_phase_loads_no_pydantic(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from calhamer.cli import main\n"
        "main(['adjudicate', sys.argv[1]])\n"
        "print('pydantic' in sys.modules, file=sys.stderr)\n"
    )
    phase = tmp_path / "phase.json"
    new = subprocess.run([sys.executable, "-m", "calhamer", "new"], capture_output=True,
                         text=True, check=True, env={**os.environ, "PYTHONPATH": str(SRC)})
    phase.write_text(new.stdout, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", code, str(phase)], capture_output=True,
                          text=True, check=True, env={**os.environ, "PYTHONPATH": str(SRC)})
    assert "Spring 1901" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "False"
