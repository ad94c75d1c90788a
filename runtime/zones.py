"""Every move of a card between zones: shuffling and drawing, the Stop-Moving rule, gaining,
trashing, discarding, and the when-gain and when-trash triggers these moves set off."""

from __future__ import annotations

from kingdom.runtime.cards import Card
from kingdom.runtime.context import Ctx
from kingdom.runtime.decisions import BENEFIT, MAY, ORDER, ORDER_EFFECTS, YES_NO, Decision, ask
from kingdom.runtime.errors import CHAIN_LIMIT
from kingdom.runtime.piles import Pile
from kingdom.runtime.player import Player
from kingdom.runtime.shuffle import _FAST_SHUFFLE, _shuffle


class Zones:
    """The part of Game that moves cards; compiled effects call it, never touching lists."""

    __slots__ = ()  # Game holds the slots (see Game.__slots__)

    def shuffle(self, player: Player) -> None:
        """Shuffle the discard pile; it goes under what is left of the deck. (A zone is one list
        all game, never replaced: an effect holding a card with its zone finds it there only
        while it is there, the Stop-Moving rule.)"""
        discard = player.discard
        cards = discard[:]
        discard.clear()
        if cards:
            self.shuffles += 1
        if _FAST_SHUFFLE:
            _shuffle(self.rng.getrandbits, cards)
        else:
            self.rng.shuffle(cards)
        if "shuffle" in self.listeners:
            self.emit("shuffle", player, None, cards)
        player.deck[:0] = cards
        if self.log is not None:
            self.note(f"{player.name} shuffles")

    def take_from_deck(self, player: Player, count: int) -> list[Card]:
        """Remove up to `count` cards from the top of the deck, shuffling when it runs out."""
        taken: list[Card] = []
        while len(taken) < count:
            deck = player.deck
            if not deck:
                if not player.discard:
                    break
                self.shuffle(player)
                deck = player.deck
            need = count - len(taken)
            if need >= len(deck):  # all of it, top first
                taken.extend(reversed(deck))
                deck.clear()
            else:
                chunk = deck[-need:]
                del deck[-need:]
                chunk.reverse()
                taken.extend(chunk)
        return taken

    def draw(self, player: Player, count: int) -> list[Card]:
        deck = player.deck
        if len(deck) >= count:
            drawn = deck[-count:] if count else []
            del deck[len(deck) - count :]
            drawn.reverse()
        else:
            drawn = self.take_from_deck(player, count)
        player.hand.extend(drawn)
        if self.log is not None:
            self.note(f"{player.name} draws {len(drawn)}")
        if "draw" in self.listeners:
            self.emit("draw", player, None, drawn)
        return drawn

    def drew(self, player: Player, card: Card) -> None:
        """`card` was drawn into `player`'s hand one at a time ("draw until ..."): for a narrator,
        which tells the drawing player alone."""
        if "draw" in self.listeners:
            self.emit("draw", player, None, [card])

    def move(self, card: Card, source: list[Card], target: list[Card], bottom: bool = False) -> bool:
        """Move `card` if it is still in `source` (the Stop-Moving rule); True if it moved."""
        for i in range(len(source) - 1, -1, -1):
            if source[i] is card:
                del source[i]
                if bottom:
                    target.insert(0, card)
                else:
                    target.append(card)
                return True
        return False

    def zone_of(self, card: Card) -> tuple[Player | None, str]:
        """Where a card is now: (owner, zone name); the trash and piles have no owner."""
        for player in self.players:
            for zone_name in ("hand", "in_play", "deck", "discard", "set_aside"):
                if any(c is card for c in getattr(player, zone_name)):
                    return player, zone_name
        if any(c is card for c in self.trash):
            return None, "trash"
        return None, "pile"

    def gain(self, player: Player, name: str, to: str = "discard") -> Card | None:
        """Gain the top card of the pile `name` (when it is that card); None if it can't."""
        pile = self.piles.get(name)  # (not `or`: Pile.__bool__ is a Python call)
        if pile is None:
            pile = self.pile_of.get(name)
        if pile is None or not pile.cards:
            return None
        if pile.name != name and pile.cards[-1].d.name != name:
            return None  # only the top card of a split pile can be gained
        card = pile.cards.pop()
        return self.receive(player, card, to)

    def receive(self, player: Player, card: Card, to: str = "discard") -> Card:
        """A card already taken from somewhere becomes gained by `player` at `to`."""
        zone = player.hand if to == "hand" else player.deck if to == "deck" else player.discard
        zone.append(card)
        self.gained_this_turn.append(card)
        self.gain_log.append((player, card, self.phase))
        if self.log is not None:
            self.note(f"{player.name} gains {card.d.name}")
        self._card_event("gain", player, card, zone)  # (the zone: "if it is still there")
        return card

    def _card_event(self, event: str, player: Player, card: Card, zone: list | None = None) -> None:
        """The card's own "when you <event> this" abilities, then everyone listening."""
        triggers = card.d.triggers.get(event)
        if triggers:
            self.run_triggers(triggers, player, card)
        if event in self.listeners:
            self.emit(event, player, card, zone)

    def trash_cards(self, player: Player, placed: list[tuple[Card, list[Card]]]) -> list[Card]:
        """Trash cards together: each still where it was (Stop-Moving) goes to the trash, all
        at once; then their when-trash abilities resolve. Returns the cards trashed."""
        trashed = [card for card, source in placed if self.move(card, source, self.trash)]
        if self.log is not None:
            for card in trashed:
                self.note(f"{player.name} trashes {card.d.name}")
        if "trashed" in self.listeners:  # (not "trash": that one orders when-trash abilities)
            self.emit("trashed", player, None, trashed)
        self._card_events("trash", player, trashed)
        return trashed

    def _card_events(self, event: str, player: Player, cards: list[Card]) -> None:
        """`_card_event` for cards that moved together, in an order `player` picks (asked
        only when differently named cards have something to resolve)."""
        listened = event in self.listeners
        pending = [card for card in cards if listened or event in card.d.triggers]
        if len(pending) > 1:
            pending = ask(Decision(ORDER, player, f"Order the when-{event} abilities of "
                                   "these cards (the first resolves first)", pending, game=self,
                                   topic=ORDER_EFFECTS))
        for card in pending:
            self._card_event(event, player, card)

    def discard_card(self, player: Player, card: Card, source: list[Card]) -> bool:
        moved = self.move(card, source, player.discard)
        if moved and self.log is not None:
            self.note(f"{player.name} discards {card.d.name}")
        if moved and "discarded" in self.listeners:  # (a narrator: every discard is public)
            self.emit("discarded", player, card, source)
        # "when you discard this other than during Clean-up" (h-discard): its own abilities only
        if moved and self.phase != "cleanup" and "discard" in card.d.triggers:
            self.run_triggers(card.d.triggers["discard"], player, card, player.discard)
        return moved

    def return_to_pile(self, card: Card, source: list[Card]) -> bool:
        pile = self.pile_of.get(card.d.name)
        if pile is None:
            return False
        return self.move(card, source, pile.cards)

    def zone_list(self, card: Card) -> list[Card] | None:
        """The list a card is in now (a player's zone, the trash or a pile); None if nowhere."""
        owner, zone = self.zone_of(card)
        if owner is not None:
            return getattr(owner, zone)
        if zone == "trash":
            return self.trash
        return next((p.cards for p in self.piles.values() if any(c is card for c in p.cards)), None)

    def run_triggers(self, triggers: list, player: Player, card: Card | None,
                     where: list[Card] | None = None) -> None:
        """`where`: the zone the event put `card` in, which "this" and "it" stay bound to (a
        card moved meanwhile by another of these abilities is not followed: Stop-Moving)."""
        if self.chain >= CHAIN_LIMIT:  # Kingdom's loop rule (runtime/errors.py)
            self.stop_loop(f"the abilities of {card.d.name if card is not None else 'the game'}")
            return
        self.chain += 1
        try:
            for trigger in triggers:
                ctx = Ctx(self, player, card) if where is None else Ctx(
                    self, player, card, {"this_zone": where, "it": [(card, where)]})
                if trigger.condition is not None and not trigger.condition(ctx):
                    continue
                if trigger.optional and not ask(
                    Decision(YES_NO, player, f"Use {trigger.label}?", [True, False], card=card,
                             topic=MAY, purpose=BENEFIT)
                ):
                    continue
                trigger.effect(ctx)
        finally:
            self.chain -= 1

    def rotate(self, pile: Pile) -> None:
        """Move the top group of same-named cards to the bottom of the pile, keeping order."""
        cards = pile.cards
        if not cards:
            return
        k = len(cards)
        while k > 0 and cards[k - 1].d.name == cards[-1].d.name:
            k -= 1
        if k:
            moved = cards[k:]  # the group that goes to the bottom
            cards[:] = moved + cards[:k]
            self.note(f"{pile.name} rotated; {pile.cards[-1].d.name} on top")
            if "rotate" in self.listeners:  # the group moved to the bottom, top first
                self.emit("rotate", self.player, None, (pile, [c.d.name for c in reversed(moved)]))
