"""Repetition: "repeat 2: ..." / "twice: ..." / "per $1 overpaid, ..." (`Repeat`), "for each
...: ..." with "it" bound to each card in turn (`ForEach`), and "repeat as desired" after a
step (`RepeatAsDesired`, applied by the Block it is in)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kingdom.compiler.checks import check_repeat
from kingdom.compiler.nodes import Env, Node, capitalised, their
from kingdom.compiler.selections.amounts import Amount, Countable
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.structure.common import unparse_compound

if TYPE_CHECKING:
    from kingdom.compiler.structure.block import Block
    from kingdom.runtime.context import Ctx


class Repeat(Node):
    def __init__(self, amount: Amount, body: Block) -> None:
        self.amount = amount
        self.body = body

    def check(self, env: Env) -> None:
        check_repeat(self, env)  # K309: a limit on repeated steps

    def compile(self, env: Env):
        count, body = self.amount.compile_amount(), self.body.compile(env)

        def repeat(ctx: Ctx) -> None:
            for _ in range(count(ctx)):
                body(ctx)

        return repeat

    def render(self, they: bool = False) -> str:
        if getattr(self.amount, "per", False):  # "per $1 overpaid, ..."
            return f"per {self.amount.value.render()}, {self.body.render(they)}"
        body = self.body.render(they)  # "Do this twice: Trash a card ..."
        times = {1: "once", 2: "twice"}.get(self.amount.constant, f"{self.amount.render()} times")
        return f"do this {times}: {capitalised(body)}"

    def unparse_head(self) -> str:
        if getattr(self.amount, "per", False):
            return f"per {self.amount.value.unparse()}"
        return f"repeat {self.amount.unparse()}"

    def unparse(self) -> str:
        return unparse_compound(self)


class ForEach(Node):
    """"for each differently named card revealed: ..." binds `it` to each card in turn."""

    says_they = True  # said of "they" by its own render(they=True) (block.said_of_them)

    def __init__(self, selection: Selection | Countable, body: Block) -> None:
        self.selection = selection
        self.body = body

    def compile(self, env: Env):
        if isinstance(self.selection, Countable):
            return self._compile_counted(env)
        select, body = self.selection.compile_select("hand"), self.body.compile(env)
        distinct = self.selection.filter is not None and self.selection.filter.distinct

        def for_each(ctx: Ctx) -> None:
            seen: set[str] = set()
            for card, zone in select(ctx, "For each"):
                if distinct and card.d.name in seen:
                    continue
                seen.add(card.d.name)
                ctx.vars["it"] = [(card, zone)]
                body(ctx)

        return for_each

    def _compile_counted(self, env: Env):
        """"for each differently named card revealed": the counted cards, one at a time."""
        cards, body = self.selection.compile_cards(), self.body.compile(env)
        distinct = self.selection.filter.distinct

        def for_each(ctx: Ctx) -> None:
            seen: set[str] = set()
            for card in cards(ctx):
                if distinct and card.d.name in seen:
                    continue
                seen.add(card.d.name)
                owner, zone = ctx.game.zone_of(card)
                where = getattr(owner, zone) if owner is not None else (
                    ctx.game.trash if zone == "trash" else [])
                ctx.vars["it"] = [(card, where)]
                body(ctx)

        return for_each

    def render(self, they: bool = False) -> str:
        each = their(self.selection.render()) if they else self.selection.render()
        return f"for each {each}, {self.body.render(they)}"

    def unparse_head(self) -> str:
        return f"for each {self.selection.unparse()}"

    def unparse(self) -> str:
        return unparse_compound(self)


class RepeatAsDesired(Node):
    """"repeat as desired": the statement before it is done again as long as the player takes
    it (its "you may" is accepted and can be done)."""

    LIMIT = 200  # a bound for agents that never stop

    def repeating(self, step: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
        limit = self.LIMIT

        def repeat(ctx: Ctx) -> None:
            for _ in range(limit):
                step(ctx)
                if not ctx.did:
                    break

        return repeat

    def compile(self, env: Env):
        env.error("K302", "'repeat as desired' must follow the step it repeats", self)
        return lambda ctx: None

    def render(self, they: bool = False) -> str:
        return "repeat as desired"

    def unparse(self) -> str:
        return "repeat as desired"
