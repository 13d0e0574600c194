"""Games played by bots, many at once: the engine of ``calhamer simulate``.

:func:`play_game` plays one game to its end (a solo, the last power standing, or the year
limit) with one policy (:mod:`calhamer.bots`) for every power. Everything random in a game
comes from its seed, ``"<seed>:<number>"``: each power's generator in each phase, and the dice
seeds of a variant that throws dice. So game ``n`` of a run is the same game whichever
process or machine plays it, and :func:`run` returns the same results for a seed with one
worker, all cores (``multiprocessing``) or a Dask cluster.

Why Dask rather than Ray for clusters: Dask distributed is pure Python (installs anywhere pip
does, with no native runtime or object store to run beside it), its ``LocalCluster`` starts in
a test in seconds, and ``Client.map`` over game numbers is all this needs; Ray's actor and
object-store machinery would be unused weight here.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, NamedTuple, TypeVar

from calhamer.bots import Policy, greedy_policy, random_policy
from calhamer.errors import CalhamerError
from calhamer.game import Game

__all__ = ["GameSpec", "Played", "Summary", "load_policy", "play_game", "run", "run_played",
           "timed"]

_POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


def load_policy(name: str) -> Policy:
    """``random`` (:func:`calhamer.bots.random_policy`), ``greedy``
    (:func:`calhamer.bots.greedy_policy`) or ``module:function``."""
    if name in _POLICIES:
        return _POLICIES[name]
    module, _, attr = name.partition(":")
    if not module or not attr:
        raise CalhamerError(f"a policy is 'random', 'greedy' or 'module:function', not {name!r}")
    try:
        policy = getattr(import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise CalhamerError(f"the policy {name!r} could not be loaded: {exc}") from None
    if not callable(policy):
        raise CalhamerError(f"the policy {name!r} is not callable")
    return policy  # type: ignore[no-any-return]


@dataclass(frozen=True)
class GameSpec:
    """What every game of a run shares (sent to each worker)."""

    variant: str = "standard"
    policy: str = "random"
    max_year: int = 1905
    seed: str = "0"
    keep_game: bool = True  # the whole game file in each result line


def _dice_seeds(game_seed: str) -> Callable[[], str]:
    counter = iter(range(1 << 30))
    import hashlib  # loaded when a game is played, not by the command line's start

    return lambda: hashlib.sha256(f"{game_seed}:dice:{next(counter)}".encode()).hexdigest()


def play_game(spec: GameSpec, number: int, policy: Policy | None = None) -> dict[str, Any]:
    """Play game ``number`` of a run to its end; the result line written for it."""
    policy = policy or load_policy(spec.policy)
    game_seed = f"{spec.seed}:{number}"
    game = Game.new(spec.variant, new_seed=_dice_seeds(game_seed), max_year=spec.max_year)
    while not game.is_done():
        for power in game.powers():
            options = game.possible_orders(power)
            view = game.bot_view(power)
            view.rng = random.Random(f"{game_seed}:{game.phase}:{power}")
            orders = list(policy(view, options))
            if orders:
                game.set_orders(power, orders, check=False)
        game.process()
    end = game.result()
    assert end is not None
    line: dict[str, Any] = {
        "number": number,
        "seed": game_seed,
        "variant": game.variant,
        "phases": len(game.phases),
        "last_phase": game.phase,
        "result": end.to_json(),
        "centres": {p: n for p, n in game.current.center_counts().items()
                    if not game.current.map.is_minor(p)},
    }
    if spec.keep_game:
        line["game"] = game.to_json()
    return line


def _play(args: tuple[GameSpec, int]) -> dict[str, Any]:
    return play_game(*args)


class Played(NamedTuple):
    """One game's result line as a worker sends it back: the JSON text written as it is, and
    the few fields the summary counts (so the line is never read back to be counted)."""

    text: str
    phases: int
    ending: str
    winners: tuple[str, ...]


def _played(line: dict[str, Any]) -> Played:
    result = line["result"]
    return Played(json.dumps(line), line["phases"], result["ending"], tuple(result["winners"]))


def _play_batch(job: tuple[GameSpec, range]) -> list[Played]:
    """A worker's batch of games, each sent back as text: one message for several games, and
    no nested objects to pickle."""
    spec, numbers = job
    policy = load_policy(spec.policy)
    return [_played(play_game(spec, n, policy)) for n in numbers]


def _warm(spec: GameSpec) -> None:
    """A worker's start: the variant, its board and the policy loaded once, before the first
    batch, rather than in the first game."""
    from calhamer.position import Position
    from calhamer.variants import find_variant

    load_policy(spec.policy)
    Position.initial(variant=find_variant(spec.variant))


def _batches(games: int, workers: int) -> list[range]:
    """Game numbers in batches: several per worker, so that a worker that drew long games
    is not left alone at the end, and few enough that each message carries several games."""
    size = max(1, min(16, games // (workers * 4)))
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


@dataclass
class Summary:
    """What a run came to: how many games, how fast, how they ended."""

    games: int = 0
    seconds: float = 0.0
    endings: Counter[str] = field(default_factory=Counter)
    solos: Counter[str] = field(default_factory=Counter)
    phases: int = 0

    def add(self, line: dict[str, Any] | Played) -> None:
        played = line if isinstance(line, Played) else _played(line)
        self.games += 1
        self.phases += played.phases
        self.endings[played.ending] += 1
        if played.ending != "draw":
            self.solos[played.winners[0]] += 1

    def text(self) -> str:
        rate = self.games / self.seconds if self.seconds else float("inf")
        ends = ", ".join(f"{n} {e}" for e, n in sorted(self.endings.items())) or "none"
        lines = [f"{self.games} games in {self.seconds:.1f} s ({rate:.2f} games/s, "
                 f"{self.phases / max(self.games, 1):.1f} phases each)", f"endings: {ends}"]
        if self.solos:
            lines.append("won by: " + ", ".join(f"{p} {n}" for p, n in self.solos.most_common()))
        return "\n".join(lines)


def run(
    spec: GameSpec,
    games: int,
    *,
    workers: int | None = None,
    dask: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Play games ``0`` to ``games - 1``; yield each result line in the order of the games.

    ``workers``: processes on this machine (None: every core; 1: this process), each started
    once and given the games in batches. ``dask``: the address of a Dask scheduler, or
    ``"local"`` for a local Dask cluster of ``workers`` processes (the ``cluster`` extra).
    The lines are the same whichever is used.
    """
    for played in run_played(spec, games, workers=workers, dask=dask):
        yield json.loads(played.text)


