"""Treasures worth a computed amount and cost changes, beyond the scenarios
(tests/scenarios/dsl/money.yaml): where they may be written (K365-K367), that the printed cost
stays what `kingdom show` prints, that the piles a bot sees carry the changed cost, and that a
game without a cost change prices cards as before (no "cost" listener)."""

from __future__ import annotations

from pathlib import Path

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.runtime.setup import standard_game
from kingdom.runtime.stepwise import player_view

from kingdom.scenarios.runner import build_game

DSL_CARDS = Path(__file__).parent / "dsl-cards"


@pytest.fixture(scope="module")
def library():
    library, diagnostics = compile_folders([BUILTIN_CARDS, DSL_CARDS], strict=False)
    assert not diagnostics
    return library


def _refusal(tmp_path: Path, types: str, section: str, text: str) -> tuple[str, int, int]:
    (tmp_path / "card.yaml").write_text(
        f"dsl: 1\nname: Odd Coin\ncost: 3\ntypes: [{types}]\n{section}:\n  - \"{text}\"\n")
    _library, diagnostics = compile_folders([BUILTIN_CARDS, tmp_path], strict=False)
    assert len(diagnostics) == 1, diagnostics
    return diagnostics[0].code, diagnostics[0].line, diagnostics[0].column


WORTH = "when you play this, it's worth $1 per Treasure you have in play"


@pytest.mark.parametrize(("types", "section", "text", "code", "column"), [
    ("Action", "play", WORTH, "K365", 6),  # not a Treasure
    ("Treasure", "play", f"if you have 2 or more cards in hand: {WORTH}", "K365", 43),  # nested
    ("Action", "play", "during your buy phase, this costs $1 less", "K366", 6),  # a step
    ("Action", "triggers", "while this is in play, cards costing $4 or more cost $1 less",
     "K367", 6),  # a description by cost: the cost it changes
    ("Action", "triggers", "during your turns, this costs $1 less per $1 it costs", "K367", 6),
])
def test_refused_where_it_cannot_work(tmp_path: Path, types, section, text, code, column) -> None:
    assert _refusal(tmp_path, types, section, text) == (code, 6, column)


def test_the_printed_cost_is_the_cost_shown(library) -> None:
    cart = library["Market Cart"]
    assert cart.cost == 8 and cart.cost_changes
    assert "During your Buy phase, this costs $2 less per Action card you have in play." in cart.text


def test_the_piles_a_player_sees_carry_the_changed_cost(library) -> None:
    spec = {"kingdom": ["Market Cart"], "setup": {"p1": {"in_play": ["Village", "Village"]}}}
    game = build_game(spec, library)
    costs = {pile.name: pile.cost for pile in player_view(game, game.player).supply}
    assert costs["Market Cart"] == 8  # the Action phase: as printed
    game.phase = "buy"
    costs = {pile.name: pile.cost for pile in player_view(game, game.player).supply}
    assert costs["Market Cart"] == 4 and costs["Silver"] == 3


def test_a_game_without_cost_changes_has_no_cost_listener(library) -> None:
    game = standard_game(library, ["Village", "Smithy", "Bridge"], [None, None], seed=1, ally=None)
    assert "cost" not in game.listeners
    game = standard_game(library, ["Village", "Toll Road"], [None, None], seed=1, ally=None)
    assert len(game.listeners["cost"]) == 1
