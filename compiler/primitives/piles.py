"""Supply piles: "rotate the Augurs" (a split pile named on the card), "rotate any Supply pile".

Rotating moves the top group of same-named cards to the bottom of the pile, keeping their order
(Game.rotate); a pile with one name only is unchanged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.runtime.decisions import PILE, Decision, ask

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


@primitive(
    "pile_step",
    r"""
      "rotate" "the" NAME                        -> rotate_named
    | "rotate" "any" "supply" PILE_WORD          -> rotate_any
""",
)
class Rotate(Node):
    def __init__(self, pile: str | None) -> None:
        self.pile = pile  # None: a Supply pile the player picks
        self.optional = False  # "you may rotate any Supply pile": picking none declines

    @property
    def chooses(self) -> bool:
        return self.pile is None

    @staticmethod
    def build_rotate_named(name) -> Rotate:
        """Moves the top card of that split pile to its bottom."""
        return Rotate(str(name))

    @staticmethod
    def build_rotate_any(_word) -> Rotate:
        """The player picks a split pile in the Supply and moves its top card to the bottom."""
        return Rotate(None)

    def check(self, env: Env) -> None:
        if self.pile is not None and self.pile not in env.pile_names:
            env.error("K300", f"'{self.pile}' is not a split pile", self,
                      "rotate names a pile file (kind: split-pile)")

    def compile(self, env: Env):
        name = self.pile
        if name is not None:
            def rotate(ctx: Ctx) -> None:
                pile = ctx.game.piles.get(name)
                ctx.did = pile is not None and bool(pile.cards)
                if ctx.did:
                    ctx.game.rotate(pile)
            return rotate

        optional = self.optional

        def rotate_any(ctx: Ctx) -> None:
            game = ctx.game
            # only piles with more than one name change when rotated; each is offered by the
            # name of its top card, as a gain from it would be
            piles = {p.cards[-1].d.name: p for p in game.piles.values() if p.in_supply and p.cards
                     and any(c.d.name != p.cards[-1].d.name for c in p.cards)}
            picked = ask(Decision(PILE, ctx.player, "Rotate a Supply pile", list(piles),
                                  0 if optional else 1, 1, card=ctx.card, game=game))
            ctx.did = picked is not None
            if ctx.did:
                game.rotate(piles[picked])

        return rotate_any

    def render(self, they: bool = False) -> str:
        return f"rotate the {self.pile}" if self.pile else "rotate any Supply pile"

    def unparse(self) -> str:
        return f"rotate the {self.pile}" if self.pile else "rotate any supply pile"
