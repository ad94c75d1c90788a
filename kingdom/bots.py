"""Simple bots that answer the decision interface: Big Money and a generic default player."""

from __future__ import annotations

from typing import Any

from runtime.decisions import (
    BUY,
    CARDS,
    NAME,
    NUMBER,
    OPTION,
    ORDER,
    PILE,
    PLAY,
    TREASURES,
    YES_NO,
    Decision,
)


class DefaultAgent:
    """Answers any decision with a reasonable default; plays +Actions before terminals."""

    def decide(self, decision: Decision) -> Any:
        kind = decision.kind
        if kind == PLAY:
            return max(decision.options, key=_action_priority)
        if kind == TREASURES:
            return list(decision.options)
        if kind == BUY:
            return self.buy(decision)
        if kind == CARDS:
            ranked = sorted(decision.options, key=_junk_first)
            return ranked[: decision.min]
        if kind == ORDER:
            return list(decision.options)
        if kind == YES_NO:
            return True
        if kind in (OPTION, PILE, NAME, NUMBER):
            if kind == PILE and decision.game is not None:
                game = decision.game
                return max(decision.options, key=lambda n: game.cost(game.library[n]))
            return decision.options[0]
        return None

    def buy(self, decision: Decision) -> str | None:
        return big_money_buy(decision)


def big_money_buy(decision: Decision) -> str | None:
    """Province at $8+, Gold at $6-7, Silver at $3-5; never buy the losing last Province."""
    game = decision.game
    coins = game.coins
    if coins >= 8 and "Province" in decision.options:
        if len(game.piles["Province"]) == 1:
            me = decision.player
            mine = game.score(me) + 6
            if any(game.score(p) > mine for p in game.players if p is not me):
                return "Gold" if "Gold" in decision.options else None
        return "Province"
    if coins >= 6 and "Gold" in decision.options:
        return "Gold"
    if coins >= 3 and "Silver" in decision.options:
        return "Silver"
    return None


class BigMoney(DefaultAgent):
    def buy(self, decision: Decision) -> str | None:
        return big_money_buy(decision)


def _action_priority(card) -> tuple:
    d = card.d
    return (1 if "+" in d.text and "Action" in d.text.split("\n")[0:3].__str__() else 0, d.cost)


def _junk_first(card) -> tuple:
    d = card.d
    return (0 if d.name == "Curse" else 1 if d.is_victory and not d.is_action else 2, d.cost)
