"""Setup rules that add piles, without a preset choice: the Bane pile (an unused Kingdom card
costing $2 or $3, in the Supply), Ferryman's pile (costing $3 or $4, outside it) and Rewards."""

from __future__ import annotations

from kingdom.compiler.build import builtin_library
from kingdom.runtime.setup import standard_game

LIBRARY = builtin_library()


class Idle:
    def decide(self, decision):
        raise AssertionError(f"unexpected decision {decision}")


def _game(kingdom, seed, players=2):
    return standard_game(LIBRARY, kingdom, [Idle() for _ in range(players)], seed, ally=None)


def test_random_bane_is_an_unused_kingdom_pile_costing_2_or_3_in_the_supply() -> None:
    for seed in range(8):
        game = _game(["Young Witch", "Village"], seed)
        banes = [p for p in game.piles.values() if "Bane" in p.roles]
        assert len(banes) == 1
        bane = banes[0]
        definition = LIBRARY[bane.name]
        assert bane.in_supply and definition.kind == "kingdom"
        assert definition.cost in (2, 3) and bane.name not in ("Young Witch", "Village")
        assert len(bane) == (8 if definition.is_victory else 10)


def test_random_ferryman_pile_is_outside_the_supply_and_costs_3_or_4() -> None:
    for seed in range(8):
        game = _game(["Ferryman"], seed)
        name = game.setup_piles["Ferryman"]
        pile = game.piles[name]
        assert not pile.in_supply and LIBRARY[name].cost in (3, 4) and LIBRARY[name].kind == "kingdom"


def test_rewards_come_only_with_joust() -> None:
    assert "Renown" not in _game(["Village"], 1).piles
    game = _game(["Joust"], 1, players=3)
    rewards = [p for p in game.piles.values() if LIBRARY[p.name].kind == "reward"]
    assert len(rewards) == 6 and all(not p.in_supply and len(p) == 2 for p in rewards)
