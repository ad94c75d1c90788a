"""Player moves with legality checks: what a person, a script or a bot may do on a turn.

Every move checks before it changes anything, so a refused move leaves the state as it was;
the one exception: a buy from the Action phase that is still too expensive after the Buy phase's
start-of-phase effects (League of Bankers' +$) is refused with the Buy phase begun (see Game.buy).
"""

from __future__ import annotations

from kingdom.runtime.game import Game, IllegalMove
from kingdom.runtime.player import Player


def find_in_hand(player: Player, name: str, game: Game):
    resolved = game.library.resolve(name) or name
    for card in player.hand:
        if card.d.name == resolved:
            return card
    raise IllegalMove(f"cannot play {name}: there is no {name} in {player.name}'s hand")


def play(game: Game, name: str) -> None:
    player = game.player
    card = find_in_hand(game.player, name, game)
    d = card.d
    if not game.can_play(player, card):
        raise IllegalMove(f"cannot play {name}: it can't be played from hand now")
    if d.is_action and game.phase == "action":
        if game.actions < 1:
            raise IllegalMove(f"cannot play {name}: no Actions left")
        game.actions -= 1
        game.play(player, card, player.hand)
        return
    if d.is_treasure:
        if game.phase not in ("action", "buy"):
            raise IllegalMove(f"cannot play {name} in the {game.phase} phase")
        if game.bought:
            raise IllegalMove(f"cannot play {name}: Treasures cannot be played after buying")
        game.play_treasures(player, [card])
        return
    if d.is_action:
        raise IllegalMove(f"cannot play {name}: Actions are played in the Action phase")
    raise IllegalMove(f"cannot play {name}: it is not an Action or a Treasure")


def buy(game: Game, name: str, overpay: int = 0) -> None:
    resolved = game.library.resolve(name) or name
    game.buy(game.player, resolved, overpay)


def spend_coffers(game: Game, count: int) -> None:
    player = game.player
    if count < 0 or count > player.coffers:
        raise IllegalMove(f"cannot spend {count} Coffers: {player.name} has {player.coffers}")
    if game.phase == "cleanup":
        raise IllegalMove("cannot spend Coffers after the Buy phase")
    player.coffers -= count
    game.coins += count


def spend_villagers(game: Game, count: int) -> None:
    """The current player spends `count` Villagers in the Action phase, +1 Action each."""
    player = game.player
    if count < 0 or count > player.villagers:
        raise IllegalMove(f"cannot spend {count} Villagers: {player.name} has {player.villagers}")
    if game.phase != "action":
        raise IllegalMove("cannot spend Villagers outside the Action phase")
    game.spend_villagers(player, count)


def end_turn(game: Game) -> None:
    """Finish this turn and start the next one, stopping at its Action phase."""
    if game.game_over:
        raise IllegalMove("the game is over")
    game.start_buy_phase()
    game.end_turn()
    if not game.game_over:
        game.start_turn()
