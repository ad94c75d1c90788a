"""Steps written as one phrase: "discard your hand and draw 5 cards", "A, B, and C", "discard a
card then draw a card" (`Sequence`), and "then X" as a sentence of its own (`Then`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.structure.block import said_of_them

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


class Sequence(Node):
    """Steps written as one phrase: "discard your hand and draw 5 cards", "A, B and C",
    "discard a card then draw a card"."""

    says_they = True  # said of "they" by its own render(they=True) (block.said_of_them)

    def __init__(self, steps: list[Node], word: str = "and") -> None:
        self.steps = steps
        self.word = word

    def compile(self, env: Env):
        for step, after in zip(self.steps, self.steps[1:], strict=False):  # "X then Y": X for Y
            env.rewards.setdefault(id(step), after)
        steps = [s.compile(env) for s in self.steps]

        def run(ctx: Ctx) -> None:
            for step in steps:
                step(ctx)

        return run

    def render(self, they: bool = False) -> str:
        parts = [said_of_them(s) if they else s.render() for s in self.steps]
        if getattr(self, "verb_once", False):  # "gain a cheaper card and a Gold"
            parts[1:] = [p.split(" ", 1)[1] for p in parts[1:]]
        for i in range(1, len(parts)):  # "draw 2 cards then discard 3": the noun said once
            if parts[i - 1].endswith(" cards") and re.fullmatch(r"\w+ \d+ cards", parts[i]):
                parts[i] = parts[i].removesuffix(" cards")
        if self.word == "then":
            return " then ".join(parts)
        # "Trash a card from your hand, then gain ...", "A, B, and C" (the comma before "and")
        last = f"{self.word} {parts[-1]}" if self.word.startswith(",") else f" and {parts[-1]}"
        return ", ".join(parts[:-1]) + last

    def unparse(self) -> str:
        steps = [s.unparse() for s in self.steps]
        if getattr(self, "verb_once", False):
            steps[1:] = [s.split(" ", 1)[1] for s in steps[1:]]
        word = f" {self.word}" if self.word in ("and", "then") else self.word
        return ", ".join(steps[:-1]) + f"{word} {steps[-1]}"


class Then(Node):
    """"then X" as its own sentence ("Then you may trash a card from your hand."): X, printed
    after the word that orders it."""

    says_they = True  # said of "they" by its own render(they=True) (block.said_of_them)

    def __init__(self, step: Node) -> None:
        self.step = step

    def compile(self, env: Env):
        return self.step.compile(env)

    def render(self, they: bool = False) -> str:
        return f"then {said_of_them(self.step) if they else self.step.render()}"

    def unparse(self) -> str:
        return f"then {self.step.unparse()}"
