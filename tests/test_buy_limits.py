"""A card's rule on buying it ("you can't buy this if ..."): the buy menus leave it out while
the rule holds, as Game.buy refuses it (tests/scenarios/dsl/gaps1.yaml plays the refusals); and
the compile-time refusals of h-gaps1's phrases written where they cannot work (K376, K377)."""

from pathlib import Path

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.runtime.costs import Affordable

from kingdom.scenarios.runner import build_game, library_for

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



@pytest.mark.parametrize(("text", "code"), [
    ("+$2; you can't buy this if you have any Coppers in play", "K376"),  # a step
    ("choose an Action card; +1 action", "K377"),  # (h-gaps1's other refusal) where is it?
])
def test_refused_where_it_cannot_work(tmp_path: Path, text: str, code: str) -> None:
    (tmp_path / "card.yaml").write_text(
        f"dsl: 1\nname: Odd Stall\ncost: 3\ntypes: [Action]\nplay:\n  - \"{text}\"\n")
    _library, diagnostics = compile_folders([BUILTIN_CARDS, tmp_path], strict=False)
    assert [(d.code, d.line) for d in diagnostics] == [(code, 6)]
