"""Live pages under load (not a test): PAGES open event streams on one web process while
players save orders open-loop at RATE a second; then every game's phase is judged (by the
web process's embedded worker) and each page's time to hear of it is taken from its game's
commit (``phases.processed_at``). Reports the saves' latency (p50, p99, max, each from when
it was due) and the pages' time to hear (p50, p99, max)::

    python benchmarks/load_server.py --pages 1000 --rate 200 --seconds 10
    python benchmarks/live_pages.py --pages 1000 --rate 200 --seconds 10 --backend sqlite

Each page is one player's (seven to a game); a stream that ends is opened again, as a
browser's EventSource does. Only ever sent to 127.0.0.1; at most 1000 pages.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import httpx
from load_server import HOST, cpu_seconds, on_backends, percentile, server, setup_games
from sqlalchemy import create_engine, text


class Pages:
    """PAGES event streams read by one asyncio loop in a thread of its own."""

    def __init__(self, port: int, pages: list[tuple[str, dict[str, str]]]) -> None:
        self.port = port
        self.pages = pages
        self.opened = 0
        self.refused: list[str] = []
        self.heard: dict[int, float] = {}  # page -> wall time it heard of a new phase
        self.start_phase = "S1901M"
        self._stop = False
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_until_complete,
                                        args=(self._all(),), daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop = True
        self._thread.join(timeout=60)

    async def _all(self) -> None:
        await asyncio.gather(*(self._page(n) for n in range(len(self.pages))))

    async def _page(self, n: int) -> None:
        game_id, headers = self.pages[n]
        first = True
        while not self._stop and n not in self.heard:
            try:
                reader, writer = await asyncio.open_connection(HOST, self.port)
            except OSError:
                await asyncio.sleep(1)
                continue
            auth = headers["Authorization"]
            writer.write(f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: {HOST}\r\n"
                         f"Authorization: {auth}\r\nAccept: text/event-stream\r\n\r\n".encode())
            await writer.drain()
            status = (await reader.readline()).decode()
            if " 200 " not in status:
                self.refused.append(status.strip())
                writer.close()
                await asyncio.sleep(2)
                continue
            if first:
                self.opened += 1
                first = False
            try:
                while not self._stop:
                    try:  # a quiet stream stays open, as EventSource keeps it
                        line = await asyncio.wait_for(reader.readline(), 1.0)
                    except TimeoutError:
                        continue
                    if not line:
                        break  # the stream ended: open it again, as EventSource does
                    if line.startswith(b'data: {"phase"') and \
                            f'"{self.start_phase}"'.encode() not in line:
                        self.heard[n] = time.time()
                        break
            except OSError:
                pass
            finally:
                writer.close()
            if n not in self.heard and not self._stop:
                await asyncio.sleep(0.1)


def run(label: str, database_url: str, args: argparse.Namespace) -> None:
    with server(database_url, worker=True) as (base, pid), \
            httpx.Client(base_url=base, timeout=60) as client:
        port = int(base.rsplit(":", 1)[1])
        games = setup_games(client, max(1, (args.pages + 6) // 7))
        jobs, pages = [], []
        for game in games:
            for power, headers in game["players"].items():
                view = client.get(f"/api/games/{game['id']}", headers=headers).json()
                units = view["position"]["units"].get(power, [])
                jobs.append((game["id"], headers, {"phase": view["game"]["phase"],
                                                    "orders": [f"{u} H" for u in units]}))
                pages.append((game["id"], headers))
        pages = pages[:args.pages]
        live = Pages(port, pages)
        live.start()
        deadline = time.monotonic() + 120
        while live.opened < len(pages) and time.monotonic() < deadline:
            time.sleep(0.2)
        opened = live.opened
        latencies, errors, wall, server_cpu = _saves(base, pid, jobs, args)
        load = os.getloadavg()[0]
        # every game's phase judged by the embedded worker; each page hears of it
        for game in games:
            client.post(f"/api/games/{game['id']}/control",
                        json={"action": "process", "phase": "S1901M"},
                        headers=game["gm"]).raise_for_status()
        deadline = time.monotonic() + 120
        while len(live.heard) < len(pages) and time.monotonic() < deadline:
            time.sleep(0.2)
        live.stop()
        judged = _judged_at(database_url)
    told = [live.heard[n] - judged[pages[n][0]] for n in live.heard if pages[n][0] in judged]
    ms = [x * 1000 for x in latencies]
    print(f"{label}: {len(pages)} live pages ({opened} opened), {len(ms)} order saves at "
          f"{args.rate:g}/s for {args.seconds:g} s, 1 web process with its worker")
    if errors:
        print(f"  {len(errors)} saves failed, the first: {errors[0]}")
    print(f"  saves from when due: p50 {percentile(ms, 0.5):.1f} ms, p99 "
          f"{percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms; achieved "
          f"{len(ms) / wall:.0f}/s; server CPU {server_cpu:.1f} s; load {load:.1f} "
          f"({os.cpu_count()} cores)")
    if told:
        print(f"  pages told of the new phase: {len(told)} of {len(pages)}; from their game's "
              f"commit p50 {percentile(told, 0.5) * 1000:.0f} ms, p99 "
              f"{percentile(told, 0.99) * 1000:.0f} ms, max {max(told) * 1000:.0f} ms")
    if live.refused:
        print(f"  streams refused: {len(live.refused)} ({live.refused[0]})")


def _saves(base: str, pid: int, jobs: list[Any],
           args: argparse.Namespace) -> tuple[list[float], list[str], float, float]:
    total = int(args.rate * args.seconds)
    local = threading.local()
    latencies = [0.0] * total
    errors: list[str] = []

    def one(n: int, due: float) -> None:
        if not hasattr(local, "client"):
            local.client = httpx.Client(base_url=base, timeout=60)
        game_id, headers, body = jobs[n % len(jobs)]
        r = local.client.put(f"/api/games/{game_id}/orders", headers=headers, json=body)
        latencies[n] = time.perf_counter() - due
        if r.status_code != 200:
            errors.append(f"{r.status_code} {r.text[:200]}")

    cpu_before = cpu_seconds(pid)
    started = time.perf_counter()
    with ThreadPoolExecutor(args.concurrency) as pool:
        for n in range(total):
            due = started + n / args.rate
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            pool.submit(one, n, due)
    return latencies, errors, time.perf_counter() - started, cpu_seconds(pid) - cpu_before


def _judged_at(database_url: str) -> dict[str, float]:
    """Each game's first phase's commit, as a wall time (processed_at is naive UTC)."""
    engine = create_engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT game_id, processed_at FROM phases WHERE "
                                 "processed_at IS NOT NULL AND code = 'S1901M'")).all()
    engine.dispose()
    out = {}
    for game_id, at in rows:
        if isinstance(at, str):
            at = datetime.fromisoformat(at)
        out[game_id] = at.replace(tzinfo=UTC).timestamp()
    return out


def main(args: argparse.Namespace | None = None) -> None:
    if args is None:
        parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
        parser.add_argument("--pages", type=int, default=1000)
        parser.add_argument("--rate", type=float, default=200.0)
        parser.add_argument("--seconds", type=float, default=10.0)
        parser.add_argument("--concurrency", type=int, default=4)
        parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"],
                            default="both")
        args = parser.parse_args()
    args.pages = max(1, min(args.pages, 1000))
    args.rate = max(1.0, min(args.rate or 200.0, 400.0))
    args.seconds = max(1.0, min(args.seconds, 60.0))
    on_backends(run, args)


if __name__ == "__main__":
    main()
