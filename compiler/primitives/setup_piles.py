"""Piles a card brings into the game, and gaining from them.

Setup rules that add a pile: "add an extra kingdom card pile costing $2 or $3 to the supply, its
cards are Banes" (a Supply pile with a role that other text names: "a Bane"), "choose an unused
kingdom card pile costing $3 or $4" (kept outside the Supply; "gain one" gains from it). The
pile is the scenario's preset choice when there is one (`game.setup_choices`, keyed by the role
or the card's name in lower case), else a random eligible unused Kingdom card.

Gaining from piles outside the Supply: "gain any Reward to your hand" (any pile, in the Supply or
not, whose top card matches), and "gain 2 cards each costing less than it".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.checks import check_setup_rule
from kingdom.compiler.errors import PhraseError
from kingdom.compiler.nodes import Env, Node, plural
from kingdom.compiler.primitives import primitive
from kingdom.compiler.primitives.gain import Gain, _zone
from kingdom.compiler.selections.filters import Filter
from kingdom.compiler.selections.zones import bind
from kingdom.runtime.decisions import PILE, Decision, ask
from kingdom.runtime.setup import add_setup_pile

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


@primitive(
    "setup_pile_step",
    r"""
      "add" "an" "extra" kingdom_pile "to" "the" "supply" pile_role?   -> add_supply_pile
    | "choose" "an" "unused" kingdom_pile                              -> add_aside_pile
kingdom_pile: "kingdom" "card" "pile" "costing" MONEY "or" MONEY
pile_role: "," "its" "cards" "are" NAME
""",
)
class SetupPile(Node):
    """A setup rule adding one Kingdom pile, in the Supply (with a role) or set aside."""

    def __init__(self, costs: tuple[int, int], in_supply: bool, role: str = "") -> None:
        self.costs = costs
        self.in_supply = in_supply
        self.pile_role = role  # singular: "Banes" -> "Bane"

    @staticmethod
    def build_add_supply_pile(pile, role=None) -> SetupPile:
        name = str(role.children[0]) if role is not None else ""
        return SetupPile(_costs(pile), True, name.removesuffix("s"))

    @staticmethod
    def build_add_aside_pile(pile) -> SetupPile:
        return SetupPile(_costs(pile), False)

    def check(self, env: Env) -> None:
        check_setup_rule(self, env)  # K310: only a setup ability adds piles

    def choice_keys(self, card_name: str) -> tuple[str, ...]:
        """The scenario keys that preset this choice: the role ("bane") or the card ("ferryman")."""
        return (self.pile_role.lower(),) if self.pile_role else (card_name.lower(),)

    def compile(self, env: Env):
        costs, in_supply, role = self.costs, self.in_supply, self.pile_role

        def add_pile(ctx: Ctx) -> None:
            add_setup_pile(ctx.game, ctx.vars.get("source", ""), costs, in_supply, role)

        return add_pile

    def render(self, they: bool = False) -> str:
        low, high = self.costs
        if not self.in_supply:
            return f"choose an unused Kingdom card pile costing ${low} or ${high}"
        text = f"add an extra Kingdom card pile costing ${low} or ${high} to the Supply"
        return text + (f". Its cards are {plural(self.pile_role)}" if self.pile_role else "")

    def unparse(self) -> str:
        pile = "kingdom card pile costing ${} or ${}".format(*self.costs)
        if not self.in_supply:
            return f"choose an unused {pile}"
        role = f", its cards are {self.pile_role}" if self.pile_role else ""
        return f"add an extra {pile} to the supply{role}"


def _costs(pile) -> tuple[int, int]:
    low, high = pile.children
    return int(str(low).lstrip("$")), int(str(high).lstrip("$"))



@primitive(
    "gain_from_pile_step",
    r"""
      "gain" NUMBER_WORD                          -> gain_one
    | "gain" "any" filter gain_to?                -> gain_any_pile
    | "gain" quantity noun "each" qualifier+      -> gain_each
""",
)
class GainFrom(Gain):
    """"gain one" (from the pile this card's setup added), "gain any Reward to your hand" (from
    any pile, in the Supply or not), "gain 2 cards each costing less than it"."""

    def __init__(self, what: Filter | None, count: int = 1, to: str = "discard",
                 kind: str = "each") -> None:
        super().__init__(what, count, to)
        self.kind = kind  # one, any, each

    @staticmethod
    def build_gain_one(word) -> GainFrom:
        if str(word) != "one":
            raise PhraseError(f"'gain {word}' says how many cards but not which",
                              f"name them: 'gain {word} Silvers' ('gain one' alone gains from the "
                              "pile this card's setup added)")
        return GainFrom(None, kind="one")

    @staticmethod
    def build_gain_any_pile(filter_, to="discard") -> GainFrom:
        return GainFrom(filter_, 1, to, kind="any")

    @staticmethod
    def build_gain_each(quantity, noun, *qualifiers) -> GainFrom:
        count = quantity[1] if quantity[0] in ("one", "exact") else 1
        return GainFrom(Filter([], noun, list(qualifiers)), count, kind="each")

    @property
    def brings(self) -> tuple[str, ...]:
        """Types of non-Supply piles this needs in the game ("gain any Reward")."""
        if self.kind != "any":
            return ()
        return tuple(name for kind, name in self.what.noun.resolved if kind == "type")

    def compile(self, env: Env):
        if self.kind == "each":
            return super().compile(env)
        to = self.to
        if self.kind == "one":
            def gain_one(ctx: Ctx) -> None:
                game = ctx.game
                name = game.setup_piles.get(ctx.vars.get("source", ""))
                card = game.gain(ctx.player, name, to) if name else None
                bind(ctx, "gained", [(card, _zone(ctx.player, to))] if card else [])
                ctx.did = card is not None
            return gain_one
        pred = self.what.compile_pred()
        prompt = f"Gain {self.render().removeprefix('gain ')}"
        optional = getattr(self, "optional", False)

        def gain_any(ctx: Ctx) -> None:
            game, player = ctx.game, ctx.player
            options = [pile.cards[-1].d.name for pile in game.piles.values()
                       if pile.cards and pred(ctx, pile.cards[-1].d)]
            name = ask(Decision(PILE, player, prompt, options, 0 if optional else 1, 1,
                                card=ctx.card, game=game))
            card = game.gain(player, name, to) if name else None
            bind(ctx, "gained", [(card, _zone(player, to))] if card else [])
            ctx.did = card is not None

        return gain_any

    def render(self, they: bool = False) -> str:
        if self.kind == "one":
            return "gain one"
        where = {"hand": " to your hand", "deck": " onto your deck"}.get(self.to, "")
        if self.kind == "any":
            return f"gain any {self.what.render()}{where}"
        head = Filter([], self.what.noun, []).render(many=self.count > 1)
        quals = " ".join(q.render() for q in self.what.qualifiers)
        return f"gain {self.count} {head} each {quals}"

    def unparse(self) -> str:
        if self.kind == "one":
            return "gain one"
        where = {"hand": " to your hand", "deck": " onto your deck"}.get(self.to, "")
        if self.kind == "any":
            return f"gain any {self.what.unparse()}{where}"
        quals = " ".join(q.unparse() for q in self.what.qualifiers)
        return f"gain {self.count} {self.what.noun.unparse(self.count > 1)} each {quals}"
