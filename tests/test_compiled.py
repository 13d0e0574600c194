"""The two builds of the same source: plain Python, and the optional compiled one (mypyc on
the modules of ``calhamer._build.COMPILED_MODULES``). Every other test runs on whichever build
is installed; these check that the build says truly which it is, and that interpreted code
still subclasses the classes the compiled build compiles, as the variants do."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from dataclasses import FrozenInstanceError, dataclass
from importlib import import_module

import pytest

import calhamer
from calhamer import Position, adjudicate
from calhamer._build import COMPILED_MODULES, is_extension_module
from calhamer.adjudicator import MovementResolver, OrderTable, resolve_movement
from calhamer.cli import main
from calhamer.map import ARMY, FLEET
from calhamer.orders import Hold, Move, Order, Support
from calhamer.phases.handlers import STANDARD_PHASES, Movement, PhaseHandler
from calhamer.pieces import Dislodged, Phase, Unit
from calhamer.results import OrderResult, Result
from calhamer.rules import find_rules
from calhamer.variants import find_variant


def test_the_flag_agrees_with_how_every_listed_module_was_loaded() -> None:
    loaded = {name: is_extension_module(import_module(name)) for name in COMPILED_MODULES}
    # All of them or none: a half-compiled install is neither build.
    assert set(loaded.values()) == {calhamer.compiled}, loaded
    assert isinstance(calhamer.compiled, bool)
    # What the test suite runs around them stays plain Python in both builds.
    assert not is_extension_module(import_module("calhamer.notation"))
    assert not is_extension_module(import_module("calhamer.variants.arpiesse"))


@pytest.mark.parametrize("name", COMPILED_MODULES)
def test_every_listed_module_imports_first_in_a_fresh_interpreter(name: str) -> None:
    # Compiled modules set up their classes when they are first imported, in the order the
    # imports come; a class read before its module has run crashed the interpreter once
    # (see calhamer._build). Each module imported first, alone, must load and say so.
    done = subprocess.run([sys.executable, "-c", f"import {name}; print({name}.__name__)"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.strip() == name


def test_the_build_asked_for_is_the_build_running() -> None:
    # CI sets CALHAMER_EXPECT_BUILD in each stage, so that a stage meant for the compiled
    # build cannot pass on plain Python (or the reverse) unnoticed.
    expected = os.environ.get("CALHAMER_EXPECT_BUILD")
    if expected is not None:
        assert expected in ("compiled", "plain")
        assert calhamer.compiled is (expected == "compiled")


def test_version_names_the_build(capsys) -> None:
    try:
        main(["--version"])
    except SystemExit as stop:
        assert stop.code in (0, None)
    out = capsys.readouterr().out
    build = "compiled" if calhamer.compiled else "plain Python"
    assert out.strip() == f"calhamer {calhamer.__version__} ({build})"


class _TiesAdvance(MovementResolver):
    """A made-up rule: a move beats equal strength (interpreted, over the compiled resolver)."""

    def move_beats(self, attack: int, opposing: int) -> bool:
        return attack >= opposing


def test_an_interpreted_resolver_overrides_a_compiled_method() -> None:
    position = Position.initial()
    m = position.map
    # Burgundy is contested by Paris and Munich, each unsupported: a standoff in the standard
    # game, and (with ties advancing) both moves succeed in the made-up rule.
    orders: dict[int, Order] = {
              m.province_of(m.loc("PAR")): Move(None, m.loc("PAR"), m.loc("BUR")),
              m.province_of(m.loc("MUN")): Move(None, m.loc("MUN"), m.loc("BUR"))}
    rules = find_rules("datc")
    standard = resolve_movement(OrderTable(position, orders, rules))
    changed = resolve_movement(OrderTable(position, orders, rules), _TiesAdvance)
    par, mun = m.province_of(m.loc("PAR")), m.province_of(m.loc("MUN"))
    assert not standard.resolution[par] and not standard.resolution[mun]
    assert type(changed) is _TiesAdvance
    assert changed.resolution[par] and changed.resolution[mun]
    assert changed.standoff(m.province_of(m.loc("BUR")))


@dataclass(frozen=True, slots=True)
class _MarkedHold(Hold):
    mark: str = ""


@dataclass(frozen=True, slots=True)
class _Veteran(Unit):
    years: int = 0


def test_interpreted_dataclasses_extend_the_compiled_orders_and_units() -> None:
    order = _MarkedHold(None, 3, "x")
    assert isinstance(order, Hold) and order.loc == 3 and order.mark == "x"
    assert order == _MarkedHold(None, 3, "x") and order != Hold(None, 3)
    unit = _Veteran("FRANCE", ARMY, 5, years=2)
    assert isinstance(unit, Unit) and unit.count == 1 and unit.years == 2


def test_values_stay_frozen_and_travel_by_pickle() -> None:
    # Worker processes get positions and orders by pickle, on either build.
    unit = Unit("FRANCE", ARMY, 5)
    values = [Phase.parse("F1901R"), unit, Dislodged(unit, 7), Move(None, 5, 6, True, (8,)),
              Support(FLEET, 5, None, 6, 7), _MarkedHold(None, 3, "x"),
              _Veteran("ITALY", FLEET, 1, 4)]
    for value in values:
        for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert again == value and type(again) is type(value)
            assert hash(again) == hash(value)
    with pytest.raises(FrozenInstanceError):
        unit.loc = 6  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        values[3].dest = 9  # type: ignore[attr-defined]
    position = Position.initial(variant=find_variant("superdiplomacy"))
    assert pickle.loads(pickle.dumps(position)) == position


def test_order_results_pickle_copy_and_change_on_either_build() -> None:
    # A native class in the compiled build: made by its own __init__, pickled by __reduce__.
    result = OrderResult("FRANCE", "a par - bur", "A PAR - BUR", Result.FAILS, "bounced",
                         Move(None, 5, 6))
    assert (result.power, result.canonical, result.result) == ("FRANCE", "A PAR - BUR",
                                                               Result.FAILS)
    for again in (pickle.loads(pickle.dumps(result)), copy.copy(result), copy.deepcopy(result)):
        assert again == result and type(again) is OrderResult
    changed = copy.copy(result)
    changed.result = Result.SUCCEEDS  # results are filled in as the phase is judged
    assert changed != result and changed.succeeded
    with pytest.raises(TypeError):
        hash(result)


class _Counting(Movement):
    """The standard movement handler, counting its calls (interpreted, over a compiled one)."""

    def __init__(self) -> None:
        self.calls = 0

    def adjudicate(self, position, orders, rules):  # type: ignore[no-untyped-def]
        self.calls += 1
        return super().adjudicate(position, orders, rules)


def test_an_interpreted_phase_handler_extends_a_compiled_one() -> None:
    handler = _Counting()
    assert isinstance(handler, PhaseHandler)
    position = Position.initial()
    outcome = handler.adjudicate(position, {"FRANCE": ["A PAR - BUR"]}, find_rules("datc"))
    plain = STANDARD_PHASES["M"].adjudicate(position, {"FRANCE": ["A PAR - BUR"]},
                                            find_rules("datc"))
    assert handler.calls == 1
    assert outcome.after.units == plain.after.units


def test_the_variants_resolvers_subclass_the_compiled_resolver() -> None:
    # DP and Arpiesse judge with resolvers of their own over MovementResolver (interpreted
    # code over compiled in the compiled build); each judges a phase on either build.
    for name in ("dp", "arpiesse"):
        variant = find_variant(name)
        assert variant.resolver_class is not MovementResolver
        assert issubclass(variant.resolver_class, MovementResolver)
        position = Position.initial(variant=variant)
        outcome = adjudicate(position, {}, find_rules(variant.default_rules))
        assert type(outcome.resolution.resolver) is variant.resolver_class  # type: ignore[union-attr]
        assert outcome.after.units == position.units  # no orders: every unit holds
