"""Bots for any card, with no strategy file: `big-money+CARD` and `big-money-ultimate+CARD`.

`BASE+CARD*K` is the strategy BASE (`big-money` or `big-money-ultimate`, from
kingdom/lab/strategies) with one more buy rule: CARD, up to K copies, in its buying window:

- CARD costs less than Gold: bought at its cost up to $5, after Gold (so never over Gold at $6+)
  and before Silver;
- CARD costs $6 or $7: bought at its cost up to $7, before Gold, never over a Province at $8;
- CARD costs $8 or more: bought at its cost, before Province.

(Prices are the current costs, so a cost reduction moves the window.) A terminal CARD (one whose
play gives no +Actions, read from its compiled tree) is bought again only while the deck has at
least TERMINAL_SPACING cards per copy, so that two copies seldom collide in one hand. Its play is
the generic bot's: Actions that give +Actions first, then the rest.

`BASE+CARD` without `*K` searches K: a short seeded tournament of K = 1..MAX_COPIES against BASE
on the Kingdom of CARD alone, the best score (wins, ties half) taken, the smallest K on a tie;
the answer is kept in the user's cache folder (signed JSON, compiler/cache.py) per card, base
and engine version.
"""

from __future__ import annotations

import re
from typing import Any

from kingdom.compiler import cache
from kingdom.lab.bots import plus_actions
from kingdom.lab.simulate import LOCAL, LocalRunner, Runner, Setup
from kingdom.lab.strategy import Rule, Strategy, builtin_strategies, load_strategy
from kingdom.runtime.library import Library, find_card

BASES = ("big-money", "big-money-ultimate")
SPEC = re.compile(r"^(big-money|big-money-ultimate)\+(.+?)(?:\*(\d+))?$")
MAX_COPIES = 3
TERMINAL_SPACING = 12  # cards in the deck per copy of a terminal CARD before another is bought
SEARCH_GAMES = 300  # games per K in the search
SEARCH_SEED = 1
ENGINE_VERSION = "bots-4"  # bump when the bots or the engine change what a game gives


def is_spec(spec: str) -> bool:
    return SPEC.match(spec) is not None


def resolve_auto_bot(spec: str, library: Library, jobs: int = 1) -> Strategy:
    """The strategy `BASE+CARD[*K]` names; ValueError on an unknown card or a K out of range."""
    match = SPEC.match(spec)
    if match is None:
        raise ValueError(f"'{spec}' is not BASE+CARD[*K]")
    base, card_text, copies = match[1], match[2].strip(), match[3]
    name = find_card(library, card_text)  # (in any case)
    if name is None or name not in library.cards:
        hint = library.suggest(card_text)
        raise ValueError(f"unknown card '{card_text}' in '{spec}'"
                         + (f"; did you mean '{hint}'?" if hint else ""))
    if copies is not None and not 1 <= int(copies) <= MAX_COPIES:
        raise ValueError(f"'{spec}': the copies after * are 1 to {MAX_COPIES}")
    k = int(copies) if copies is not None else best_copies(base, name, library, LocalRunner(jobs))
    return card_strategy(base, name, k, library)


def card_strategy(base: str, name: str, copies: int, library: Library) -> Strategy:
    """BASE with CARD bought up to `copies` times in its window (see the module's docstring)."""
    strategy = load_strategy(builtin_strategies()[base], library)
    definition = library[name]
    terminal = definition.is_action and plus_actions(definition) == 0
    rule = Rule(name, [_window_test(name), _copies_test(name, copies, terminal)],
                f"{name} up to {copies}")
    buy = list(strategy.buy)
    anchor = "Province" if definition.cost >= 8 else "Gold"
    where = next(i for i, r in enumerate(buy) if r.card == anchor)
    buy.insert(where if definition.cost >= 6 else where + 1, rule)
    strategy.buy = buy
    strategy.name = f"{base}+{name}*{copies}"
    strategy.file = ""
    strategy.play = []
    return strategy


def _window_test(name: str):
    def in_window(game: Any, player: Any) -> bool:
        cost = game.cost(game.library[name])
        coins = game.coins
        if cost < 6:
            return cost <= coins <= 5
        if cost < 8:
            return cost <= coins <= 7
        return coins >= cost
    return in_window


def _copies_test(name: str, copies: int, terminal: bool):
    def room_for_one_more(game: Any, player: Any) -> bool:
        owned = player.owned()
        n = 0
        for card in owned:
            if card.d.name == name:
                n += 1
        return n < copies and (not terminal or n * TERMINAL_SPACING <= len(owned))
    return room_for_one_more


# ------------------------------------------------------------------------------ searching K
def best_copies(base: str, name: str, library: Library, runner: Runner = LOCAL,
                games: int = SEARCH_GAMES) -> int:
    """The K of MAX_COPIES that scores best against BASE in `games` games each (cached per
    card, games and engine)."""
    store = cache.open_store("bots", {}, 4000, 4 << 20)
    key = cache.digest(ENGINE_VERSION, cache.fingerprint(), base, card_identity(library[name]),
                       str(games), str(SEARCH_SEED))[:32]
    found = store.get(key) if store is not None else None
    if isinstance(found, int) and 1 <= found <= MAX_COPIES:
        return found
    scores = [duel_score(card_strategy(base, name, k, library), base, name, library,
                         games, SEARCH_SEED, runner) for k in range(1, MAX_COPIES + 1)]
    best = 1 + max(range(MAX_COPIES), key=lambda i: (scores[i], -i))
    if store is not None:
        store.put(key, best)
    return best


def duel(strategy: Strategy, base: str, name: str, library: Library, games: int, seed: int,
         runner: Runner = LOCAL, decisions: bool = False):
    """`strategy` against BASE on the Kingdom of `name` alone: the Results (with the bots' card
    decisions counted, if asked)."""
    opponent = load_strategy(builtin_strategies()[base], library)
    return runner.play(Setup(library, [name], [strategy, opponent], decisions=decisions),
                       (strategy.name, base), games, seed)


def duel_score(strategy: Strategy, base: str, name: str, library: Library, games: int,
               seed: int, runner: Runner = LOCAL) -> float:
    stats = duel(strategy, base, name, library, games, seed, runner).bots[0]
    return (stats.wins + stats.ties / 2) / stats.games if stats.games else 0.0


def card_identity(definition: Any) -> str:
    """What a cached answer about a card depends on: its name, cost, types and rules text."""
    return cache.digest(definition.name, definition.set, str(definition.cost),
                        ",".join(definition.types), definition.text)
