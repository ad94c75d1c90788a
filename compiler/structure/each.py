"""Other players: "each other player: ...", "each player: ...", "the player to your left: ...",
"have each other player ..." (`Each`), and how its block is said of "they" (`_they_line`,
`_they_clause`)."""

from __future__ import annotations

from kingdom.compiler.nodes import Env, Node, join_and, their, they_do, third_person
from kingdom.compiler.selections.conditions import Condition
from kingdom.compiler.structure.as_you import AsYou
from kingdom.compiler.structure.block import Block, return_revealed
from kingdom.compiler.structure.choose import Choose
from kingdom.compiler.structure.common import unparse_compound, with_reminder
from kingdom.compiler.structure.conditional import If, Otherwise
from kingdom.compiler.structure.may import MayStep
from kingdom.compiler.structure.next_turn import NextTurn
from kingdom.compiler.structure.repeat import ForEach
from kingdom.runtime.context import Ctx

MERGED = ("trashed", "gained", "discarded", "revealed_all")


class Each(Node):
    """"each other player", "each player", "the player to your left" (in turn order)."""

    says_they = True  # said of "they" by its own render(they=True) (block.said_of_them)

    def __init__(self, who: str, body: Block, condition: Condition | None = None) -> None:
        self.who = who
        self.body = body
        self.condition = condition

    def compile(self, env: Env):
        body = self.body.compile(env)
        test = self.condition.compile_test() if self.condition is not None else None
        who = self.who

        def each(ctx: Ctx) -> None:
            game = ctx.game
            if who == "others":
                players = game.others(ctx.you)
            elif who == "all":
                players = game.in_turn_order(ctx.you)
            else:
                players = game.others(ctx.you)[:1]
            merged: dict[str, list] = {}
            for player in players:
                if player is not ctx.you and player in ctx.unaffected:
                    continue
                child = ctx.for_player(player)
                child.vars.pop("revealed", None)
                child.vars.pop("looked", None)
                for key in MERGED:
                    child.vars.pop(key, None)
                if test is not None and not test(child):
                    continue
                body(child)
                return_revealed(child)
                for key in MERGED:
                    merged.setdefault(key, []).extend(child.vars.get(key, ()))
                if "revealed_by" in child.vars:  # what they revealed, to compare with yours
                    ctx.vars["revealed_by"] = {**ctx.vars.get("revealed_by", {}),
                                               **child.vars["revealed_by"]}
            ctx.vars.update(merged)

        return each

    def check(self, env: Env) -> None:
        """"your next turn" inside "each other player" is said of them ("at the start of their
        next turn") but would be your next turn: the sentence could mean two things, so it is
        refused, with the order that says one."""
        for node in self.body.walk():
            if isinstance(node, NextTurn) or getattr(node, "when", "") == "next_turn":
                subject = self.unparse_head()
                env.error("K370", f"'at the start of your next turn' inside '{subject}' is "
                          "your next turn, not theirs, though it would print 'their next turn'",
                          node, "put the delay first, 'at the start of your next turn: "
                          f"{subject}: ...', or drop it for '{subject}: ...' now")
                return

    def render(self, they: bool = False) -> str:
        if getattr(self, "have", False):  # "have each other player gain a Curse"
            return f"have each other player {self.body.render()}"
        subject = {"others": "each other player", "all": "each player (including you)",
                   "left": "the player to your left"}[self.who]
        if they:  # said of another player: "has each other player gain a Curse"
            return third_person(f"have {subject.removesuffix(' (including you)')} "
                                f"{self.body.render()}")
        if self.condition is not None:
            subject += f" with {self.condition.render()}".replace("you have ", "").replace(
                "in your hand", "in hand")
        # The body's first line is said of the subject: "Each other player trashes ..."; each
        # further line is a sentence of its own, about "they": "If it costs $3 or more they
        # gain ...", "They discard the other revealed cards."
        lines = self.body.lines
        body = Block(lines[:1]).render(they=True) if len(lines) > 1 else (
            self.body.render(they=True))
        if body.startswith("+"):  # "each player gets +1 Coffers"
            body = f"gets {body}"
        text = f"{subject} {body}"
        if lines and lines[0] and isinstance(lines[0][0], ForEach):
            text = f"{subject}, {body}"  # "Each other player, for each ..., discards it"
        if lines and lines[0] and isinstance(lines[0][0], If):  # "Each other player: if they ..."
            text = f"{subject}: {_they_line([s for s in lines[0] if not isinstance(s, Otherwise)])}"
        for line in lines[1:]:
            clause = _they_line([s for s in line if not isinstance(s, Otherwise)])
            if clause:  # an "otherwise" is rendered by the "if" before it
                text += f". {clause[:1].upper()}{clause[1:]}"
        return text

    def unparse_head(self) -> str:
        subject = {"others": "each other player", "all": "each player",
                   "left": "the player to your left"}[self.who]
        return subject + (f" with {self.condition.unparse()}" if self.condition else "")

    def unparse(self) -> str:
        if getattr(self, "have", False):
            return f"have each other player {self.body.statements[0].unparse()}"
        return unparse_compound(self)


def _they_line(statements: list[Node]) -> str:
    """Steps of "each other player" as one sentence about "they": "they trash that card and
    may gain ..."."""
    text = ""
    for s in statements:
        clause = _they_clause(s)
        if not text:
            text = clause
        elif getattr(s, "and_before", False):
            text += " and " + clause.removeprefix("they ")
        else:
            text += ". " + clause[:1].upper() + clause[1:]
    return text


def _they_clause(node: Node) -> str:
    """A step of "each other player" as its own clause, about "they": "they gain a Curse",
    "if it costs $3 or more they gain ...; otherwise they gain a Curse"."""
    if isinstance(node, If):
        body = join_and([_they_clause(s) for s in node.body.statements])
        condition = their(with_reminder(node.condition, node.condition.render(they=True)))
        if node.otherwise is None:
            return f"if {condition}, {body}"
        other = join_and([_they_clause(s) for s in node.otherwise.body.statements])
        return f"if {condition} {body}; otherwise {other}"
    if isinstance(node, Choose) and node.by_you and len(node.options) == 2:
        first, second = node.options  # "they gain a copy of it or you do, your choice"
        mine = second.statements[0] if len(second.statements) == 1 else None
        if isinstance(mine, AsYou) and mine.step.render() == first.render():
            return f"{they_do(first.render())} or you do, your choice"
    if isinstance(node, Choose) and len(node.options) == 2 and (
            node.by_you or node.amount.constant == 1):  # "they either discard it or ..."
        first, second = (their(o.render()) for o in node.options)
        return f"they either {first} or {second}, {'your' if node.by_you else 'their'} choice"
    if isinstance(node, MayStep):
        return f"they {node.render(they=True)}"
    if isinstance(node, ForEach):  # "for each Treasure in their hand, they get +$1"
        body = join_and([_they_clause(s) for s in node.body.statements])
        return f"for each {their(node.selection.render())}, {body}"
    if isinstance(node, AsYou):  # "you may gain any or all of these trashed cards"
        return node.render(they=True)
    return they_do(node.render())
