"""Playing a card a counted number of times: "play this once per $1 overpaid"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.amounts import Countable
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.selections.zones import bind

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


@primitive(
    "play_per_step",
    r"""
      "play" selection "once" "per" countable     -> play_per
""",
)
class PlayPer(Node):
    """Moves the card into play (from wherever it is) and resolves it once per thing counted;
    nothing happens when the count is 0."""

    binds = "played"

    def __init__(self, selection: Selection, per: Countable) -> None:
        self.selection = selection
        self.per = per

    @staticmethod
    def build_play_per(selection, per) -> PlayPer:
        return PlayPer(selection, per)

    def compile(self, env: Env):
        select = self.selection.compile_select("hand")
        count = self.per.compile_count()

        def play(ctx: Ctx) -> None:
            game, player = ctx.game, ctx.player
            times = count(ctx)
            played = []
            if times > 0:
                for card, zone in select(ctx, "Play"):
                    source = None if zone is player.in_play else zone
                    if game.play(player, card, source, times):
                        played.append((card, player.in_play))
            bind(ctx, "played", played)
            ctx.did = bool(played)

        return play

    def render(self, they: bool = False) -> str:
        return f"play {self.selection.render()} once per {self.per.render()}"

    def unparse(self) -> str:
        return f"play {self.selection.unparse()} once per {self.per.unparse()}"
