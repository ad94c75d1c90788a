"""Allies in whole games: one Ally per game with a Liaison, chosen with the seeded RNG; never a
pile; every Ally survives bot games."""

from __future__ import annotations

import pytest
from kingdom.compiler.build import builtin_library
from kingdom.runtime.setup import standard_game

from kingdom.lab.bots import DefaultAgent

LIBRARY = builtin_library()
ALLIES = sorted(d.name for d in LIBRARY if d.kind == "ally")
KINGDOM = ["Underling", "Village", "Smithy", "Market", "Moat", "Cellar", "Workshop", "Remodel",
           "Laboratory", "Festival"]


def test_allies_have_no_cost_and_the_ally_type() -> None:
    assert len(ALLIES) >= 23
    for name in ALLIES:
        card = LIBRARY[name]
        assert card.cost == 0
        assert card.types == ("Ally",)


def test_a_liaison_brings_one_random_ally_chosen_with_the_seed() -> None:
    first = standard_game(LIBRARY, KINGDOM, [DefaultAgent(), DefaultAgent()], seed=11)
    again = standard_game(LIBRARY, KINGDOM, [DefaultAgent(), DefaultAgent()], seed=11)
    assert first.ally is not None and first.ally.kind == "ally"
    assert first.ally is again.ally
    assert first.ally.name not in first.piles and first.ally.name not in first.pile_of
    assert all(p.favors >= 1 for p in first.players)


def test_no_liaison_no_ally() -> None:
    kingdom = [k for k in KINGDOM if k != "Underling"]
    game = standard_game(LIBRARY, kingdom, [DefaultAgent(), DefaultAgent()], seed=11)
    assert game.ally is None
    assert all(p.favors == 0 for p in game.players)


@pytest.mark.parametrize("ally", ALLIES)
def test_every_ally_plays_a_whole_game(ally: str) -> None:
    game = standard_game(LIBRARY, KINGDOM, [DefaultAgent(), DefaultAgent()], seed=3, ally=ally)
    assert game.ally is LIBRARY[ally]
    game.run(max_turns=120)
    assert game.game_over
    for player in game.players:
        assert player.favors >= 0
        assert not any(c.d.kind == "ally" for c in player.owned())


@pytest.mark.parametrize(("kingdom", "choice"), [
    (["Young Witch", "Village"], {"bane": "Underling"}),
    (["Ferryman", "Village"], {"ferryman": "Underling"}),
])
def test_a_liaison_from_a_setup_pile_brings_an_ally(kingdom: list[str], choice: dict) -> None:
    """A Liaison entering the game through a pile a setup rule adds (the Bane, Ferryman's
    pile) gets the game an Ally and each player a Favor, as one in the Kingdom does."""
    game = standard_game(LIBRARY, kingdom, [DefaultAgent(), DefaultAgent()], seed=11,
                         choices=choice)
    assert "Underling" in game.piles
    assert game.ally is not None and game.ally.kind == "ally"
    assert all(p.favors == 1 for p in game.players)
    game.run(max_turns=60)
    assert game.game_over
