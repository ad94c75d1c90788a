"""What a player did this turn: the cards played, gained and bought, for the DSL's whole-turn
counts ("per card you've gained this turn", "the third time you gain an Action this turn").

Plays and gains are always listed (Game.played_this_turn, Game.gain_log); buys are listed in
Game.bought_this_turn only in a game where some card counts them (CardDef.records), so a game
that no card asks about records nothing more."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kingdom.runtime.context import Ctx

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card, CardDef
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player

VERBS = ("play", "gain", "buy")  # the events with a history this turn


def this_turn(game: Game, player: Player, verb: str) -> list[Card]:
    """The cards `player` played, gained or bought (`verb`) this turn, in order; a card played
    twice (Throne Room) is listed twice."""
    if verb == "play":
        return game.played_this_turn
    if verb == "gain":
        return [card for who, card, _phase in game.gain_log if who is player]
    bought = game.bought_this_turn
    return [card for who, card in bought if who is player] if bought is not None else []


def times_this_turn(game: Game, player: Player, verb: str,
                    matches: Callable[[Ctx, CardDef], Any] | None) -> int:
    """How many of the cards `player` `verb`-ed this turn fit `matches` (None: all)."""
    cards = this_turn(game, player, verb)
    if matches is None:
        return len(cards)
    return sum(1 for card in cards if matches(Ctx(game, player, card), card.d))
