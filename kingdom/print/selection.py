"""What a summary or sheet shows: every card of a set, or a chosen Kingdom with its setup
(Bane, Ally, piles outside the Supply), as a `Selection`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from kingdom.print.randomizer import GameSetup, RandomizerError, resolve_setup
from kingdom.runtime.cards import CardDef
from kingdom.runtime.library import Library, closest, find_card

# Built-in sets by id; a custom expansion's name comes from its manifest.
SET_NAMES = {
    "base": "Base", "base-1e": "Base (first-edition cards)", "intrigue": "Intrigue",
    "intrigue-1e": "Intrigue (first-edition cards)", "cornucopia-guilds": "Cornucopia & Guilds",
    "allies": "Allies", "prosperity-basic": "Prosperity (Platinum and Colony)",
}
# Types every game has; any other type a card mentions may name cards kept outside the Supply.
COMMON_TYPES = {"Action", "Treasure", "Victory", "Curse", "Attack", "Reaction", "Duration"}
NON_SUPPLY_KINDS = ("reward",)
SPLIT_COPIES = 4


class RenderError(Exception):
    """A selection that cannot be rendered: unknown set, card or Ally."""


# ------------------------------------------------------------------------------ selection
@dataclass
class Selection:
    """What a summary covers: cards to show, split piles (name -> members, top first), an Ally."""

    title: str
    cards: list[CardDef]
    piles: dict[str, list[str]] = field(default_factory=dict)
    ally: CardDef | None = None
    is_kingdom: bool = False
    game: GameSetup | None = None  # a Kingdom's setup, every choice resolved


def sets_of(library: Library) -> list[str]:
    """Every set id (and card folder name) that `--set` accepts."""
    names = {c.set for c in library} | {Path(c.source).parent.name for c in library if c.source}
    return sorted(names)


def select_set(library: Library, set_names: str) -> Selection:
    """Every card of a set, or of several sets separated by commas ("base,intrigue")."""
    cards: list[CardDef] = []
    titles = []
    for set_name in [n.strip() for n in set_names.split(",") if n.strip()] or [set_names]:
        found = [c for c in library if _in_set(c, set_name)]
        if not found:
            raise RenderError(f"unknown set '{set_name}'; sets: {', '.join(sets_of(library))}")
        titles.append(_set_title(found, set_name))
        cards.extend(c for c in found if c not in cards)
    names = {c.name for c in cards}
    piles = {p: m for p, m in library.split_piles.items() if m and m[0] in names}
    return Selection(" & ".join(titles), cards, piles)


def select_cards(library: Library, names: str) -> Selection:
    """Just the cards named (in any case), of any kind (basic cards, Allies, Rewards): proxies
    or dividers of one's own choosing. A split pile's name brings its members, top first."""
    cards: list[CardDef] = []
    piles: dict[str, list[str]] = {}
    chosen = []
    for raw in [n.strip() for n in names.split(",") if n.strip()]:
        name = find_card(library, raw)
        if name is None:
            hint = closest(raw, [*library.cards, *library.split_piles])
            raise RenderError(f"unknown card '{raw}'" + (f"; did you mean '{hint}'?" if hint else ""))
        if name in library.split_piles:
            piles[name] = list(library.split_piles[name])
        found = [library[m] for m in piles.get(name, [name]) if m in library]
        chosen.append(name)
        cards.extend(c for c in found if c not in cards)
    if not cards:
        raise RenderError("--pick needs at least one card")
    return Selection("Cards: " + ", ".join(dict.fromkeys(chosen)), cards, piles)


def _in_set(card: CardDef, set_name: str) -> bool:
    """A card of the set id, or from the card folder of that name."""
    return card.set == set_name or bool(card.source and Path(card.source).parent.name == set_name)


def _set_title(cards: list[CardDef], set_name: str) -> str:
    """The set's name, with the version of a custom expansion's manifest."""
    found = _manifest(cards[0]) if cards else None
    return f"{found.name} {found.version}" if found else SET_NAMES.get(set_name, set_name)


def set_name(card: CardDef) -> str:
    """The name of a card's set, as printed on a card: "Cornucopia & Guilds", "Harbor Towns"."""
    found = _manifest(card)
    return found.name if found else SET_NAMES.get(card.set, card.set)


def _manifest(card: CardDef):
    """The manifest of the expansion folder a card comes from, if it has one."""
    from kingdom.compiler.expansions import MANIFEST, Manifest, read_manifest

    for folder in Path(card.source).parents if card.source else ():
        if (folder / MANIFEST).is_file():
            found = read_manifest(folder / MANIFEST)
            return found if isinstance(found, Manifest) else None
    return None


def select_kingdom(library: Library, names: list[str], ally: str | None = None, players: int = 2,
                   seed: int = 0, colonies: bool | None = None) -> Selection:
    """A Kingdom and its setup for `players`, every choice (Bane, Ally, ...) resolved, seeded."""
    cards: list[CardDef] = []
    piles: dict[str, list[str]] = {}
    for raw in names:
        name = raw.strip()
        if not name:
            continue
        if name in library.split_piles:
            piles[name] = list(library.split_piles[name])
            cards.extend(library[m] for m in piles[name] if m in library)
            continue
        resolved = library.resolve(name)
        if resolved is None:
            hint = library.suggest(name)
            raise RenderError(f"unknown card '{name}'" + (f"; did you mean '{hint}'?" if hint else ""))
        if library[resolved] not in cards:
            cards.append(library[resolved])
    ally_card = None
    if ally:
        resolved = library.resolve(ally)
        if resolved is None or library[resolved].kind != "ally":
            allies = sorted(c.name for c in library if c.kind == "ally")
            raise RenderError(f"'{ally}' is not an Ally" +
                              (f"; Allies: {', '.join(allies)}" if allies else ""))
        ally_card = library[resolved]
    chosen = [n.strip() for n in names if n.strip()]
    kingdom = [n if n in piles else library[n].name for n in chosen]
    try:
        game = resolve_setup(library, kingdom, players, seed, ally_card and ally_card.name, colonies)
    except RandomizerError as exc:
        raise RenderError(str(exc)) from exc
    ally_card = library[game.ally] if game.ally else None
    for pile in game.added.values():  # the Bane, Ferryman's pile
        if library[pile] not in cards:
            cards.append(library[pile])
    if game.colonies:
        cards.extend(library[n] for n in ("Platinum", "Colony") if n in library)
    for extra in _outside_supply(library, [*cards, *([ally_card] if ally_card else [])]):
        if extra not in cards:
            cards.append(extra)
    if ally_card is not None:
        cards.append(ally_card)
    title = "Kingdom: " + ", ".join(kingdom)
    return Selection(title, cards, piles, ally_card, is_kingdom=True, game=game)


def _outside_supply(library: Library, chosen: list[CardDef]) -> list[CardDef]:
    """Cards kept outside the Supply (Rewards) that a chosen card's text refers to."""
    text = "\n".join(c.text for c in chosen)
    out = []
    for card in library:
        if card.kind not in NON_SUPPLY_KINDS:
            continue
        words = [card.name, *(t for t in card.types if t not in COMMON_TYPES)]
        if any(re.search(rf"\b{re.escape(w)}s?\b", text) for w in words):
            out.append(card)
    return out
