"""Random Kingdoms for game night, and the setup a host follows to lay one out.

`deal` picks 10 Kingdom piles from chosen sets (a split pile is one pile), honouring what a host
asks for: cards required or excluded, a spread of costs, a +Buy, a village. `resolve_setup` then
sets the game up with the runtime's own setup rules (runtime/setup.py), seeded, and reads off
every choice the printed game needs: the Bane, Ferryman's pile, the Ally, Platinum and Colony,
each pile's size for the number of players, the tokens each player starts with.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from kingdom.runtime.cards import CardDef
from kingdom.runtime.library import Library, closest, find_card
from kingdom.runtime.setup import RANDOM, standard_game
from kingdom.runtime.tokens import KINDS

KINGDOM_SIZE = 10
DEALS = 5000  # deals tried before constraints are declared impossible
COST_BANDS = ((0, 3), (4, 4), (5, 99))  # the cost spread: piles at $3 or less, $4, $5 or more
PER_BAND = 2
PROSPERITY = "prosperity"


class RandomizerError(Exception):
    """Bad randomizer input: an unknown set or card, or constraints no Kingdom meets."""


@dataclass(frozen=True)
class Constraints:
    """What a host asks of a random Kingdom."""

    require: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    spread: bool = False  # at least PER_BAND piles in each of COST_BANDS
    plus_buy: bool = False  # at least one pile that gives +Buy
    village: bool = False  # at least one pile that gives +2 Actions or more


def bonus(definition: CardDef, resource: str) -> int:
    """The largest +N of one resource ("Buy", "Action") the card's play gives, from its tree."""
    play = getattr(definition.tree, "play", None)
    if play is None:
        return 0
    return max((node.amount for node in play.walk()
                if getattr(node, "resource", None) == resource), default=0)


def kingdom_piles(library: Library, sets: list[str]) -> dict[str, list[CardDef]]:
    """Every Kingdom pile of the sets: a card's name -> [it], a split pile's -> its members."""
    known = sorted({c.set for c in library})
    by_lower = {s.lower(): s for s in known}
    for name in sets:
        if name.lower() not in by_lower:
            hint = closest(name, known, cutoff=0.5)
            raise RandomizerError(f"unknown set '{name}'" + (
                f"; did you mean '{hint}'?" if hint else "") + f" (sets: {', '.join(known)})")
    sets = [by_lower[name.lower()] for name in sets]
    piles = {c.name: [c] for c in library if c.kind == "kingdom" and c.set in sets}
    for pile, members in library.split_piles.items():
        cards = [library[m] for m in members if m in library]
        if cards and cards[0].set in sets:
            piles[pile] = cards
    return piles


def _pile_name(library: Library, name: str) -> str:
    """The Kingdom pile `name` means, written in any case; a did-you-mean names only piles."""
    found = find_card(library, name)
    if found is not None and (found in library.split_piles or library[found].kind == "kingdom"):
        return found
    what = f"'{name}' is an unknown card" if found is None else f"'{found}' is a {library[found].kind} card"
    hint = closest(name, (*library.names_of_kind("kingdom"), *library.split_piles))
    raise RandomizerError(f"{what}, not a Kingdom card or split pile"
                          + (f"; did you mean '{hint}'?" if hint else ""))


def _meets(chosen: list[list[CardDef]], wanted: Constraints) -> bool:
    if wanted.plus_buy and not any(bonus(c, "Buy") for pile in chosen for c in pile):
        return False
    if wanted.village and not any(bonus(c, "Action") >= 2 for pile in chosen for c in pile):
        return False
    if wanted.spread:
        costs = [pile[0].cost for pile in chosen]
        return all(sum(low <= c <= high for c in costs) >= PER_BAND for low, high in COST_BANDS)
    return True


def deal(library: Library, sets: list[str], seed: int, wanted: Constraints = Constraints(),
         size: int = KINGDOM_SIZE) -> list[str]:
    """`size` Kingdom piles from `sets`, seeded, meeting `wanted`; sorted by cost, then name."""
    piles = kingdom_piles(library, sets)
    required = list(dict.fromkeys(_pile_name(library, n) for n in wanted.require))
    excluded = {_pile_name(library, n) for n in wanted.exclude}
    if clash := set(required) & excluded:
        raise RandomizerError(f"required and excluded: {', '.join(sorted(clash))}")
    candidates = sorted(p for p in piles if p not in excluded and p not in required)
    missing = size - len(required)
    if missing < 0 or len(candidates) < missing:
        raise RandomizerError(f"{len(candidates)} piles left to deal from {', '.join(sets)} "
                              f"after --require and --exclude; a Kingdom needs {size}")
    rng = random.Random(seed)
    cards = {**piles, **{n: _members(library, n) for n in required}}
    for _ in range(DEALS):
        chosen = required + rng.sample(candidates, missing)
        if _meets([cards[n] for n in chosen], wanted):
            return sorted(chosen, key=lambda n: (cards[n][0].cost, n))
    raise RandomizerError(f"no Kingdom from {', '.join(sets)} met the constraints in {DEALS} deals")


