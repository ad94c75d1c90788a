"""Piles of cards, and the numbered cards a game sets up (shared between games set up alike)."""

from __future__ import annotations

from kingdom.runtime.cards import Card, CardDef


class Pile:
    """A pile of cards (top at the end). Split piles hold several card definitions."""

    __slots__ = ("cards", "in_supply", "name", "roles", "tokens")

    def __init__(self, name: str, cards: list[Card], in_supply: bool = True) -> None:
        self.name = name
        self.cards = cards
        self.in_supply = in_supply
        self.tokens: dict[str, int] = {}
        self.roles: set[str] = set()  # what a setup rule made it ("Bane")

    @property
    def top(self) -> CardDef | None:
        return self.cards[-1].d if self.cards else None

    def __len__(self) -> int:
        return len(self.cards)

    def __bool__(self) -> bool:
        return True  # an empty pile is still a pile: `piles.get(n) or ...` must not skip it

    def __repr__(self) -> str:
        return f"<Pile {self.name} x{len(self.cards)}>"


# New cards by (first uid, definitions, as a pile): a Card is immutable (a definition and a
# uid), and a game tells its cards apart by identity among its own, so games set up alike share
# their piles' and starting decks' Card objects instead of creating ~200 of them per game.
# (cards, distinct definitions, whether one has a when-discarded-from-play ability)
NewCards = tuple[tuple[Card, ...], tuple[CardDef, ...], bool]
_NEW_CARDS: dict[tuple, NewCards] = {}


def numbered_cards(uid: int, defs: list[CardDef], pile: bool) -> NewCards:
    """Cards numbered from uid + 1 (a pile's: the first definition on top, numbered first),
    the distinct definitions, and whether one has a when-discarded-from-play ability."""
    first = defs[0] if defs else None
    # all alike (the usual pile): a short key
    key = (uid, pile, first, len(defs)) if defs.count(first) == len(defs) else (uid, pile, *defs)
    made = _NEW_CARDS.get(key)
    if made is None:
        if len(_NEW_CARDS) >= 8192:
            _NEW_CARDS.clear()
        uids = range(uid + 1, uid + 1 + len(defs))
        cards = tuple(map(Card, reversed(defs), uids) if pile else map(Card, defs, uids))
        distinct = tuple(dict.fromkeys(defs))
        when_discarded = any("discard_from_play" in d.triggers for d in distinct)
        made = _NEW_CARDS[key] = (cards, distinct, when_discarded)
    return made
