"""A game driven one decision at a time plays exactly like the same game played directly."""

from __future__ import annotations

from compiler.build import builtin_library
from kingdom.bots import BigMoney
from runtime.setup import standard_game
from runtime.stepwise import Stepwise

KINGDOM = ["Village", "Smithy", "Militia", "Market", "Moat", "Witch", "Cellar", "Workshop",
           "Remodel", "Laboratory"]


def test_stepwise_matches_direct_play() -> None:
    library = builtin_library()
    direct = standard_game(library, KINGDOM, [BigMoney(), BigMoney()], seed=5)
    direct.run()

    driver = Stepwise()
    bot = BigMoney()
    game = standard_game(library, KINGDOM, [driver.agent(), BigMoney()], seed=5)
    driver.start(game.run)
    asked = 0
    while (decision := driver.next()) is not None:
        asked += 1
        assert decision.player is game.players[0]
        driver.answer(bot.decide(decision))
    assert asked > 10
    assert [game.score(p) for p in game.players] == [direct.score(p) for p in direct.players]
    assert game.turn_number == direct.turn_number
