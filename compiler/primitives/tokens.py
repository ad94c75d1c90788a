"""Spending tokens and money: "spend a Favor", "spend 2 Favors", "pay $2"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from compiler.nodes import Env, Node
from compiler.primitives import primitive

if TYPE_CHECKING:
    from runtime.context import Ctx


@primitive(
    "spend_step",
    r"""
      "spend" article TOKEN_WORD            -> spend_one
    | "spend" INT TOKEN_WORD                -> spend_n
    | "pay" MONEY                           -> pay
""",
)
class Spend(Node):
    """Spending is all or nothing: with too few tokens nothing is spent and `did` is false."""

    def __init__(self, what: str, amount: int) -> None:
        self.what = what
        self.amount = amount

    @staticmethod
    def build_spend_one(_article, word) -> Spend:
        return Spend(_token(word), 1)

    @staticmethod
    def build_spend_n(n, word) -> Spend:
        return Spend(_token(word), int(n))

    @staticmethod
    def build_pay(money) -> Spend:
        return Spend("$", int(str(money)[1:]))

    def compile(self, env: Env):
        what, amount = self.what, self.amount

        def spend(ctx: Ctx) -> None:
            holder = ctx.game if what == "$" else ctx.player
            attr = {"$": "coins", "Favor": "favors", "Coffers": "coffers"}[what]
            have = getattr(holder, attr)
            ctx.did = have >= amount
            if ctx.did:
                setattr(holder, attr, have - amount)

        return spend

    def render(self, they: bool = False) -> str:
        if self.what == "$":
            return f"pay ${self.amount}"
        if self.amount == 1:
            return "spend a Favor" if self.what == "Favor" else "spend a Coffers"
        return f"spend {self.amount} {self.what}s" if self.what == "Favor" else (
            f"spend {self.amount} Coffers")


def _token(word) -> str:
    return "Coffers" if str(word).startswith("coffer") else "Favor"
