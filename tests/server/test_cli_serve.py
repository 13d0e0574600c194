"""``calhamer serve`` and ``calhamer worker`` from the command line; the library stays light."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import httpx
import pytest

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


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            if parent == pid:
                out.append(int(entry))
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_serve_with_several_processes(tmp_path):
    """``--workers 2``: two web processes on one port and one database, sharing the key that
    signs tokens (a token one process made is good in the other)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("CALHAMER_DATABASE_URL", None)
    env.pop("CALHAMER_SECRET_KEY", None)
    url = f"sqlite:///{tmp_path / 'judge.db'}"
    proc = subprocess.Popen([sys.executable, "-m", "calhamer.cli", "serve", "--port", str(port),
                             "--workers", "2", "--database", url, "--log-level", "warning"],
                            env=env, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(base + "/", timeout=2).status_code == 200 and \
                        len(_children(proc.pid)) >= 2:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "calhamer serve --workers 2 did not answer"
            time.sleep(0.2)
        r = httpx.post(base + "/api/users", json={"username": "pat", "password": "long password"})
        assert r.status_code == 201, r.text
        headers = {"Authorization": f"Bearer {r.json()['token']}"}
        for _ in range(10):  # new connections, spread over both processes
            me = httpx.get(base + "/api/me", headers=headers, timeout=10)
            assert me.status_code == 200 and me.json()["username"] == "pat", me.text
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_serve_refuses_a_bad_number_of_processes(capsys):
    assert main(["serve", "--workers", "0"]) != 0
    assert "from 1 to 64" in capsys.readouterr().err
