"""The library without the web: ``pip install calhamer`` pulls no web or picture package, and a
command whose extra is missing says which extra to install, in one line."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from importlib import metadata

SERVER_ONLY = {"fastapi", "uvicorn", "sqlalchemy", "alembic", "jinja2", "python-multipart",
               "argon2-cffi", "psycopg", "platformdirs", "itsdangerous"}
PICTURES_ONLY = {"cairosvg"}


def _requirements() -> list[tuple[str, str | None]]:
    """Each requirement of the installed calhamer: its name and the extra it belongs to."""
    out = []
    for line in metadata.requires("calhamer") or []:
        name = re.match(r"[A-Za-z0-9_.-]+", line).group(0).lower()  # type: ignore[union-attr]
        extra = re.search(r"""extra\s*==\s*["']([^"']+)["']""", line)
        out.append((name, extra.group(1) if extra else None))
    return out


def test_a_plain_install_pulls_nothing_of_the_web_or_of_cairo() -> None:
    plain = {name for name, extra in _requirements() if extra is None}
    # pydantic is the library's one dependency (its document models; tests/test_documents.py);
    # an install made before it was added lists none.
    assert plain <= {"pydantic"}
    assert not plain & (SERVER_ONLY | PICTURES_ONLY)


def test_the_extras_hold_the_web_judge_and_the_pictures() -> None:
    by_extra: dict[str | None, set[str]] = {}
    for name, extra in _requirements():
        by_extra.setdefault(extra, set()).add(name)
    assert by_extra["server"] >= SERVER_ONLY
    assert by_extra["png"] >= PICTURES_ONLY
    assert by_extra["all"] == {"calhamer"}


# Run a command with the web judge's packages missing, as after ``pip install calhamer``.
WITHOUT = textwrap.dedent('''
    import sys

    class Missing:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {"fastapi", "uvicorn", "sqlalchemy", "starlette"}:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Missing())
    from calhamer.cli import main
    sys.exit(main(sys.argv[1:]))
''')


def _run_without_server(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", WITHOUT, *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_serve_without_the_server_extra_says_which_to_install() -> None:
    done = _run_without_server("serve", "--port", "1")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "calhamer: the web judge needs uvicorn, which is in the server extra: "
        "pip install 'calhamer[server]'"]


def test_worker_without_the_server_extra_says_which_to_install() -> None:
    done = _run_without_server("worker", "--once")
    assert done.returncode == 2
    assert "pip install 'calhamer[server]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_library_and_other_commands_work_without_the_server() -> None:
    done = _run_without_server("new")
    assert done.returncode == 0 and '"phase": "S1901M"' in done.stdout
    listed = _run_without_server("variants")
    assert listed.returncode == 0 and "kriegsplomacy" in listed.stdout


def test_the_command_line_loads_neither_the_web_judge_nor_every_variant() -> None:
    script = ("import sys\nfrom calhamer.cli import build_parser\nbuild_parser()\n"
              "print('\\n'.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True).stdout.split()
    assert not [m for m in loaded if m.startswith(("fastapi", "sqlalchemy", "calhamer.server"))]
    assert not [m for m in loaded if m.startswith("calhamer.variants.")]
