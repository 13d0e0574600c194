"""The optional compiled build.

``pip install .`` (the default) installs calhamer as plain Python. With ``CALHAMER_COMPILE=1``
set, the modules on the adjudication path (``calhamer._build.COMPILED_MODULES``) are compiled
with mypyc from the same source, and everything else stays plain Python:

    CALHAMER_COMPILE=1 pip install .

pip then builds with mypy (which brings mypyc) and pydantic (whose mypy plugin the type check
uses) in its build environment, and a C compiler from the system. ``calhamer.compiled`` (and
``calhamer --version``) tells which build runs. The build and the project's metadata stay in
``pyproject.toml``; this file only adds the compiled modules.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent


def _wanted() -> bool:
    return os.environ.get("CALHAMER_COMPILE", "").strip().lower() not in ("", "0", "no", "false")


# What the compiled build needs beyond setuptools (pip installs them in its build environment).
BUILD_REQUIRES = ["mypy>=2.4", "pydantic>=2.11"]


def _ext_modules() -> list:
    from mypyc.build import mypycify

    # _build.py imports only the standard library, so it is read here without calhamer's
    # dependencies installed.
    names = runpy.run_path(str(HERE / "src" / "calhamer" / "_build.py"))["COMPILED_MODULES"]
    paths = ["src/" + name.replace(".", "/") + ".py" for name in names]
    return mypycify(paths, opt_level=os.environ.get("CALHAMER_OPT_LEVEL", "3"))


# pip asks for the metadata first (egg_info, dist_info), then builds: only the build compiles.
_BUILDS = {"build", "build_ext", "bdist_wheel", "bdist", "install", "develop", "editable_wheel"}
_METADATA_ONLY = {"egg_info", "dist_info"}.intersection(sys.argv) and not _BUILDS.intersection(
    sys.argv
)

if not _wanted():
    setup()
else:
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        # In pip's build environment this asks for BUILD_REQUIRES: pip installs them and runs
        # this file again. Anywhere else, the build stops here rather than fall back silently.
        setup(setup_requires=BUILD_REQUIRES)
        raise SystemExit(
            "CALHAMER_COMPILE is set but mypyc is not installed: install mypy (which brings "
            "mypyc), or unset CALHAMER_COMPILE for the plain Python build"
        ) from None
    if _METADATA_ONLY:
        setup()  # the same metadata either way
    else:
        setup(ext_modules=_ext_modules())
