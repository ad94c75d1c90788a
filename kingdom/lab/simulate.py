"""Playtesting at scale: many seeded bot games, with win rates and per-card figures.

Game `i` of a run with base seed `s` is seeded with `game_seed(s, i)` and seats the bots in
rotation (game 0: A, B; game 1: B, A; ...), so a run split over worker processes (`jobs`) gives
the same results as one process: every figure is a sum or a histogram over games.
"""

from __future__ import annotations

import contextlib
import math
import random
import signal
import traceback
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from kingdom.lab.invariants import InvariantChecker, InvariantViolation
from kingdom.runtime.decisions import BUY
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
class Failure:
    """A game that gave no result: `kind` is "stalled" (it used up its step budget), "errored"
    (it raised) or "lost" (the worker process playing it died)."""

    index: int
    seed: int
    kind: str
    message: str

    def __str__(self) -> str:
        return f"game {self.index} (seed {self.seed}) {self.kind}: {self.message}"


@dataclass
class Results:
    bots: list[BotStats]
    games: int = 0  # games played to their end or to the turn limit, in the figures
    turns: Counter = field(default_factory=Counter)  # turns taken by all players -> games
    unfinished_games: list[tuple[int, int]] = field(default_factory=list)  # (index, seed) of
    #   the games stopped by the turn limit (in the figures as they stood)
    failures: list[Failure] = field(default_factory=list)  # games not in the figures
    seat_wins: Counter = field(default_factory=Counter)  # seat (0: first player) -> sole wins
    violations: list[str] = field(default_factory=list)
    # One entry per game in game order: (points per bot: 2 win, 1 tie, 0 loss; total turns).
    timeline: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    setups: Counter = field(default_factory=Counter)  # ("Bane"/"Ferryman"/"Ally", card) -> games
    # With Setup.detail (--plot, --csv), per bot: turn -> [players who had it, VP, VP squared,
    # money, money squared] at its end; (turn, card) -> copies bought; and one row per game and
    # player, in game order.
    turn_figures: list[dict[int, list[int]]] = field(default_factory=list)
    bought_by_turn: list[Counter] = field(default_factory=list)
    rows: list[dict] = field(default_factory=list)
    bought_in: Counter = field(default_factory=Counter)  # card -> players (of all games) who
    bought_and_won: Counter = field(default_factory=Counter)  # bought it ... and won alone

    def merge(self, other: Results) -> None:
        self.games += other.games
        self.turns.update(other.turns)
        self.unfinished_games.extend(other.unfinished_games)
        self.failures.extend(other.failures)
        self.seat_wins.update(other.seat_wins)
        self.violations.extend(other.violations)
        self.timeline.extend(other.timeline)
        self.setups.update(other.setups)
        self.rows.extend(other.rows)
        self.bought_in.update(other.bought_in)
        self.bought_and_won.update(other.bought_and_won)
        for mine, theirs in zip(self.bots, other.bots, strict=True):
            mine.merge(theirs)
        for figures, more in zip(self.turn_figures, other.turn_figures, strict=True):
            for turn, sums in more.items():
                figures[turn] = [a + b for a, b in zip(figures.get(turn, [0] * 5), sums, strict=True)]
        for bought, more in zip(self.bought_by_turn, other.bought_by_turn, strict=True):
            bought.update(more)

    @property
    def unfinished(self) -> int:
        return len(self.unfinished_games)

    def count(self, kind: str) -> int:
        return sum(1 for f in self.failures if f.kind == kind)

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

    def setups_drawn(self) -> dict[str, dict[str, int]]:
        """The setup choices the games drew: "Bane" (or "Ferryman", "Ally") -> card -> games."""
        drawn: dict[str, dict[str, int]] = {}
        for (what, name), games in sorted(self.setups.items()):
            drawn.setdefault(what, {})[name] = games
        return drawn

    def to_json(self, players: int) -> dict:
        return {
            "games": self.games,
            "turns_per_player": {"mean": self.mean_turns(players),
                                 "median": self.median_turns(players)},
            "unfinished": self.unfinished,
            "unfinished_games": [{"game": i, "seed": s} for i, s in self.unfinished_games],
            **{kind: self.count(kind) for kind in FAILURES},
            "failures": [{"game": f.index, "seed": f.seed, "kind": f.kind, "message": f.message}
                         for f in self.failures],
            "seat_win_rate": [self.seat_wins[seat] / self.games if self.games else 0.0
                              for seat in range(players)],
            "violations": self.violations,
            "setups_drawn": self.setups_drawn(),
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


FAILURES = ("stalled", "errored", "lost")  # the kinds of Failure


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
    max_turns: int = 500  # turns per player
    check_invariants: bool = False
    max_steps: int | None = None  # the step budget of a game (None: runtime.game's STEP_BUDGET)
    colonies: bool = False  # Platinum and Colony in the Supply
    ally: str | None = RANDOM  # the Ally's name, or RANDOM: drawn when a Liaison is in the game
    choices: dict[str, str] = field(default_factory=dict)  # preset piles: "bane", "ferryman"
    detail: bool = False  # per-turn VP, money and buys, one record per game and player (charts, CSV)

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
        game, bought, checker, detail = new_game(setup, gseed, order)
        played = play_turns(game, setup.max_turns, checker, detail)
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


def new_game(setup: Setup, gseed: int, order: list[int]
             ) -> tuple[Game, list[Counter], InvariantChecker | None, GameDetail | None]:
    """A game of the run set up: its agents recording their buys (the counters returned), if
    asked checked for invariants, and followed turn by turn (`Setup.detail`)."""
    agents = [setup.bots[b].agent(gseed + seat) for seat, b in enumerate(order)]
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


class TurnBuyRecorder(BuyRecorder):
    """A BuyRecorder that also counts each buy by the turn it was made in (`Setup.detail`)."""

    def __init__(self, agent: Any, bought: Counter, by_turn: Counter) -> None:
        super().__init__(agent, bought)
        self.by_turn = by_turn

    def _recorded_choose_buy(self, game: Game, player: Any, options: Any) -> str | None:
        name = super()._recorded_choose_buy(game, player, options)
        if name is not None:
            self.by_turn[player.turns_taken + 1, name] += 1
        return name

    def decide(self, decision: Any) -> Any:
        answer = super().decide(decision)
        if decision.kind == BUY and answer is not None:
            self.by_turn[decision.player.turns_taken + 1, answer] += 1
        return answer


def money(player: Any) -> int:
    """The $ of the plain Treasures (+$N and nothing else) a player owns."""
    return sum(card.d.coins or 0 for card in player.owned() if card.d.is_treasure)


class GameDetail:
    """What `--plot` and `--csv` need of one game, followed only when asked: each seat's buys by
    turn, and its VP and money at the end of each of its turns (extra turns: the last counts)."""

    def __init__(self, players: int) -> None:
        self.bought_by_turn = [Counter() for _ in range(players)]
        self.figures: list[dict[int, tuple[int, int]]] = [{} for _ in range(players)]

    def after_turn(self, game: Game, seat: int) -> None:
        player = game.players[seat]
        self.figures[seat][player.turns_taken] = (game.score(player), money(player))

    def add_to(self, results: Results, game: Game, order: list[int], bought: list[Counter],
               index: int, gseed: int) -> None:
        winners = game.winners()
        for seat, player in enumerate(game.players):
            bot = order[seat]
            figures = results.turn_figures[bot]
            for turn, (vp, coins) in self.figures[seat].items():
                sums = figures.setdefault(turn, [0] * 5)
                for i, value in enumerate((1, vp, vp * vp, coins, coins * coins)):
                    sums[i] += value
            results.bought_by_turn[bot].update(self.bought_by_turn[seat])
            outcome = ("lost" if player not in winners else "won" if len(winners) == 1
                       else "tied")
            results.rows.append({"game": index, "seed": gseed, "seat": seat + 1,
                                 "bot": results.bots[bot].name, "score": game.score(player),
                                 "turns": player.turns_taken, "result": outcome,
                                 "bought": dict(bought[seat])})


def note_setup(game: Game, setups: Counter) -> None:
    """Count the setup choices a game drew: its Ally and the piles cards' setup rules added."""
    if game.ally is not None:
        setups["Ally", game.ally.name] += 1
    for source, pile in game.setup_piles.items():
        setups["Bane" if "Bane" in game.piles[pile].roles else source, pile] += 1


def record(game: Game, order: list[int], bought: list[Counter], played: list[Counter],
           results: Results) -> None:
    winners = game.winners()  # (first: scoring runs cards' code, which may raise)
    results.games += 1
    players = game.players
    results.turns[sum(p.turns_taken for p in players)] += 1
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
        record_bought(results, bought[seat], points == 2)
        for name in {c.d.name for c in player.owned()}:
            stats.owned_games[name] += 1
            stats.owned_wins[name] += points
    results.timeline.append((tuple(bot_points), sum(p.turns_taken for p in players)))
    if game.ally is not None or game.setup_piles:
        note_setup(game, results.setups)


# ------------------------------------------------------------------------------ with/without
def record_bought(results: Results, bought: Counter, won: bool) -> None:
    """One player's game for the with/without comparison: the cards it bought, and whether it
    won alone."""
    results.bought_in.update(bought.keys())
    if won:
        results.bought_and_won.update(bought.keys())


@dataclass
class WithWithout:
    """The players who bought a card against those who did not: games and sole wins of each."""

    card: str
    games_with: int
    wins_with: int
    games_without: int
    wins_without: int

    def to_json(self) -> dict:
        return {"card": self.card,
                "with": {"games": self.games_with, "wins": self.wins_with,
                         "win_rate": _rate(self.wins_with, self.games_with) if self.games_with
                         else None, "win_ci95": wilson(self.wins_with, self.games_with)},
                "without": {"games": self.games_without, "wins": self.wins_without,
                            "win_rate": _rate(self.wins_without, self.games_without)
                            if self.games_without else None,
                            "win_ci95": wilson(self.wins_without, self.games_without)}}


def with_without(results: Results) -> list[WithWithout]:
    """Per card bought in the run: sole-win rates of the players who bought it and of those who
    did not (over every player of every game), by card name."""
    players = sum(b.games for b in results.bots)
    wins = sum(b.wins for b in results.bots)
    return [WithWithout(name, results.bought_in[name], results.bought_and_won[name],
                        players - results.bought_in[name], wins - results.bought_and_won[name])
            for name in sorted(results.bought_in)]


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


# ------------------------------------------------------------------------------ a run as data
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


def build_setup(spec: RunSpec, library: Library | None = None) -> Setup:
    """The Setup of a run: its cards compiled (unless given), its bots resolved. A random
    Kingdom's games draw their Bane, Ferryman's pile and Ally from the chosen sets only."""
    from kingdom.lab.strategy import resolve_bot
    from kingdom.print.randomizer import owned

    if library is None:
        from kingdom.compiler.build import compile_folders
        from kingdom.compiler.expansions import discover

        library, _ = compile_folders(discover(list(spec.cards)))
    bots = [resolve_bot(name, library) for name in spec.bots]
    kingdom: list[str] | Callable[[int], list[str]] = list(spec.kingdom)
    games_library = library
    if spec.sets:
        kingdom = random_kingdom(library, spec.sets)
        named = [name for _key, name in spec.choices] + ([spec.ally] if spec.ally else [])
        games_library = owned(library, named, list(spec.sets))
    return Setup(games_library, kingdom, bots, players=spec.players, max_turns=spec.max_turns,
                 check_invariants=spec.check_invariants, colonies=spec.colonies,
                 ally=spec.ally, choices=dict(spec.choices), detail=spec.detail)


# ------------------------------------------------------------------------------ a cluster
class ClusterError(Exception):
    """The cluster cannot be used: Dask missing, the scheduler unreachable, no workers."""


CLUSTER_TIMEOUT = 3.0  # seconds to reach the scheduler, and then to find a worker


@dataclass(frozen=True)
class Runner:
    """Where a run's games are played: here over `jobs` processes, or on a Dask cluster
    (`cluster`: the scheduler's address) whose workers compile the `cards` folders themselves.
    Either way the results are those of one process with the same seed."""

    jobs: int = 1
    cluster: Any = None
    cards: tuple[str, ...] = ()

    def play(self, setup: Setup, bots: tuple[str, ...], games: int, seed: int) -> Results:
        """The games of `setup`, whose bots `bots` name as --bots would (for the workers)."""
        if self.cluster is None:
            return simulate(setup, games, seed, self.jobs)
        spec = RunSpec(bots, tuple(setup.kingdom), cards=self.cards, players=setup.players,
                       max_turns=setup.max_turns)
        return simulate_on_cluster(self.cluster, spec, games, seed)


LOCAL = Runner()


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


# ------------------------------------------------------------------------------ CSV
CSV_COLUMNS = ("game", "seed", "seat", "bot", "score", "turns", "result")


def write_csv(results: Results, stream: Any) -> None:
    """One row per game and player (`Setup.detail`): the CSV_COLUMNS (seat from 1; result won,
    tied or lost), then the copies bought of every card any player bought ("bought Smithy")."""
    import csv

    cards = sorted({name for row in results.rows for name in row["bought"]})
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow([*CSV_COLUMNS, *(f"bought {name}" for name in cards)])
    for row in results.rows:
        writer.writerow([*(row[column] for column in CSV_COLUMNS),
                         *(row["bought"].get(name, 0) for name in cards)])
