"""The web judge under load, on loopback only (not a test).

Starts ``calhamer serve --no-worker`` on 127.0.0.1 with a fresh database, creates GAMES
standard games with seven players each through the JSON API, and then for each of PHASES
phases:

1. every player submits orders (``PUT /api/games/{id}/orders``) from CONCURRENCY client
   threads, timing each answer (an answer means the orders are committed);
2. the gamemasters ask for adjudication and WORKERS worker threads adjudicate every due
   phase, each timed from its claim to its commit (where the variant hides information the
   players' pictures are drawn and stored after that commit, timed apart).

It reports order-submission latency (p50, p99, max), each phase's adjudication time (p50,
max; a phase's transaction from claim to commit, stored views included) and phases
adjudicated per second, on SQLite and, when one answers at 127.0.0.1:5432 (database
``test``), on PostgreSQL in a schema of its own that is dropped afterwards::

    python benchmarks/load_server.py                 # both back ends, default sizes
    python benchmarks/load_server.py --games 50 --concurrency 32 --backend sqlite

With ``--rate R`` the submissions are sent open-loop instead: R a second for ``--seconds``,
each timed from the moment it was due to be sent (a late client counts against the server,
so queueing is not hidden), with the server's CPU time, the machine's load and wall time::

    python benchmarks/load_server.py --rate 200 --seconds 20 --web-workers 2 --concurrency 4

Open-loop, a few client threads are enough and measure the server better: many Python
threads in the client wait for its interpreter lock, and that wait shows as latency (16
threads gave a p99 of 130-160 ms where 4 gave 5-6 ms, the server unchanged).

The load is bounded (at most 200 games, 64 client threads, 10 phases, 400 a second for 60
seconds) and only ever sent to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text

HOST = "127.0.0.1"
POSTGRES = os.environ.get("CALHAMER_TEST_POSTGRES",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/test")
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) of a process and all its descendants, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / ticks
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += times.get(p, 0.0)
        todo += children.get(p, [])
    return total


@contextmanager
def server(database_url: str, web_workers: int = 1,  # type: ignore[no-untyped-def]
           worker: bool = False):
    port = free_port()
    # One client makes every game and guest: the limits on new games and guests are off.
    env = {**os.environ, "CALHAMER_SECRET_KEY": "load-test", "CALHAMER_DATABASE_URL": "",
           "CALHAMER_GAMES_PER_ACCOUNT": "0", "CALHAMER_GAMES_PER_ADDRESS": "0",
           "CALHAMER_GUESTS_PER_ADDRESS": "0"}
    extra = ["--workers", str(web_workers)] if web_workers > 1 else []
    log = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed in the finally below)
    proc = subprocess.Popen(
        [sys.executable, "-m", "calhamer.cli", "serve", "--host", HOST, "--port", str(port),
         *([] if worker else ["--no-worker"]), "--database", database_url,
         "--log-level", "warning", *extra],
        # The server's log goes to a file: a pipe nobody reads fills up and stalls the server.
        env=env, stdout=subprocess.DEVNULL, stderr=log, text=True,
    )
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/openapi.json", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise SystemExit(f"the server did not start: {log.read()}")
            time.sleep(0.2)
        yield base, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.seek(0)
        errors = [line.rstrip() for line in log if "ERROR" in line or "Traceback" in line]
        log.close()
        if errors:  # a benchmark whose server failed measures nothing: say so
            print(f"  the server logged {len(errors)} errors; the first: {errors[0]}")


@contextmanager
def postgres_schema():  # type: ignore[no-untyped-def]
    schema = f"calhamer_load_{secrets.token_hex(4)}"
    admin = create_engine(POSTGRES, connect_args={"connect_timeout": 3})
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def postgres_reachable() -> str | None:
    try:
        engine = create_engine(POSTGRES, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        engine.dispose()
    except Exception as exc:
        return str(exc).splitlines()[0]
    return None


def setup_games(client: httpx.Client, games: int,
                variant: str = "standard") -> list[dict[str, Any]]:
    made = []
    # One gamemaster for every game (the judge limits sign-ups per address); the players
    # are guests who join by invitation.
    r = client.post("/api/users", json={"username": "gm", "password": "load test pw"})
    r.raise_for_status()
    gm = {"Authorization": "Bearer " + r.json()["token"]}
    for n in range(games):
        r = client.post("/api/games", json={"name": f"load {n}", "variant": variant,
                                            "deadlines": {"movement": 0, "retreat": 0,
                                                          "adjustment": 0}}, headers=gm)
        r.raise_for_status()
        game = r.json()
        players = {}
        for seat in game["seats"]:
            r = client.post("/api/join", json={"invite": seat["invite_token"]})
            r.raise_for_status()
            players[seat["power"]] = {"Authorization": "Bearer " + r.json()["token"]}
        made.append({"id": game["id"], "gm": gm, "players": players})
    return made


def submit_all(base: str, games: list[dict[str, Any]], concurrency: int) -> list[float]:
    """Every player of every game saves orders (all its units hold); each answer's latency."""
    local = threading.local()

    def one(job: tuple[dict[str, Any], str]) -> float:
        game, power = job
        if not hasattr(local, "client"):
            local.client = httpx.Client(base_url=base, timeout=60)
        client: httpx.Client = local.client
        view = client.get(f"/api/games/{game['id']}", headers=game["players"][power]).json()
        phase = view["game"]["phase"]
        units = view["position"]["units"].get(power, [])
        orders = [f"{u} H" for u in units] if phase.endswith("M") else []
        started = time.perf_counter()
        r = client.put(f"/api/games/{game['id']}/orders", headers=game["players"][power],
                       json={"phase": phase, "orders": orders})
        elapsed = time.perf_counter() - started
        r.raise_for_status()
        return elapsed

    jobs = [(g, p) for g in games for p in POWERS]
    with ThreadPoolExecutor(concurrency) as pool:
        return list(pool.map(one, jobs))


