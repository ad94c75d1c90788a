"""The generic bot's trashes it may make (Chapel's "up to 4", "you may trash a card"): junk
only, Curses first, Estates while the game is young, Coppers the money can spare; never Gold,
a Province or an Action. Forced trashes (Remodel) still take the least bad cards."""

from __future__ import annotations

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.runtime.decisions import BENEFIT, CARDS, FORCED, TRASH, Decision
from kingdom.runtime.setup import standard_game

from kingdom.lab.bots import YOUNG_TURNS, DefaultAgent


@pytest.fixture(scope="module")
def library():
    library, _ = compile_folders([BUILTIN_CARDS])
    return library


def _player(library, deck: list[str], hand: list[str], turns: int = 2):
    """The first player of a fresh game, owning exactly `deck` + `hand`, with `hand` in hand."""
    game = standard_game(library, ["Chapel", "Remodel"], [DefaultAgent(), DefaultAgent()], seed=1)
    player = game.players[0]
    player.deck[:] = [game.new_card(library[n]) for n in deck]
    player.discard[:] = []
    player.hand[:] = [game.new_card(library[n]) for n in hand]
    player.turns_taken = turns
    return player


def _trash(player, low: int, high: int, exact: bool = False) -> list[str]:
    decision = Decision(CARDS, player, "Trash up to 4 cards from your hand", list(player.hand),
                        low, high, exact=exact, topic=TRASH, purpose=BENEFIT if not low else FORCED,
                        source="hand")
    return [card.d.name for card in DefaultAgent().decide(decision)]


STARTING = ["Copper"] * 7 + ["Estate"] * 3


def test_chapel_trashes_curses_and_estates_early_and_keeps_needed_coppers(library) -> None:
    player = _player(library, ["Copper"] * 5, ["Curse", "Estate", "Copper", "Copper"])
    assert _trash(player, 0, 4) == ["Curse", "Estate"]  # ($7: no Copper to spare)


def test_coppers_go_when_the_deck_has_enough_other_money(library) -> None:
    player = _player(library, ["Gold", "Silver", "Silver"], ["Copper", "Copper", "Copper", "Estate"])
    # $3 + $2 + $2 + 3 x $1 = $10 of Treasures: two Coppers can go and $8 stays
    assert _trash(player, 0, 4) == ["Estate", "Copper", "Copper"]


def test_estates_stay_once_the_game_is_old(library) -> None:
    player = _player(library, ["Gold"] * 3, ["Estate", "Estate", "Curse"], turns=YOUNG_TURNS)
    assert _trash(player, 0, 4) == ["Curse"]


def test_gold_provinces_and_actions_are_never_trashed_by_choice(library) -> None:
    player = _player(library, ["Gold"] * 5, ["Gold", "Province", "Village", "Silver"])
    assert _trash(player, 0, 4) == []


def test_a_forced_trash_still_picks_the_least_bad(library) -> None:
    """Remodel's "trash a card": something must go, junk or not."""
    player = _player(library, ["Copper"] * 3, ["Province", "Silver", "Gold"], turns=20)
    assert _trash(player, 1, 1) == ["Silver"]
    player = _player(library, STARTING, ["Estate", "Copper", "Curse"])
    assert _trash(player, 1, 1) == ["Curse"]


def test_an_optional_one_card_trash_takes_the_worst_junk(library) -> None:
    """"you may trash a card from your hand" (a Remodel that may decline)."""
    player = _player(library, STARTING, ["Copper", "Estate", "Copper"])
    assert _trash(player, 0, 1) == ["Estate"]


def test_none_or_all_trashes_all_only_when_all_are_junk(library) -> None:
    """"you may trash 2 cards": both, or none."""
    player = _player(library, STARTING, ["Estate", "Curse", "Silver"])
    assert _trash(player, 0, 2, exact=True) == ["Curse", "Estate"]
    player = _player(library, STARTING, ["Estate", "Silver", "Silver"])
    assert _trash(player, 0, 2, exact=True) == []
