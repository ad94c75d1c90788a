"""A rule sheet's setup notes (what setup needs beyond the standard game, from the chosen cards'
data: setup abilities, token mats, piles outside the Supply, split piles, Overpay, pile sizes)
and the accessibility sentences of the rules files that concern the game.

Token kinds are read from their declarations (runtime/tokens): each one's mat text, the cards
that use it, and its name as a mechanic an accessibility sentence may be about.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kingdom.print.selection import COMMON_TYPES, NON_SUPPLY_KINDS, SPLIT_COPIES, Selection
from kingdom.runtime.cards import CardDef
from kingdom.runtime.library import Library
from kingdom.runtime.setup import BASIC
from kingdom.runtime.tokens import FAVORS, KINDS, TokenKind

if TYPE_CHECKING:
    from kingdom.print.randomizer import GameSetup



@dataclass
class SetupNote:
    title: str
    text: str
    cards: list[str] = field(default_factory=list)


# What an accessibility sentence is about, when it names no card: a mechanic of the game.
# (Each token kind with a rule-sheet note is one too, by its name: `mechanics`.)
MECHANICS = {
    "Ally": lambda cards, sel: sel.ally is not None,
    "split pile": lambda cards, sel: bool(sel.piles),
    "Bane": lambda cards, sel: any(re.search(r"\bBanes?\b", c.text) for c in cards),
    "Reward": lambda cards, sel: any(c.kind == "reward" for c in cards),
    "Overpay": lambda cards, sel: any(c.overpay for c in cards),
}
PILE_TERMS = {"Bane", "Reward"}  # piles a sentence names beside cards ("the Bane pile, Ferryman's")


def relevant_access(library: Library, selection: Selection,
                    files: list[tuple[frozenset[str], list[str]]]) -> list[str]:
    """The accessibility notes that concern the selection, sentence by sentence: one naming
    cards or mechanics is kept when one of them is in the game; one naming neither, when its
    rules file is about a card in the game."""
    shown = {c.name for c in selection.cards} | set(selection.piles)
    known = sorted({c.name for c in library} | set(library.split_piles), key=len, reverse=True)
    tests = mechanics()
    present = {term for term, test in tests.items() if test(selection.cards, selection)}
    out = []
    for names, notes in files:
        for note in notes:
            kept = [s for s in re.split(r"(?<=[.!?])\s+", note)
                    if _concerns(s, known, shown, tests, present, bool(names & shown))]
            if kept:
                out.append(" ".join(kept))
    return out


def mechanics() -> dict[str, Callable[[list[CardDef], Selection], bool]]:
    """MECHANICS and each token kind with a rule-sheet note, by its name (a "Favor" sentence
    concerns a game with a card that uses Favors)."""
    tokens = {kind.singular: lambda cards, sel, kind=kind: bool(token_users(kind, cards))
              for kind in KINDS if kind.mat is not None}
    return tokens | MECHANICS


def _concerns(sentence: str, known: list[str], shown: set[str], tests: dict, present: set[str],
              file_applies: bool) -> bool:
    """Named cards, and the piles listed beside them (Bane, Rewards), decide first; then the
    mechanics named (`tests`); a sentence naming nothing follows its rules file."""
    terms = {t for t in tests if re.search(rf"\b{re.escape(t)}", sentence)}
    subjects = {n for n in known if re.search(rf"\b{re.escape(n)}\b", sentence)}
    if subjects or terms & PILE_TERMS:
        return bool(subjects & shown or terms & PILE_TERMS & present)
    return bool(terms & present) if terms else file_applies


def setup_notes(library: Library, selection: Selection) -> list[SetupNote]:
    """What setup needs beyond the standard game, derived from the chosen cards' data."""
    notes: list[SetupNote] = []
    cards = list(selection.cards)
    supply = [c for c in cards if c.kind not in NON_SUPPLY_KINDS and c.kind != "ally"]

    def names(group: list[CardDef]) -> list[str]:
        return [c.name for c in group]

    extra_basics = [c for c in cards if c.kind == "basic" and c.name not in BASIC]
    if extra_basics:
        notes.append(SetupNote("Extra basic piles", "Add the " + _and(names(extra_basics)) +
                               " piles to the Supply beside the usual basic cards.",
                               names(extra_basics)))
    game = selection.game
    for card in cards:
        lines = [x for x in card.text.splitlines() if x.startswith("Setup")]
        if card.setup is not None or lines:
            text = " ".join(lines) or "This card has a setup rule."
            if game is not None and card.name in game.added:
                pile = game.added[card.name]
                where = "in the Supply" if game.supply(pile) else "set aside, outside the Supply"
                text += f" In this game: {pile} ({where})."
            notes.append(SetupNote(card.name, text, [card.name]))
    notes.extend(token_notes(cards, selection))
    if selection.ally is not None and not token_users(FAVORS, cards):
        # (an Ally naming no Favors: Allies are played with Favors, 1 to start with, their rule)
        start = FAVORS.count(game.tokens.get(FAVORS.key, 0) if game else 1)
        notes.append(SetupNote("Ally", f"Set out the Ally {selection.ally.name}; each player gets "
                               f"a {FAVORS.plural} mat and {start}.", [selection.ally.name]))
    outside = [c for c in cards if c.kind in NON_SUPPLY_KINDS]
    if outside:
        users = [c for c in supply if any(
            re.search(rf"\b{re.escape(w)}s?\b", c.text)
            for o in outside for w in (o.name, *(t for t in o.types if t not in COMMON_TYPES)))]
        notes.append(SetupNote(
            "Piles outside the Supply", "Set out " + _and(names(outside)) + " beside the Supply "
            "(one of each with 2 players, two of each with 3 or more). They cannot be bought"
            + (" and are gained through " + _and(names(users)) if users else "") + ".",
            names(outside)))
    for pile, members in selection.piles.items():
        notes.append(SetupNote(
            pile, f"One Supply pile of {SPLIT_COPIES} copies of each card, top to bottom: "
            + ", ".join(members) + ". Only the top card can be bought or gained.", [pile]))
    overpay = [c for c in supply if c.overpay]
    if overpay:
        notes.append(SetupNote(
            "Overpay", "When you buy " + _and(names(overpay), "or") + ", you may pay more than its "
            "cost; its Overpay ability uses the extra amount. Gaining it any other way is not "
            "overpaying.", names(overpay)))
    return notes + (game_notes(library, game) if game else [])


