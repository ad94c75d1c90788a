"""A run as plain data (RunSpec), and its games played by the workers of a Dask cluster.

Compiled cards are closures and do not pickle, so a cluster's workers get the run as data (card
folders, Kingdom, bot names, options) and set it up again themselves (`build_setup`); they send
back plain Results, added up here in game order: the results of one process with the same seed.
Above kingdom/lab/simulate.py, since setting a run up resolves its bots by name
(kingdom/lab/roster.py), and a bot may itself play games to choose its buys (autobots.py).
"""

from __future__ import annotations

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


@dataclass(frozen=True)
class ClusterRunner:
    """A Runner (kingdom/lab/simulate.py) whose games the workers of a Dask cluster play
    (`address`: the scheduler's address), compiling the `cards` folders themselves."""

    address: Any
    cards: tuple[str, ...] = ()

    def play(self, setup: Setup, bots: tuple[str, ...], games: int, seed: int) -> Results:
        spec = RunSpec(bots, tuple(setup.kingdom), cards=self.cards, players=setup.players,
                       max_turns=setup.max_turns)
        return simulate_on_cluster(self.address, spec, games, seed)


def simulate_on_cluster(address: Any, spec: RunSpec, games: int, seed: int = 1,
                        progress: Callable[[int], None] | None = None,
                        timeout: float = CLUSTER_TIMEOUT) -> Results:
    """`simulate` played by the workers of a Dask cluster (`address`: the scheduler's, such as
    tcp://host:8786, or a LocalCluster). Each task is a range of game indexes: the worker sets
    the run up from `spec` itself (`build_setup`, once per worker process) and sends back the
    Results of the range; they are added up here in game order, so the results are those of one
    process with the same seed. Raises ClusterError when the cluster cannot be used."""
    try:
        from distributed import Client, as_completed
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
        futures = {client.submit(_play_on_worker, spec, seed, start, min(start + CHUNK, games),
                                 pure=False): start for start in range(0, games, CHUNK)}
        parts: dict[int, Results] = {}
        for future in as_completed(futures, loop=client.loop):
            try:
                parts[futures[future]] = future.result()
            except Exception as exc:  # setting the run up failed there: cards, bot files
                client.cancel(list(futures))
                raise ClusterError(f"a worker could not play its games: "
                                   f"{type(exc).__name__}: {exc}") from None
            if progress:
                progress(min(CHUNK, games - futures[future]))
    first, *rest = sorted(parts)
    results = parts[first]
    for start in rest:  # in game order, as one process adds them up
        results.merge(parts[start])
    return results


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
