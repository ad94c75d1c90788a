"""Villagers (Renaissance): "+N Villagers"; spent in the Action phase for +1 Action each. The
turn offers them when the player is out of Actions with an Action card to play."""

from __future__ import annotations

from kingdom.runtime.tokens.registry import Spending, TokenKind, register


def _mat(_start: int | None) -> str:
    return ("Give each player a Villagers mat and put tokens nearby. Each Villager can be spent "
            "during your Action phase for +1 Action.")


VILLAGERS = register(TokenKind(
    "villagers", "Villager", "Villagers",
    spend=Spending(("action",), "Action"),
    value=0.5,  # an Action, kept for the turn that needs one
    mat=_mat,
))
