"""Split piles in whole games: a Kingdom of the six Allies split piles runs to its end between
DefaultAgent bots, no card is created or lost, and each split pile counts as one Supply pile."""

from __future__ import annotations

import pytest
from kingdom.compiler.build import builtin_library
from kingdom.runtime.setup import standard_game

from kingdom.lab.bots import DefaultAgent, RandomAgent

LIBRARY = builtin_library()
SPLIT = ["Augurs", "Clashes", "Forts", "Odysseys", "Townsfolk", "Wizards"]


def _cards(game) -> int:
    return (sum(len(p.cards) for p in game.piles.values()) + len(game.trash)
            + sum(len(p.owned()) for p in game.players))


def test_split_piles_stack_four_of_each_member_top_first() -> None:
    game = standard_game(LIBRARY, SPLIT, [DefaultAgent(), DefaultAgent()], seed=1)
    for name in SPLIT:
        pile = game.piles[name]
        members = LIBRARY.split_piles[name]
        assert len(pile) == 16
        assert [c.d.name for c in reversed(pile.cards)] == [m for m in members for _ in range(4)]
        assert pile.top.name == members[0]
        game.rotate(pile)
        assert pile.top.name == members[1]
        assert [c.d.name for c in pile.cards[:4]] == [members[0]] * 4  # now at the bottom


def test_an_empty_split_pile_counts_once() -> None:
    game = standard_game(LIBRARY, SPLIT, [DefaultAgent(), DefaultAgent()], seed=1)
    game.piles["Augurs"].cards.clear()
    assert game.empty_supply_piles() == 1


@pytest.mark.parametrize("seed", range(6))
def test_six_split_piles_play_to_the_end_between_default_bots(seed: int) -> None:
    game = standard_game(LIBRARY, SPLIT, [DefaultAgent(), DefaultAgent()], seed=seed)
    total = _cards(game)
    game.run(max_turns=400)
    assert game.is_over() and game.turn_number < 400  # ended by the rules, not the bound
    assert _cards(game) == total
    bought = {c.d.name for p in game.players for c in p.owned() if c.d.kind == "split-member"}
    assert bought, "the bots never took a split-pile card"


@pytest.mark.parametrize("seed", range(4))
def test_six_split_piles_survive_random_play(seed: int) -> None:
    agents = [RandomAgent(seed), RandomAgent(seed + 100), RandomAgent(seed + 200)]
    game = standard_game(LIBRARY, SPLIT, agents, seed=seed)
    total = _cards(game)
    game.run(max_turns=300)
    assert _cards(game) == total
