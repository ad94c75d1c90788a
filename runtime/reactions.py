"""Reactions in hand to events other than an Attack: "when you gain a card, you may reveal this
from your hand, to ...", "when another player gains a Province, you may trash this from your
hand, to ...", "when one of your cards is trashed, you may discard this ...".

One listener per event, installed only in a game with a card that has such an ability (a game
without one pays nothing). When the event happens, each player in turn order from the player
whose turn it is may respond with each matching card in their hand, once per card and event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kingdom.runtime.cards import Card, CardDef, Trigger
from kingdom.runtime.context import Ctx
from kingdom.runtime.decisions import BENEFIT, CARDS, REACT, Decision, ask
from kingdom.runtime.events import Listener
from kingdom.runtime.player import Player

if TYPE_CHECKING:
    from kingdom.runtime.game import Game

VERBS = {"gain": "gains", "buy": "buys", "trash": "trashes", "play": "plays"}


class HandReactions:
    """The listener of one event that offers every Reaction in hand answering it."""

    __slots__ = ("event",)

    def __init__(self, event: str) -> None:
        self.event = event

    def __call__(self, game: Game, player: Player, card: Card | None, data: Any) -> None:
        if card is None:
            return
        used: set[int] = set()
        for holder in game.in_turn_order(game.player):
            while True:
                offers = [c for c in holder.hand if id(c) not in used
                          and self.answering(game, holder, c, player, card)]
                if not offers:
                    break
                picked = ask(Decision(
                    CARDS, holder, f"Use a Reaction as {player.name} "
                    f"{VERBS.get(self.event, self.event)} {card.d.name}?", offers, 0, 1,
                    card=card, game=game, topic=REACT, purpose=BENEFIT, source="hand"))
                if not picked:
                    break
                reaction = picked[0]
                used.add(id(reaction))
                # where the event left the card: a gained card is acted on only if still there
                where = data if isinstance(data, list) else game.zone_list(card)
                for trigger in self.answering(game, holder, reaction, player, card):
                    if not react_with(game, holder, reaction, trigger.react, card):
                        break
                    ctx = Ctx(game, holder, reaction)
                    ctx.vars["it"] = [(card, where if where is not None else holder.discard)]
                    if trigger.react == "reveal":
                        ctx.vars["this_zone"] = holder.hand  # revealed: "this" is still there
                    trigger.effect(ctx)

    def answering(self, game: Game, holder: Player, reaction: Card, player: Player,
                  card: Card) -> list[Trigger]:
        """The abilities of `reaction`, in `holder`'s hand, that answer this event."""
        return [t for t in reaction.d.triggers.get("hand", ())
                if t.event == self.event and (player is holder) == (t.who == "you")
                and (t.condition is None or t.condition(Ctx(game, holder, reaction)))
                and (t.match is None or t.match(game, player, card))]


def react_with(game: Game, player: Player, reaction: Card, verb: str, about: Card) -> bool:
    """Do what the Reaction says with its card from `player`'s hand (reveal, trash, discard or
    play it); False when it can't (the card has left the hand: Stop-Moving)."""
    game.steps_left -= 1
    if game.steps_left <= 0:
        game.stalled(f"{verb}ing {reaction.d.name} for {about.d.name}")
    if verb == "reveal":
        if not any(c is reaction for c in player.hand):
            return False
        game.note(f"{player.name} reveals {reaction.d.name}")
        if "reveal" in game.listeners:
            game.emit("reveal", player, about, [reaction])
        return True
    if verb == "trash":
        return bool(game.trash_cards(player, [(reaction, player.hand)]))
    if verb == "discard":
        return game.discard_card(player, reaction, player.hand)
    return game.play(player, reaction, player.hand)


def install_hand_reactions(game: Game, definition: CardDef) -> None:
    """Listen for the events `definition`'s Reactions in hand answer (once per event)."""
    for trigger in definition.triggers.get("hand", ()):
        group = game.listeners.get(trigger.event, ())
        if not any(isinstance(listener.effect, HandReactions) for listener in group):
            game.listen(Listener(trigger.event, None, HandReactions(trigger.event)))
