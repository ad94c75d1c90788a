"""Exchanging: "exchange the card for a Silver". The card goes back to its pile and a
copy of the other card is taken into your discard pile; this is neither a gain nor a trash (the
rules' Exchange), and happens only if the card is still where it was (Stop-Moving), has a pile
to go back to, and a copy of the other card is left."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node, article
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.filters import Noun
from kingdom.compiler.selections.zones import Ref

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


@primitive(
    "exchange_step",
    r"""
      "exchange" ref "for" article noun                         -> exchange  // e.g. exchange it for a Silver
    | "exchange" "the" CARD_WORD "for" article noun             -> exchange_the_card  // e.g.
    // when you gain a card, you may reveal this from your hand, to exchange the card for a Silver
""",
)
class Exchange(Node):
    binds = "exchanged"

    def __init__(self, ref: Ref, into: Noun) -> None:
        self.ref = ref
        self.into = into

    @staticmethod
    def build_exchange(ref, _article, noun) -> Exchange:
        """Exchanges the cards referred to, each for a copy of the named card."""
        return Exchange(ref, noun)

    @staticmethod
    def build_exchange_the_card(_word, _article, noun) -> Exchange:
        """"the card": the card the event is about (a Reaction's gained card), as printed."""
        ref = Ref("it")
        ref.text = "the card"
        return Exchange(ref, noun)

    def check(self, env: Env) -> None:
        self.into.check(env)
        if self.into.kind != "named" or len(self.into.names) != 1 or (
                self.into.resolved and self.into.resolved[0][0] != "card"):
            env.error("K380", f"'exchange ... for' takes one card name, not "
                      f"'{self.into.render()}'", self,
                      hint="name the card taken instead, e.g. 'exchange the card for a Silver'")

    def compile(self, env: Env):
        resolve = self.ref.resolve
        into = self.into.resolved[0][1] if self.into.resolved else str(self.into.names[0])

        def exchange(ctx: Ctx) -> None:
            game, player = ctx.game, ctx.player
            exchanged = []
            for card, zone in resolve(ctx):
                pile = game.piles.get(into) or game.pile_of.get(into)
                if pile is None or not pile.cards or pile.cards[-1].d.name != into:
                    continue  # no copy left to take
                if game.pile_of.get(card.d.name) is None or not game.return_to_pile(card, zone):
                    continue  # no pile to go back to, or no longer where it was
                taken = pile.cards[-1]
                game.move(taken, pile.cards, player.discard)
                exchanged.append((taken, player.discard))
            ctx.vars["it"] = exchanged
            ctx.did = bool(exchanged)

        return exchange

    def render(self, they: bool = False) -> str:
        name = self.into.render()
        return f"exchange {self.ref.render()} for {article(name)} {name}"

    def unparse(self) -> str:
        name = self.into.unparse()
        return f"exchange {self.ref.unparse()} for {article(name)} {name}"
