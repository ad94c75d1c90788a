"""Vanilla bonuses: +N Cards, +N Actions, +N Buys, +$N, +N Favors, +N Coffers, +N VP."""

from __future__ import annotations

from typing import TYPE_CHECKING

from compiler.checks import check_bonus
from compiler.nodes import Env, Node, plural
from compiler.primitives import primitive
from compiler.selections import Countable

if TYPE_CHECKING:
    from runtime.context import Ctx

RESOURCES = {
    "card": "Card", "cards": "Card", "action": "Action", "actions": "Action", "buy": "Buy",
    "buys": "Buy", "favor": "Favor", "favors": "Favor", "coffers": "Coffers", "vp": "VP",
}
WORDS_PLURAL = ("card", "action", "buy", "favor")  # "+2 cards"; "+2 coffers", "+2 vp"


@primitive(
    "bonus",
    r"""
      "+" INT RESOURCE ("per" countable)?      -> bonus
    | "+" MONEY ("per" countable)?             -> bonus_money
    | "+" MONEY "per" INT countable "(" "round" "down" ")"   -> bonus_money_per_n
RESOURCE.1: /(?:cards|card|actions|action|buys|buy|favors|favor|coffers|vp)(?![a-z'\/-])/
""",
)
class Bonus(Node):
    def __init__(self, resource: str, amount: int, per: Countable | None = None) -> None:
        self.resource = resource
        self.amount = amount
        self.per = per

    @staticmethod
    def build_bonus(amount, resource, per=None) -> Bonus:
        """+N Cards, Actions, Buys, Favors, Coffers or VP: draws the cards or adds to the counter."""
        return Bonus(RESOURCES[str(resource)], int(amount), per)

    @staticmethod
    def build_bonus_money(money, per=None) -> Bonus:
        """+$N: coins to spend this turn."""
        return Bonus("$", int(str(money)[1:]), per)

    @staticmethod
    def build_bonus_money_per_n(money, divisor, per) -> Bonus:
        """"+$1 per 4 Favors you have (round down)"."""
        bonus = Bonus("$", int(str(money)[1:]), per)
        bonus.divisor = int(divisor)
        return bonus

    def check(self, env: Env) -> None:
        check_bonus(self, env)  # K311

    def compile(self, env: Env):
        amount, resource = self.amount, self.resource
        count = self.per.compile_count() if self.per is not None else None
        divisor = getattr(self, "divisor", 1)
        if divisor > 1:
            whole = count
            count = lambda ctx: whole(ctx) // divisor  # noqa: E731

        def value(ctx: Ctx) -> int:
            return amount if count is None else amount * count(ctx)

        if resource == "Card":
            def run(ctx: Ctx) -> None:
                shuffles = ctx.game.shuffles
                ctx.did = len(ctx.game.draw(ctx.player, value(ctx))) > 0
                if ctx.game.shuffles != shuffles:  # for "if this made you shuffle"
                    ctx.vars["shuffled"] = True
        # +Actions, +Buys and +$ belong to the turn: on another player's turn they do nothing.
        elif resource == "Action":
            def run(ctx: Ctx) -> None:
                if ctx.player is ctx.game.player:
                    ctx.game.actions += value(ctx)
        elif resource == "Buy":
            def run(ctx: Ctx) -> None:
                if ctx.player is ctx.game.player:
                    ctx.game.buys += value(ctx)
        elif resource == "$":
            if count is None:
                def run(ctx: Ctx) -> None:
                    if ctx.player is ctx.game.player:
                        ctx.game.coins += amount
            else:
                def run(ctx: Ctx) -> None:
                    if ctx.player is ctx.game.player:
                        ctx.game.coins += value(ctx)
        elif resource == "Favor":
            def run(ctx: Ctx) -> None:
                ctx.player.favors += value(ctx)
                ctx.game.tokens_changed(ctx.player)
        elif resource == "Coffers":
            def run(ctx: Ctx) -> None:
                ctx.player.coffers += value(ctx)
                ctx.game.tokens_changed(ctx.player)
        else:
            def run(ctx: Ctx) -> None:
                ctx.player.vp_tokens += value(ctx)
                ctx.game.tokens_changed(ctx.player)
        return run

    def render(self, they: bool = False) -> str:
        if self.resource == "$":
            text = f"+${self.amount}"
        else:
            word = self.resource
            if self.amount != 1 and word in ("Card", "Action", "Buy", "Favor"):
                word += "s"
            text = f"+{self.amount} {word}"
        divisor = getattr(self, "divisor", 1)
        if self.per is not None and divisor > 1:
            things = self.per.render()
            if self.per.kind == "tokens":
                things = things.replace(self.per.word.capitalize(), plural(
                    self.per.word.capitalize()), 1) if self.per.word != "coffers" else things
            text += f" per {divisor} {things} (round down)"
        elif self.per is not None:
            text += f" per {self.per.render()}"
        return text

    def unparse(self) -> str:
        if self.resource == "$":
            text = f"+${self.amount}"
        else:
            word = self.resource.lower()
            text = f"+{self.amount} {word}{'s' if self.amount != 1 and word in WORDS_PLURAL else ''}"
        divisor = getattr(self, "divisor", 1)
        if self.per is not None:
            text += f" per {f'{divisor} ' if divisor > 1 else ''}{self.per.unparse()}"
        return text + (" (round down)" if divisor > 1 else "")
