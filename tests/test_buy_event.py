"""Buying is its own event: it fires after the price is paid and before the card is gained."""

from pathlib import Path

from kingdom.runtime.events import Listener

from kingdom.scenarios.runner import build_game, library_for, run_step

CARDS = Path(__file__).parent / "dsl-cards"


def test_buy_fires_before_the_gain_while_the_card_is_still_in_its_pile() -> None:
    game = build_game({"kingdom": ["Tally Booth"], "setup": {"p1": {"coins": 3}}},
                      library_for([CARDS]))
    assert "buy" in game.listeners  # Tally Booth's while-in-play ability waits for buys
    seen = []

    def record(g, player, card, data) -> None:
        seen.append((g.zone_of(card)[1] if g.zone_of(card)[0] else "pile", g.coins))

    for event in ("buy", "gain"):
        game.listen(Listener(event, game.player, record))
    run_step(game, {"buy": "Silver"})
    assert seen == [("pile", 0), ("discard", 0)]


def test_without_a_buy_ability_nothing_listens_for_buys() -> None:
    """A game whose cards say nothing about buying pays no "buy" event at all."""
    game = build_game({"kingdom": ["Smithy"], "setup": {"p1": {"coins": 3}}},
                      library_for([CARDS]))
    run_step(game, {"buy": "Silver"})
    assert "buy" not in game.listeners
