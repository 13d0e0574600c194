"""The variant registry: names at the edges, variant objects in the core, plugins by entry point."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from calhamer import CalhamerError, Position, adjudicate
from calhamer.formats import position_from_json, position_to_json
from calhamer.variant import STANDARD, Variant
from calhamer.variants import BUILT_IN, all_variants, find_variant, variant_names


@pytest.mark.parametrize("name", list(BUILT_IN))
def test_the_table_of_built_in_variants_agrees_with_their_classes(name: str) -> None:
    target, aliases = BUILT_IN[name]
    module, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    assert (cls.name, tuple(cls.aliases)) == (name, aliases)
    assert type(find_variant(name)) is cls
    for alias in aliases:
        assert find_variant(alias.upper()) is find_variant(name)


def test_a_variant_object_is_its_own_answer() -> None:
    krieg = find_variant("kriegsplomacy")
    assert find_variant(krieg) is krieg
    assert find_variant("standard") is STANDARD


def test_positions_carry_their_variant() -> None:
    arpiesse = find_variant("arpiesse")
    start = Position.initial(variant=arpiesse)
    assert start.variant is arpiesse
    assert Position.initial().variant is STANDARD
    read, _orders, _rules = position_from_json(position_to_json(start))
    assert read.variant is arpiesse and read == start
    assert position_to_json(start)["variant"] == "arpiesse"


def test_instances_of_one_variant_are_equal() -> None:
    assert Variant() == STANDARD and hash(Variant()) == hash(STANDARD)
    assert find_variant("arpiesse") != STANDARD


def test_an_unknown_variant_is_refused_with_the_list() -> None:
    with pytest.raises(CalhamerError, match="there is no variant 'chess'; the variants are: "
                                            "standard, arpiesse"):
        find_variant("chess")


def test_every_variant_is_listed_and_loads() -> None:
    assert [v.name for v in all_variants()][: len(BUILT_IN)] == list(BUILT_IN)
    assert variant_names()[: len(BUILT_IN)] == list(BUILT_IN)


PLUGIN = textwrap.dedent('''
    """A tiny variant from another package: the standard game, but armies may not move."""
    from calhamer.variant import Variant
    from calhamer.validation import Illegal, check_movement_order
    from calhamer.orders import Move
    from calhamer.map import ARMY


    class Frozen(Variant):
        name = "frozen-armies"
        aliases = ("frozen",)
        title = "Frozen armies"

        def check_movement_order(self, position, power, order):
            unit = position.unit_at(order.loc)
            if isinstance(order, Move) and unit is not None and unit.type is ARMY:
                raise Illegal("armies are frozen in this variant")
            return check_movement_order(position, power, order)
''')


def _install_plugin(root: Path) -> None:
    """A distribution on ``root`` that registers the variant above through its entry point."""
    (root / "calhamer_frozen.py").write_text(PLUGIN)
    info = root / "calhamer_frozen-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: calhamer-frozen\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[calhamer.variants]\nfrozen-armies = calhamer_frozen:Frozen\n")


def test_a_variant_from_another_package_registers_by_entry_point(tmp_path: Path) -> None:
    _install_plugin(tmp_path)
    script = textwrap.dedent('''
        import json, sys
        from calhamer import adjudicate
        from calhamer.formats import position_from_json
        from calhamer.variants import find_variant, variant_names

        names = variant_names()
        assert "calhamer_frozen" not in sys.modules, "listing names loads no variant"
        variant = find_variant("FROZEN")  # by its alias
        position, orders, rules = position_from_json(
            {"variant": "frozen-armies", "units": {"FRANCE": ["A PAR", "F BRE"]},
             "orders": {"FRANCE": ["A Par - Bur", "F Bre - Mao"]}})
        outcome = adjudicate(position, orders, rules)
        print(json.dumps({"names": names, "title": variant.title,
                          "same": position.variant is variant,
                          "results": [[r.result, r.reason] for r in outcome.results["FRANCE"]]}))
    ''')
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, check=False)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert "frozen-armies" in answer["names"]
    assert answer["title"] == "Frozen armies" and answer["same"]
    assert answer["results"] == [["invalid", "armies are frozen in this variant"],
                                 ["succeeds", "moves"],
                                 ["succeeds", "holds (no valid order given)"]]
    started = subprocess.run([sys.executable, "-m", "calhamer.cli", "new", "--variant", "frozen"],
                             capture_output=True, text=True, env=env, check=False)
    assert json.loads(started.stdout)["variant"] == "frozen-armies", started.stderr


def test_a_broken_plugin_is_a_clear_error(tmp_path: Path) -> None:
    info = tmp_path / "calhamer_broken-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: calhamer-broken\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[calhamer.variants]\nbroken = no_such_module:X\n")
    script = ("from calhamer.variants import find_variant\n"
              "from calhamer import CalhamerError\n"
              "try:\n    find_variant('broken')\n"
              "except CalhamerError as exc:\n    print(exc)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, check=True)
    assert done.stdout.startswith("the variant 'broken' (from the entry point no_such_module:X) "
                                  "could not be loaded: No module named 'no_such_module'")


def test_adjudication_uses_the_variant_the_position_carries() -> None:
    krieg = find_variant("kriegsplomacy")
    position = Position.initial(variant=krieg)
    outcome = adjudicate(position, {"FRANCE": ["A Par - Bur"]})
    assert outcome.next.variant is krieg


def test_the_public_surface() -> None:
    import calhamer

    for name in ("Position", "Game", "adjudicate", "possible_orders", "find_variant",
                 "power_view", "render_svg", "Variant"):
        assert name in calhamer.__all__ and getattr(calhamer, name) is not None
    game = calhamer.Game.new()
    outcome_svg = calhamer.render_svg(game.current)
    assert outcome_svg.lstrip().startswith("<")
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        calhamer.nothing  # noqa: B018


def test_game_set_orders_takes_order_values() -> None:
    from calhamer import ARMY, Game, Move
    from calhamer.game import GameError

    game = Game.new()
    m = game.current.map
    checks = game.set_orders("FRANCE", [Move(ARMY, m.loc("PAR"), m.loc("BUR")), "F Bre - Mao"])
    assert [c.canonical for c in checks] == ["A PAR - BUR", "F BRE - MAO"]
    assert all(c.ok for c in checks)
    game.process()
    record = game.record("S1901M")
    assert record.orders["FRANCE"] == ["A PAR - BUR", "F Bre - Mao"]  # text kept verbatim
    assert [r["result"] for r in record.results["FRANCE"]][:2] == ["succeeds", "succeeds"]
    with pytest.raises(GameError, match="neither an order's text nor an Order value"):
        game.set_orders("FRANCE", [42])  # type: ignore[list-item]


@pytest.mark.parametrize("name", list(BUILT_IN))
def test_positions_are_dict_keys(name: str) -> None:
    start = Position.initial(variant=find_variant(name))
    again, _orders, _rules = position_from_json(position_to_json(start))
    seen = {start: "start"}
    assert again == start and hash(again) == hash(start) and seen[again] == "start"
    later = start.replace(phase=start.phase.__class__(start.phase.year + 1, "S", "M"))
    assert later not in seen
    import pickle

    assert pickle.loads(pickle.dumps(start)) in seen
