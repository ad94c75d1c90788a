"""Gaining several cards each of its own description, in the order the player picks: "gain two
cards onto your deck, one costing exactly $1 more than it and one costing exactly $1 less than
it, in either order" (the last gained onto the deck is on top)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import NUMBER_WORDS, Env, Node, plural
from kingdom.compiler.primitives import primitive
from kingdom.compiler.primitives.gain import DESTINATIONS, gain_named
from kingdom.compiler.selections.filters import Filter, Noun
from kingdom.compiler.selections.zones import bind
from kingdom.runtime.decisions import GAIN, PILE, Decision, ask
from lark import Tree

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx
    from kingdom.runtime.game import Game


@primitive(
    "gain_one_each_step",
    r"""
      "gain" quantity noun gain_to? "," one_fitting ("and" one_fitting)+ either_order?  -> gain_one_each  // e.g. trash a card from your hand; gain two cards onto your deck, one costing exactly $1 more than it and one costing exactly $1 less than it, in either order
one_fitting: "one" qualifier+
either_order: "," "in" "either" "order"
""",  # noqa: E501 (the example, on the alias's line as `kingdom phrases` reads it)
)
class GainOneEach(Node):
    """One card per description, each from the Supply. In the written order, or "in either
    order": the player picks among the cards of every description still to gain, and that
    description is done. A description no Supply card fits is skipped (only the others are
    gained)."""

    binds = "gained"

    def __init__(self, count: int, noun: Noun, each: list[Filter], to: str, either: bool) -> None:
        self.count = count  # as written ("two"): the number of descriptions, checked
        self.noun = noun
        self.each = each
        self.to = to
        self.either = either

    @staticmethod
    def build_gain_one_each(quantity, noun, *parts) -> GainOneEach:
        to = next((p for p in parts if p in ("hand", "deck")), "discard")
        each = [Filter([], noun, list(p.children)) for p in parts
                if isinstance(p, Tree) and p.data == "one_fitting"]
        either = any(isinstance(p, Tree) and p.data == "either_order" for p in parts)
        return GainOneEach(quantity[1] if quantity[0] in ("one", "exact") else 1, noun, each, to,
                        either)

    def check(self, env: Env) -> None:
        for description in self.each:
            description.check(env)
        if self.count != len(self.each):
            env.error("K361", f"'gain {self.count} ...' lists {len(self.each)} descriptions "
                      "('one costing ...')", self, "write one 'one ...' per card gained")

    def compile(self, env: Env):
        preds = [description.compile_pred() for description in self.each]
        to, either, count = self.to, self.either, self.count
        prompt = f"Gain {self.noun.render()}: " + " or ".join(self._descriptions())

        def gain_one_each(ctx: Ctx) -> None:
            game, player = ctx.game, ctx.player
            left = list(preds)
            gained = []
            while left:
                options = _fitting(ctx, game, left if either else left[:1])
                if not options:
                    if either:
                        break  # no card fits any description left
                    left.pop(0)  # none fits this one: the next
                    continue
                name = ask(Decision(PILE, player, prompt, list(options), 1, 1, card=ctx.card,
                                    game=game, topic=GAIN, source="supply"))
                left.pop(options[name])
                gain_named(game, player, name, to, gained)
            bind(ctx, "gained", gained)
            ctx.did = len(gained) == count

        return gain_one_each

    def _descriptions(self) -> list[str]:
        return [" ".join(q.render() for q in d.qualifiers) for d in self.each]

    def render(self, they: bool = False) -> str:
        noun = plural(self.noun.render()) if self.count > 1 else self.noun.render()
        where = f" {DESTINATIONS[self.to]}" if DESTINATIONS[self.to] else ""
        each = " and ".join(f"one {d}" for d in self._descriptions())
        order = ", in either order" if self.either else ""
        return f"gain {NUMBER_WORDS.get(self.count, self.count)} {noun}{where}, {each}{order}"

    def unparse(self) -> str:
        text = self.render()
        for d in self.each:
            for q in d.qualifiers:
                text = text.replace(q.render(), q.unparse(), 1)
        return text


def _fitting(ctx: Ctx, game: Game, preds: list) -> dict[str, int]:
    """The Supply piles whose top card fits a description, each with the first it fits."""
    options: dict[str, int] = {}
    for pile in game.piles.values():
        if pile.cards and pile.in_supply:
            d = pile.cards[-1].d
            fits = next((i for i, pred in enumerate(preds) if pred(ctx, d)), None)
            if fits is not None:
                options.setdefault(d.name, fits)
    return options
