"""The optional compiled build.

``pip install .`` (the default) installs calhamer as plain Python. With ``CALHAMER_COMPILE=1``
set, the modules on the adjudication path (``calhamer._build.COMPILED_MODULES``) are compiled
with mypyc from the same source, and everything else stays plain Python:

    pip install mypy setuptools wheel
    CALHAMER_COMPILE=1 pip install --no-build-isolation .

``calhamer.compiled`` (and ``calhamer --version``) tells which build runs. The build and
project metadata stay in ``pyproject.toml``; this file only adds the compiled modules.
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent


def _wanted() -> bool:
    return os.environ.get("CALHAMER_COMPILE", "").strip().lower() not in ("", "0", "no", "false")


def _ext_modules() -> list:
    if not _wanted():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(
            "CALHAMER_COMPILE is set but mypyc is not installed: install mypy (which brings "
            "mypyc) and build with pip's --no-build-isolation, or unset CALHAMER_COMPILE for "
            "the plain Python build"
        ) from None
    # _build.py imports only the standard library, so it is read here without calhamer's
    # dependencies installed.
    names = runpy.run_path(str(HERE / "src" / "calhamer" / "_build.py"))["COMPILED_MODULES"]
    paths = ["src/" + name.replace(".", "/") + ".py" for name in names]
    return mypycify(paths, opt_level=os.environ.get("CALHAMER_OPT_LEVEL", "3"))


setup(ext_modules=_ext_modules())
