"""A card's own rule about buying it: "You can't buy this if you have any Coppers in play"
(Grand Market).

Written among a card's `triggers:` (below the line, not a step), it becomes the card's
`buy_limit`: every buy checks it (Game.buy refuses with the printed reason), and the piles
offered to bots, players and the step-wise API leave the card out while it holds. Gaining the
card otherwise is not buying it. A game without such a card checks nothing more."""

from __future__ import annotations

from collections.abc import Callable

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.amounts import Countable
from kingdom.compiler.selections.conditions import count_tail
from kingdom.runtime.context import Ctx


@primitive(
    "buy_limit",
    r"""
      "you" "can't" "buy" "this" "if" "you" "have" "any" countable -> cannot_buy_if_any  // e.g.
      // you can't buy this if you have any Coppers in play
""",
)
class BuyLimit(Node):
    """While the current player has any of the counted cards, this card cannot be bought."""

    def __init__(self, countable: Countable) -> None:
        self.countable = countable

    @staticmethod
    def build_cannot_buy_if_any(countable) -> BuyLimit:
        """Refuses every buy of this card while the buyer has any such card."""
        return BuyLimit(countable)

    def compile(self, env: Env) -> Callable[[Ctx], None]:
        """Reached only outside `triggers:`, where the rule would be a step done at once."""
        env.error("K376", f"'{self.render()}' is a rule about buying this card, not a step",
                  self, "write it as its own item of 'triggers:' (below the line)")
        return lambda ctx: None

    def compile_limit(self) -> Callable[[Ctx], bool]:
        """True while the player (ctx.player) may not buy the card."""
        count = self.countable.compile_count()
        return lambda ctx: count(ctx) > 0

    def render(self, they: bool = False) -> str:
        return f"you can't buy this if you have any {count_tail(self.countable)}"

    def unparse(self) -> str:
        return f"you can't buy this if you have any {self.countable.unparse()}"
