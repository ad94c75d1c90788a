"""A run as plain data (RunSpec), and its games played by the workers of a Dask cluster.

Compiled cards are closures and do not pickle, so a cluster's workers get the run as data (card
folders, Kingdom, bot names, options) and set it up again themselves (`build_setup`); they send
back plain Results, added up here in game order: the results of one process with the same seed.
Above kingdom/lab/simulate.py, since setting a run up resolves its bots by name
(kingdom/lab/roster.py), and a bot may itself play games to choose its buys (autobots.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kingdom.lab import roster
from kingdom.lab.results import Results
from kingdom.lab.simulate import CHUNK, Setup, random_kingdom, run_range
from kingdom.runtime.library import Library
from kingdom.runtime.setup import RANDOM


@dataclass(frozen=True)
class RunSpec:
    """A run as plain data, from which any process sets it up again (`build_setup`): cards are
    closures and do not pickle, so the workers of a cluster compile them from the same folders."""

    bots: tuple[str, ...]  # names or strategy files, as --bots takes them
    kingdom: tuple[str, ...] = ()  # the Kingdom piles; with `sets`, drawn at random instead
    sets: tuple[str, ...] = ()  # a random Kingdom from these sets (Bane, Ferryman too)
    cards: tuple[str, ...] = ()  # card folders besides the built-in ones and KINGDOM_PATH's
    players: int = 2
    max_turns: int = 500
    check_invariants: bool = False
    colonies: bool = False
    ally: str | None = RANDOM
    choices: tuple[tuple[str, str], ...] = ()  # ("bane", pile), ("ferryman", pile)
    detail: bool = False
    decisions: bool = False


def build_setup(spec: RunSpec, library: Library | None = None) -> Setup:
    """The Setup of a run: its cards compiled (unless given), its bots resolved. A random
    Kingdom's games draw their Bane, Ferryman's pile and Ally from the chosen sets only."""
    from kingdom.print.randomizer import owned

    if library is None:
        from kingdom.compiler.build import compile_folders
        from kingdom.compiler.expansions import discover

        library, _ = compile_folders(discover(list(spec.cards)))
    bots = [roster.resolve_bot(name, library) for name in spec.bots]
    kingdom: list[str] | Callable[[int], list[str]] = list(spec.kingdom)
    games_library = library
    if spec.sets:
        kingdom = random_kingdom(library, spec.sets)
        named = [name for _key, name in spec.choices] + ([spec.ally] if spec.ally else [])
        games_library = owned(library, named, list(spec.sets))
    return Setup(games_library, kingdom, bots, players=spec.players, max_turns=spec.max_turns,
                 check_invariants=spec.check_invariants, colonies=spec.colonies,
                 ally=spec.ally, choices=dict(spec.choices), detail=spec.detail,
                 decisions=spec.decisions)


# ------------------------------------------------------------------------------ a cluster
class ClusterError(Exception):
    """The cluster cannot be used: Dask missing, the scheduler unreachable, no workers."""


CLUSTER_TIMEOUT = 3.0  # seconds to reach the scheduler, and then to find a worker
TASK_TIMEOUT = 300.0  # seconds without any range of games coming back: a worker is stuck
POLL = 0.05  # seconds between looks at what came back


@dataclass(frozen=True)
class ClusterRunner:
    """A Runner (kingdom/lab/simulate.py) whose games the workers of a Dask cluster play
    (`address`: the scheduler's address), compiling the `cards` folders themselves."""

    address: Any
    cards: tuple[str, ...] = ()
    task_timeout: float = TASK_TIMEOUT

    def play(self, setup: Setup, bots: tuple[str, ...], games: int, seed: int) -> Results:
        spec = RunSpec(bots, tuple(setup.kingdom), cards=self.cards, players=setup.players,
                       max_turns=setup.max_turns)
        return simulate_on_cluster(self.address, spec, games, seed, task_timeout=self.task_timeout)


def simulate_on_cluster(address: Any, spec: RunSpec, games: int, seed: int = 1,
                        progress: Callable[[int], None] | None = None,
                        timeout: float = CLUSTER_TIMEOUT,
                        task_timeout: float = TASK_TIMEOUT) -> Results:
    """`simulate` played by the workers of a Dask cluster (`address`: the scheduler's, such as
    tcp://host:8786, or a LocalCluster). Each task is a range of game indexes: the worker sets
    the run up from `spec` itself (`build_setup`, once per worker process) and sends back the
    Results of the range; they are added up here in game order, so the results are those of one
    process with the same seed. When no range comes back for `task_timeout` seconds, the ranges
    still out are played again once on the other workers (`_collect`). Raises ClusterError when
    the cluster cannot be used, or its workers stay silent."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install 'kingdom[cluster]'") from None
    if isinstance(address, str):
        check_reachable(address, timeout)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                           f"({exc})") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"the Dask scheduler at {address} has no worker ({exc})") from None
        parts = _collect(client, spec, seed, games, task_timeout, progress)
    first, *rest = sorted(parts)
    results = parts[first]
    for start in rest:  # in game order, as one process adds them up
        results.merge(parts[start])
    return results


def _collect(client: Any, spec: RunSpec, seed: int, games: int, task_timeout: float,
             progress: Callable[[int], None] | None) -> dict[int, Results]:
    """The Results of every range of games (by first index), each checked to be Results (what a
    worker sends is unpickled here: README, "--cluster"). A range a silent worker holds is
    played again on the others once; silent again, or with no other worker, it is a
    ClusterError naming the ranges and the workers."""
    from distributed import as_completed

    def submit(start: int, workers: list[str] | None = None) -> Any:
        where = {} if workers is None else {"workers": workers, "allow_other_workers": False}
        return client.submit(_play_on_worker, spec, seed, start, min(start + CHUNK, games),
                             pure=False, **where)

    pending = {submit(start): start for start in range(0, games, CHUNK)}
    arriving = as_completed(list(pending), loop=client.loop)
    parts: dict[int, Results] = {}
    played_again = False
    deadline = time.monotonic() + task_timeout
    while pending:
        done = [f for f in arriving.next_batch(block=False) if f in pending]  # (not cancelled)
        if done:
            deadline = time.monotonic() + task_timeout
        elif time.monotonic() < deadline:
            time.sleep(POLL)
            continue
        else:
            silent = _holders(client, pending)
            others = [w for w in client.scheduler_info()["workers"] if w not in silent]
            if played_again or not others:
                client.cancel(list(pending))
                ranges = ", ".join(f"{s}-{min(s + CHUNK, games) - 1}" for s in sorted(pending.values()))
                raise ClusterError(
                    f"no range of games came back within {task_timeout:g} s; games {ranges} are "
                    f"still out (on {', '.join(sorted(silent)) or 'no worker'}): a worker is "
                    "stuck or stopped (--task-timeout sets the wait)") from None
            client.cancel(list(pending))
            pending = {submit(start, others): start for start in pending.values()}
            for future in pending:
                arriving.add(future)
            played_again = True
            deadline = time.monotonic() + task_timeout
            continue
        for future in done:
            start = pending.pop(future)
            try:
                part = future.result()
            except Exception as exc:  # setting the run up failed there: cards, bot files
                client.cancel(list(pending))
                raise ClusterError(f"a worker could not play its games: "
                                   f"{type(exc).__name__}: {exc}") from None
            if type(part) is not Results:
                client.cancel(list(pending))
                raise ClusterError(f"a worker sent back {type(part).__name__}, not the Results "
                                   f"of games {start}-{min(start + CHUNK, games) - 1}")
            parts[start] = part
            if progress:
                progress(min(CHUNK, games - start))
    return parts


def _holders(client: Any, futures: dict[Any, int]) -> set[str]:
    """The workers processing any of `futures`."""
    keys = {future.key for future in futures}
    return {worker for worker, held in client.processing().items() if keys & set(held)}


def check_reachable(address: str, timeout: float) -> None:
    """A ClusterError, within `timeout`, for an address that is not one, where nothing answers,
    or where what answers is not a Dask scheduler (its handshake fails)."""
    import asyncio

    from distributed.comm import connect, parse_address

    try:
        parse_address(address)
    except (ValueError, TypeError) as exc:
        raise ClusterError(f"'{address}' is not a scheduler address ({exc}); one looks like "
                           "tcp://127.0.0.1:8786") from None

    async def handshake() -> None:
        comm = await asyncio.wait_for(connect(address, timeout=timeout), timeout)
        await comm.close()

    try:
        asyncio.run(handshake())
    except Exception as exc:  # refused, timed out, or garbage from something not Dask
        reason = (exc.strerror if isinstance(exc, OSError) and exc.strerror
                  else f"{type(exc).__name__}: {exc}"[:200])
        raise ClusterError(f"cannot reach a Dask scheduler at {address} within {timeout:g} s "
                           f"({reason})") from None


_WORKER_SETUPS: dict[RunSpec, Setup] = {}  # in a worker: the runs it has set up


def _play_on_worker(spec: RunSpec, seed: int, start: int, stop: int) -> Results:
    """A cluster task: games start..stop-1 of the run `spec` describes."""
    setup = _WORKER_SETUPS.get(spec)
    if setup is None:
        setup = _WORKER_SETUPS[spec] = build_setup(spec)
    return run_range(setup, seed, range(start, stop))
