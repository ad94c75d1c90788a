"""A card's English rules text, rendered from the same tree that the compiler turns into code.

Conventions follow the reference card data: `$N` for coins, `N VP`, a `---` line for the
divider between above- and below-the-line text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kingdom.compiler.nodes import sentence
from kingdom.compiler.structure.common import with_reminder

if TYPE_CHECKING:
    from kingdom.compiler.card import ParsedCard
    from kingdom.runtime.cards import CardDef

_COIN_VALUE = re.compile(r"\+\$\d+\.?")  # a fixed coin amount, "+$2": printed "$2" on a Treasure


def render_card(definition: CardDef, card: ParsedCard) -> str:
    above: list[str] = []
    below: list[str] = []
    if card.play is not None:
        above = card.play.render_lines()
        if definition.is_treasure and above and _COIN_VALUE.fullmatch(above[0]):
            above[0] = above[0][1:]  # a Treasure's printed value has no "+"; "+$1 per X" keeps it
    worth = _render_worth(definition, card)
    if worth:
        (below if above else above).append(worth)
    if card.triggers is not None:
        below.extend(" ".join(sentence(with_reminder(node, node.render())) for node in line)
                     for line in card.triggers.lines)
    if definition.kind == "reward":
        (below or above).append("(This is not in the Supply.)")
    if above and below:
        return "\n".join([*above, "---", *below])
    return "\n".join(above or below)


def _render_worth(definition: CardDef, card: ParsedCard) -> str:
    if card.worth is not None:
        vp, divisor, countable = card.worth
        per = countable.render()
        if divisor > 1:
            per = f"{divisor} {countable.filter.render(many=True)} you have" if (
                countable.kind == "cards") else per
            return f"Worth {vp} VP per {per} (round down)."
        return f"Worth {vp} VP per {per}."
    if definition.vp:
        return f"{definition.vp} VP"
    return ""
