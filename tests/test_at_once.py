"""Effects waiting at once at the start of a turn (runtime/at_once.py): the player is asked the
order only while differently named effects wait; a bot keeps the order they are offered in
(effects waiting since the last turn, then abilities, the Ally's last), a redraw first."""

from __future__ import annotations

from kingdom.compiler.build import builtin_library
from kingdom.runtime.decisions import ORDER_EFFECTS, Decision
from kingdom.runtime.game import Game
from kingdom.runtime.setup import add_ally, build_supply

from kingdom.lab.bots import DefaultAgent

LIBRARY = builtin_library()


class Recording(DefaultAgent):
    """A bot that keeps the ORDER_EFFECTS decisions it answers."""

    def __init__(self) -> None:
        self.asked: list[tuple[tuple, object]] = []

    def decide(self, decision: Decision):
        answer = super().decide(decision)
        if decision.topic == ORDER_EFFECTS:
            self.asked.append((tuple(decision.options), answer))
        return answer


def _game(durations: list[str], ally: str = "Gang of Pickpockets") -> tuple[Game, Recording]:
    bot = Recording()
    game = Game(LIBRARY, [bot, DefaultAgent()], seed=1)
    build_supply(game, ["Highwayman", "Wizards"])
    add_ally(game, LIBRARY[ally])
    player = game.players[0]
    player.deck = [game.new_card(LIBRARY["Copper"]) for _ in range(10)]
    player.hand = [game.new_card(LIBRARY[name]) for name in durations]
    for card in list(player.hand):
        game.play(player, card, player.hand)
    game.end_turn()  # p1's Clean-up; p2's turn starts next
    game.end_turn()  # p2's Clean-up; p1's turn starts, its Durations and the Ally waiting
    game.start_turn()
    return game, bot


def test_a_bot_resolves_the_durations_first_then_the_ally() -> None:
    game, bot = _game(["Highwayman"])
    assert bot.asked == [(("Highwayman", "Gang of Pickpockets"), "Highwayman")]
    player = game.players[0]
    assert len(player.hand) == 4  # drew 3 (8 cards), then discarded down to 4


def test_effects_of_one_name_are_not_asked_about() -> None:
    bot = _game([])[1]
    assert bot.asked == []


def test_a_redraw_resolves_before_the_draws_it_would_throw_away() -> None:
    """Desert Guides' "discard your hand and draw 5" first, then Highwayman's +3 Cards."""
    bot = _game(["Highwayman"], "Desert Guides")[1]
    assert bot.asked == [(("Highwayman", "Desert Guides"), "Desert Guides")]
