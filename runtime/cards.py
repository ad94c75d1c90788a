"""Compiled card definitions and the physical cards that carry them.

A `CardDef` is what the compiler produces from one YAML file; a `Card` is one physical copy in a
game. Effects hold on to `Card` objects, so "if it is still in play" is a check of where that very
card is (the Stop-Moving rule), never of a name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player

Effect = Callable[["Ctx"], Any]


@dataclass(eq=False)
class Trigger:
    """A below-the-line ability: `event` names when it fires, `effect` is what it does."""

    event: str
    effect: Effect
    condition: Callable[[Ctx], bool] | None = None
    optional: bool = False
    # where the card must be: "self" (it is the subject), "hand" (a Reaction revealed from
    # hand), "in_play" (a copy in its owner's play area), "game" (anywhere: game-wide)
    where: str = "self"
    label: str = ""
    match: Callable[..., bool] | None = None  # for game-wide triggers: which events count
    react: str = ""  # a Reaction in hand: what it does with the card (reveal, trash, discard, play)
    who: str = "you"  # whose event it answers: "you" (its owner's) or "other" (another player's)


@dataclass(eq=False)
class CardDef:
    """Everything the runtime needs to know about a card, compiled once."""

    name: str
    set: str
    cost: int
    types: tuple[str, ...]
    kind: str = "kingdom"
    overpay: bool = False
    special_cost: bool = False
    on_play: Effect | None = None
    coins: int | None = None  # a Treasure whose whole effect is +$N: played without the interpreter
    vp: int = 0
    worth: Callable[[Game, Player], int] | None = None
    triggers: dict[str, list[Trigger]] = field(default_factory=dict)
    setup: Effect | None = None
    # "this costs $2 less ...": each says how much less a card costs now (a "cost" listener)
    cost_changes: tuple[Callable[..., int], ...] = ()
    # "you can't buy this if ...": (true while it can't be bought, the printed rule)
    buy_limit: tuple[Callable[[Ctx], bool], str] | None = None
    setup_keys: tuple[str, ...] = ()  # setup choices it takes ("bane", "ferryman"): scenario keys
    brings: tuple[str, ...] = ()  # types of non-Supply piles it brings ("Reward")
    records: tuple[str, ...] = ()  # turn history it reads that a game keeps only if asked ("buy")
    former_names: tuple[str, ...] = ()
    pile_size: int | None = None  # cards in its Supply pile, when not the usual number
    rulings: tuple[str, ...] = ()  # clarifications printed with it (`rulings:` in its file)
    source: str = ""
    text: str = ""
    tree: Any = None

    def __post_init__(self) -> None:
        types = set(self.types)
        self.type_set = frozenset(types)
        self.is_action = "Action" in types
        self.is_treasure = "Treasure" in types
        self.is_victory = "Victory" in types
        self.is_attack = "Attack" in types
        self.is_duration = "Duration" in types

    def has_type(self, type_name: str) -> bool:
        return type_name in self.type_set

    def __repr__(self) -> str:
        return f"<CardDef {self.name}>"


class Card:
    """One physical card. Identity matters: two Coppers are two objects."""

    __slots__ = ("d", "uid")

    def __init__(self, definition: CardDef, uid: int) -> None:
        self.d = definition
        self.uid = uid

    @property
    def name(self) -> str:
        return self.d.name

    def __repr__(self) -> str:
        return f"{self.d.name}#{self.uid}"
