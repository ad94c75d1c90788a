"""Steps that wait for Clean-up: "discard the set aside card in clean-up" (Joust's Province)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.selection import Selection
from kingdom.runtime.game import Listener

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card
    from kingdom.runtime.context import Ctx
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player


@primitive(
    "cleanup_step",
    r"""
      "discard" selection "in" "clean-up"                       -> discard_in_cleanup
    // e.g. discard this in clean-up
    | "discard" "the" "set" "aside" NAME "in" "clean-up"        -> discard_set_aside_in_cleanup
""",
)
class DiscardInCleanup(Node):
    """The cards are discarded when Clean-up starts, if they are still where they were."""

    def __init__(self, selection: Selection | None, name: str = "") -> None:
        self.selection = selection
        self.name = name  # "the set aside Province": the set-aside cards of that name
        self.resolved = name

    @staticmethod
    def build_discard_in_cleanup(selection) -> DiscardInCleanup:
        return DiscardInCleanup(selection)

    @staticmethod
    def build_discard_set_aside_in_cleanup(name) -> DiscardInCleanup:
        return DiscardInCleanup(None, str(name))

    def check(self, env: Env) -> None:
        if self.name:
            self.resolved = env.card_or_type(self.name, self)[1]

    def compile(self, env: Env):
        if self.selection is not None:
            select = self.selection.compile_select("hand")
        else:
            name = self.resolved

            def select(ctx: Ctx, prompt: str) -> list:
                return [(c, z) for c, z in ctx.vars.get("set aside", ()) if c.d.name == name]

        def later(ctx: Ctx) -> None:
            placed = select(ctx, "Discard in Clean-up")
            if not placed:
                return
            owner = ctx.player

            def fire(game: Game, player: Player, card: Card | None, data: Any) -> None:
                if player is not owner:
                    return
                game.unlisten(listener)
                for each, zone in placed:
                    game.discard_card(owner, each, zone)

            listener = ctx.game.listen(Listener("cleanup", owner, fire, None, ctx.card, "turn"))

        return later

    def render(self, they: bool = False) -> str:
        what = self.selection.render() if self.selection is not None else f"the {self.name}"
        return f"discard {what} in Clean-up"

    def unparse(self) -> str:
        what = self.selection.unparse() if self.selection is not None else f"the set aside {self.name}"
        return f"discard {what} in clean-up"
