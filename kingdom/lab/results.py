"""What a run's games add up to: per-bot wins, losses, ties and card figures, game lengths, the
games that failed, and the with/without comparison, with their 95% intervals; as JSON and CSV.

Every figure is a sum or a histogram over games, so the Results of parts of a run (worker
processes, cluster tasks) merge into those of the whole, in game order. Plain data only: this
module knows no game, bot or process (kingdom/lab/recording.py adds a game to the figures).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


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
    # With Setup.decisions (--decisions): (card, ability, "asked"/"taken") -> its decisions
    decisions: Counter = field(default_factory=Counter)

    def decision_rows(self) -> list[tuple[str, str, int, int]]:
        """(card, ability, times asked, times taken) of the card decisions counted, by card."""
        keys = sorted({(card, ability) for card, ability, _what in self.decisions})
        return [(card, ability, self.decisions[(card, ability, "asked")],
                 self.decisions[(card, ability, "taken")]) for card, ability in keys]

    def merge(self, other: BotStats) -> None:
        self.games += other.games
        self.wins += other.wins
        self.losses += other.losses
        self.ties += other.ties
        self.score_total += other.score_total
        for mine, theirs in ((self.bought, other.bought), (self.played, other.played),
                             (self.owned_games, other.owned_games),
                             (self.owned_wins, other.owned_wins),
                             (self.decisions, other.decisions)):
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
                    **({"decisions": [{"card": card, "ability": ability, "asked": asked,
                                       "taken": taken}
                                      for card, ability, asked, taken in b.decision_rows()]}
                       if b.decisions else {}),
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


# ------------------------------------------------------------------------------ with/without
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
