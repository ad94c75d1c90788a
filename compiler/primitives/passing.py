"""Passing cards (Masquerade): "each player with any cards in hand passes one to the next such
player to their left, at once". Passing is neither gaining nor trashing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.runtime.decisions import ATTACK, CARDS, FORCED, PASS, Decision, ask

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


@primitive(
    "pass_step",
    r"""
      "each" "player" "with" "any" "cards" "in" "hand" "passes" pass_count pass_left_to  -> pass_left
pass_count: (NUMBER_WORD | INT) CARD_WORD?
pass_left_to: "to" "the" "next" "such" "player" "to" "their" "left" "," "at" "once"
""",
)
class PassLeft(Node):
    """Every player holding cards picks `count` of them first; then all move at once, each to
    the next player to the left who also holds cards."""

    def __init__(self, count: int) -> None:
        self.count = count

    @staticmethod
    def build_pass_left(count, _to) -> PassLeft:
        """Every player with cards in hand picks that many, then all pass them to the left at once."""
        words = {"one": 1, "two": 2, "three": 3, "four": 4}
        token = str(count.children[0])
        return PassLeft(words.get(token) or int(token))

    def compile(self, env: Env):
        count = self.count
        prompt = "Pass a card to the next player to your left" if count == 1 else (
            f"Pass {count} cards to the next player to your left")

        def pass_left(ctx: Ctx) -> None:
            game = ctx.game
            players = [p for p in game.in_turn_order(ctx.you) if p.hand]
            picks = []
            for player in players:
                n = min(count, len(player.hand))
                picks.append(ask(Decision(CARDS, player, prompt, list(player.hand), n, n,
                                          card=ctx.card, game=game, topic=PASS,
                                          purpose=FORCED if player is ctx.you else ATTACK,
                                          source="hand")))
            for i, player in enumerate(players):
                receiver = players[(i + 1) % len(players)]
                for card in picks[i]:
                    game.move(card, player.hand, receiver.hand)
                if picks[i]:
                    game.note(f"{player.name} passes {len(picks[i])} card(s) to {receiver.name}")

        return pass_left

    def render(self, they: bool = False) -> str:
        what = "one" if self.count == 1 else f"{self.count} cards"
        return (f"each player with any cards in hand passes {what} to the next such player "
                "to their left, at once")

    def unparse(self) -> str:
        return (f"each player with any cards in hand passes {self.count} cards to the next such "
                "player to their left, at once")
