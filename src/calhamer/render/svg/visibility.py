"""What a picture may show: the :class:`Mask` a caller passes, and a power's view as an outcome.

``render_svg`` takes either or both of

- ``view``, a power's view (:class:`calhamer.views.PowerView`): the picture is drawn from it
  alone, through :class:`ViewOutcome`, so nothing of the whole truth reaches the drawing;
- ``mask``, a :class:`Mask` (or anything with ``sees_province`` and optionally ``sees_unit``
  and ``sees_order``), or a plain function ``province id -> bool``: :class:`Shown` answers
  for it, and the scene leaves out every unit, order, owner and title it hides.

(A variant's visibility policy, :class:`calhamer.views.Visibility`, is what makes a power's
view; a mask is only a picture's.)

This module draws nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeGuard

from calhamer.orders import AnyOrder
from calhamer.position import Dislodged, Position, Unit
from calhamer.results import OrderResult
from calhamer.views import PowerView

__all__ = ["Mask", "Shown", "ViewOutcome", "is_power_view"]


class Mask:
    """What a picture may show of a whole board. Subclass or duck-type; every method defaults
    to "yes".

    ``render_svg(mask=...)`` also takes a plain function ``province -> bool`` (province ids):
    then a unit or order is shown when its province is.
    """

    def sees_province(self, province: int) -> bool:
        return True

    def sees_unit(self, unit: Unit) -> bool:
        return True

    def sees_order(self, power: str, order: AnyOrder) -> bool:
        return True


class Shown:
    """The answers of a ``mask`` (a :class:`Mask`, a duck-typed one, a function of a province
    id, or None for everything), with a unit or order hidden whenever its province is."""

    def __init__(self, mask: object) -> None:
        self.all = mask is None
        self._province: Callable[[int], bool] = lambda p: True
        self._unit: Callable[[Unit, int], bool] | None = None
        self._order: Callable[[str, AnyOrder], bool] | None = None
        if mask is None:
            return
        if hasattr(mask, "sees_province"):
            self._province = mask.sees_province
            if hasattr(mask, "sees_unit"):
                sees_unit = mask.sees_unit
                self._unit = lambda u, p: bool(sees_unit(u))
            if hasattr(mask, "sees_order"):
                self._order = mask.sees_order
        elif callable(mask):
            self._province = mask
        else:
            raise TypeError("mask must be a Mask or a function of a province id")

    def province(self, p: int) -> bool:
        """Whether province ``p`` is seen (its owner, its units, their orders)."""
        return self.all or bool(self._province(p))

    def unit(self, unit: Unit, province: int) -> bool:
        """Whether ``unit``, standing in ``province``, is seen."""
        if self.all:
            return True
        if not self.province(province):
            return False
        return self._unit is None or self._unit(unit, province)

    def order(self, power: str, order: AnyOrder, province: int, unit: Unit | None) -> bool:
        """Whether ``power``'s ``order`` for ``unit`` in ``province`` is seen."""
        if self.all:
            return True
        if not self.province(province):
            return False
        if unit is not None and not self.unit(unit, province):
            return False
        return self._order is None or bool(self._order(power, order))


def is_power_view(view: object) -> TypeGuard[PowerView]:
    """Whether ``view`` is a power's view of a phase (duck-typed: :class:`PowerView`'s
    fields)."""
    return all(hasattr(view, a) for a in ("before", "next", "results", "dislodged", "power"))


class ViewOutcome:
    """A power's view dressed as an outcome, so that the picture is drawn from it alone."""

    def __init__(self, view: PowerView) -> None:
        self.before: Position = view.before
        self.after: Position = view.next
        self.next: Position = view.next
        self.results: dict[str, list[OrderResult]] = view.results
        self.dislodged: tuple[Dislodged, ...] = tuple(view.dislodged)
        self.complete = bool(getattr(view, "complete", True))
