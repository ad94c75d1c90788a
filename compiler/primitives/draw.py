"""Drawing: "draw a card", "draw 2 cards", "draw until you have 7 cards in hand, skipping ..."."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.filters import Filter
from kingdom.compiler.selections.selection import Selection
from kingdom.runtime.decisions import BENEFIT, SKIP, YES_NO, Decision, ask

if TYPE_CHECKING:
    from kingdom.compiler.selections.amounts import Amount
    from kingdom.runtime.context import Ctx


THAT_MANY = -1  # the count of "draw that many": the cards the step before moved


@primitive(
    "draw_step",
    r"""
      "draw" article CARD_WORD                                   -> draw_one
    | "draw" INT CARD_WORD                                       -> draw_n
    | "draw" "until" "you" "have" INT CARD_WORD "in" "hand" skipping?   -> draw_until
    | "draw" "that" "many" CARD_WORD? -> draw_that_many  // e.g. discard 2 cards, then draw that many
    | "draw" "the" "rest"                                        -> draw_the_rest  // e.g. draw the rest
    | "draw" CARD_WORD "equal" "to" card_number -> draw_equal_to  // e.g.
        // draw cards equal to the number of Golds you have
skipping: "," "skipping" "any" filter
""",
)
class Draw(Node):
    def __init__(self, count: int, until: bool = False, skip: Filter | None = None) -> None:
        self.count = count
        self.until = until
        self.skip = skip

    @staticmethod
    def build_draw_equal_to(_word, amount: Amount) -> Draw:
        """Draws as many cards as the number is when it draws ("the cost in $ of the trashed
        card", "the number of Golds you have")."""
        draw = Draw(0)
        draw.equal_to = amount
        return draw

    @staticmethod
    def build_draw_one(_article, _word) -> Draw:
        """Draws one card from your deck (shuffling your discard pile in if it runs out)."""
        return Draw(1)

    @staticmethod
    def build_draw_n(n, _word) -> Draw:
        """Draws that many cards from your deck (shuffling your discard pile in if it runs out)."""
        return Draw(int(n))

    @staticmethod
    def build_draw_until(n, _word, skip=None) -> Draw:
        """Draws one card at a time until you hold that many; skipped cards are set aside, then discarded."""
        return Draw(int(n), until=True, skip=skip.children[0] if skip is not None else None)

    @staticmethod
    def build_draw_that_many(_word=None) -> Draw:
        """Draws as many cards as the step before moved (discarded, trashed, ...)."""
        return Draw(THAT_MANY)

    @staticmethod
    def build_draw_the_rest() -> Node:
        """Puts the cards looked at or revealed that are still there into your hand (Envoy)."""
        from kingdom.compiler.primitives.move import Move

        move = Move("put", Selection("rest"), "hand")
        move.written = "draw the rest"
        return move

    def compile(self, env: Env):
        count = self.count
        equal_to = getattr(self, "equal_to", None)
        if equal_to is not None:
            number = equal_to.compile_amount()

            def draw_equal_to(ctx: Ctx) -> None:
                many = max(0, number(ctx))
                ctx.did = len(ctx.game.draw(ctx.player, many)) == many
            return draw_equal_to
        if count == THAT_MANY:
            def draw_that_many(ctx: Ctx) -> None:
                many = len(ctx.vars.get("it") or ())
                ctx.did = len(ctx.game.draw(ctx.player, many)) == many
            return draw_that_many
        if not self.until:
            def draw(ctx: Ctx) -> None:
                ctx.did = len(ctx.game.draw(ctx.player, count)) == count
            return draw
        skip = self.skip.compile_pred() if self.skip is not None else None

        def draw_until(ctx: Ctx) -> None:
            game, player = ctx.game, ctx.player
            skipped: list = []
            while len(player.hand) < count:
                cards = game.take_from_deck(player, 1)
                if not cards:
                    break
                card = cards[0]
                if skip is not None and skip(ctx, card.d) and ask(
                    Decision(YES_NO, player, f"Skip {card.d.name}?", [True, False],
                             card=ctx.card, game=game, topic=SKIP, purpose=BENEFIT,
                             reward=card, source="deck")
                ):
                    skipped.append(card)  # set aside, off the deck
                    continue
                player.hand.append(card)
                game.drew(player, card)
            for card in list(skipped):  # discarded one by one: "when you discard this" fires
                game.discard_card(player, card, skipped)

        return draw_until

    def render(self, they: bool = False) -> str:
        if self.until:
            text = f"draw until you have {self.count} cards in hand"
            if self.skip is not None:
                text += (f", skipping any {self.skip.render(many=True)} you choose to; "
                         "set those aside, discarding them afterwards")
            return text
        if self.count == THAT_MANY:
            return "draw that many cards"
        if getattr(self, "equal_to", None) is not None:
            return f"draw cards equal to {self.equal_to.render()}"
        return "draw a card" if self.count == 1 else f"draw {self.count} cards"

    def unparse(self) -> str:
        if self.until:
            skip = f", skipping any {self.skip.unparse(many=True)}" if self.skip is not None else ""
            return f"draw until you have {self.count} cards in hand{skip}"
        if getattr(self, "equal_to", None) is not None:
            return f"draw cards equal to {self.equal_to.unparse()}"
        return self.render()
