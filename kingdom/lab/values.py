"""What a card's play is worth to the generic bot, read from its compiled tree (never its
name): +Actions it gives, and its value in coins. The bot buys by it, so a card it has never
seen is judged by what it does, not by its price or its name."""

from __future__ import annotations

from typing import Any

from kingdom.runtime.tokens import BY_RESOURCE


def plus_actions(definition: Any) -> int:
    """The +Actions a card's play gives, read from its compiled tree (0 if none)."""
    cached = _PLUS_ACTIONS.get(definition)
    if cached is not None:
        return cached
    total = 0
    tree = getattr(definition, "tree", None)
    play = getattr(tree, "play", None)
    if play is not None and hasattr(play, "walk"):
        for node in play.walk():
            if getattr(node, "resource", None) == "Action":
                total += getattr(node, "amount", 0) or 0
    _PLUS_ACTIONS[definition] = total
    return total


_PLUS_ACTIONS: dict[Any, int] = {}


# ------------------------------------------------------------------------------ card value
# What a card's play is worth, in coins, read from its compiled tree: the generic bot buys by
# it, so a card it has never seen is judged by what it does, not by its price or its name.
VALUE_OF = {"Card": 1.2, "Action": 0.6, "Buy": 0.5, "$": 1.0}  # a token's: its kind's `value`
GAIN_VALUE = 1.0  # a card gained (Workshop), or one each other player gains (Witch's Curse)
ATTACK_VALUE = 1.5
SILVER_VALUE = 2.0  # a card worth less is not bought over a Silver


def card_value(definition: Any) -> float:
    """The coins a play of the card is worth, estimated once per card from its tree: +Cards,
    +Actions, +Buys and +$ (a per-count bonus as if once), cards drawn, cards gained, an Attack;
    of a "choose" the best option."""
    cached = _VALUE.get(definition)
    if cached is None:
        play = getattr(getattr(definition, "tree", None), "play", None)
        cached = _value(play) if play is not None else 0.0
        if definition.is_attack:
            cached += ATTACK_VALUE
        _VALUE[definition] = cached
    return cached


def _value(node: Any) -> float:
    kind = type(node).__name__
    if kind == "Bonus":
        token = BY_RESOURCE.get(node.resource)
        return (token.value if token is not None else VALUE_OF.get(node.resource, 0.0)) * node.amount
    if kind == "Draw":
        return VALUE_OF["Card"] * (max(0, node.count - 5) if node.until else node.count)
    if kind == "Gain":
        return GAIN_VALUE * (node.count if isinstance(node.count, int) else 1)
    if not hasattr(node, "children"):
        return 0.0
    values = [_value(child) for child in node.children()]
    if kind == "Choose":
        return max(values, default=0.0)
    total = sum(values)
    if kind == "Repeat":
        total *= getattr(node.amount, "constant", None) or 1
    return total


_VALUE: dict[Any, float] = {}
