"""Short bot games with the invariant checker, for tests that a card cannot crash a game."""

from __future__ import annotations

from kingdom.runtime.library import Library
from kingdom.runtime.setup import standard_game

from kingdom.lab.bots import DefaultAgent, RandomAgent
from kingdom.lab.invariants import InvariantChecker


def play_checked(library: Library, kingdom: list[str], seed: int, max_turns: int = 40,
                 deck: tuple[str, ...] = ()) -> None:
    """One game, the generic bot against the random one (seats by `seed`), with `deck` added to
    each starting deck; raises on a crash or a broken invariant."""
    agents = [DefaultAgent(), RandomAgent(seed)]
    if seed % 2:
        agents.reverse()
    checker = InvariantChecker()
    game = standard_game(library, kingdom, checker.wrap(agents), seed=seed, ally=None)
    for player in game.players:
        for name in deck:
            player.deck.insert(game.rng.randrange(len(player.deck) + 1), game.new_card(library[name]))
    checker.attach(game)
    while not game.game_over and game.turn_number < max_turns:
        game.take_turn()
        checker.check(game, "after a turn")
    for player in game.players:
        game.score(player)
