"""A step of yours inside "each other player: ..." ("you gain a copy of it"): `AsYou` does it
as you, the player whose card it is, not as them. Its own module because choose.py and each.py
both look at it (a choice "they gain a copy of it or you do")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


class AsYou(Node):
    """"you gain a copy of it" inside "each other player: ...": the step is yours, not theirs."""

    says_they = True  # said of "they" by its own render(they=True) (block.said_of_them)

    def __init__(self, step: Node) -> None:
        self.step = step

    def compile(self, env: Env):
        run = self.step.compile(env)

        def as_you(ctx: Ctx) -> None:
            acting = ctx.player
            ctx.player = ctx.you
            try:
                run(ctx)
            finally:
                ctx.player = acting

        return as_you

    def render(self, they: bool = False) -> str:
        """`they`: said as a sentence of "each other player", about the cards of the player it
        is at ("these trashed cards")."""
        return f"you {self.step.render(they=they)}"

    def unparse(self) -> str:
        return f"you {self.step.unparse()}"
