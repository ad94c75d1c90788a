"""Cost changes a card makes while it is in play or during a phase: "During your Buy phase,
this costs $2 less per Action card you have in play", "During your turns, this costs $1 less
per card you've gained this turn", "While this is in play, cards cost $1 less".

Written among a card's `triggers:` (an ability, not a step), each becomes a "cost" listener of
the games the card is in (runtime.setup.install_game_triggers): Game.cost subtracts what every
such listener says, so every cost check (buying, "costing up to", "costing exactly $1 more
than it", the piles bots see) sees the changed cost, never below $0. A game without one has
no "cost" listener and prices cards as printed, as fast as before. "You" is the player whose
turn it is; the printed cost (`kingdom show`) is the cost outside those conditions."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.amounts import Countable
from kingdom.compiler.selections.filters import Filter
from kingdom.runtime.context import Ctx

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card, CardDef
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player

# When the change holds, in English
WHEN = {
    "buy_phase": "during your Buy phase",
    "your_turns": "during your turns",
    "in_play": "while this is in play",
}


@primitive(
    "cost_change",
    r"""
      cost_while "this" "costs" MONEY "less" ("per" countable)?  -> this_costs_less  // e.g.
      // during your buy phase, this costs $2 less per Action card you have in play
    | cost_while filter "cost" MONEY "less" ("per" countable)?   -> cards_cost_less  // e.g.
      // while this is in play, cards cost $1 less
// (the comma is the condition's: "while this is in play" could go on to ", when you ...")
cost_while: "during" "your" "buy" "phase" ","             -> cost_in_buy_phase  // e.g.
          // during your buy phase, this costs $2 less per Action card you have in play
          | "during" "your" "turns" ","                   -> cost_in_your_turns  // e.g.
          // during your turns, this costs $1 less per card you've gained this turn
          | "while" "this" "is" "in" "play" ","           -> cost_while_in_play  // e.g.
          // while this is in play, cards cost $1 less
""",
)
class CostChange(Node):
    """A card's cost change: which cards ("this": the card's own; else a description), by how
    much (per a count of the current player's), and when."""

    def __init__(self, when: str, money, filter: Filter | None, per: Countable | None) -> None:
        self.when = when
        self.amount = int(str(money)[1:])
        self.filter = filter  # None: "this", the card's own cost
        self.per = per

    @staticmethod
    def build_this_costs_less(when, money, per=None) -> CostChange:
        """The card's own cost, wherever it is (Supply, hand, deck), lower while the condition
        holds; an item of the card's `triggers:` list, never below $0."""
        return CostChange(when, money, None, per)

    @staticmethod
    def build_cards_cost_less(when, filter_, money, per=None) -> CostChange:
        """The cost of every card matching the description, lower while the condition holds;
        "while this is in play": once for each copy in play (a card played twice is one copy)."""
        return CostChange(when, money, filter_, per)

    @staticmethod
    def build_cost_in_buy_phase() -> str:
        """Only in the Buy phase of the player whose turn it is."""
        return "buy_phase"

    @staticmethod
    def build_cost_in_your_turns() -> str:
        """On every turn, counting what the player whose turn it is has done."""
        return "your_turns"

    @staticmethod
    def build_cost_while_in_play() -> str:
        """While a copy of the card is in any player's play area."""
        return "in_play"

    def compile(self, env: Env) -> Callable[[Game, Player, Card | None, CardDef], int]:
        """The "cost" listener's effect: how much less `definition` costs now."""
        amount, when, own = self.amount, self.when, env.card_name
        if self.filter is not None:
            applies = self.filter.compile_pred()
        else:
            def applies(_ctx: Ctx, definition: CardDef) -> bool:  # "this": the card's own cost
                return definition.name == own
        count = self.per.compile_count() if self.per is not None else None

        def reduction(game: Game, player: Player, _card, definition: CardDef) -> int:
            if when == "buy_phase" and game.phase != "buy":
                return 0
            copies = 1
            if when == "in_play":
                copies = sum(1 for p in game.players for c in p.in_play if c.d.name == own)
                if not copies:
                    return 0
            ctx = Ctx(game, player, None)
            if not applies(ctx, definition):
                return 0
            return copies * amount * (count(ctx) if count is not None else 1)

        return reduction

    def _text(self, when: str, subject: str, per: str) -> str:
        verb = "costs" if self.filter is None else "cost"
        text = f"{when}, {subject} {verb} ${self.amount} less"
        return text + (f" per {per}" if self.per is not None else "")

    def render(self, they: bool = False) -> str:
        subject = "this" if self.filter is None else self.filter.render(many=True)
        return self._text(WHEN[self.when], subject, self.per.render() if self.per else "")

    def unparse(self) -> str:
        subject = "this" if self.filter is None else self.filter.unparse(many=True)
        return self._text(WHEN[self.when].lower(), subject, self.per.unparse() if self.per else "")