def token_users(kind: TokenKind, cards: list[CardDef]) -> list[CardDef]:
    """The cards that use a token kind: naming it (as printed, singular or plural) or of a type
    that uses it without naming it (`uses`: a Liaison, Favors)."""
    named = re.compile(rf"\b(?:{re.escape(kind.plural)}|{re.escape(kind.singular)})\b")
    return [c for c in cards if any(c.has_type(t) for t in kind.uses) or named.search(c.text)]


def token_notes(cards: list[CardDef], selection: Selection) -> list[SetupNote]:
    """A note per token kind the cards use, as its declaration words its mat, with how many
    each player starts with in a set-up game; the note of the kind Liaisons use says which
    Ally to set out. (A kind card types use comes last: the order these notes always had.)"""
    game, notes = selection.game, []
    for kind in sorted((k for k in KINDS if k.mat is not None), key=lambda k: bool(k.uses)):
        users = token_users(kind, cards)
        if not users:
            continue
        text = kind.mat(game.tokens.get(kind.key, 0) if game else None)
        text += " Used by " + _and([c.name for c in users]) + "."
        if any(c.has_type("Liaison") for c in users):
            ally = selection.ally
            text += (f" With a Liaison in the game, use exactly one Ally: {ally.name}." if ally
                     else " With a Liaison in the game, choose exactly one Ally and set it out.")
        notes.append(SetupNote(kind.plural, text, [c.name for c in users]))
    return notes


def game_notes(library: Library, game: GameSetup) -> list[SetupNote]:
    """Platinum and Colony, and how many cards each pile starts with for this many players."""
    colony = ("Used: add the Platinum and Colony piles; the game also ends when Colony runs out."
              if game.colonies else "Not used in this game.")
    basics = [p for p in game.piles if p.name in BASIC or p.name in ("Platinum", "Colony")]
    groups: dict[int, list[str]] = {}
    for pile in game.piles:
        if pile not in basics and pile.in_supply:
            name = f"{pile.name} ({pile.role})" if pile.role == "Bane" else pile.name
            groups.setdefault(pile.cards, []).append(name)
    sizes = ", ".join(f"{p.name} {p.cards}" for p in basics)
    sizes += "".join(f"; {n} each: {', '.join(names)}" if len(names) > 1 else f"; {names[0]} {n}"
                     for n, names in sorted(groups.items(), reverse=True))
    outside = [p for p in game.piles if not p.in_supply]
    if outside:
        sizes += "; outside the Supply: " + ", ".join(f"{p.name} {p.cards}" for p in outside)
    return [SetupNote("Platinum and Colony", colony),
            SetupNote(f"Piles for {game.players} players", sizes + ".", [p.name for p in game.piles])]


def _and(items: list[str], word: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]

