"""``calhamer serve`` and ``calhamer worker`` from the command line; the library stays light."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx

from calhamer.cli import main


def test_the_library_and_cli_do_not_load_the_server():
    code = ("import sys, calhamer, calhamer.cli, calhamer.game; "
            "print(sorted(m for m in ('fastapi', 'sqlalchemy', 'uvicorn', 'alembic') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_serve_and_worker_are_documented(capsys):
    assert main(["serve", "--help"]) == 0
    assert "CALHAMER_DATABASE_URL" in capsys.readouterr().out
    assert main(["worker", "--help"]) == 0
    assert "exactly once" in capsys.readouterr().out


def test_serve_answers_on_loopback(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("CALHAMER_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "calhamer.cli", "serve", "--port", str(port),
                             "--log-level", "warning"], env=env, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.HTTPError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "calhamer serve did not answer"
                time.sleep(0.2)
        assert r.status_code == 200 and "New game" in r.text
        assert (tmp_path / "data" / "calhamer" / "calhamer.db").exists()  # the default place
    finally:
        proc.terminate()
        proc.wait(timeout=20)
