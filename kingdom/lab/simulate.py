"""Playtesting at scale: many seeded bot games, with win rates and per-card figures.

Game `i` of a run with base seed `s` is seeded with `game_seed(s, i)` and seats the bots in
rotation (game 0: A, B; game 1: B, A; ...), so a run split over worker processes (`jobs`) gives
the same results as one process: every figure is a sum or a histogram over games.

Here: the games played (one by one, over forked worker processes, or a round robin), and where a
run's games are played (`Runner`). What they add up to is kingdom/lab/results.py, how a game
adds to it kingdom/lab/recording.py, and a run on a Dask cluster kingdom/lab/cluster.py.
"""

from __future__ import annotations

import contextlib
import random
import signal
import traceback
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Protocol

from kingdom.lab.invariants import CardCount, InvariantChecker, InvariantViolation
from kingdom.lab.recording import BuyRecorder, GameDetail, TurnBuyRecorder, record
from kingdom.lab.results import BotStats, Failure, Results
from kingdom.runtime.game import Game, GameStalled
from kingdom.runtime.library import Library
from kingdom.runtime.setup import RANDOM, standard_game

CHUNK = 250  # games per unit of work handed to a worker
_card_name = attrgetter("d.name")


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run: independent of how the run is split into jobs."""
    return random.Random(f"{seed}:{index}").getrandbits(63)


def seats(n_bots: int, index: int, players: int) -> list[int]:
    """Which bot sits in each seat of game `index`: the bots take turns starting."""
    return [(index + seat) % n_bots for seat in range(players)]


# ------------------------------------------------------------------------------ playing
@dataclass
class Setup:
    """What every game of a run shares: cards, Kingdom, bots, players, limits."""

    library: Library
    kingdom: list[str] | Callable[[int], list[str]]
    bots: list[Any]  # objects with .name and .agent(seed)
    players: int = 2
    max_turns: int = 500  # turns per player
    check_invariants: bool = False  # the full check between moves (--check-invariants)
    count_cards: bool = True  # the cheap check of each game (invariants.CardCount)
    max_steps: int | None = None  # the step budget of a game (None: runtime.game's STEP_BUDGET)
    colonies: bool = False  # Platinum and Colony in the Supply
    ally: str | None = RANDOM  # the Ally's name, or RANDOM: drawn when a Liaison is in the game
    choices: dict[str, str] = field(default_factory=dict)  # preset piles: "bane", "ferryman"
    detail: bool = False  # per-turn VP, money and buys, one record per game and player (charts, CSV)
    decisions: bool = False  # count each bot's card decisions, asked and taken (--decisions)

    def start(self, kingdom: list[str], agents: list[Any], gseed: int) -> Game:
        """A game of the run, set up with the run's setup choices."""
        return standard_game(self.library, kingdom, agents, seed=gseed, colonies=self.colonies,
                             ally=self.ally, choices=self.choices)


def play_game(setup: Setup, seed: int, index: int, results: Results) -> Game | None:
    """Play game `index` of a run and add it to `results`: to the figures, or, if it raised or
    stalled, to the failures with its seed and the cards being resolved (None is returned)."""
    gseed = game_seed(seed, index)
    order = seats(len(setup.bots), index, setup.players)
    try:
        tallies = [results.bots[b].decisions for b in order] if setup.decisions else None
        game, bought, checker, detail = new_game(setup, gseed, order, tallies)
        count = CardCount(game) if setup.count_cards else None
        played = play_turns(game, setup.max_turns, checker, detail)
        if count is not None:  # (a game whose cards were doubled or lost is no result)
            count.check(game)
        record(game, order, bought, played, results)
        if detail is not None:
            detail.add_to(results, game, order, bought, index, gseed)
    except InvariantViolation as exc:
        results.violations.append(f"game {index} (seed {gseed}): {exc}")
        return None
    except Exception as exc:  # any fault of a card, a bot or the engine costs this game only
        kind = "stalled" if isinstance(exc, GameStalled) else "errored"
        results.failures.append(Failure(index, gseed, kind, describe_failure(exc)))
        return None
    if not game.game_over:
        results.unfinished_games.append((index, gseed))
    if checker is not None:
        if not game.game_over:
            checker.violations.append(f"did not end in {setup.max_turns} turns per player")
        results.violations.extend(f"game {index} (seed {gseed}): {v}" for v in checker.violations)
    return game


