"""Returning to the Action phase in a whole turn played by an agent (Game.take_turn): after a
gain sends the turn back ("return to your Action phase"), the agent plays Actions again, then
has a new Buy phase with its Treasures."""

from __future__ import annotations

from pathlib import Path

from kingdom.compiler.build import compile_folders
from kingdom.compiler.expansions import discover
from kingdom.runtime.decisions import BUY, Decision
from kingdom.runtime.game import Game
from kingdom.runtime.setup import build_supply

from kingdom.lab.bots import DefaultAgent

FOUNDRY = Path(__file__).resolve().parent.parent / "examples" / "foundry"


class Buyer(DefaultAgent):
    """Buys the piles of `wanted` in order, then nothing."""

    plays_all_treasures = True

    def __init__(self, wanted: list[str]) -> None:
        self.wanted = list(wanted)

    def buy(self, decision: Decision) -> str | None:
        assert decision.kind == BUY
        return self.wanted.pop(0) if self.wanted and self.wanted[0] in decision.options else None


def _turn(hand: list[str], wanted: list[str], buys: int = 1, actions: int = 1) -> Game:
    library, problems = compile_folders(discover([FOUNDRY]), strict=False)
    assert not problems
    game = Game(library, [Buyer(wanted), DefaultAgent()], seed=1)
    build_supply(game, ["Second Shift", "Village"])
    player = game.players[0]
    player.hand = [game.new_card(library[name]) for name in hand]
    player.deck = [game.new_card(library["Copper"]) for _ in range(10)]
    game.start_turn()
    game.buys, game.actions = buys, actions
    game._phases(player)
    return game


def test_a_bought_card_that_returns_to_the_action_phase_lets_the_agent_play_an_action() -> None:
    game = _turn(["Silver", "Silver", "Village"], ["Second Shift"], actions=0)
    names = [c.d.name for c in game.played_this_turn]
    assert names == ["Silver", "Silver", "Village", "Copper"]  # Village drew the Copper
    assert game.phase == "buy"


def test_the_new_buy_phase_plays_treasures_and_buys_again() -> None:
    game = _turn(["Silver", "Silver", "Silver", "Copper"], ["Second Shift", "Silver"], buys=2)
    player = game.players[0]
    assert sorted(c.d.name for c in player.discard) == ["Second Shift", "Silver"]
    assert [c.d.name for c in game.played_this_turn] == ["Silver", "Silver", "Silver", "Copper"]
