"""Treasures played all at once while one of them moves another card out of hand: the card
moved is not played (it crashed `Game._play_treasures` with a ValueError before), and Coronet,
which plays a Treasure from hand twice, plays in bot games without a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_games import play_checked
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.runtime.decisions import CARDS, YES_NO
from kingdom.runtime.setup import standard_game

LIBRARY, _ = compile_folders([BUILTIN_CARDS, Path(__file__).parent / "expansions" / "treasures"])


class Scripted:
    """Answers yes to every yes/no question and picks the named cards in order."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers

    def decide(self, decision):
        if decision.kind == YES_NO:
            return True
        name = self.answers.pop(0)
        card = next(o for o in decision.options if getattr(o, "name", o) == name)
        return [card] if decision.kind == CARDS else card


def play_all_treasures(hand: list[str], answers: list[str]):
    """p1 with `hand` plays every Treasure in it at once (the whole hand, in order)."""
    game = standard_game(LIBRARY, ["Village"], [Scripted(answers), Scripted([])], seed=1, ally=None)
    player = game.players[0]
    player.hand[:] = [game.new_card(LIBRARY[name]) for name in hand]
    game.play_treasures(player, list(player.hand))
    assert not answers, f"answers left: {answers}"
    return game, player


def names(cards) -> list[str]:
    return sorted(c.name for c in cards)


def test_a_treasure_discarding_another_one_first() -> None:
    game, player = play_all_treasures(["Toll", "Copper", "Silver"], ["Copper"])
    assert game.coins == 4
    assert names(player.in_play) == ["Silver", "Toll"] and names(player.discard) == ["Copper"]


def test_a_treasure_trashing_another_one_first() -> None:
    game, player = play_all_treasures(["Tithe", "Copper", "Copper", "Gold"], ["Gold"])
    assert game.coins == 3 and names(game.trash) == ["Gold"]
    assert names(player.in_play) == ["Copper", "Copper", "Tithe"]


def test_a_treasure_putting_another_one_onto_the_deck_first() -> None:
    game, player = play_all_treasures(["Hoard Note", "Silver", "Copper"], ["Silver"])
    assert game.coins == 2 and player.deck[-1].name == "Silver"


def test_coronet_playing_a_treasure_twice_before_its_turn_came() -> None:
    game, player = play_all_treasures(["Coronet", "Silver", "Copper"], ["Silver"])
    assert game.coins == 2 + 2 + 1
    assert names(player.in_play) == ["Copper", "Coronet", "Silver"] and not player.hand


@pytest.mark.parametrize("card", ["Coronet", "Toll", "Tithe", "Hoard Note"])
def test_bot_games_with_it_in_every_starting_deck(card: str) -> None:
    kingdom = ["Village", "Smithy", "Market", "Cellar", "Chapel", "Throne Room"]
    for seed in range(40 if card == "Coronet" else 10):
        play_checked(LIBRARY, kingdom, seed, deck=(card, card))
