"""VP tokens: "+N VP" (or "+N VP tokens", as some cards print it); never spent, each worth 1 VP
when scoring. Kept by the player, whose score counts them (Game.score)."""

from __future__ import annotations

from kingdom.runtime.tokens.registry import TokenKind, register

VP_TOKENS = register(TokenKind(
    "vp_tokens", "VP token", "VP tokens",
    bonus=("VP", "VP"),
    scored=True,
    value=1.0,  # a point; what a point is worth to the bot is what a coin is
))
