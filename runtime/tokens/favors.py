"""Favors (Allies): "+N Favors"; spent only by cards that say so ("spend a Favor", "spend any
number of Favors to ..."), counted by others ("if you have 5 or more Favors"). With an Ally or a
Liaison in the game each player starts with 1: that is the Ally's rule (runtime/setup.py)."""

from __future__ import annotations

from kingdom.runtime.tokens.registry import TokenKind, register


def _mat(start: int | None) -> str:
    """The Favors mat; each player starts with the Favors the game set up (1, with its Ally)."""
    n = 1 if start is None else start
    return f"Give each player a Favors mat; each player starts with {FAVORS.count(n)}."


FAVORS = register(TokenKind(
    "favors", "Favor", "Favors",
    by_cards=True,
    value=0.3,  # (a Favor buys an Ally's ability, typically worth a coin or two per few Favors)
    mat=_mat,
    uses=("Liaison",),  # a Liaison gives and spends Favors whether or not it names them
))
