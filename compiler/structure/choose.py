"""Choices: "choose one: A | B", "choose two different", "you choose", "either A or B"
(`Choose`), and the blocks its options are (`option_block`, `_option_block`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node, third_person
from kingdom.compiler.selections.amounts import Amount
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.structure.as_you import AsYou
from kingdom.compiler.structure.block import Block
from kingdom.compiler.structure.common import unparse_option
from kingdom.compiler.structure.sequence import Sequence
from kingdom.runtime.decisions import ATTACK, BENEFIT, CHOOSE, OPPONENT, OPTION, Decision, ask

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx
    from kingdom.runtime.player import Player


class Choose(Node):
    """"choose one: A | B", "choose two different", by the player or ("you choose") by you."""

    says_they = True  # said of "they" by its own render(they=True) (block.said_of_them)

    def __init__(self, amount: Amount, options: list[Block], by_you: bool = False,
                 different: bool = False) -> None:
        self.amount = amount
        self.options = options
        self.by_you = by_you
        self.different = different

    def compile(self, env: Env):
        labels = [o.render() for o in self.options]
        for i, label in enumerate(labels):
            if label in labels[:i]:  # (a choice is answered by its label)
                env.error("K303", f"the choice offers '{label}' twice", self,
                          "make each option different, or drop the repeated one")
        effects = [o.compile(env) for o in self.options]
        options = self.options
        count = self.amount.compile_amount()
        by_you = self.by_you
        prompt = "Choose one: " + "; or ".join(labels)
        # Options that only move bound cards ("discard it | put it back") are no real choice
        # when nothing is bound: then nobody is asked.
        bound = [bound_ref(s) for o in self.options for s in o.statements]
        refs = [ref for ref in bound if ref is not None]
        refs_only = len(refs) == len(bound)
        optional = getattr(self, "optional", False)
        in_printed_order = self.different  # "choose two different": resolved in the order shown
        # Only a printed "choose" list takes an extra option (Elder): not "..., your choice"
        # (Jester, Spy), nor options joined by "or" ("+1 Card, or +1 Action, or +1 Buy").
        takes_extra = not by_you and getattr(self, "style", "") not in ("or", "either", "gain or")

        def choose(ctx: Ctx) -> None:
            if refs_only and not any(ref.resolve(ctx) for ref in refs):
                return
            remaining = list(range(len(labels)))
            chooser = ctx.you if by_you else ctx.player
            chosen: list[int] = []
            # An extra (different) option a card was granted this turn ("when it gives you a
            # choice ..., you may choose an extra option"): only for your own choices. Then
            # every option is chosen first and all are done in the printed order (Elder).
            card = ctx.card
            extra = ctx.game.extra_choices.get(card.uid, 0) if (
                card is not None and takes_extra and chooser is ctx.you) else 0
            later = in_printed_order or extra > 0
            about = list({id(c): c for ref in refs for c, _ in ref.resolve(ctx)}.values())
            bound = about[0] if len(about) == 1 else None
            for _ in range(count(ctx)):
                if not remaining:
                    break
                label = ask(Decision(OPTION, chooser, prompt, [labels[i] for i in remaining],
                                     0 if optional else 1, card=ctx.card, game=ctx.game,
                                     topic=CHOOSE, purpose=_purpose(ctx, chooser),
                                     reward=bound, gives=tuple(options[i] for i in remaining)))
                ctx.commit(label is not None)
                if label is None:
                    break
                index = labels.index(label)
                remaining.remove(index)
                if later:
                    chosen.append(index)
                else:
                    effects[index](ctx)
            for _ in range(extra):
                if not remaining:
                    break
                label = ask(Decision(OPTION, chooser, "You may choose an extra option",
                                     [labels[i] for i in remaining], 0, 1,
                                     card=ctx.card, game=ctx.game, topic=CHOOSE,
                                     purpose=BENEFIT, gives=tuple(options[i] for i in remaining)))
                if label is None:
                    break
                index = labels.index(label)
                remaining.remove(index)
                chosen.append(index)
            for index in sorted(chosen):
                effects[index](ctx)

        return choose

    def render(self, they: bool = False) -> str:
        if getattr(self, "style", "") == "or":  # "+1 Card, or +1 Action, or +1 Buy"
            return ", or ".join(o.render() for o in self.options)
        if getattr(self, "style", "") == "either":  # "either trash it or put it onto your deck"
            first, second = (o.render(they=they) for o in self.options)
            return f"either {first} or {second}"
        if getattr(self, "style", "") == "gain or":  # "gain two Silvers or a Gold"
            first, second = (o.render(they=they) for o in self.options)
            return f"{first} or {second.split(' ', 1)[1]}"
        if they and self.by_you and len(self.options) == 2:
            first, second = (o.render(they=True) for o in self.options)
            return f"either {first} or {second}, your choice"
        if they and self.amount.constant == 1 and len(self.options) == 2:
            first, second = (o.render(they=True) for o in self.options)
            return f"either {first} or {second}, their choice"
        n = self.amount.render()
        words = {"1": "one", "2": "two", "3": "three"}
        if self.by_you:
            head = "your choice: "
        elif self.amount.kind == "types_of":  # one choice per type of a card
            head = f"for each type {self.amount.value.render()} has (Action, Attack, etc.), choose one: "
        elif self.amount.kind == "count":
            head = f"for each {self.amount.value.render()}, choose one: "
        else:
            head = f"choose {words.get(n, n)}: "
        rendered = [o.render() for o in self.options]  # (capitalised() opens a sentence)
        several = self.amount.kind == "number" and (self.amount.constant or 0) > 1
        # "Choose two: A; B; C; D" (not "or": two are chosen)
        text = self._laid_out(head, rendered, "; " if several else "; or ")
        if self.different == "options":  # "Choose two different options: A; B; C; D"
            return self._laid_out(f"choose {words.get(n, n)} different options: ",
                                  [o.render() for o in self.options], "; ")
        if self.different:  # a line of its own after a fixed number of choices
            text += ".\nThe choices must be different" if several else (
                ". The choices must be different")
        return third_person(text) if they else text  # "chooses one: discard a card; or ..."


    def _laid_out(self, head: str, options: list[str], sep: str) -> str:
        """The head and the options, with the line breaks the author wrote ("Choose one:" /
        "+1 Card and +2 Actions;" / "or +1 Buy and +$2.")."""
        breaks = getattr(self, "breaks", set())
        text = head.rstrip() + "\n" if 0 in breaks else head
        for i, option in enumerate(options):
            if i:
                text += sep.replace("; ", ";\n", 1) if i in breaks else sep
            text += option
        return text

    def unparse_head(self) -> str:
        different = {"options": " different options", True: " different"}.get(self.different, "")
        return f"{'you ' if self.by_you else ''}choose {self.amount.unparse()}{different}"

    def unparse(self) -> str:
        if getattr(self, "style", "") == "either":
            return " or ".join(unparse_option(o) for o in self.options).join(("either ", ""))
        if getattr(self, "style", "") == "gain or":
            first, second = (unparse_option(o) for o in self.options)
            return f"{first} or {second.split(' ', 1)[1]}"
        if len(self.options) == 1:  # "choose one: a; b" (its one line, the one option)
            option = self.options[0]
            text = option.unparse() if getattr(option, "listed", False) else unparse_option(option)
            return f"{self.unparse_head()}: {text}"
        return f"{self.unparse_head()}: " + " | ".join(unparse_option(o) for o in self.options)


def bound_ref(step: Node):
    """The bound card a step only acts on ("discard it", "gain a copy of it"), or None."""
    if isinstance(step, AsYou):  # "you gain a copy of it"
        step = step.step
    selection = getattr(step, "selection", None)
    if isinstance(selection, Selection) and selection.kind == "ref":
        return selection.ref
    noun = getattr(getattr(step, "what", None), "noun", None)
    return noun.ref if getattr(noun, "kind", None) == "copy" else None


def option_block(steps: list[Node], listed: bool = False) -> Block:
    """An option of a choice: its steps in one line, a step after ", then" marked
    `then_before`. `listed`: several statements of a nested line, printed as a list
    ("discard your hand, +4 Cards, and ...")."""
    block = Block([steps], joiner=" and ")
    if listed:
        block.listed = True
    return block


def _option_block(line: list[Node]) -> Block:
    """A nested option line, built as the same option written on one line would be
    (`choose one: A, then B | C`): "A and B" and "A, then B" are its two steps, not one
    Sequence, so that a choice means the same tree in either layout."""
    if len(line) == 1 and isinstance(line[0], Sequence) and not hasattr(line[0], "reminder"):
        sequence = line[0]
        if len(sequence.steps) == 2 and sequence.word in ("and", ", then"):
            first, second = sequence.steps
            if sequence.word == ", then":
                second.then_before = True
            return option_block([first, second])
    return option_block(line, listed=len(line) > 1)


def _purpose(ctx: Ctx, chooser: Player) -> str:
    """Whose choice it is: the card's player for themselves (BENEFIT) or for another player
    its options act on (OPPONENT: Jester's "you choose"), or another's card's victim (ATTACK)."""
    if chooser is not ctx.you:
        return ATTACK
    return BENEFIT if ctx.player is ctx.you else OPPONENT
