"""Revealing and looking: "reveal the top 2 cards of your deck", "look at the top 2 cards of
your deck", "reveal a Victory card from your hand", "look through your discard pile".

Revealing, like looking, moves nothing: revealed cards stay where they are (the top of the
deck, the hand, the discard pile) until a step moves them. Only "reveal cards from your deck
until ..." takes them off the deck one by one (the player's revealed cards, held apart); what
is left of those when the effect ends goes back on the deck."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node, they_do
from kingdom.compiler.primitives import primitive
from kingdom.compiler.primitives.move import Move
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.selections.zones import Ref
from kingdom.compiler.structure.sequence import Sequence
from kingdom.runtime.decisions import REVEAL

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


@primitive(
    "reveal_step",
    r"""
      "reveal" selection                         -> reveal
    | "look" "at" selection                      -> look_at
    | "look" "through" "your" "discard" "pile"   -> look_through
    | "look" "through" "it"                      -> look_through_it
    | "reveal" "then" "discard" selection        -> reveal_then_discard
""",
)
class Reveal(Node):
    def __init__(self, verb: str, selection: Selection | None) -> None:
        self.verb = verb
        self.selection = selection

    @property
    def binds(self) -> str:
        return "revealed" if self.selection is not None else ""  # (not "look through")

    topic = REVEAL  # what its decisions are about (runtime/decisions.py)

    @staticmethod
    def build_reveal(selection) -> Reveal:
        """Shows the cards to every player. Revealing moves nothing: a card revealed on top of
        the deck is still the top card (a later draw draws it); only cards revealed "until"
        one turns up are taken off the deck, and go back on it if nothing moves them."""
        return Reveal("reveal", selection)

    @staticmethod
    def build_reveal_then_discard(selection) -> RevealThenDiscard:
        return RevealThenDiscard(selection)

    @staticmethod
    def build_look_at(selection) -> Reveal:
        """Looking moves nothing: cards looked at on the deck stay there, so a later draw
        draws them and a later move of one works only while it is still there."""
        return Reveal("look at", selection)

    @staticmethod
    def build_look_through() -> Reveal:
        """Looks through your discard pile, so that later steps can pick from it."""
        return Reveal("look through", None)

    @staticmethod
    def build_look_through_it() -> Reveal:
        """"look through it": the pile the bound cards went to (Herb Gatherer's discard pile)."""
        return Reveal("look through it", None)

    def compile(self, env: Env):
        if self.selection is None:  # looking through changes nothing; "from it" picks from it
            it = self.verb == "look through it"

            def look_through(ctx: Ctx) -> None:
                bound = ctx.vars.get("it") if it else None
                ctx.vars["looked_through"] = bound[0][1] if bound else ctx.player.discard

            return look_through
        select = self.selection.compile_select("hand", REVEAL, env.reward_of(self))
        from_deck = self.selection.from_deck
        until = self.selection.kind == "until"
        prompt = self.render()[0].upper() + self.render()[1:]
        revealing = self.verb == "reveal"

        def reveal(ctx: Ctx) -> None:
            placed = select(ctx, prompt)
            # "revealed" names the zone of cards revealed from the deck; binding the
            # participle there would clobber it, so "it" and "revealed_all" carry them.
            ctx.vars["it"] = placed
            if until:  # "reveal cards until you reveal 3 X; put them ...": the X found
                ctx.vars["it"] = ctx.vars.pop("until_found", [])
            if not from_deck:
                ctx.vars.setdefault("revealed_all", []).extend(placed)
            if revealing:  # each player's last reveal, for "if your card costs more"
                ctx.vars["revealed_by"] = {**ctx.vars.get("revealed_by", {}), ctx.player: placed}
            game = ctx.game
            if game.log is not None:
                names = ", ".join(c.d.name for c, _ in placed) or "nothing"
                game.note(f"{ctx.player.name} reveals {names}")
            if revealing and "reveal" in game.listeners:  # (what is looked at stays private)
                game.emit("reveal", ctx.player, ctx.card, [c for c, _ in placed])
            ctx.did = bool(placed)

        return reveal

    def feasibility(self):
        """"unless you reveal a Bane from your hand": possible only with one in hand."""
        selection = self.selection
        if selection is None or selection.kind != "pick" or selection.source not in (None, "hand"):
            return None
        if selection.filter is not None and selection.filter.revealed:
            return None
        pred = selection.filter.compile_pred() if selection.filter else (lambda ctx, d: True)
        return lambda ctx: any(pred(ctx, c.d) for c in ctx.player.hand)

    def render(self, they: bool = False) -> str:
        if self.selection is None:
            return "look through it" if self.verb == "look through it" else (
                "look through your discard pile")
        return f"{self.verb} {self.selection.render()}"

    def unparse(self) -> str:
        if self.selection is None:
            return self.render()
        return f"{self.verb} {self.selection.unparse()}"


class RevealThenDiscard(Sequence):
    """"reveal then discard the top 2 cards of your deck": reveal them, then discard them."""

    def __init__(self, selection: Selection) -> None:
        discard = Move("discard", Selection("ref", ref=Ref("it")))
        super().__init__([Reveal("reveal", selection), discard])
        self.selection = selection

    def render(self, they: bool = False) -> str:
        what = self.selection.render()
        if they:  # "reveals then discards the top 2 cards of their deck"
            return "reveals then discards " + they_do(what).removeprefix("they ")
        return f"reveal then discard {what}"

    def unparse(self) -> str:
        return f"reveal then discard {self.selection.unparse()}"
