"""Playtesting at scale: many seeded bot games, with win rates and per-card figures.

Game `i` of a run with base seed `s` is seeded with `game_seed(s, i)` and seats the bots in
rotation (game 0: A, B; game 1: B, A; ...), so a run split over worker processes (`jobs`) gives
the same results as one process: every figure is a sum or a histogram over games.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from runtime.decisions import BUY
from runtime.game import Game
from runtime.library import Library
from runtime.setup import standard_game

CHUNK = 250
_card_name = attrgetter("d.name")  # games per unit of work handed to a worker


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run: independent of how the run is split into jobs."""
    return random.Random(f"{seed}:{index}").getrandbits(63)


def seats(n_bots: int, index: int, players: int) -> list[int]:
    """Which bot sits in each seat of game `index`: the bots take turns starting."""
    return [(index + seat) % n_bots for seat in range(players)]


# ------------------------------------------------------------------------------ results
@dataclass
class BotStats:
    name: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    score_total: int = 0
    bought: Counter = field(default_factory=Counter)
    played: Counter = field(default_factory=Counter)
    owned_games: Counter = field(default_factory=Counter)  # games that ended with the card owned
    owned_wins: Counter = field(default_factory=Counter)  # ... and were won (ties count half)

    def merge(self, other: BotStats) -> None:
        self.games += other.games
        self.wins += other.wins
        self.losses += other.losses
        self.ties += other.ties
        self.score_total += other.score_total
        for mine, theirs in ((self.bought, other.bought), (self.played, other.played),
                             (self.owned_games, other.owned_games),
                             (self.owned_wins, other.owned_wins)):
            mine.update(theirs)


@dataclass
class Results:
    bots: list[BotStats]
    games: int = 0
    turns: Counter = field(default_factory=Counter)  # turns taken by all players -> games
    unfinished: int = 0  # games stopped by the turn limit
    seat_wins: Counter = field(default_factory=Counter)  # seat (0: first player) -> sole wins
    violations: list[str] = field(default_factory=list)
    # One entry per game in game order: (points per bot: 2 win, 1 tie, 0 loss; total turns).
    timeline: list[tuple[tuple[int, ...], int]] = field(default_factory=list)

    def merge(self, other: Results) -> None:
        self.games += other.games
        self.turns.update(other.turns)
        self.unfinished += other.unfinished
        self.seat_wins.update(other.seat_wins)
        self.violations.extend(other.violations)
        self.timeline.extend(other.timeline)
        for mine, theirs in zip(self.bots, other.bots, strict=True):
            mine.merge(theirs)

    def mean_turns(self, players: int) -> float:
        total = sum(k * v for k, v in self.turns.items())
        return total / players / self.games if self.games else 0.0

    def stdev_turns(self, players: int) -> float:
        """The sample standard deviation of turns per player."""
        if self.games < 2:
            return 0.0
        mean = self.mean_turns(players)
        square = sum(v * (k / players - mean) ** 2 for k, v in self.turns.items())
        return math.sqrt(square / (self.games - 1))

    def median_turns(self, players: int) -> float:
        if not self.games:
            return 0.0
        values = sorted(self.turns.items())
        middle = [(self.games - 1) // 2, self.games // 2]
        found = []
        for target in middle:
            seen = 0
            for value, count in values:
                seen += count
                if seen > target:
                    found.append(value)
                    break
        return sum(found) / 2 / players

    def to_json(self, players: int) -> dict:
        return {
            "games": self.games,
            "turns_per_player": {"mean": self.mean_turns(players),
                                 "median": self.median_turns(players)},
            "unfinished": self.unfinished,
            "seat_win_rate": [self.seat_wins[seat] / self.games if self.games else 0.0
                              for seat in range(players)],
            "violations": self.violations,
            "bots": [
                {
                    "name": b.name,
                    "games": b.games,
                    "wins": b.wins,
                    "losses": b.losses,
                    "ties": b.ties,
                    "win_rate": _rate(b.wins, b.games),
                    "loss_rate": _rate(b.losses, b.games),
                    "tie_rate": _rate(b.ties, b.games),
                    "win_ci95": wilson(b.wins, b.games),
                    "loss_ci95": wilson(b.losses, b.games),
                    "tie_ci95": wilson(b.ties, b.games),
                    "average_score": b.score_total / b.games if b.games else 0.0,
                    "cards": {
                        name: {
                            "bought_per_game": b.bought[name] / b.games,
                            "played_per_game": b.played[name] / b.games,
                            "games_owned": b.owned_games[name],
                            "win_rate_when_owned": b.owned_wins[name] / 2 / b.owned_games[name]
                            if b.owned_games[name] else None,
                        }
                        for name in sorted(set(b.bought) | set(b.played) | set(b.owned_games))
                    },
                }
                for b in self.bots
            ],
        }


def _rate(k: int, n: int) -> float:
    return k / n if n else 0.0


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


# ------------------------------------------------------------------------------ playing
@dataclass
class Setup:
    """What every game of a run shares: cards, Kingdom, bots, players, limits."""

    library: Library
    kingdom: list[str] | Callable[[int], list[str]]
    bots: list[Any]  # objects with .name and .agent(seed)
    players: int = 2
    max_turns: int = 500
    check_invariants: bool = False


def play_game(setup: Setup, seed: int, index: int, results: Results) -> Game:
    """Play game `index` of a run and add it to `results`."""
    gseed = game_seed(seed, index)
    order = seats(len(setup.bots), index, setup.players)
    agents = [setup.bots[b].agent(gseed + seat) for seat, b in enumerate(order)]
    kingdom = setup.kingdom(gseed) if callable(setup.kingdom) else setup.kingdom
    checker = None
    if setup.check_invariants:
        from kingdom.invariants import InvariantChecker

        checker = InvariantChecker()
        agents = checker.wrap(agents)
    bought = [Counter() for _ in range(setup.players)]
    agents = [BuyRecorder(agent, counter) for agent, counter in zip(agents, bought, strict=True)]
    game = standard_game(setup.library, kingdom, agents, seed=gseed)
    if checker is not None:
        checker.attach(game)
    played = [Counter() for _ in range(setup.players)]
    max_turns = setup.max_turns
    try:
        while not game.game_over and game.turn_number < max_turns:
            counter = played[game.current]
            game.take_turn()
            counter.update(map(_card_name, game.played_this_turn))
            if checker is not None:
                checker.check(game, "after a turn")
    except Exception as exc:
        if checker is None:
            raise
        results.violations.append(f"game {index} (seed {gseed}): {type(exc).__name__}: {exc}")
        results.games += 1
        return game
    if checker is not None and not game.game_over:
        results.violations.append(f"game {index} (seed {gseed}): did not end in {max_turns} turns")
    if checker is not None:
        results.violations.extend(f"game {index} (seed {gseed}): {v}" for v in checker.violations)
    record(game, order, bought, played, results)
    return game


class BuyRecorder:
    """Counts what an agent buys, passing everything through (and keeping its fast paths)."""

    def __init__(self, agent: Any, bought: Counter) -> None:
        self.agent = agent
        self.bought = bought
        self.plays_all_treasures = getattr(agent, "plays_all_treasures", False)
        self._choose_buy = getattr(agent, "choose_buy", None)
        self.choose_buy = None if self._choose_buy is None else self._recorded_choose_buy

    def _recorded_choose_buy(self, game: Game, player: Any, options: Any) -> str | None:
        name = self._choose_buy(game, player, options)
        if name is not None:
            self.bought[name] += 1
        return name

    def decide(self, decision: Any) -> Any:
        answer = self.agent.decide(decision)
        if decision.kind == BUY and answer is not None:
            self.bought[answer] += 1
        return answer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)


