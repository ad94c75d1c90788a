"""The set of loaded card definitions, looked up by name."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import Any

from kingdom.runtime.cards import CardDef

CARD_TYPES = (
    "Action", "Treasure", "Victory", "Curse", "Attack", "Reaction", "Duration", "Reward",
    "Liaison", "Ally", "Augur", "Clash", "Fort", "Odyssey", "Townsfolk", "Wizard",
)


class Library:
    """Card definitions by name; also answers plural and former names ("Duchies", "Harem")."""

    def __init__(self, cards: list[CardDef] | None = None) -> None:
        self.cards: dict[str, CardDef] = {}
        self.aliases: dict[str, str] = {}
        self.split_piles: dict[str, list[str]] = {}  # pile name -> member names, top first
        self.split_copies: dict[str, int] = {}  # pile name -> copies of each member (default 4)
        self._kinds: dict[str, Any] = {}  # kind -> names, sorted (names_of_kind); " brings"
        # Supply plans (runtime.setup.build_supply) by (Kingdom, players, Colonies, first uid)
        self.supplies: dict[tuple, list] = {}
        for card in cards or ():
            self.add(card)

    def add(self, card: CardDef) -> None:
        self.cards[card.name] = card
        self._kinds.clear()
        self.supplies.clear()
        for former in card.former_names:
            self.aliases[former] = card.name

    def __contains__(self, name: str) -> bool:
        return self.resolve(name) is not None

    def __getitem__(self, name: str) -> CardDef:
        resolved = self.resolve(name)
        if resolved is None:
            raise KeyError(name)
        return self.cards[resolved]

    def __iter__(self) -> Iterator[CardDef]:
        return iter(self.cards.values())

    def __len__(self) -> int:
        return len(self.cards)

    def resolve(self, name: str) -> str | None:
        """The canonical card name for `name`, accepting former names and plurals."""
        if name in self.cards:
            return name
        if name in self.aliases:
            return self.aliases[name]
        for singular in singular_forms(name):
            if singular in self.cards:
                return singular
        return None

    def suggest(self, name: str) -> str | None:
        """A did-you-mean for a misspelt card name."""
        names = [*self.cards, *self.aliases]
        match = difflib.get_close_matches(name, names, n=1, cutoff=0.75)
        if not match:
            lowered = {n.lower(): n for n in names}
            match = [lowered[name.lower()]] if name.lower() in lowered else []
        return match[0] if match else None

    def bringing(self) -> frozenset[str]:
        """The names of the cards that bring piles (a non-empty `brings`)."""
        names = self._kinds.get(" brings")
        if names is None:
            names = self._kinds[" brings"] = frozenset(d.name for d in self if d.brings)
        return names

    def names_of_kind(self, kind: str) -> list[str]:
        """The names of the cards of one kind ("ally"), sorted (a new list)."""
        names = self._kinds.get(kind)
        if names is None:
            names = self._kinds[kind] = sorted(d.name for d in self if d.kind == kind)
        return list(names)

    def in_set(self, set_name: str) -> list[CardDef]:
        return [c for c in self.cards.values() if c.set == set_name]


def singular_forms(word: str) -> list[str]:
    """Candidate singulars of an English plural: Duchies -> Duchy, Curses -> Curse."""
    forms = []
    if word.endswith("ies"):
        forms.append(word[:-3] + "y")
    if word.endswith("es"):
        forms.append(word[:-2])
    if word.endswith("s"):
        forms.append(word[:-1])
    return forms


def closest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The choice closest to `word` in any case (a did-you-mean), or None."""
    by_lower = {c.lower(): c for c in choices}
    match = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=cutoff)
    return by_lower[match[0]] if match else None


def find_card(library: Library, name: str) -> str | None:
    """The canonical name of a card or split pile, written in any case (former names and
    plurals too), or None."""
    if name in library.split_piles:
        return name
    found = library.resolve(name)
    if found is not None:
        return found
    by_lower = {n.lower(): n for n in (*library.cards, *library.aliases, *library.split_piles)}
    for form in (name, *singular_forms(name)):
        hit = by_lower.get(form.lower())
        if hit is not None:
            return hit if hit in library.split_piles else library.resolve(hit)
    return None
