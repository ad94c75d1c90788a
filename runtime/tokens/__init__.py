"""Token kinds, each declared once in a module of this package: Favors, Coffers, VP tokens and
Villagers (registry.py says what a declaration holds and who reads it).

Adding a kind is adding a module here that calls `register(TokenKind(...))` and importing it
below; the order of the imports is the order kinds are listed and said in.
"""

from __future__ import annotations

from kingdom.runtime.tokens.registry import (
    BY_CARDS,
    BY_KEY,
    BY_RESOURCE,
    BY_TOPIC,
    BY_WORD,
    EACH,
    KINDS,
    OFFERED,
    PHASES,
    SCORED,
    SPENDABLE,
    Each,
    Spending,
    TokenKind,
    register,
    unregister,
    watch,
)

# The kinds of the game, in the order they are listed (each module registers its own).
from kingdom.runtime.tokens.favors import FAVORS  # isort: skip
from kingdom.runtime.tokens.coffers import COFFERS  # isort: skip
from kingdom.runtime.tokens.vp_tokens import VP_TOKENS  # isort: skip
from kingdom.runtime.tokens.villagers import VILLAGERS  # isort: skip

__all__ = [
    "BY_CARDS", "BY_KEY", "BY_RESOURCE", "BY_TOPIC", "BY_WORD", "COFFERS", "EACH", "FAVORS", "KINDS",
    "OFFERED", "PHASES", "SCORED", "SPENDABLE", "VILLAGERS", "VP_TOKENS", "Each", "Spending",
    "TokenKind", "register", "unregister", "watch",
]
