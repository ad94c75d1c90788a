"""Offers: "you may X", "you may X for Y", "you may X to: ..." (`MayStep`), and "X unless you
Y", where the player may pay instead (`Unless`); with what they ask: whether the step can be
done at all (`_feasibility`) and which choice is the one decision when paying for it
(`first_choice`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node, join_and, sentence, they_do, third_person
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.structure.block import Block
from kingdom.compiler.structure.choose import Choose
from kingdom.compiler.structure.common import unparse_compound
from kingdom.compiler.structure.sequence import Sequence
from kingdom.runtime.context import Declined
from kingdom.runtime.decisions import ATTACK, BENEFIT, COST, MAY, PAY, YES_NO, Decision, ask

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


def _is_compound(node: Node) -> bool:
    """Whether a node is written `head: block` (and so cannot follow "to" in one step); a
    choice may ("you may X to choose one: A | B")."""
    return (hasattr(node, "unparse_head") and getattr(node, "body", None) is not None
            and node.unparse() == unparse_compound(node))


class MayStep(Node):
    """"you may X", "you may X for Y", "you may X to: ...". `did` tells whether X happened."""

    says_they = True  # said of "they" by its own render(they=True) (block.said_of_them)

    def __init__(self, step: Node, reward: Node | None = None, word: str = "for") -> None:
        self.step = step
        self.reward = reward
        self.word = word

    def compile(self, env: Env):
        step = self.step
        selection = getattr(step, "selection", None)
        pickable = isinstance(selection, Selection) and selection.kind == "pick"
        supply_gain = (type(step).__name__ == "Gain" and selection is None) or getattr(
            step, "chooses", False)
        if pickable:
            selection.optional = True
        if supply_gain:
            step.optional = True
        # "you may spend a Favor to gain a card ...": when what it pays for starts with a choice,
        # that choice is the one decision (declining it spends nothing).
        pays_for = (first_choice(self.reward) if getattr(step, "pays", False)
                    and self.reward is not None else None)
        possible = _feasibility(step)
        more_after_choice = pays_for is not None and _has_more(self.reward)
        whole_prompt = sentence(self.render())
        reward_possible = _feasibility(self.reward) if self.reward is not None else None
        offered = self.reward if self.reward is not None else env.reward_of(self)
        if offered is not None:
            env.rewards[id(step)] = offered
        run_step = step.compile(env)
        reward = self.reward.compile(env) if self.reward is not None else None
        prompt = sentence(f"you may {step.render()}")
        topic = getattr(step, "topic", None) or MAY  # "you may play it": PLAY_CARD

        def may(ctx: Ctx) -> None:
            if (possible is not None and not possible(ctx)) or (
                reward_possible is not None and not reward_possible(ctx)
            ):
                ctx.did = False  # nothing to choose: it can't be done (too few Favors)
                return
            if pays_for is not None:
                ctx.vars["pay"] = run_step
                if more_after_choice:
                    ctx.vars["pay_anyway"] = whole_prompt
                try:
                    reward(ctx)
                    ctx.did = True
                except Declined:
                    ctx.did = False
                finally:
                    ctx.vars.pop("pay", None)
                    ctx.vars.pop("pay_anyway", None)
                return
            if not (pickable or supply_gain) and not ask(
                Decision(YES_NO, ctx.player, prompt, [True, False], card=ctx.card, game=ctx.game,
                         topic=topic, purpose=COST if offered is not None else BENEFIT,
                         reward=offered, gives=(step,))
            ):
                ctx.did = False
                return
            run_step(ctx)
            did = ctx.did
            if did and reward is not None:
                reward(ctx)
            ctx.did = did

        return may

    def render(self, they: bool = False) -> str:
        adverb = getattr(self, "adverb", "")
        text = f"you may {adverb + ' ' if adverb else ''}{self.step.render()}"
        if self.reward is not None:
            sep = f" {self.word} " if self.word != ":" else ", "
            if self.word.startswith(","):  # "you may X, and Y"
                sep = f"{self.word} "
            reward = self.reward.render()
            bonuses = [s.render() for s in self.reward.statements]
            if self.word == "to" and all(b.startswith("+") for b in bonuses):
                sep, reward = " for ", join_and(bonuses)  # "for +1 Card", never "to +1 Card"
            elif self.word == "to" and reward.startswith(("you ", "then ")):  # not "to you may"
                sep, reward = ", and if you do, ", reward.removeprefix("then ")
                if they:  # "may trash a card, and if they do, they may gain a Silver"
                    return (f"{third_person(text.removeprefix('you '))}, and if they do, "
                            f"{they_do(reward.removeprefix('you '))}")
            text += sep + reward
        return third_person(text.removeprefix("you ")) if they else text

    def unparse_head(self) -> str:
        return f"you may {self.step.unparse()} to"

    def unparse(self) -> str:
        adverb = getattr(self, "adverb", "")
        text = f"you may {adverb + ' ' if adverb else ''}{self.step.unparse()}"
        if self.reward is None:
            return text
        reward = self.reward.statements
        if self.word == ", for":  # "you may X, for A, or B"
            return f"{text}, for " + ", or ".join(o.unparse() for o in reward[0].options)
        if self.word == "to" and (len(reward) != 1 or _is_compound(reward[0])):
            return unparse_compound(self, self.reward)
        sep = f"{self.word} " if self.word.startswith(",") else f" {self.word} "
        return text + sep + reward[0].unparse()


def first_choice(block: Node | None) -> Node | None:
    """The step holding the first choice of `block` (a card pick, a gain from the Supply, a
    choice among options), made optional; None if it starts with no choice."""
    node = block
    while isinstance(node, Block | Sequence):
        steps = node.statements if isinstance(node, Block) else node.steps
        if not steps:
            return None
        node = steps[0]
    if isinstance(node, Choose):
        node.optional = True
        return node
    selection = getattr(node, "selection", None)
    if isinstance(selection, Selection) and selection.kind == "pick":
        selection.optional = True
        return node
    if type(node).__name__ == "Gain" and selection is None:
        node.optional = True
        return node
    return None


def _has_more(block: Node) -> bool:
    """Whether `block` does more than its first step ("discard a card then draw a card")."""
    node = block
    while isinstance(node, Block | Sequence):
        steps = node.statements if isinstance(node, Block) else node.steps
        if len(steps) > 1:
            return True
        if not steps:
            return False
        node = steps[0]
    return False


def _feasibility(node: Node | None) -> Callable[[Ctx], bool] | None:
    """Whether a step can be done at all now (enough Favors to spend, an extra turn allowed);
    a "you may" that can't be done asks nothing. None: always."""
    while isinstance(node, Block | Sequence):
        steps = node.statements if isinstance(node, Block) else node.steps
        if not steps:
            return None
        node = steps[0]
    feasible = getattr(node, "feasibility", None)
    return feasible() if feasible is not None else None