def adjudicate_all(base: str, database_url: str, games: list[dict[str, Any]],
                   workers: int) -> tuple[list[float], list[float], float]:
    """Ask for every game's adjudication and let ``workers`` threads process them: each
    phase's time from claim to commit, each phase's time drawing and storing its players'
    pictures after that commit (where the variant hides information), and the wall time of
    them all."""
    from calhamer.server.config import Settings
    from calhamer.server.services import results
    from calhamer.server.worker import process_one

    with httpx.Client(base_url=base, timeout=60) as client:
        for game in games:
            # "process" names the phase it means (the judge refuses it otherwise)
            phase = client.get(f"/api/games/{game['id']}", headers=game["gm"]).json()
            client.post(f"/api/games/{game['id']}/control",
                        json={"action": "process", "phase": phase["game"]["phase"]},
                        headers=game["gm"]).raise_for_status()
    settings = Settings(database_url=database_url)
    db = settings.open_database()
    times: list[float] = []
    picture_times: list[float] = []
    lock = threading.Lock()
    drawing = threading.local()
    store_pictures = results.store_pictures

    def timed_pictures(*args: Any, **kwargs: Any) -> None:
        started = time.perf_counter()
        try:
            store_pictures(*args, **kwargs)
        finally:
            drawing.seconds = time.perf_counter() - started

    def drain(n: int) -> None:
        while True:
            drawing.seconds = 0.0
            started = time.perf_counter()
            got = process_one(db, settings, name=f"load-worker-{n}")
            elapsed = time.perf_counter() - started
            if got is None:
                return
            if got.endswith("failed"):
                raise SystemExit(f"adjudication failed: {got}")
            with lock:
                # the pictures' transaction begins after the phase's commit: the rest of
                # the time is the phase's, from claim to commit
                times.append(elapsed - drawing.seconds)
                if drawing.seconds:
                    picture_times.append(drawing.seconds)

    results.store_pictures = timed_pictures  # type: ignore[assignment]
    try:
        started = time.perf_counter()
        threads = [threading.Thread(target=drain, args=(n,)) for n in range(workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
    finally:
        results.store_pictures = store_pictures  # type: ignore[assignment]
    db.dispose()
    return times, picture_times, elapsed


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(label: str, database_url: str, args: argparse.Namespace) -> None:
    if args.rate:
        run_rate(label, database_url, args)
        return
    with server(database_url, args.web_workers) as (base, _pid), \
            httpx.Client(base_url=base, timeout=60) as client:
        games = setup_games(client, args.games, args.variant)
        latencies: list[float] = []
        phase_times: list[float] = []
        picture_times: list[float] = []
        adjudication_time = 0.0
        for _ in range(args.phases):
            latencies += submit_all(base, games, args.concurrency)
            times, drawn, seconds = adjudicate_all(base, database_url, games, args.workers)
            phase_times += times
            picture_times += drawn
            adjudication_time += seconds
    ms = [x * 1000 for x in latencies]
    print(f"{label}: {args.games} {args.variant} games x 7 players, {args.phases} phases, "
          f"{args.concurrency} client threads, {args.workers} worker threads, "
          f"{args.web_workers} web process(es)")
    print(f"  order submissions: {len(ms)}, latency p50 {percentile(ms, 0.5):.1f} ms, "
          f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms, "
          f"mean {statistics.fmean(ms):.1f} ms")
    adjudicated = len(phase_times)
    rate = adjudicated / adjudication_time if adjudication_time else 0.0
    each = [x * 1000 for x in phase_times]
    print(f"  phases adjudicated: {adjudicated} in {adjudication_time:.2f} s, "
          f"{rate:.1f} phases/s; each phase from claim to commit p50 "
          f"{percentile(each, 0.5):.1f} ms, max {max(each):.1f} ms")
    if picture_times:
        drawn = [x * 1000 for x in picture_times]
        print(f"  players' pictures, drawn and stored after each commit: p50 "
              f"{percentile(drawn, 0.5):.1f} ms, max {max(drawn):.1f} ms a phase")


def run_rate(label: str, database_url: str, args: argparse.Namespace) -> None:
    """Order submissions sent open-loop at ``args.rate`` a second for ``args.seconds``."""
    with server(database_url, args.web_workers) as (base, pid), \
            httpx.Client(base_url=base, timeout=60) as client:
        games = setup_games(client, args.games, args.variant)
        jobs = []
        for game in games:
            for power, headers in game["players"].items():
                view = client.get(f"/api/games/{game['id']}", headers=headers).json()
                units = view["position"]["units"].get(power, [])
                jobs.append((game["id"], headers, {"phase": view["game"]["phase"],
                                                    "orders": [f"{u} H" for u in units]}))
        total = int(args.rate * args.seconds)
        local = threading.local()
        latencies: list[float] = [0.0] * total
        errors: list[str] = []

        def one(n: int, due: float) -> None:
            if not hasattr(local, "client"):
                local.client = httpx.Client(base_url=base, timeout=60)
            game_id, headers, body = jobs[n % len(jobs)]
            r = local.client.put(f"/api/games/{game_id}/orders", headers=headers, json=body)
            latencies[n] = time.perf_counter() - due
            if r.status_code != 200:
                errors.append(f"{r.status_code} {r.text[:200]}")

        # warm the server's connections and caches, untimed
        with ThreadPoolExecutor(args.concurrency) as pool:
            list(pool.map(lambda n: one(n, time.perf_counter()), range(min(total, 200))))
        load_before = os.getloadavg()
        cpu_before = cpu_seconds(pid)
        client_cpu_before = time.process_time()
        started = time.perf_counter()
        with ThreadPoolExecutor(args.concurrency) as pool:
            for n in range(total):
                due = started + n / args.rate
                wait = due - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                pool.submit(one, n, due)
        wall = time.perf_counter() - started
        server_cpu = cpu_seconds(pid) - cpu_before
        client_cpu = time.process_time() - client_cpu_before
        load_after = os.getloadavg()
    if errors:
        raise SystemExit(f"{len(errors)} submissions failed, the first: {errors[0]}")
    ms = [x * 1000 for x in latencies]
    print(f"{label}: {total} order submissions at {args.rate:g}/s for {args.seconds:g} s "
          f"({args.games} games, {args.concurrency} client threads, "
          f"{args.web_workers} web process(es))")
    print(f"  latency from when due: p50 {percentile(ms, 0.5):.1f} ms, "
          f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms, "
          f"mean {statistics.fmean(ms):.1f} ms")
    print(f"  wall {wall:.1f} s (achieved {total / wall:.0f}/s); server CPU {server_cpu:.1f} s "
          f"({server_cpu / total * 1000:.2f} ms a submission), client CPU {client_cpu:.1f} s; "
          f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after "
          f"({os.cpu_count()} cores)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games (at most 200)")
    parser.add_argument("--phases", type=int, default=2, help="phases per game (at most 10)")
    parser.add_argument("--concurrency", type=int, default=16,
                        help="client threads submitting orders (at most 64)")
    parser.add_argument("--workers", type=int, default=2, help="worker threads (at most 8)")
    parser.add_argument("--web-workers", type=int, default=1,
                        help="web server processes (calhamer serve --workers; at most 8)")
    parser.add_argument("--variant", default="standard",
                        help="the games' variant (kriegsplomacy: stored views)")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="send order submissions open-loop, so many a second (at most 400)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="how long to send at --rate (at most 60)")
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--pages", type=int, default=0,
                        help="live pages held open meanwhile (live_pages.py; at most 1000)")
    args = parser.parse_args()
    if args.pages:
        from live_pages import main as live_main

        live_main(args)
        return
    args.games = max(1, min(args.games, 200))
    args.phases = max(1, min(args.phases, 10))
    args.concurrency = max(1, min(args.concurrency, 64))
    args.workers = max(1, min(args.workers, 8))
    args.web_workers = max(1, min(args.web_workers, 8))
    args.rate = max(0.0, min(args.rate, 400.0))
    args.seconds = max(1.0, min(args.seconds, 60.0))
    on_backends(run, args)


def on_backends(run: Any, args: argparse.Namespace) -> None:
    """``run(label, database_url, args)`` on the back ends ``args.backend`` names: SQLite in
    a fresh file, PostgreSQL in a schema of its own (skipped, with why, when not reachable)."""
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            run("SQLite", f"sqlite:///{Path(tmp) / 'judge.db'}", args)
    if args.backend in ("postgresql", "both"):
        problem = postgres_reachable()
        if problem:
            print(f"PostgreSQL: skipped, not reachable at {POSTGRES}: {problem}")
        else:
            with postgres_schema() as url:
                run("PostgreSQL", url, args)


if __name__ == "__main__":
    main()