def run_played(
    spec: GameSpec,
    games: int,
    *,
    workers: int | None = None,
    dask: str | None = None,
) -> Iterator[Played]:
    """:func:`run`'s games as the workers send them back (:class:`Played`), in the order of
    the games: what ``calhamer simulate`` writes without reading each line back."""
    load_policy(spec.policy)  # a bad name fails here, not in every worker
    if dask is not None:
        for line in _run_dask([(spec, n) for n in range(games)], dask, workers):
            yield _played(line)
        return
    if workers is None:
        import os

        workers = os.cpu_count() or 1
    if workers <= 1 or games <= 1:
        policy = load_policy(spec.policy)
        for n in range(games):
            yield _played(play_game(spec, n, policy))
        return
    import multiprocessing

    count = min(workers, games)
    jobs = [(spec, numbers) for numbers in _batches(games, count)]
    with multiprocessing.get_context("spawn").Pool(count, _warm, (spec,)) as pool:
        for batch in pool.imap(_play_batch, jobs):
            yield from batch


def _run_dask(jobs: list[tuple[GameSpec, int]], address: str, workers: int | None
              ) -> Iterator[dict[str, Any]]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise CalhamerError("a Dask cluster needs the cluster extra: "
                            "pip install 'calhamer[cluster]'") from None
    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=workers or None, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(address)
    try:
        futures = client.map(_play, jobs, pure=False)
        for future in futures:  # in the order of the games
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


_Line = TypeVar("_Line", dict[str, Any], Played)


def timed(lines: Iterator[_Line], summary: Summary) -> Iterator[_Line]:
    """``lines`` passed through, counted into ``summary`` (time included)."""
    start = time.perf_counter()
    for line in lines:
        summary.add(line)
        summary.seconds = time.perf_counter() - start
        yield line