def _members(library: Library, pile: str) -> list[CardDef]:
    if pile in library.split_piles:
        return [library[m] for m in library.split_piles[pile] if m in library]
    return [library[pile]]


@dataclass
class PileSetup:
    name: str
    cards: int
    in_supply: bool
    role: str = ""  # "Bane", "Ferryman" (the card whose setup rule set it out)


@dataclass
class GameSetup:
    """Every setup choice of one printed game, as the runtime made them."""

    kingdom: list[str]
    players: int
    seed: int
    ally: str | None
    colonies: bool
    piles: list[PileSetup] = field(default_factory=list)
    added: dict[str, str] = field(default_factory=dict)  # card -> the pile its setup rule added
    tokens: dict[str, int] = field(default_factory=dict)  # token kind's key -> each player's start
    drawn: bool = False  # whether the seed chose anything (a Bane, an Ally, Platinum and Colony)

    def pile(self, role: str) -> str | None:
        return next((p.name for p in self.piles if p.role == role), None)

    def supply(self, name: str) -> bool:
        return any(p.name == name and p.in_supply for p in self.piles)


class _Seat:
    """A seat at a game only being set up: it is never asked anything."""


def use_colonies(library: Library, kingdom: list[str], seed: int) -> bool:
    """Platinum and Colony, decided as the rules suggest: with the chance of the share of
    Prosperity cards in the Kingdom (never without one)."""
    return random.Random(seed).random() < prosperity_share(library, kingdom)


def prosperity_share(library: Library, kingdom: list[str]) -> float:
    sets = [_members(library, n)[0].set for n in kingdom if n in library or n in library.split_piles]
    return sum(s.startswith(PROSPERITY) for s in sets) / max(1, len(sets))


def owned(library: Library, kingdom: list[str], sets: list[str] | None = None) -> Library:
    """The cards a host owns: `sets` (default: the sets of the Kingdom's piles), the basic cards
    and the Kingdom itself; a Bane, Ferryman's pile or an Ally is drawn from these."""
    if sets is None:
        sets = sorted({_members(library, n)[0].set for n in kingdom})
    any_ally = not any(c.kind == "ally" and c.set in sets for c in library)  # then any Ally
    mine = Library([c for c in library if c.set in sets or c.name in kingdom
                    or c.kind not in ("kingdom", "ally") or (c.kind == "ally" and any_ally)])
    mine.split_piles, mine.split_copies = library.split_piles, library.split_copies
    return mine


def resolve_setup(library: Library, kingdom: list[str], players: int = 2, seed: int = 0,
                  ally: str | None = None, colonies: bool | None = None,
                  sets: list[str] | None = None) -> GameSetup:
    """Set a game up with the runtime's setup rules (seeded) and read off its choices.
    `ally`: a name, or None to draw one when a Liaison needs it; `colonies`: None decides;
    `sets`: the sets setup rules draw piles from (default: the Kingdom's own)."""
    if not 2 <= players <= 6:
        raise RandomizerError(f"--players {players}: a game has 2 to 6 players")
    drawn = colonies is None and 0 < prosperity_share(library, kingdom) < 1
    if colonies is None:
        colonies = use_colonies(library, kingdom, seed)
    game = standard_game(owned(library, kingdom, sets), kingdom, [_Seat() for _ in range(players)], seed=seed,
                         colonies=colonies, ally=ally or RANDOM)
    added = {pile: card for card, pile in game.setup_piles.items()}
    piles = [PileSetup(p.name, len(p.cards), p.in_supply,
                       next(iter(sorted(p.roles)), "") or added.get(p.name, ""))
             for p in game.piles.values()]
    first = game.players[0]
    drawn = drawn or bool(game.setup_piles) or (ally is None and game.ally is not None)
    return GameSetup(list(kingdom), players, seed, game.ally.name if game.ally else None,
                     colonies, piles, dict(game.setup_piles),
                     {kind.key: n for kind in KINDS if (n := getattr(first, kind.key))}, drawn)
