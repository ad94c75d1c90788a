"""Player moves with legality checks: what a person, a script or a bot may do on a turn.

Every move checks before it changes anything, so a refused move leaves the state as it was;
the one exception: a buy from the Action phase that is still too expensive after the Buy phase's
start-of-phase effects (League of Bankers' +$) is refused with the Buy phase begun (see Game.buy).
"""

from __future__ import annotations

from kingdom.runtime.game import Game, IllegalMove
from kingdom.runtime.player import Player
from kingdom.runtime.tokens import TokenKind


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


def spend(game: Game, kind: TokenKind, count: int) -> None:
    """The current player spends `count` tokens of `kind` (a kind the turn spends: Coffers,
    Villagers), in one of the phases its declaration allows."""
    player = game.player
    have = getattr(player, kind.key)
    if count < 0 or count > have:
        raise IllegalMove(f"cannot spend {count} {kind.plural}: {player.name} has {have}")
    if game.phase not in kind.spend.phases:
        raise IllegalMove(f"cannot spend {kind.plural} {kind.spend.refusal()}")
    game.spend_tokens(player, kind, count)


def end_turn(game: Game) -> None:
    """Finish this turn and start the next one, stopping at its Action phase."""
    if game.game_over:
        raise IllegalMove("the game is over")
    game.start_buy_phase()
    game.end_turn()
    if not game.game_over:
        game.start_turn()