def new_game(setup: Setup, gseed: int, order: list[int], tallies: list[Counter] | None = None
             ) -> tuple[Game, list[Counter], InvariantChecker | None, GameDetail | None]:
    """A game of the run set up: its agents recording their buys (the counters returned), if
    asked their card decisions (into `tallies`, one per seat: agents with a `tally`), checked
    for invariants, and followed turn by turn (`Setup.detail`)."""
    agents = [setup.bots[b].agent(gseed + seat) for seat, b in enumerate(order)]
    for agent, tally in zip(agents, tallies or (), strict=False):
        if hasattr(agent, "tally"):
            agent.tally = tally
    kingdom = setup.kingdom(gseed) if callable(setup.kingdom) else setup.kingdom
    checker = None
    if setup.check_invariants:
        checker = InvariantChecker()
        agents = checker.wrap(agents)
    bought = [Counter() for _ in range(setup.players)]
    if setup.detail:
        detail = GameDetail(setup.players)
        agents = [TurnBuyRecorder(agent, counter, by_turn) for agent, counter, by_turn
                  in zip(agents, bought, detail.bought_by_turn, strict=True)]
    else:
        detail = None
        agents = [BuyRecorder(agent, counter) for agent, counter in zip(agents, bought, strict=True)]
    game = setup.start(kingdom, agents, gseed)
    if setup.max_steps is not None:
        game.steps_left = setup.max_steps
    if checker is not None:
        checker.attach(game)
    return game, bought, checker, detail


def play_turns(game: Game, max_turns: int, checker: InvariantChecker | None,
               detail: GameDetail | None = None) -> list[Counter]:
    """Play until the game ends or each player has had `max_turns` turns (extra turns don't
    count, as in the statistics); the cards each seat played."""
    played = [Counter() for _ in game.players]
    players = game.players
    while not game.game_over and players[seat := game.current].turns_taken < max_turns:
        game.take_turn()
        played[seat].update(map(_card_name, game.played_this_turn))
        if checker is not None:
            checker.check(game, "after a turn")
        if detail is not None:
            detail.after_turn(game, seat)
    return played


def describe_failure(exc: Exception) -> str:
    """The exception, and the cards whose abilities were being resolved when it was raised
    (read from its traceback, so the game pays nothing for it until something goes wrong)."""
    text = str(exc) if isinstance(exc, GameStalled) else f"{type(exc).__name__}: {exc}"
    cards: list[str] = []
    for frame, _line in traceback.walk_tb(exc.__traceback__):
        card = frame.f_locals.get("card") if frame.f_code in _RESOLVING else None
        if card is not None and card.d.name not in cards:
            cards.append(card.d.name)
    if cards:
        text += " (resolving " + " > ".join(cards[:6]) + ")"
    return text


_RESOLVING = {Game.resolve.__code__, Game.run_triggers.__code__}  # frames with a `card`


# ------------------------------------------------------------------------------ round robin
def round_robin(setup: Setup, games: int, seed: int = 1, jobs: int = 1,
                progress: Callable[[int], None] | None = None) -> dict[tuple[int, int], Results]:
    """Every pair of `setup.bots` (i < j) in 2-player games, `games` each, seats alternating:
    the Results of each pair, bot i first in them."""
    from dataclasses import replace

    return {(i, j): simulate(replace(setup, bots=[setup.bots[i], setup.bots[j]], players=2),
                             games, seed, jobs, progress)
            for i in range(len(setup.bots)) for j in range(i + 1, len(setup.bots))}


def empty_results(setup: Setup) -> Results:
    names = [b.name for b in setup.bots]
    if len(set(names)) < len(names):  # the same bot twice: tell the copies apart
        names = [f"{name} #{i}" for i, name in enumerate(names, 1)]
    results = Results([BotStats(name) for name in names])
    if setup.detail:
        results.turn_figures = [{} for _ in names]
        results.bought_by_turn = [Counter() for _ in names]
    return results


def run_range(setup: Setup, seed: int, indexes: Iterable[int]) -> Results:
    results = empty_results(setup)
    for index in indexes:
        play_game(setup, seed, index, results)
    return results


