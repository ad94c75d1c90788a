"""A card's rule on buying it ("you can't buy this if ..."): the buy menus leave it out while
the rule holds, as Game.buy refuses it (tests/scenarios/dsl/gaps1.yaml plays the refusals)."""

from pathlib import Path

import pytest

from compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.scenarios import build_game, library_for
from runtime.costs import Affordable

CARDS = Path(__file__).parent / "dsl-cards"


@pytest.mark.parametrize(("in_play", "offered"), [(["Silver"], False), (["Copper"], True)])
def test_the_buy_menus_follow_the_rule(in_play: list[str], offered: bool) -> None:
    game = build_game({"kingdom": ["Guild Bazaar"],
                       "setup": {"p1": {"in_play": in_play, "coins": 8}}}, library_for([CARDS]))
    game.phase = "buy"
    assert ("Guild Bazaar" in game.affordable()) is offered
    assert ("Guild Bazaar" in Affordable(game)) is offered
    assert "Gold" in game.affordable()  # (other cards are offered as before)


def test_a_game_without_such_a_card_checks_nothing() -> None:
    game = build_game({"kingdom": ["Smithy"]}, library_for([CARDS]))
    assert not game._buy_limits


def test_written_as_a_step_it_is_refused(tmp_path: Path) -> None:
    (tmp_path / "card.yaml").write_text(
        "dsl: 1\nname: Odd Stall\ncost: 3\ntypes: [Action]\nplay:\n"
        "  - \"+$2; you can't buy this if you have any Coppers in play\"\n")
    _library, diagnostics = compile_folders([BUILTIN_CARDS, tmp_path], strict=False)
    assert [(d.code, d.line) for d in diagnostics] == [("K376", 6)]
