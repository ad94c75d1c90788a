"""The plain-turn fast path (Game._plain_turn) and the planned Supply change no game: the same
seeded games played through the general path (a game with a log never takes the fast path)
end alike, card for card, down to the random generator's state."""

from __future__ import annotations

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.runtime.setup import build_supply, standard_game

from kingdom.lab.roster import resolve_bot
from kingdom.lab.simulate import game_seed, random_kingdom


@pytest.fixture(scope="module")
def library():
    return compile_folders([BUILTIN_CARDS / "base"], strict=False)[0]


def played(library, kingdom, bots, seed: int, general: bool) -> tuple:
    """A seeded game's end: each player's turns, score and cards, the turn count, the shuffles
    and the generator's next draw; `general`: with a log, so no turn takes the fast path."""
    game = standard_game(library, kingdom, [b.agent(seed + n) for n, b in enumerate(bots)], seed=seed)
    if general:
        game.log = []
    game.run()
    players = tuple((p.turns_taken, game.score(p), sorted(c.d.name for c in p.owned()))
                    for p in game.players)
    return players, game.turn_number, game.shuffles, game.rng.getrandbits(64)


@pytest.mark.parametrize("bots", [("big-money", "big-money"), ("smithy-big-money", "big-money")])
def test_fast_path_plays_as_the_general_path(library, bots):
    agents = [resolve_bot(b, library) for b in bots]
    for i in range(60):
        seed = game_seed(7, i)
        assert played(library, ["Smithy"], agents, seed, False) == \
            played(library, ["Smithy"], agents, seed, True), f"game {i} (seed {seed})"


def test_generic_bots_on_random_kingdoms_unchanged_by_the_fast_path(library):
    bots = [resolve_bot("big-money", library), resolve_bot("default", library)]
    pick = random_kingdom(library)
    for i in range(30):
        seed = game_seed(8, i)
        assert played(library, pick(seed), bots, seed, False) == \
            played(library, pick(seed), bots, seed, True), f"game {i} (seed {seed})"


def test_planned_supply_is_the_same_as_a_fresh_one(library):
    first = standard_game(library, ["Smithy", "Moat"], [None, None], seed=1)
    again = standard_game(library, ["Smithy", "Moat"], [None, None], seed=1)  # from the plan
    fresh = standard_game(library, ["Smithy", "Moat"], [None, None], seed=1)
    fresh.piles.clear()
    fresh.pile_of.clear()
    fresh._next_uid = 0
    build_supply(fresh, ["Smithy", "Moat"], sizes={"Moat": 10})  # (sizes: planned afresh)
    for game in (again, fresh):
        assert list(game.piles) == list(first.piles)
        assert [[c.uid for c in p.cards] for p in game.piles.values()] == \
            [[c.uid for c in p.cards] for p in first.piles.values()]
        assert game.pile_of == {n: game.piles[p.name] for n, p in first.pile_of.items()}
