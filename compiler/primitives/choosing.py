"""Choosing a card without moving it: "the player to your left chooses one of them" binds the
chosen card as "it" ("discard that card"); "take a card from your hand" binds it for the next
step ("and put it anywhere in your deck")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.selections.zones import bind
from kingdom.runtime.decisions import DISCARD, TAKE

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


@primitive(
    "chooser_step",
    r"""
      "the" "player" "to" "your" "left" "chooses" selection     -> left_chooses
    | "the" "player" "to" "your" "left" "chooses" selection "for" "you" "to" "discard" -> left_discard // e.g.
    // reveal the top 5 cards of your deck; the player to your left chooses one for you to discard
""",
)
class LeftChooses(Node):
    binds = "chosen"

    def __init__(self, selection: Selection, discard: bool = False) -> None:
        self.selection = selection
        self.discard = discard  # "... chooses one for you to discard": you discard it at once
        selection.chooser = "left"

    @property
    def purpose(self) -> str:
        return " for you to discard" if self.discard else ""

    @staticmethod
    def build_left_chooses(selection) -> LeftChooses:
        """The player to your left picks among the cards, for you."""
        return LeftChooses(selection)

    @staticmethod
    def build_left_discard(selection) -> LeftChooses:
        """The player to your left picks among the cards; you discard the ones picked."""
        return LeftChooses(selection, discard=True)

    def compile(self, env: Env):
        select = self.selection.compile_select("hand", DISCARD if self.discard else TAKE)
        prompt = "Choose " + self.selection.render() + self.purpose.replace(
            "you", "them") + " (for the player to your right)"
        discard = self.discard

        def choose(ctx: Ctx) -> None:
            picked = select(ctx, prompt)
            bind(ctx, "chosen", picked)
            if discard:
                picked = [(c, ctx.player.discard) for c, zone in picked
                          if ctx.game.discard_card(ctx.player, c, zone)]
                bind(ctx, "discarded", picked)
            ctx.did = bool(picked)

        return choose

    def render(self, they: bool = False) -> str:
        return f"the player to your left chooses {self.selection.render()}{self.purpose}"

    def unparse(self) -> str:
        return f"the player to your left chooses {self.selection.unparse()}{self.purpose}"


@primitive(
    "take_step",
    r"""
      "take" selection                                          -> take
""",
)
class Take(Node):
    """"take a card from your hand and put it ...": picks the card, binding it as "it"."""

    binds = "taken"

    def __init__(self, selection: Selection) -> None:
        self.selection = selection

    @staticmethod
    def build_take(selection) -> Take:
        return Take(selection)

    def compile(self, env: Env):
        select = self.selection.compile_select("hand")
        prompt = "Take " + self.selection.render()

        def take(ctx: Ctx) -> None:
            picked = select(ctx, prompt)
            ctx.vars["it"] = picked
            ctx.did = bool(picked)

        return take

    def render(self, they: bool = False) -> str:
        return f"take {self.selection.render()}"

    def unparse(self) -> str:
        return f"take {self.selection.unparse()}"
