"""The turn's phases: "return to your Action phase" (from your Buy phase: you may play Actions
again, then have another Buy phase, with Treasures to play again)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


@primitive(
    "phase_step",
    r"""
      "return" "to" "your" "action" "phase"   -> return_to_action_phase  // e.g.
        // if it's your buy phase: return to your action phase
""",
)
class ReturnToActionPhase(Node):
    """Back from your Buy phase to your Action phase; in any other phase, or on another
    player's turn, nothing. The turn then goes on from its Action phase: Actions, then a new
    Buy phase (its start-of-phase abilities again), where Treasures may be played again."""

    @staticmethod
    def build_return_to_action_phase() -> ReturnToActionPhase:
        """Returns to your Action phase from your Buy phase."""
        return ReturnToActionPhase()

    def compile(self, env: Env):
        def back(ctx: Ctx) -> None:
            game = ctx.game
            ctx.did = ctx.player is game.player and game.phase == "buy"
            if ctx.did:
                game.phase = "action"
                game.bought = False  # a new Buy phase will come: Treasures may be played in it
                game.note(f"{ctx.player.name} returns to the Action phase")

        return back

    def render(self, they: bool = False) -> str:
        return "return to your Action phase"

    def unparse(self) -> str:
        return "return to your action phase"
