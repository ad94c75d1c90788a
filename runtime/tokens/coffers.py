"""Coffers (Guilds): "+N Coffers"; any number spent during the turn, up to the end of the Buy
phase, for +$1 each. The turn offers them before each buy; cards may spend and count them too
("per Coffers you spend", "+$1 per Coffers you have")."""

from __future__ import annotations

from kingdom.runtime.tokens.registry import Spending, TokenKind, register


def _mat(start: int | None) -> str:
    """The Coffers mat, and what a game set up with Coffers (Baker's) starts each player with."""
    return ("Give each player a Coffers mat and put coin tokens nearby. Each Coffers can be spent "
            "during your turn for +$1." + (f" Each player starts with {start} Coffers." if start else ""))


COFFERS = register(TokenKind(
    "coffers", "Coffers", "Coffers",
    spend=Spending(("action", "buy"), "$"),
    by_cards=True,
    value=1.0,  # a coin, saved for when it reaches a better card
    mat=_mat,
))