def record(game: Game, order: list[int], bought: list[Counter], played: list[Counter],
           results: Results) -> None:
    if not game.game_over:
        results.unfinished += 1
    results.games += 1
    players = game.players
    results.turns[sum(p.turns_taken for p in players)] += 1
    winners = game.winners()
    if len(winners) == 1:
        results.seat_wins[winners[0].index] += 1
    bot_points = [0] * len(results.bots)
    for seat, player in enumerate(players):
        stats = results.bots[order[seat]]
        stats.games += 1
        stats.score_total += game.score(player)
        if player in winners:
            points = 2 if len(winners) == 1 else 1
            if len(winners) == 1:
                stats.wins += 1
            else:
                stats.ties += 1
        else:
            points = 0
            stats.losses += 1
        bot_points[order[seat]] += points
        stats.played.update(played[seat])
        stats.bought.update(bought[seat])
        for name in {c.d.name for c in player.owned()}:
            stats.owned_games[name] += 1
            stats.owned_wins[name] += points
    results.timeline.append((tuple(bot_points), sum(p.turns_taken for p in players)))


def empty_results(setup: Setup) -> Results:
    names = [b.name for b in setup.bots]
    if len(set(names)) < len(names):  # the same bot twice: tell the copies apart
        names = [f"{name} #{i}" for i, name in enumerate(names, 1)]
    return Results([BotStats(name) for name in names])


def run_range(setup: Setup, seed: int, indexes: Iterable[int]) -> Results:
    results = empty_results(setup)
    for index in indexes:
        play_game(setup, seed, index, results)
    return results


_WORKER: Setup | None = None


def _init_worker(setup: Setup) -> None:
    global _WORKER
    _WORKER = setup


def _work(task: tuple[int, int, int]) -> Results:
    seed, start, stop = task
    assert _WORKER is not None
    return run_range(_WORKER, seed, range(start, stop))


def simulate(setup: Setup, games: int, seed: int = 1, jobs: int = 1,
             progress: Callable[[int], None] | None = None) -> Results:
    """Play `games` games; `progress(n)` is called as games finish. Same results for any jobs."""
    import multiprocessing

    tasks = [(seed, start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]
    results = empty_results(setup)
    # Workers inherit the compiled cards and bots by forking (closures do not pickle); where
    # there is no fork (Windows), the games are played here, with the same results.
    if jobs <= 1 or len(tasks) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for task in tasks:
            seed_, start, stop = task
            results.merge(run_range(setup, seed_, range(start, stop)))
            if progress:
                progress(stop - start)
        return results
    context = multiprocessing.get_context("fork")
    with context.Pool(jobs, initializer=_init_worker, initargs=(setup,)) as pool:
        for task, part in zip(tasks, pool.imap(_work, tasks), strict=True):
            results.merge(part)
            if progress:
                progress(task[2] - task[1])
    return results


def random_kingdom(library: Library, sets: tuple[str, ...] = ("base",)) -> Callable[[int], list[str]]:
    """A function from a game seed to 10 Kingdom cards drawn from `sets`."""
    pool = sorted(c.name for c in library if c.kind == "kingdom" and c.set in sets)

    def pick(seed: int) -> list[str]:
        return random.Random(seed).sample(pool, min(10, len(pool)))

    return pick
