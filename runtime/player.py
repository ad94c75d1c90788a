"""A player's zones and tokens.

Piles are Python lists whose *end* is the top: drawing is `pop()`, gaining to the discard pile is
`append()`. The scenario format writes piles top first; conversion happens at its boundary.

Each token kind's count is an attribute named by the kind's key (`player.coffers`), 0 to begin
with, for every kind declared in runtime/tokens/: a slot for those declared when this module is
imported, the instance's `__dict__` for one declared later (a plugin's, a test's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kingdom.runtime.tokens import KINDS

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card


class Player:
    __slots__ = (
        "__dict__",
        "agent",
        "deck",
        "discard",
        "hand",
        "in_play",
        "index",
        "name",
        "next_turn",
        "set_aside",
        "turns_taken",
        *(kind.key for kind in KINDS),
    )

    def __init__(self, index: int, agent: Any = None) -> None:
        self.index = index
        self.name = f"p{index + 1}"
        self.agent = agent
        self.deck: list[Card] = []
        self.hand: list[Card] = []
        self.in_play: list[Card] = []
        self.discard: list[Card] = []
        self.set_aside: list[Card] = []
        for kind in KINDS:
            setattr(self, kind.key, 0)
        self.turns_taken = 0
        # Effects waiting for this player's next turn: (card kept in play or None, effect, ctx).
        self.next_turn: list[tuple] = []

    def zones(self) -> tuple[list[Card], ...]:
        return (self.deck, self.hand, self.in_play, self.discard, self.set_aside)

    def owned(self) -> list[Card]:
        """Every card the player has, anywhere (the scoring meaning of "deck")."""
        return [*self.deck, *self.hand, *self.in_play, *self.discard, *self.set_aside]

    def __repr__(self) -> str:
        return self.name
