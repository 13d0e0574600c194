"""What happened to each order, in words a player understands."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import FrozenInstanceError
from enum import StrEnum
from typing import TYPE_CHECKING

from calhamer._build import mypyc_attr
from calhamer.orders import AnyOrder, Order
from calhamer.pieces import Dislodged, Unit

# Imported at run time, not only for type checking (it costs nothing: ``import calhamer``
# loads it anyway). In the compiled build, Resolution (a plain class) keeps its annotations
# in ``__annotations__`` as class objects, and GuessResolver's is read from the compiled
# resolver module's own type slot, which stays empty (and crashed the interpreter on import)
# until that module has run. Importing it here runs it first (mypyc issue 1209).
from calhamer.resolver import GuessResolver

if TYPE_CHECKING:
    from calhamer.dice import DiceRecord
    from calhamer.map import ProvinceId
    from calhamer.position import Position


_set = object.__setattr__


class Result(StrEnum):
    """An order's fate. Members are strings ("succeeds"), as documents and reports write them."""

    SUCCEEDS = "succeeds"
    FAILS = "fails"
    INVALID = "invalid"  # unreadable or illegal: the unit holds (DATC 4.E.1)
    UNKNOWN = "unknown"  # not told to this power (whether its support was given, Kriegsplomacy)


SUCCEEDS, FAILS, INVALID, UNKNOWN = Result.SUCCEEDS, Result.FAILS, Result.INVALID, Result.UNKNOWN


class OrderResult:
    """One order's fate. ``text`` is the order as the player wrote it, kept verbatim.

    Equal when every field is equal. Written out by hand rather than as a dataclass, whose
    methods are compiled when the module is imported (by every program that imports calhamer).
    A native class in the compiled build (one is made for every order of every phase), which
    is why it pickles by :meth:`__reduce__`: mypyc's own pickling of it is not used.
    """

    __slots__ = ("canonical", "order", "power", "reason", "result", "text")
    __match_args__ = ("power", "text", "canonical", "result", "reason", "order")
    __hash__ = None  # type: ignore[assignment]  # mutable: no hash

    power: str
    text: str
    canonical: str
    result: Result
    reason: str
    order: AnyOrder | None

    def __init__(self, power: str, text: str, canonical: str, result: Result, reason: str,
                 order: AnyOrder | None = None) -> None:
        self.power = power
        self.text = text
        self.canonical = canonical
        self.result = result
        self.reason = reason
        self.order = order

    def _fields(self) -> tuple[object, ...]:
        return (self.power, self.text, self.canonical, self.result, self.reason, self.order)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._fields() == other._fields()  # type: ignore[attr-defined]
        return NotImplemented

    def __reduce__(self) -> tuple[object, ...]:
        return (OrderResult, self._fields())

    def __repr__(self) -> str:
        return (f"OrderResult(power={self.power!r}, text={self.text!r}, "
                f"canonical={self.canonical!r}, result={self.result!r}, "
                f"reason={self.reason!r}, order={self.order!r})")

    @property
    def succeeded(self) -> bool:
        return self.result == SUCCEEDS

    def to_json(self) -> dict[str, str]:
        return {
            "order": self.text,
            "canonical": self.canonical,
            "result": self.result,
            "reason": self.reason,
        }


@mypyc_attr(native_class=False)  # a plain class in either build: Kriegsplomacy keys weakly on it
class Resolution:
    """How a movement phase was resolved, for whoever needs more than each order's result
    (Kriegsplomacy's reports of attacks and spies, tests, bots): ``PhaseOutcome.resolution``.

    ``resolver`` holds every decision taken: the variant's
    :class:`~calhamer.adjudicator.MovementResolver` (its ``table`` the orders as integers), or
    a variant's own :class:`~calhamer.resolver.GuessResolver` (Superdiplomacy's stacks).
    ``orders`` are the legal orders it resolved, by the province of their unit (empty when the
    resolver works on other pieces than units: stacks). ``dice`` records every throw of a
    phase decided with dice (Superdiplomacy).

    The fields are read-only; two resolutions are equal only when they are the same one.
    """

    __slots__ = ("__weakref__", "dice", "orders", "resolver")  # kept in weak tables (Kriegsplomacy)
    __match_args__ = ("resolver", "orders", "dice")
    resolver: GuessResolver
    orders: Mapping[ProvinceId, Order]
    dice: DiceRecord | None

    def __init__(self, resolver: GuessResolver, orders: Mapping[ProvinceId, Order] | None = None,
                 dice: DiceRecord | None = None) -> None:
        _set(self, "resolver", resolver)
        _set(self, "orders", {} if orders is None else orders)
        _set(self, "dice", dice)

    def __repr__(self) -> str:
        return (f"Resolution(resolver={self.resolver!r}, orders={self.orders!r}, "
                f"dice={self.dice!r})")

    def __reduce__(self) -> tuple[object, ...]:
        return (Resolution, (self.resolver, self.orders, self.dice))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


@mypyc_attr(native_class=False)  # a plain class in either build, its fields in vars()
class PhaseOutcome:
    """The adjudication of one phase: every order's result and the position that follows.

    ``after`` is the board as this phase leaves it (for a movement phase: dislodged units
    waiting to retreat); ``next`` is the next phase to be played, with empty phases skipped.
    ``resolution`` is how a movement phase was resolved (None for other phases, and for an
    outcome rebuilt from stored results).
    ``results`` (each order's result and reason, by power) is worded on first use, so a bot
    that only wants the next position never pays for the sentences.
    """

    def __init__(
        self,
        before: Position,
        results: dict[str, list[OrderResult]] | Callable[[], dict[str, list[OrderResult]]],
        after: Position,
        next: Position,
        dislodged: tuple[Dislodged, ...] = (),
        moved: dict[int, int] | None = None,
        removed: list[int] | None = None,
        resolution: Resolution | None = None,
    ) -> None:
        self.before = before
        self._results = results
        self.after = after
        self.next = next
        self.dislodged = dislodged
        self.moved = moved or {}  # province -> destination location
        self.removed = removed or []  # provinces whose units were destroyed
        self.resolution = resolution

    @property
    def results(self) -> dict[str, list[OrderResult]]:
        if callable(self._results):
            self._results = self._results()
        return self._results

    def result_of(self, power: str, canonical: str) -> OrderResult | None:
        for r in self.results.get(power, []):
            if r.canonical == canonical:
                return r
        return None

    def all_results(self) -> list[OrderResult]:
        return [r for rs in self.results.values() for r in rs]

    def destroyed_units(self) -> list[Unit]:
        """The units dislodged in this movement phase and destroyed at once, because the
        variant lets them no retreat (a DP variant's neutral armies), in the order they stood;
        none after any other kind of phase (whose ``removed`` are disbands and removals)."""
        if not self.before.phase.is_movement or not self.removed:
            return []
        units = self.before.units
        return [units[p] for p in self.removed]