class Unless(Node):
    """"discard down to 4 cards in hand unless you spend a Favor": the player may pay instead;
    asked only when paying is possible and the step would do something."""

    def __init__(self, step: Node, payment: Node) -> None:
        self.step = step
        self.payment = payment

    def compile(self, env: Env):
        run, pay = self.step.compile(env), self.payment.compile(env)
        can_pay = _feasibility(self.payment)
        selection = getattr(self.step, "selection", None)
        keep = selection.quantity[1] if isinstance(selection, Selection) and (
            selection.kind == "down_to") else None
        text = f"{self.payment.render()} instead of: {self.step.render()}?"
        prompt = text[0].upper() + text[1:]

        def unless(ctx: Ctx) -> None:
            needed = keep is None or len(ctx.player.hand) > keep
            if needed and (can_pay is None or can_pay(ctx)) and ask(
                Decision(YES_NO, ctx.player, prompt, [True, False], card=ctx.card, game=ctx.game,
                         topic=PAY, purpose=ATTACK if ctx.player is not ctx.you else COST,
                         reward=self.step, gives=(self.payment,))
            ):
                pay(ctx)
                ctx.did = False
                return
            run(ctx)

        return unless

    def render(self, they: bool = False) -> str:
        return f"{self.step.render()} unless you {self.payment.render()}"

    def unparse(self) -> str:
        return f"{self.step.unparse()} unless you {self.payment.unparse()}"
