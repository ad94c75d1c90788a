"""Treasures producing more this turn: "Copper produces an extra $1 this turn"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.filters import Filter
from kingdom.runtime.game import Listener

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card
    from kingdom.runtime.context import Ctx
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player


@primitive(
    "produce_step",
    r"""
      filter "produces" "an" "extra" MONEY "this" "turn"     -> produce_extra
""",
)
class ProduceExtra(Node):
    """For the rest of the turn, each time a matching card you play produces, +$N more: after
    its effect, so a card that does nothing when played (Highwayman) produces no extra."""

    def __init__(self, filter: Filter, coins: int) -> None:
        self.filter = filter
        self.coins = coins

    @staticmethod
    def build_produce_extra(filter_, money) -> ProduceExtra:
        return ProduceExtra(filter_, int(str(money)[1:]))

    def compile(self, env: Env):
        pred, coins = self.filter.compile_pred(), self.coins

        def install(ctx: Ctx) -> None:
            owner = ctx.you

            def match(game: Game, player: Player, card: Card | None) -> bool:
                return player is owner and card is not None and pred(ctx, card.d)

            def extra(game: Game, player: Player, card: Card | None, data) -> None:
                game.coins += coins

            ctx.game.listen(Listener("after_play", owner, extra, match, ctx.card, "turn"))

        return install

    def render(self, they: bool = False) -> str:
        return f"{self.filter.render()} produces an extra ${self.coins} this turn"

    def unparse(self) -> str:
        return f"{self.filter.unparse()} produces an extra ${self.coins} this turn"
