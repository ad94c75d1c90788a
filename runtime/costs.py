"""What cards cost now, and which ones the current player can afford."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.runtime.cards import CardDef
from kingdom.runtime.context import Ctx

if TYPE_CHECKING:
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player


class Costs:
    """The part of Game that prices cards."""

    __slots__ = ()  # Game holds the slots (see Game.__slots__)

    def cost(self, definition: CardDef) -> int:
        """The current cost of a card: printed cost less reductions, never below $0."""
        if not self.cost_reduction and not self.listeners.get("cost"):
            return definition.cost
        cost = definition.cost - self.cost_reduction
        pile = self.pile_of.get(definition.name)
        if pile is not None and pile.tokens:
            cost -= pile.tokens.get("cost", 0)
        for change in self.listeners.get("cost", ()):  # each effect says how much less it costs
            cost -= change.effect(self, self.player, None, definition)
        return cost if cost > 0 else 0

    def buy_refused(self, definition: CardDef, player: Player) -> str:
        """The card's own rule refusing its buy by `player` now ("you can't buy this if ..."),
        or "" when it has none or the rule allows it."""
        limit = definition.buy_limit
        if limit is None or not limit[0](Ctx(self, player, None)):
            return ""
        return limit[1]

    def affordable(self) -> list[str]:
        names = self._affordable_by_cost()
        if not self._buy_limits:
            return names
        player, piles = self.player, self.pile_of
        return [n for n in names if not self.buy_refused(piles[n].cards[-1].d, player)]

    def _affordable_by_cost(self) -> list[str]:
        coins, cost = self.coins, self.cost
        if not self.cost_reduction and not self.listeners.get("cost"):
            return [
                pile.cards[-1].d.name
                for pile in self.piles.values()
                if pile.in_supply and pile.cards and pile.cards[-1].d.cost <= coins
            ]
        return [
            pile.cards[-1].d.name
            for pile in self.piles.values()
            if pile.in_supply and pile.cards and cost(pile.cards[-1].d) <= coins
        ]


class Affordable:
    """The names `Game.affordable()` would list, tested one at a time (for fast agents)."""

    __slots__ = ("game", "listeners", "pile_of", "piles")

    def __init__(self, game: Game) -> None:
        self.game = game
        # (the game's dicts, mutated, never replaced)
        self.pile_of, self.piles, self.listeners = game.pile_of, game.piles, game.listeners

    def __contains__(self, name: object) -> bool:
        pile = self.pile_of.get(name)  # (not `or`: Pile.__bool__ is a Python call)
        if pile is None:
            pile = self.piles.get(name)
            if pile is None:
                return False
        cards = pile.cards
        if not cards or not pile.in_supply:
            return False
        top = cards[-1].d
        if top.name != name:
            return False
        game = self.game
        if game._buy_limits and game.buy_refused(top, game.player):
            return False
        if not game.cost_reduction and "cost" not in self.listeners:
            return top.cost <= game.coins
        return game.cost(top) <= game.coins  # (the same when an empty "cost" group is left)

    def __iter__(self):
        return iter(self.game.affordable())

    def __len__(self) -> int:
        return len(self.game.affordable())