def simulate(setup: Setup, games: int, seed: int = 1, jobs: int = 1,
             progress: Callable[[int], None] | None = None) -> Results:
    """Play `games` games; `progress(n)` is called as games finish. Same results for any jobs.

    A game that raises or stalls is a Failure in the results, and so is, with jobs, a game whose
    worker process died (killed by the out-of-memory killer, say): the other games still count.
    """
    import multiprocessing

    chunks = [range(start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]
    results = empty_results(setup)
    # Workers inherit the compiled cards and bots by forking (closures do not pickle); where
    # there is no fork (Windows), the games are played here, with the same results.
    if jobs <= 1 or len(chunks) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for chunk in chunks:
            results.merge(run_range(setup, seed, chunk))
            if progress:
                progress(len(chunk))
        return results
    parts, lost = WorkerPool(setup, seed, min(jobs, len(chunks))).play(chunks, progress)
    for start in sorted(parts):  # in game order, as one process adds them up
        results.merge(parts[start])
    results.failures.extend(lost)
    results.failures.sort(key=attrgetter("index"))
    return results


class WorkerPool:
    """Forked worker processes, each playing one range of games at a time and sending back its
    Results. A worker that dies takes only its range with it: the range is played again one
    game per task, so a game that kills its worker again is lost alone, reported as lost."""

    def __init__(self, setup: Setup, seed: int, jobs: int) -> None:
        import multiprocessing

        self.context = multiprocessing.get_context("fork")
        self.setup, self.seed, self.jobs = setup, seed, jobs

    def play(self, chunks: list[range], progress: Callable[[int], None] | None
             ) -> tuple[dict[int, Results], list[Failure]]:
        """The Results of each range played (by its first game) and the games lost."""
        from multiprocessing.connection import wait

        queue, parts, lost = deque(chunks), {}, []
        idle = [self._start() for _ in range(self.jobs)]
        busy: dict[Any, tuple[Any, range]] = {}  # connection -> (process, range)
        try:
            while queue or busy:
                while queue and idle:
                    process, conn = idle.pop()
                    task = queue.popleft()
                    busy[conn] = (process, task)
                    with contextlib.suppress(OSError):  # a dead worker: found out below
                        conn.send(task)
                for conn in wait(list(busy)):
                    process, task = busy.pop(conn)
                    try:
                        parts[task.start] = conn.recv()
                    except (EOFError, OSError):
                        conn.close()
                        lost.extend(self._died(process, task, queue))
                        idle.append(self._start())
                        done = len(task) if len(task) == 1 else 0
                    else:
                        idle.append((process, conn))
                        done = len(task)
                    if progress and done:
                        progress(done)
        finally:  # done: idle workers are told to stop; busy ones (interrupted) are stopped
            for _process, conn in idle:
                with contextlib.suppress(OSError):
                    conn.send(None)
            for process, _task in busy.values():
                process.kill()
            for process, _conn in [*idle, *busy.values()]:
                process.join()
        return parts, lost

    def _start(self) -> tuple[Any, Any]:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=_serve, args=(self.setup, self.seed, theirs),
                                       daemon=True)
        process.start()
        theirs.close()
        return process, ours

    def _died(self, process: Any, task: range, queue: deque) -> list[Failure]:
        """A worker died playing `task`: its games go back to the queue one by one, or, if it
        was playing one game, that game is lost."""
        process.join()
        code = process.exitcode
        how = (f"killed by {signal.Signals(-code).name}" if code is not None and code < 0
               else f"exited with status {code}")
        if len(task) > 1:
            queue.extendleft(reversed([range(i, i + 1) for i in task]))
            return []
        index = task.start
        return [Failure(index, game_seed(self.seed, index), "lost",
                        f"the worker process playing it was {how}")]


def _serve(setup: Setup, seed: int, conn: Any) -> None:
    """A worker: play each range of games it is sent and send back the Results, until None.
    Ctrl-C is for the parent process, which stops its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while (task := conn.recv()) is not None:
        conn.send(run_range(setup, seed, task))


def random_kingdom(library: Library, sets: tuple[str, ...] = ("base",)) -> Callable[[int], list[str]]:
    """A function from a game seed to 10 Kingdom piles (cards and split piles) drawn from `sets`."""
    from kingdom.print.randomizer import kingdom_piles

    pool = sorted(kingdom_piles(library, list(sets)))

    def pick(seed: int) -> list[str]:
        return random.Random(seed).sample(pool, min(10, len(pool)))

    return pick


# ------------------------------------------------------------------------------ where games are played
class Runner(Protocol):
    """Where a run's games are played: here (LocalRunner), or on a Dask cluster
    (kingdom/lab/cluster.py ClusterRunner). Either way the results are those of one process
    with the same seed."""

    def play(self, setup: Setup, bots: tuple[str, ...], games: int, seed: int) -> Results:
        """The games of `setup`, whose bots `bots` name as --bots would (for a cluster's workers)."""
        ...


@dataclass(frozen=True)
class LocalRunner:
    """A Runner playing the games here, over `jobs` worker processes."""

    jobs: int = 1

    def play(self, setup: Setup, bots: tuple[str, ...], games: int, seed: int) -> Results:
        return simulate(setup, games, seed, self.jobs)


LOCAL = LocalRunner()
