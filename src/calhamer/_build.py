"""Which build of calhamer runs: plain Python, or the optional compiled one.

``CALHAMER_COMPILE=1 pip install .`` compiles the modules of :data:`COMPILED_MODULES` with
mypyc (see ``setup.py``); every other install runs them as plain Python from the same source.
This module imports nothing beyond the standard library, so that ``setup.py`` can read the
list from it before calhamer's dependencies are installed.

:func:`mypyc_attr` marks the compiled classes that interpreted code subclasses (the variants'
resolvers, orders and phase handlers): mypyc reads the mark when it compiles; at run time it
does nothing, and ``mypy_extensions`` is not needed to run either build.
"""

from __future__ import annotations

from dataclasses import fields as _fields
from importlib.machinery import EXTENSION_SUFFIXES
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # plain Python without mypy installed: the mark is only for mypyc

        def mypyc_attr(*_args: Any, **_flags: Any) -> Any:
            return lambda cls: cls


def fit_data_classes(*classes: type) -> None:
    """Fit compiled data classes for the code around them; plain Python classes are left as
    they are (they already have what is added here).

    Compiled, a data class keeps its fields in its own layout and lists no ``__slots__``: a
    subclass made with ``@dataclass(slots=True)`` (a variant's unit or order) would then add
    slots of the same names, hiding the compiled fields. And a frozen one would refuse the
    fields that unpickling sets. Each class gets a ``__slots__`` entry naming its fields, and
    a frozen one a ``__setstate__`` that sets them as its constructor does."""
    for cls in classes:
        if "__slots__" in vars(cls):
            continue  # plain Python
        setattr(cls, "__slots__", tuple(f.name for f in _fields(cls)))  # noqa: B010
        if getattr(cls, "__dataclass_params__").frozen:  # noqa: B009
            setattr(cls, "__setstate__", _set_frozen_state)  # noqa: B010


def _set_frozen_state(self: object, state: dict[str, object]) -> None:
    for name, value in state.items():
        object.__setattr__(self, name, value)


# The modules on the adjudication path, compiled in the compiled build (paths under src/).
# The hand-written value classes Phase, Dislodged, Position and Resolution stay plain classes
# in both builds (``native_class=False``: they manage their own freezing, pickling and weak
# references); compiled, their modules' functions and methods run as native code. OrderResult,
# made for every order, is a native class (it pickles by its own ``__reduce__``).
#
# A plain class in a compiled module keeps its annotations in ``__annotations__`` as class
# objects; a compiled class among them is read from its module's type slot, which is empty
# until that module has run. Resolution's ``resolver: GuessResolver``, imported only for type
# checking, thus crashed the interpreter when ``calhamer.results`` was imported (mypyc issue
# 1209): results.py now imports GuessResolver at run time. Keep it so in these modules: a
# compiled class named in a plain class's annotations is imported for real.
#
# setup.py compiles each name here from ``src/<name>.py``: a package is listed by its modules,
# and its ``__init__`` stays plain Python in both builds, as ``calhamer.phases``'s does.
# ``calhamer.formats``'s only hands on the public names of json_text, reading and writing, the
# modules that do the work and are compiled.
COMPILED_MODULES = (
    "calhamer.pieces",
    "calhamer.position",
    "calhamer.results",
    "calhamer.resolver",
    "calhamer.adjudicator",
    "calhamer.orders",
    "calhamer.validation",
    "calhamer.phases.movement",
    "calhamer.phases.retreats",
    "calhamer.phases.adjustments",
    "calhamer.phases.handlers",
    "calhamer.phases.intake",
    "calhamer.phases.flow",
    "calhamer.phases.explain",
    "calhamer.formats.json_text",
    "calhamer.formats.reading",
    "calhamer.formats.writing",
)


def is_extension_module(module: Any) -> bool:
    """Whether ``module`` was loaded from a compiled extension (not from Python source)."""
    path = getattr(module, "__file__", None) or ""
    return path.endswith(tuple(EXTENSION_SUFFIXES))


def is_compiled(cls: type) -> bool:
    """Whether class ``cls`` is compiled: its methods are then built-in functions, with no
    Python code object behind them."""
    return not any(hasattr(f, "__code__") for f in vars(cls).values() if callable(f))


__all__ = [
    "COMPILED_MODULES",
    "fit_data_classes",
    "is_compiled",
    "is_extension_module",
    "mypyc_attr",
]
