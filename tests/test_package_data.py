"""What a wheel carries: every file of the package that is not Python source is named by
``[tool.setuptools.package-data]`` in pyproject.toml. An editable install reads the source
tree and never notices a file left out; an installed wheel (the compiled build's, or a user's
``pip install``) would lack it (the godip and DPjudge boards' pictures did)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "calhamer"
SOURCE = {".py", ".pyc", ".pyi"}
BUILT = {".so", ".c", ".h", ".pyd"}  # what a compiled build leaves beside the source


def test_every_data_file_of_the_package_is_in_the_wheel() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["calhamer"]
    shipped = {path for pattern in patterns for path in PACKAGE.glob(pattern) if path.is_file()}
    data = {path for path in PACKAGE.rglob("*")
            if path.is_file() and path.suffix not in SOURCE | BUILT
            and "__pycache__" not in path.parts}
    assert data, "the package has data files (maps, templates): the search found none"
    assert sorted(str(p.relative_to(PACKAGE)) for p in data - shipped) == []
