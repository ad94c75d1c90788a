"""Playing cards: what may be played, resolving a play, and Reactions to Attacks."""

from __future__ import annotations

from kingdom.runtime.cards import Card
from kingdom.runtime.context import Ctx
from kingdom.runtime.decisions import BENEFIT, CARDS, REACT, Decision, ask
from kingdom.runtime.errors import CHAIN_LIMIT
from kingdom.runtime.player import Player
from kingdom.runtime.reactions import react_with


class Playing:
    """The part of Game that plays cards and offers Reactions."""

    __slots__ = ()  # Game holds the slots (see Game.__slots__)

    def can_play(self, player: Player, card: Card) -> bool:
        """Whether `player` may play `card` from their hand now: a limit on plays from hand
        this turn, and "can't play" restrictions ("can_play" listeners that match forbid it)."""
        if (self.hand_play_limit is not None and player is self.player
                and self.hand_plays >= self.hand_play_limit):
            return False
        for listener in self.listeners.get("can_play", ()):
            if listener.match is not None and listener.match(self, player, card):
                return False
        return True

    def play(self, player: Player, card: Card, source: list[Card] | None, times: int = 1) -> bool:
        """Put a card into play from `source` (None: it is already placed) and resolve it."""
        if source is player.hand and (self.hand_play_limit is not None or "can_play" in self.listeners):
            if not self.can_play(player, card):
                return False
            if player is self.player:
                self.hand_plays += 1
        if source is not None and not self.move(card, source, player.in_play):
            return False
        self.played_this_turn.append(card)
        self.steps_left -= 1
        if self.steps_left <= 0:
            self.stalled(f"playing {card.d.name}")
        if self.log is not None:
            self.note(f"{player.name} plays {card.d.name}")
        for i in range(times):
            if i:
                self.played_this_turn.append(card)  # each play counts ("3 Actions played")
            self.resolve(player, card)
        return True

    def resolve(self, player: Player, card: Card) -> None:
        """Follow a played card's instructions (it may have left play meanwhile); nothing
        when the chain it is in is CHAIN_LIMIT deep (Kingdom's loop rule)."""
        if self.chain >= CHAIN_LIMIT:
            self.stop_loop(f"playing {card.d.name}")
            return
        self.chain += 1
        try:
            ctx = Ctx(self, player, card)
            if "announce" in self.listeners:  # (a narrator: said before any Reaction to it)
                self.emit("announce", player, card)
            if card.d.is_attack:
                ctx.unaffected = self.attack_reactions(player, card)
            if "play" in self.listeners:
                self.emit("play", player, card, ctx)
            if ctx.vars.get("blanked"):
                return
            effect = card.d.on_play
            if effect is not None:
                effect(ctx)
            elif card.d.coins is not None:
                self.coins += card.d.coins
            if "after_play" in self.listeners:
                self.emit("after_play", player, card)
        finally:
            self.chain -= 1

    def attack_reactions(self, attacker: Player, attack: Card) -> frozenset:
        """Offer each other player, in turn order, the Reactions in hand to this Attack."""
        unaffected: set[Player] = set()
        for player in self.others(attacker):
            used: set[int] = set()
            while True:
                # offered again only when revealing it again could change something: a
                # Reaction that only protects is not (Moat), one that does something is
                offers = [
                    c
                    for c in player.hand
                    if "attack" in c.d.triggers
                    and not ((id(c) in used or player in unaffected) and self._only_protects(c))
                    and self._can_react(player, c)
                ]
                if not offers:
                    break
                picked = ask(
                    Decision(
                        CARDS, player, f"Reveal a Reaction to {attack.d.name}?", offers, 0, 1,
                        card=attack, game=self, topic=REACT, purpose=BENEFIT, source="hand",
                    )
                )
                if not picked:
                    break
                reaction = picked[0]
                used.add(id(reaction))
                for trigger in reaction.d.triggers["attack"]:
                    # reveal it (it stays in hand), or play it ("you may first play this")
                    if not react_with(self, player, reaction, trigger.react, attack):
                        break
                    ctx = Ctx(self, player, reaction)
                    ctx.vars["attack"] = attack
                    if trigger.react == "reveal":
                        ctx.vars["this_zone"] = player.hand  # revealed from hand: "this" is there
                    trigger.effect(ctx)
                    if ctx.vars.get("unaffected"):
                        unaffected.add(player)
        return frozenset(unaffected)

    def _can_react(self, player: Player, card: Card) -> bool:
        """A Reaction with a condition ("from a hand of 5 or more cards") must meet it."""
        return any(t.condition is None or t.condition(Ctx(self, player, card))
                   for t in card.d.triggers["attack"])

    @staticmethod
    def _only_protects(card: Card) -> bool:
        return all(t.label == "unaffected" for t in card.d.triggers["attack"])

    def others(self, player: Player) -> list[Player]:
        """The other players in turn order, starting to `player`'s left."""
        n = len(self.players)
        return [self.players[(player.index + i) % n] for i in range(1, n)]

    def in_turn_order(self, player: Player) -> list[Player]:
        return [player, *self.others(player)]
