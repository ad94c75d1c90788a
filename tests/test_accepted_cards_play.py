"""Issue 21, "an accepted card always plays": cards the fuzzers found, each either refused when
compiling (with its own diagnostic) or played in checked bot games without an exception, a
card in two places or a lost one."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from bot_games import play_checked
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.runtime.library import Library

KINGDOM = ["Fuzz Alpha", "Village", "Smithy", "Militia", "Moat", "Cellar", "Throne Room"]


def compile_card(folder: Path, play, types=("Action",), triggers=None) -> tuple[Library, list]:
    """The built-in cards and one card "Fuzz Alpha" with `play` (and `triggers`)."""
    card = {"dsl": 1, "name": "Fuzz Alpha", "cost": 3, "types": list(types), "play": play}
    if triggers:
        card["triggers"] = triggers
    (folder / "fuzz-alpha.yaml").write_text(yaml.safe_dump(card), encoding="utf-8")
    return compile_folders([BUILTIN_CARDS, folder], strict=False)


def play_games(library: Library, games: int) -> None:
    """`games` checked games with two Fuzz Alphas in every starting deck (raises on a fault)."""
    assert "Fuzz Alpha" in library
    for seed in range(games):
        play_checked(library, KINGDOM, seed, 12, deck=("Fuzz Alpha", "Fuzz Alpha"))


# ------------------------------------------------------------------ a card in two places
@pytest.mark.parametrize("play", [
    "for each card in your hand: at the start of your next turn: play it",
    "look at the top 4 cards of your deck; put one into your hand; and play the rest",
])
def test_a_card_bound_before_its_zone_was_emptied_is_not_moved_from_there(tmp_path, play) -> None:
    """Clean-up and shuffling emptied a zone by replacing its list, so a card an effect held
    with its old zone was still "there" and moved into play while also in the new zone."""
    library, diagnostics = compile_card(tmp_path, play)
    assert not diagnostics
    play_games(library, 40)


# ------------------------------------------------------------------ chains without end
@pytest.mark.parametrize("play", [
    "this turn, when you gain a card: gain a card costing up to $5",
    "+1 card; this turn, when you gain a card: you may trash it; if you did: gain a card costing up to $5",
    "+1 action; this turn, when you play an Action card: play it again",
])
def test_a_chain_of_abilities_without_end_is_stopped_and_the_game_goes_on(tmp_path, play) -> None:
    """Each ability starts the next while it resolves: RecursionError before Kingdom's loop
    rule (CHAIN_LIMIT) stopped such a chain."""
    library, diagnostics = compile_card(tmp_path, play)
    assert not diagnostics
    play_games(library, 20)


# ------------------------------------------------------------------ K115, "please report it"
@pytest.mark.parametrize(("play", "text"), [
    ("gain a card costing up to $4 from the supply", "Gain a card costing up to $4 from the Supply."),
    ("gain a card from the supply", "Gain a card from the Supply."),
])
def test_gain_from_the_supply_is_a_gain_from_the_supply(tmp_path, play, text) -> None:
    """It raised in the compiler (its source taken for a card description) before."""
    library, diagnostics = compile_card(tmp_path, play)
    assert not diagnostics
    assert library["Fuzz Alpha"].text == text
    play_games(library, 4)


@pytest.mark.parametrize(("play", "message"), [
    ("gain a Silver from your hand", "not from your hand: a card you have is not gained"),
    ("choose one: +1 card | gain a Silver from your discard pile", "not from your discard pile"),
    ("gain two", "'gain two' says how many cards but not which"),
    ("spend any number of favors to +1 card", "needs a step on 'that many cards'"),
    ("cards cost $2 less per favor token on their piles", "cost $1 less, not $2"),
    ("you may trash a card to: +1 card | +1 action", "options separated by '|' need a 'choose'"),
])
def test_words_that_do_not_fit_together_are_a_precise_error(tmp_path, play, message) -> None:
    _library, diagnostics = compile_card(tmp_path, play)
    assert [(d.code, message in d.message, bool(d.hint)) for d in diagnostics] == [
        ("K202", True, True)], diagnostics
