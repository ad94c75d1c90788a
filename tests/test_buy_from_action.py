"""`buy:` from the Action phase starts the Buy phase before checking the price."""


import pytest
from kingdom.runtime.game import IllegalMove

from kingdom.scenarios.runner import build_game, library_for, run_step

SPEC = {"ally": "League of Bankers", "setup": {"p1": {"favors": 4}}}


def test_too_expensive_even_after_start_of_buy_effects_is_refused_in_the_buy_phase() -> None:
    """The documented edge: the refusal leaves the Buy phase begun, its +$ given."""
    game = build_game(SPEC, library_for([]))
    with pytest.raises(IllegalMove, match="costs"):
        game.buy(game.player, "Gold")
    assert (game.phase, game.coins, game.buys) == ("buy", 1, 1)
    run_step(game, {"buy": "Copper"})
    assert game.coins == 1 and game.buys == 0


def test_refused_for_another_reason_it_stays_in_the_action_phase() -> None:
    game = build_game(SPEC, library_for([]))
    game.buys = 0
    with pytest.raises(IllegalMove, match="no Buys"):
        game.buy(game.player, "Copper")
    assert (game.phase, game.coins) == ("action", 0)


