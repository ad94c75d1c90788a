"""Conditions: "if X: ..." (`If`) and the "otherwise: ..." after it (`Otherwise`, run by its
If), "if the gained card is an...:" with one line per kind of card (`Cases`, each line a
`Case`), and a table of cases by a number in one sentence ("if the number of Silvers you have
in play is 1 or 3: ...; 2 or 4: ...", `NumberCases`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kingdom.compiler.nodes import Env, Node, article, their
from kingdom.compiler.selections.conditions import Condition
from kingdom.compiler.selections.filters import Filter
from kingdom.compiler.structure.common import unparse_compound, unparse_option, with_reminder

if TYPE_CHECKING:
    from kingdom.compiler.selections.amounts import Amount
    from kingdom.compiler.structure.block import Block
    from kingdom.runtime.context import Ctx


class If(Node):
    # `own_sentence`: written as its own string item of a line, so printed as its own sentence
    # after another "if" (the layout, not the tree)
    ATTRIBUTES = Node.ATTRIBUTES | {"own_sentence"}

    says_they = True  # said of "they" by its own render(they=True) (block.said_of_them)

    def __init__(self, condition: Condition, body: Block) -> None:
        self.condition = condition
        self.body = body
        self.otherwise: Otherwise | None = None

    def compile(self, env: Env):
        test = self.condition.compile_test()
        body = self.body.compile(env)
        other = self.otherwise.body.compile(env) if self.otherwise is not None else None

        def if_(ctx: Ctx) -> None:
            if test(ctx):
                body(ctx)
            elif other is not None:
                other(ctx)

        return if_

    def render(self, they: bool = False) -> str:
        condition = with_reminder(self.condition, self.condition.render())
        if they:  # "each other player gains a Curse, and if they did, draws a card"
            condition = their(condition.replace("you did", "they did"))
        text = f"if {condition}, {self.body.render(they)}"
        if self.otherwise is not None and getattr(self.otherwise, "joined", False):
            text += f", otherwise {self.otherwise.body.render(they)}"
        elif self.otherwise is not None and not getattr(self.otherwise, "apart", False):
            text += f". Otherwise, {self.otherwise.body.render(they)}"
        return text

    def unparse_head(self) -> str:
        return f"if {self.condition.unparse()}"

    def unparse(self) -> str:
        return unparse_compound(self)


class Otherwise(Node):
    # `joined`: written "if X: A, otherwise B" on one line (the layout, not the tree)
    ATTRIBUTES = Node.ATTRIBUTES | {"joined"}

    def __init__(self, body: Block) -> None:
        self.body = body

    def compile(self, env: Env):
        return lambda ctx: None  # run by the If it follows

    def render(self, they: bool = False) -> str:
        if getattr(self, "apart", False):  # on its own line, not after the "if" it follows
            return f"otherwise, {self.body.render(they)}"
        return ""

    def unparse_head(self) -> str:
        return "otherwise"

    def unparse(self) -> str:
        return unparse_compound(self)


class Case(Node):
    """One line of a `Cases` list: "Action card: +1 action"."""

    def __init__(self, filter: Filter, body: Block) -> None:
        self.filter = filter
        self.body = body

    def compile(self, env: Env):
        env.error("K302", "a case ('Action card: ...') must be inside 'if it is a...:'", self)
        return lambda ctx: None

    def render(self, they: bool = False) -> str:
        return f"{self.filter.render()}, {self.body.render(they)}"

    def unparse_head(self) -> str:
        return self.filter.unparse()

    def unparse(self) -> str:
        return unparse_compound(self)


class Cases(Node):
    """"if the gained card is an...:" followed by one line per kind of card ("Action card:
    +1 action"); every line whose description fits the card applies, in order."""

    def __init__(self, ref: Any, body: Block) -> None:
        self.ref = ref
        self.body = body

    def compile(self, env: Env):
        cases = []
        for node in self.body.statements:
            if not isinstance(node, Case):
                env.error("K302", "each line under 'if it is a...:' is 'Description: steps'", node)
                continue
            cases.append((node.filter.compile_pred(), node.body.compile(env)))
        ref = self.ref

        def run(ctx: Ctx) -> None:
            for pred, body in cases:
                if any(pred(ctx, d) for d in ref.defs(ctx)):
                    body(ctx)

        return run

    def render(self, they: bool = False) -> str:
        lines = [case.render(they) for case in self.body.statements]
        first = lines[0] if lines else ""
        return f"if {self.ref.render()} is {article(first)}...\n" + "\n".join(lines)

    def unparse_head(self) -> str:
        return f"if {self.ref.unparse()} is an..."

    def unparse(self) -> str:
        return unparse_compound(self)


class NumberCases(Node):
    """"if the number of Silvers you have in play is 1 or 3: +1 card; 2 or 4: +$2": the
    number is taken once; every case whose numbers include it applies, in the order written."""

    says_they = False

    def __init__(self, amount: Amount, cases: list[tuple[tuple[int, ...], Block]]) -> None:
        self.amount = amount
        self.cases = cases

    def children(self):
        yield self.amount
        for _numbers, body in self.cases:
            yield body

    def compile(self, env: Env):
        number = self.amount.compile_amount()
        cases = [(frozenset(numbers), body.compile(env)) for numbers, body in self.cases]

        def run(ctx: Ctx) -> None:
            n = number(ctx)
            for numbers, body in cases:
                if n in numbers:
                    body(ctx)

        return run

    @staticmethod
    def _numbers(numbers: tuple[int, ...]) -> str:
        return " or ".join(str(n) for n in numbers)

    def render(self, they: bool = False) -> str:
        cases = "; ".join(f"{self._numbers(numbers)}: {body.render(they)}"
                          for numbers, body in self.cases)
        return f"if {self.amount.render()} is {cases}"

    def unparse(self) -> str:
        cases = "; ".join(f"{self._numbers(numbers)}: {unparse_option(body)}"
                          for numbers, body in self.cases)
        return f"if {self.amount.unparse()} is {cases}"
