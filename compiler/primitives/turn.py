"""Steps about the turn and the rules themselves: being unaffected by an Attack, naming a card,
cost reductions for the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from compiler.nodes import Env, Node
from compiler.primitives import primitive
from runtime.decisions import NAME, Decision, ask

if TYPE_CHECKING:
    from runtime.context import Ctx


@primitive(
    "rule_step",
    r"""
      "be" "unaffected" "by" "it"                         -> unaffected
    | "name" "a" "card"                                   -> name_card
    | CARD_WORD "cost" MONEY "less" "this" "turn"         -> cost_less_this_turn
""",
)
class Rule(Node):
    def __init__(self, kind: str, amount: int = 0) -> None:
        self.kind = kind
        self.amount = amount

    @staticmethod
    def build_unaffected() -> Rule:
        return Rule("unaffected")

    @staticmethod
    def build_name_card() -> Rule:
        return Rule("name")

    @staticmethod
    def build_cost_less_this_turn(_word, money) -> Rule:
        return Rule("cost_less", int(str(money)[1:]))

    def compile(self, env: Env):
        if self.kind == "unaffected":
            def unaffected(ctx: Ctx) -> None:
                ctx.vars["unaffected"] = True
            return unaffected
        if self.kind == "name":
            def name_card(ctx: Ctx) -> None:
                names = sorted(d.name for d in ctx.game.library)
                ctx.vars["named_card"] = ask(Decision(NAME, ctx.player, "Name a card", names,
                                                      card=ctx.card, game=ctx.game))
            return name_card
        amount = self.amount

        def cost_less(ctx: Ctx) -> None:
            ctx.game.cost_reduction += amount
        return cost_less

    def render(self, they: bool = False) -> str:
        if self.kind == "unaffected":
            return "be unaffected by it"
        if self.kind == "name":
            return "name a card"
        return f"this turn, cards cost ${self.amount} less"
