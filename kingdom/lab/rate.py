"""`kingdom rate`: how strong is a card? Its `big-money+CARD` bot against plain Big Money.

Each card is played by `big-money+CARD` (kingdom/autobots.py: K copies searched, at most as many
games per K as the rating plays) against `big-money` on the Kingdom of that card alone, `games`
games, seats alternating. A card's win rate gets its 95% Wilson interval, and it is placed among
the official cards: the same rating of the built-in Kingdom cards of the reference sets (Base by
default), with the same games and seed. That reference table is computed once per engine (the
compiler's fingerprint and autobots.ENGINE_VERSION) and kept in the user's cache folder as signed
JSON (compiler/cache.py), never as pickled objects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from kingdom.compiler import cache
from kingdom.compiler.build import BUILTIN_CARDS
from kingdom.lab import autobots
from kingdom.lab.results import wilson
from kingdom.lab.simulate import LOCAL, Runner
from kingdom.runtime.library import Library

BASE = "big-money"


@dataclass
class Rating:
    """One card's rating: its bot's games against Big Money."""

    card: str
    cost: int
    bot: str
    games: int
    wins: int
    losses: int
    ties: int
    failed: int = 0  # games that stalled, raised, lost their worker or a card: not in the figures
    failure: str = ""  # the first of them, with its seed
    # with `decisions`: the bot's card decisions, [card, ability, offered, taken] rows
    decisions: list = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def rate_card(library: Library, name: str, games: int, seed: int, runner: Runner = LOCAL,
              decisions: bool = False) -> Rating:
    """`big-money+CARD` (K searched with at most `games` games per K) against Big Money; with
    `decisions`, what its bot was offered and took (the same games)."""
    copies = autobots.best_copies(BASE, name, library, runner, min(games, autobots.SEARCH_GAMES))
    strategy = autobots.card_strategy(BASE, name, copies, library)
    results = autobots.duel(strategy, BASE, name, library, games, seed, runner, decisions)
    stats = results.bots[0]
    left_out = [*map(str, results.failures), *results.violations]  # (doubled or lost cards)
    return Rating(name, library[name].cost, strategy.name, stats.games, stats.wins,
                  stats.losses, stats.ties, len(left_out), left_out[0] if left_out else "",
                  [list(row) for row in stats.decision_rows()])


def rate_cards(library: Library, names: Iterable[str], games: int, seed: int,
               runner: Runner = LOCAL, done: Callable[[str], None] | None = None,
               decisions: bool = False) -> list[Rating]:
    """The ratings of `names`, best win rate first (then by name); `done(card)` after each."""
    ratings = []
    for name in names:
        ratings.append(rate_card(library, name, games, seed, runner, decisions))
        if done is not None:
            done(name)
    return sorted(ratings, key=lambda r: (-r.win_rate, r.card))


def official_cards(library: Library, sets: Iterable[str]) -> list[str]:
    """The built-in Kingdom cards of `sets` (cards from files under cards/ of this project)."""
    root = BUILTIN_CARDS.resolve()
    wanted = set(sets)
    return sorted(c.name for c in library if c.kind == "kingdom" and c.set in wanted
                  and Path(c.source).resolve().is_relative_to(root))


def reference_table(library: Library, sets: Iterable[str], games: int, seed: int,
                    runner: Runner = LOCAL, done: Callable[[str], None] | None = None
                    ) -> list[Rating]:
    """The ratings of the official cards of `sets`: from the cache, or computed and cached."""
    names = official_cards(library, sets)
    store = cache.open_store("rate", {}, 200, 16 << 20)
    key = cache.digest(autobots.ENGINE_VERSION, cache.fingerprint(), str(games), str(seed),
                       *(autobots.card_identity(library[n]) for n in names))[:32]
    found = store.get(key) if store is not None else None
    if isinstance(found, list):
        try:
            return [Rating(**row) for row in found]
        except TypeError:
            pass  # (an entry of another shape: computed again)
    table = rate_cards(library, names, games, seed, runner, done)
    if store is not None:
        store.put(key, [asdict(r) for r in table])
    return table


def place(rating: Rating, table: list[Rating]) -> tuple[int, int, float]:
    """Where a rating falls among the official ones: (rank, of how many, percentile). The card
    itself, when it is one of them, is left out of the comparison; a tie counts half."""
    others = [r for r in table if r.card != rating.card]
    better = sum(1 for r in others if r.win_rate > rating.win_rate)
    equal = sum(1 for r in others if r.win_rate == rating.win_rate)
    below = len(others) - better - equal
    percentile = 100 * (below + equal / 2) / len(others) if others else 0.0
    return better + 1, len(others) + 1, percentile
