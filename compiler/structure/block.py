"""Blocks: statements run in order (`Block`), a block run on its own whose revealed cards then
go back (`compile_apart`, `return_revealed`), and how a block's statements are joined: in
English (`_and_joined`, `said_of_them` for steps said of "they") and as one DSL line
(`unparse_steps`). A Block pairs each "if" with the "otherwise" after it and each step with a
"repeat as desired" after it, so it sits above conditional.py and repeat.py."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node, join_and, sentence, third_person
from kingdom.compiler.structure.common import with_reminder
from kingdom.compiler.structure.conditional import If, Otherwise
from kingdom.compiler.structure.repeat import RepeatAsDesired

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


def return_revealed(ctx: Ctx) -> None:
    """Revealed cards nothing moved go back where they came from (the top of the deck)."""
    zone = ctx.vars.get("revealed")
    if zone:
        ctx.player.deck.extend(reversed(zone))
        zone.clear()


def compile_apart(body: Node, env: Env) -> Callable[[Ctx], None]:
    """A block run on its own (a card's play, a trigger, a Duration's next turn, a lasting or
    deferred effect): the cards it revealed and did not move go back when it ends."""
    effect = body.compile(env)

    def run(ctx: Ctx) -> None:
        effect(ctx)
        return_revealed(ctx)

    return run


class Block(Node):
    """Statements run in order. `lines` keeps the author's line structure for rendering."""

    says_they = True  # said of "they" by its own render(they=True) (block.said_of_them)

    def __init__(self, lines: list[list[Node]], joiner: str = "; ") -> None:
        self.lines = lines
        self.joiner = joiner
        statements = self.statements  # each "if" knows its "otherwise" before any compile or render
        for node, after in pairwise(statements):
            if isinstance(node, If) and isinstance(after, Otherwise):
                node.otherwise = after

    @property
    def statements(self) -> list[Node]:
        return [s for line in self.lines for s in line]

    def children(self):
        return iter(self.statements)

    def compile(self, env: Env) -> Callable[[Ctx], None]:
        steps: list[Callable] = []
        statements = self.statements
        i = 0
        while i < len(statements):
            node = statements[i]
            if isinstance(node, If) and i + 1 < len(statements) and statements[i + 1] is node.otherwise:
                i += 1
            elif isinstance(node, Otherwise):
                env.error("K302", "'otherwise' must follow an 'if'", node,
                          "put 'otherwise: ...' on a line of its own right after its 'if': on "
                          "one line, 'if ...:' takes the rest of the line as its block")
            after = next((s for s in statements[i + 1:]
                          if not isinstance(s, Otherwise | RepeatAsDesired)), None)
            if after is not None and _tied(after):
                env.rewards.setdefault(id(node), after)
            step = node.compile(env)
            if i + 1 < len(statements) and isinstance(statements[i + 1], RepeatAsDesired):
                step = statements[i + 1].repeating(step)
                i += 1
            steps.append(step)
            i += 1
        if len(steps) == 1:
            return steps[0]

        def run(ctx: Ctx) -> None:
            for step in steps:
                step(ctx)

        return run

    def render(self, they: bool = False) -> str:
        if they:
            parts = _and_joined(self.statements, they=True)
            if len(parts) == 2 and parts[1].startswith("if "):  # "gains a Curse, and if they did"
                return f"{parts[0]}, and {parts[1]}"
            return join_and(parts)
        if getattr(self, "listed", False):
            return join_and(_and_joined(self.statements))
        return self.joiner.join(_and_joined(self.statements))

    def render_lines(self) -> list[str]:
        """One text line per author line, each statement a sentence."""
        out = []
        for line in self.lines:
            for node in line:  # an "otherwise" on a line of its own is printed on its own line
                if isinstance(node, If) and node.otherwise is not None:
                    node.otherwise.apart = not any(s is node.otherwise for s in line)
            parts = [p for p in (sentence(p) for p in _and_joined(line)) if p]
            # a bonus sharing its line ends with a stop: "Discard a card. +1 Card.", "+1 Card. +1 Buy."
            parts = [p if len(parts) == 1 or p.endswith((".", ")", ":")) or "...\n" in p
                     else p + "." for p in parts]
            text = " ".join(t for t in parts if t)
            if text:  # an "otherwise" line is rendered by the "if" before it
                out.append(text)
        return out

    def unparse(self) -> str:
        return unparse_steps(self.statements)


def unparse_steps(statements: list[Node]) -> str:
    """Statements as one DSL line: "a; b", "a; and b" where b was joined to a, reminders kept."""
    parts = []
    for node in statements:
        if getattr(node, "joined", False):  # "if X: A, otherwise B"
            parts.append(f", otherwise {node.body.unparse()}")
            continue
        sep = "; and " if getattr(node, "and_before", False) else "; "
        reminder = getattr(node, "reminder", "")
        parts.append((sep if parts else "") + node.unparse() + (f" {reminder}" if reminder else ""))
    return "".join(parts)


def _and_joined(statements: list[Node], they: bool = False) -> list[str]:
    """Rendered statements (said of "they" with `they`); one written after "; and" joins the
    one before ("X and Y"), one after ", then" in an option too ("X, then Y")."""
    parts: list[str] = []
    before = None
    for s in statements:
        text = with_reminder(s, said_of_them(s) if they else s.render())
        if they and text.startswith("+"):  # "discards a card and gets +1 Card"
            text = f"gets {text}"
        if parts and isinstance(s, If) and isinstance(before, If) and before.otherwise is None \
                and not getattr(s, "own_sentence", False):
            parts[-1] += f"; {text}"  # "If A, X; if B, Y."
        elif parts and getattr(s, "semi_before", False):  # "Look through ...; you may ..."
            parts[-1] += f"; {text}"
        elif parts and getattr(s, "and_before", False):
            parts[-1] += f" and {text}"
        elif parts and getattr(s, "then_before", False):
            parts[-1] += f", then {text}"
        else:
            parts.append(text)
        before = s
    return parts


def said_of_them(node: Node) -> str:
    """A step said of "each other player" (or "they"): "draws a card, then discards a card".
    A node whose class `says_they` (a may, an if, each, a choice, you, a sequence, then, a
    block, for each) says it itself."""
    if getattr(node, "says_they", False):
        return node.render(they=True)
    return third_person(node.render())


def _tied(node: Node) -> bool:
    """Whether a statement follows from the one before: "if you do/did: ...", a count of the
    cards it moved ("+1 Card per card discarded") or what it bound ("costing up to $3 more than
    it"), so that it is what that step leads to."""
    if isinstance(node, If):
        return getattr(node.condition, "kind", "") == "did"
    return any((type(n).__name__ == "Countable" and str(getattr(n, "place", "")).startswith("in_"))
               or type(n).__name__ == "Ref" for n in node.walk())
