"""Game state, card movement and the turn, as ../shared/rules/gameplay.txt describes them.

Every move of a card goes through a method here, so the rules that concern movement (shuffling
in the middle of a draw, the Stop-Moving and No-Visiting rules, when-gain and when-trash
triggers) live in one place. Compiled effects call these methods; they never touch lists
themselves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from runtime.cards import Card, CardDef
from runtime.context import Ctx
from runtime.decisions import (
    BUY,
    CARDS,
    NUMBER,
    ORDER,
    OVERPAY,
    PLAY,
    REACT,
    SPEND_COFFERS,
    TREASURES,
    YES_NO,
    Decision,
    ask,
)
from runtime.player import Player

if TYPE_CHECKING:
    from runtime.library import Library


class IllegalMove(Exception):
    """A move the rules do not allow; the state is unchanged."""


class GameStalled(Exception):
    """A game used up its budget of steps (`Game.steps_left`) without ending: an effect, a
    turn or an agent that loops. The game is abandoned where it stands."""


# Steps (card plays, buys, Reactions revealed) a game may take: long games between bots take
# a few thousand, so only a game that loops reaches it, in well under a second.
STEP_BUDGET = 200_000


class Pile:
    """A pile of cards (top at the end). Split piles hold several card definitions."""

    __slots__ = ("cards", "in_supply", "name", "roles", "tokens")

    def __init__(self, name: str, cards: list[Card], in_supply: bool = True) -> None:
        self.name = name
        self.cards = cards
        self.in_supply = in_supply
        self.tokens: dict[str, int] = {}
        self.roles: set[str] = set()  # what a setup rule made it ("Bane")

    @property
    def top(self) -> CardDef | None:
        return self.cards[-1].d if self.cards else None

    def __len__(self) -> int:
        return len(self.cards)

    def __bool__(self) -> bool:
        return True  # an empty pile is still a pile: `piles.get(n) or ...` must not skip it

    def __repr__(self) -> str:
        return f"<Pile {self.name} x{len(self.cards)}>"


class Listener:
    """A triggered ability waiting for an event (an Ally, a "this turn, when ..." effect)."""

    __slots__ = ("effect", "event", "late", "match", "owner", "source", "until")

    def __init__(
        self,
        event: str,
        owner: Player | None,
        effect: Callable[[Game, Player, Card | None, Any], None],
        match: Callable[[Game, Player, Card | None], bool] | None = None,
        source: Card | CardDef | None = None,
        until: str = "game",
        late: bool = False,
    ) -> None:
        self.event = event
        self.owner = owner
        # An Ally's listener runs after the others of the same event, so that Favors the same
        # event gives (Guildmaster, Sycophant) can already pay for it.
        self.late = late
        self.effect = effect
        self.match = match
        self.source = source
        self.until = until  # "game", "turn" (ends in Clean-up) or "next_turn"


class Game:
    """One game: players, piles, trash, the turn in progress and the event dispatcher."""

    # Slots for the attributes below: with more than 30 of them in a __dict__, Python 3.11's
    # fast attribute access gives up on the object. Other attributes still go to a __dict__.
    __slots__ = (
        "__dict__", "__weakref__", "_affordable", "_discard_from_play", "_next_uid", "_overpay",
        "actions", "ally", "bought", "buys", "card_tokens", "coins", "cost_reduction", "current",
        "extra_choices", "extra_turn", "extra_turns", "gain_log", "gained_this_turn", "game_over",
        "hand_play_limit", "hand_plays", "kept_in_hand", "library", "listeners", "log", "phase",
        "pile_of", "piles", "played_this_turn", "players", "rng", "seed", "setup_choices",
        "setup_piles", "shuffles", "skips", "steps_left", "trash", "turn_number", "turns_in_a_row",
    )

    def __init__(self, library: Library, agents: list[Any], seed: int | None = None) -> None:
        if not 2 <= len(agents) <= 6:
            raise IllegalMove("a game has 2 to 6 players")
        self.library = library
        self.seed = seed
        self.rng = random.Random(seed)
        self.players = [Player(i, agent) for i, agent in enumerate(agents)]
        self.piles: dict[str, Pile] = {}
        self.pile_of: dict[str, Pile] = {}  # card name -> the pile it belongs to
        self.trash: list[Card] = []
        self.current = 0
        self.phase = "action"
        self.actions = 1
        self.buys = 1
        self.coins = 0
        self.turn_number = 0
        self.steps_left = STEP_BUDGET  # counted down by play, buy and Reactions; see stalled()
        self.cost_reduction = 0
        self.played_this_turn: list[Card] = []
        self.gained_this_turn: list[Card] = []
        self.listeners: dict[str, list[Listener]] = {}
        self.bought = False  # Treasures can't be played once buying has begun
        self.game_over = False
        self.log: list[str] | None = None
        self._next_uid = 0
        # What the agents with `choose_buy` get as options, made by take_turn and dropped when
        # the game ends: no reference cycle is left, so a finished game is freed at once.
        self._affordable: Affordable | None = None
        self._discard_from_play = False  # a card of this game has a when-discarded-from-play ability
        self._overpay = False  # a pile of this game holds a card with an Overpay ability
        # Turn control: extra turns waiting (player, options), turns each player will skip,
        # whether the turn in progress is an extra one, and its limit on plays from hand.
        self.extra_turns: list[tuple[Player, dict]] = []
        self.skips: dict[int, int] = {}
        self.extra_turn = False
        self.turns_in_a_row = 1  # turns its player has taken in a row, the one in progress included
        self.hand_play_limit: int | None = None
        self.hand_plays = 0
        self.shuffles = 0  # shuffles so far, for "if this made you shuffle"
        self.card_tokens: dict[int, int] = {}  # card uid -> tokens on it ("add a token here")
        self.gain_log: list[tuple[Player, Card, str]] = []  # this turn's gains: who, what, phase
        self.setup_piles: dict[str, str] = {}  # card name -> the pile its setup added
        self.setup_choices: dict[str, str] = {}  # preset setup choices ("bane" -> a pile)
        self.extra_choices: dict[int, int] = {}  # card uid -> extra options when it says "choose"
        self.ally: CardDef | None = None  # the game's Ally (not a pile, not a card in a deck)
        self.kept_in_hand: list[Card] = []  # cards Clean-up leaves in hand this turn

    # ----------------------------------------------------------------- building
    def new_card(self, definition: CardDef) -> Card:
        self._next_uid += 1
        if "discard_from_play" in definition.triggers:
            self._discard_from_play = True
        return Card(definition, self._next_uid)

    def new_cards(self, defs: list[CardDef]) -> list[Card]:
        """New cards, one per definition in order (as `new_card` for each)."""
        cards, _distinct, when_discarded = numbered_cards(self._next_uid, defs, False)
        self._next_uid += len(defs)
        if when_discarded:
            self._discard_from_play = True
        return list(cards)

    def add_pile(self, name: str, defs: list[CardDef], in_supply: bool = True) -> Pile:
        """A pile holding `defs`, the first one on top."""
        return self.place_pile(name, self.pile_cards(defs), in_supply)

    def pile_cards(self, defs: list[CardDef]) -> NewCards:
        """What add_pile would make of `defs` now (to place with place_pile)."""
        return numbered_cards(self._next_uid, defs, True)

    def place_pile(self, name: str, made: NewCards, in_supply: bool = True) -> Pile:
        """A pile of the cards `pile_cards` made, when nothing was numbered since."""
        cards, distinct, when_discarded = made
        pile = Pile(name, list(cards), in_supply)
        self._next_uid += len(cards)
        self.piles[name] = pile
        pile_of = self.pile_of
        for d in distinct:
            if d.name not in pile_of:
                pile_of[d.name] = pile
            if d.overpay:
                self._overpay = True
        if when_discarded:
            self._discard_from_play = True
        return pile

    @property
    def player(self) -> Player:
        """The player whose turn it is."""
        return self.players[self.current]

    def note(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

    # ------------------------------------------------------------------ events
    def listen(self, listener: Listener) -> Listener:
        group = self.listeners.setdefault(listener.event, [])
        if listener.late or not group or not group[-1].late:
            group.append(listener)
        else:  # before the late ones
            group.insert(next(i for i, x in enumerate(group) if x.late), listener)
        return listener

    def unlisten(self, listener: Listener) -> None:
        group = self.listeners.get(listener.event)
        if group and listener in group:
            group.remove(listener)
            if not group:
                del self.listeners[listener.event]

    def tokens_changed(self, player: Player) -> None:
        """`player`'s Favors, Coffers or VP tokens (or a pile's tokens) changed: a "tokens" event
        for a narrator, when one listens (the totals are read from the state)."""
        if "tokens" in self.listeners:
            self.emit("tokens", player)

    def emit(self, event: str, player: Player, card: Card | None = None, data: Any = None) -> None:
        """Run every listener of `event`; costs a dict lookup when nobody listens."""
        group = self.listeners.get(event)
        if not group:
            return
        for listener in list(group):
            if listener.match is None or listener.match(self, player, card):
                listener.effect(self, player, card, data)

    # ------------------------------------------------------------------- costs
    def cost(self, definition: CardDef) -> int:
        """The current cost of a card: printed cost less reductions, never below $0."""
        if not self.cost_reduction and not self.listeners.get("cost"):
            return definition.cost
        cost = definition.cost - self.cost_reduction
        pile = self.pile_of.get(definition.name)
        if pile is not None and pile.tokens:
            cost -= pile.tokens.get("cost", 0)
        return cost if cost > 0 else 0

    # ---------------------------------------------------------------- movement
    def shuffle(self, player: Player) -> None:
        """Shuffle the discard pile; it goes under what is left of the deck."""
        cards = player.discard
        player.discard = []
        if cards:
            self.shuffles += 1
        if _FAST_SHUFFLE:
            _shuffle(self.rng.getrandbits, cards)
        else:
            self.rng.shuffle(cards)
        if "shuffle" in self.listeners:
            self.emit("shuffle", player, None, cards)
        cards.extend(player.deck)
        player.deck = cards
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
        return drawn

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
        if to == "hand":
            player.hand.append(card)
        elif to == "deck":
            player.deck.append(card)
        else:
            player.discard.append(card)
        self.gained_this_turn.append(card)
        self.gain_log.append((player, card, self.phase))
        if self.log is not None:
            self.note(f"{player.name} gains {card.d.name}")
        self._card_event("gain", player, card)
        return card

    def _card_event(self, event: str, player: Player, card: Card) -> None:
        """The card's own "when you <event> this" abilities, then everyone listening."""
        triggers = card.d.triggers.get(event)
        if triggers:
            self.run_triggers(triggers, player, card)
        if event in self.listeners:
            self.emit(event, player, card)

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
                                   "these cards (the first resolves first)", pending, game=self))
        for card in pending:
            self._card_event(event, player, card)

    def discard_card(self, player: Player, card: Card, source: list[Card]) -> bool:
        moved = self.move(card, source, player.discard)
        if moved and self.log is not None:
            self.note(f"{player.name} discards {card.d.name}")
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

    def run_triggers(self, triggers: list, player: Player, card: Card | None) -> None:
        for trigger in triggers:
            ctx = Ctx(self, player, card)
            if trigger.condition is not None and not trigger.condition(ctx):
                continue
            if trigger.optional and not ask(
                Decision(YES_NO, player, f"Use {trigger.label}?", [True, False], card=card)
            ):
                continue
            trigger.effect(ctx)

    # ----------------------------------------------------------------- playing
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
        """Follow a played card's instructions (it may have left play meanwhile)."""
        ctx = Ctx(self, player, card)
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
                        card=attack, game=self, topic=REACT,
                    )
                )
                if not picked:
                    break
                reaction = picked[0]
                used.add(id(reaction))
                self.steps_left -= 1
                if self.steps_left <= 0:
                    self.stalled(f"revealing {reaction.d.name} to {attack.d.name}")
                self.note(f"{player.name} reveals {reaction.d.name}")
                if "reveal" in self.listeners:
                    self.emit("reveal", player, attack, [reaction])
                for trigger in reaction.d.triggers["attack"]:
                    ctx = Ctx(self, player, reaction)
                    ctx.vars["attack"] = attack
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

    # -------------------------------------------------------------------- turn
    def start_turn(self) -> None:
        player = self.players[self.current]
        if not self.extra_turn:  # extra turns don't count for the tie-breaker
            player.turns_taken += 1
        self.turn_number += 1
        self.phase = "action"
        self.actions = self.buys = 1
        self.coins = 0
        self.played_this_turn = []
        self.gained_this_turn = []
        self.gain_log = []
        self.bought = False
        self.hand_plays = 0
        self.extra_choices = {}
        if self.log is not None:
            self.note(f"-- turn {self.turn_number}: {player.name}"
                      + (" (extra turn)" if self.extra_turn else ""))
        listeners = self.listeners  # (the same dict all game: mutated, never replaced)
        if "turn" in listeners:  # (before the Durations' effects of this turn)
            self.emit("turn", player, None, self.extra_turn)
        if listeners and any(
            listener.until == "next_turn" for group in listeners.values() for listener in group
        ):
            self._expire("next_turn", player)  # "until your next turn" effects end
        if player.next_turn:
            waiting, player.next_turn = player.next_turn, []
            for _card, effect, ctx in waiting:
                effect(ctx)
        if "start_turn" in listeners:
            self.emit("start_turn", player)

    def start_buy_phase(self) -> None:
        if self.phase == "action":
            self.phase = "buy"
            if "start_buy" in self.listeners:
                self.emit("start_buy", self.player)

    def play_treasures(self, player: Player, cards: Iterable[Card]) -> None:
        """Play Treasures from hand; plain +$N Treasures skip the interpreter."""
        self._play_treasures(player, list(cards))

    def _play_treasures(self, player: Player, cards: list[Card]) -> None:
        """play_treasures of a list nothing else holds (not copied). A card that an earlier
        one moved out of hand meanwhile (discarded, trashed, played by Coronet) is skipped."""
        if self.phase == "action":
            self.start_buy_phase()
        listeners = self.listeners
        fast = self.hand_play_limit is None and not (listeners and (
            "play" in listeners or "after_play" in listeners or "can_play" in listeners))
        hand, in_play, played = player.hand, player.in_play, self.played_this_turn
        for card in cards:
            coins = card.d.coins
            if fast and coins is not None:
                try:
                    hand.remove(card)
                except ValueError:  # an earlier Treasure moved it (Stop-Moving): not played
                    continue
                in_play.append(card)
                played.append(card)
                self.coins += coins
                if self.log is not None:
                    self.note(f"{player.name} plays {card.d.name}")
            else:
                self.play(player, card, hand)

    def buy(self, player: Player, name: str, overpay: int = 0) -> Card:
        """Buy the top card of a Supply pile; raises IllegalMove (state unchanged) if illegal."""
        pile = self.piles.get(name)
        if pile is None or not pile.in_supply or not pile.cards or (
                pile.name != name and pile.cards[-1].d.name != name):
            pile = self.buyable_pile(name)  # (by a card's name, or to say why not)
        if self.phase == "cleanup":
            raise IllegalMove("the Buy phase is over")
        if self.buys < 1:
            raise IllegalMove(f"cannot buy {name}: no Buys left")
        top = pile.cards[-1].d
        listeners = self.listeners
        if overpay:
            if overpay < 0:
                raise IllegalMove(f"cannot overpay ${overpay}")
            if not top.overpay:
                raise IllegalMove(f"cannot overpay for {name}: it has no Overpay ability")
        price = (top.cost if not self.cost_reduction and "cost" not in listeners
                 else self.cost(top))  # (cost() without the call when nothing changes costs)
        if price + overpay > self.coins and not (
                self.phase == "action" and "start_buy" in listeners):
            raise IllegalMove(f"cannot buy {name}: it costs ${price}, you have ${self.coins}")
        if self.phase == "action":
            # Buying from the Action phase starts the Buy phase first: its start effects
            # (League of Bankers' +$) count toward the price. Too expensive even then, the
            # buy is refused with the Buy phase begun (as if a Treasure had been played):
            # the one refusal that changes the state, and only when something happens at
            # the start of the Buy phase.
            self.start_buy_phase()
            pile = self.piles.get(pile.name, pile)
            if not pile.cards:
                raise IllegalMove(f"cannot buy {name}: the pile is empty")
            top = pile.cards[-1].d
            price = self.cost(top)
            if price + overpay > self.coins:
                raise IllegalMove(f"cannot buy {name}: it costs ${price}, you have "
                                  f"${self.coins}")
        self.phase = "buy"
        self.buys -= 1
        self.steps_left -= 1
        if self.steps_left <= 0:
            self.stalled(f"buying {name}")
        self.bought = True
        self.coins -= price + overpay
        if self.log is not None:
            self.note(f"{player.name} buys {name} for ${price + overpay}")
        card = pile.cards[-1]
        if "buy" in listeners:
            self.emit("buy", player, card, overpay)
        if self.piles.get(pile.name) is pile:  # what gain() finds: its top card, if any
            gained = self.receive(player, pile.cards.pop()) if pile.cards else None
        else:
            gained = self.gain(player, pile.name)
        if overpay:
            for trigger in card.d.triggers.get("overpay", ()):
                ctx = Ctx(self, player, card)
                ctx.vars["overpaid"] = overpay
                where = self.zone_list(card)  # "play this": the card where it was gained
                if where is not None:
                    ctx.vars["this_zone"] = where
                trigger.effect(ctx)
        return gained if gained is not None else card

    def buyable_pile(self, name: str) -> Pile:
        pile = self.piles.get(name)  # (not `or`: Pile.__bool__ is a Python call)
        if pile is None:
            pile = self.pile_of.get(name)
        if pile is None:
            raise IllegalMove(f"cannot buy {name}: it is not in this game")
        if not pile.in_supply:
            raise IllegalMove(f"cannot buy {name}: it is not in the Supply")
        if not pile.cards:
            raise IllegalMove(f"cannot buy {name}: its pile is empty")
        if pile.cards[-1].d.name != name and pile.name != name:
            raise IllegalMove(f"cannot buy {name}: it is not on top of its pile")
        return pile

    def cleanup(self) -> None:
        """Clean-up: discard hand and play (Durations with work left stay), draw 5."""
        player = self.players[self.current]
        self.phase = "cleanup"
        listeners = self.listeners
        if "cleanup" in listeners:
            self.emit("cleanup", player)
        # a Duration with work left stays, and so do the cards that played it more than once
        # or later ("kept_with": Throne Room)
        staying = player.next_turn and {
            id(kept) for card, _effect, ctx in player.next_turn if card is not None
            and (ctx.vars.get("keep_while") is None or ctx.vars["keep_while"](ctx))
            for kept in (card, *ctx.vars.get("kept_with", ()))
        }
        if staying:
            kept = [c for c in player.in_play if id(c) in staying]
            leaving = [c for c in player.in_play if id(c) not in staying]
            player.in_play = kept
        else:
            leaving, player.in_play = player.in_play, []
        if "discard_from_play" in listeners or (self._discard_from_play and any(
            "discard_from_play" in c.d.triggers for c in leaving
        )):
            for card in leaving:
                player.discard.append(card)
                for trigger in card.d.triggers.get("discard_from_play", ()):
                    self.run_triggers([trigger], player, card)
        else:
            player.discard.extend(leaving)
        if self.kept_in_hand:  # kept in hand for next turn (Coastal Haven); 5 are still drawn
            kept = {id(c) for c in self.kept_in_hand}
            player.discard.extend(c for c in player.hand if id(c) not in kept)
            player.hand = [c for c in player.hand if id(c) in kept]
            self.kept_in_hand = []
        else:
            player.discard.extend(player.hand)
            player.hand = []
        self.draw(player, 5)
        self.cost_reduction = 0
        if listeners:
            self._expire("turn")

    def _expire(self, until: str, owner: Player | None = None) -> None:
        if not self.listeners:
            return
        for event, group in list(self.listeners.items()):
            kept = [listener for listener in group if listener.until != until
                    or (owner is not None and listener.owner is not owner)]
            if len(kept) != len(group):
                if kept:
                    self.listeners[event] = kept
                else:
                    del self.listeners[event]

    def end_turn(self) -> None:
        """Finish the current turn (Buy phase end, Clean-up, end-of-turn effects, game end)."""
        player = self.players[self.current]
        listeners = self.listeners
        if "end_buy" in listeners:
            self.emit("end_buy", player)
        self.cleanup()
        if "end_turn" in listeners:
            self.emit("end_turn", player)
        if self.is_over():
            self.game_over = True
            self._affordable = None  # (it refers to the game)
            return
        self.advance()

    def advance(self) -> None:
        """Pass the turn: to an extra turn of this player if one is waiting (never a third turn
        in a row), else to the next player to the left, skipping the turns players must skip."""
        self.hand_play_limit = None
        if self.extra_turns:
            player = self.player
            extra = [options for p, options in self.extra_turns if p is player]
            self.extra_turns = [(p, o) for p, o in self.extra_turns if p is not player]
            if extra and self.turns_in_a_row < 2:  # (never a 3rd turn in a row)
                if self.skips.get(player.index):
                    self.skips[player.index] -= 1  # the extra turn is the one skipped
                else:
                    self.extra_turn = True
                    self.hand_play_limit = extra[0].get("hand_plays")
                    self.turns_in_a_row += 1
                    if "turn_order" in self.listeners:
                        self.emit("turn_order", player, None, [])
                    return
        self.extra_turn = False
        n, index = len(self.players), self.current
        if not self.skips:
            self.current = (index + 1) % n
            self.turns_in_a_row = 1
            return
        skipped = []
        while True:
            index = (index + 1) % n
            if self.skips.get(index):
                self.skips[index] -= 1
                self.note(f"{self.players[index].name} skips a turn")
                skipped.append(self.players[index])
                continue
            break
        if skipped and "turn_order" in self.listeners:  # who skips, then who plays next
            self.emit("turn_order", self.players[index], None, skipped)
        # the others' turns all skipped: this player's next turn follows on in a row
        self.turns_in_a_row = self.turns_in_a_row + 1 if index == self.current else 1
        self.current = index

    def extra_turn_allowed(self, player: Player) -> bool:
        """Whether an extra turn for `player` after this one would not be a 3rd turn in a row
        (counting the turns taken, whatever made them follow on: extra or skipped turns)."""
        return player is not self.player or self.turns_in_a_row < 2

    def schedule_extra_turn(self, player: Player, **options: Any) -> bool:
        """An extra turn for `player` after this one; False if it would be a 3rd in a row."""
        if not self.extra_turn_allowed(player):
            return False
        self.extra_turns.append((player, options))
        return True

    def skip_turn(self, player: Player) -> None:
        self.skips[player.index] = self.skips.get(player.index, 0) + 1

    def rotate(self, pile: Pile) -> None:
        """Move the top group of same-named cards to the bottom of the pile, keeping order."""
        cards = pile.cards
        if not cards:
            return
        k = len(cards)
        while k > 0 and cards[k - 1].d.name == cards[-1].d.name:
            k -= 1
        if k:
            pile.cards = cards[k:] + cards[:k]
            self.note(f"{pile.name} rotated; {pile.cards[-1].d.name} on top")
            if "rotate" in self.listeners:  # the group moved to the bottom, top first
                self.emit("rotate", self.player, None, (pile, [c.d.name for c in reversed(cards[k:])]))

    def is_over(self) -> bool:
        piles = self.piles
        for pile in piles.values():
            if not pile.cards:
                break
        else:
            return False  # no pile is empty: the usual case
        for name in ("Province", "Colony"):
            pile = piles.get(name)
            if pile is not None and pile.in_supply and not pile.cards:
                return True
        return self.empty_supply_piles() >= (4 if len(self.players) >= 5 else 3)

    def empty_supply_piles(self) -> int:
        piles = self.piles.values()
        for pile in piles:
            if not pile.cards:
                break
        else:
            return 0  # none is empty: the usual case
        return len([p for p in piles if not p.cards and p.in_supply])

    # --------------------------------------------------------------- a turn, by agents
    def take_turn(self) -> None:
        """Play one whole turn, asking the current player's agent for every move."""
        player = self.players[self.current]
        listeners = self.listeners  # (the same dict all game: mutated, never replaced)
        if not listeners and self.log is None and not self._overpay and not player.next_turn:
            agent = player.agent
            if getattr(agent, "plays_all_treasures", False):
                choose_buy = getattr(agent, "choose_buy", None)
                if choose_buy is not None and self._plain_turn(player, choose_buy):
                    return
        self.start_turn()
        while self.actions > 0 and self.phase == "action":
            # (loops, not comprehensions: cheaper for a hand of a few cards)
            for c in player.hand:
                if c.d.is_action:
                    break
            else:
                break  # no Action in hand
            options = []
            if self.hand_play_limit is None and "can_play" not in listeners:
                for c in player.hand:  # nothing forbids a play
                    if c.d.is_action:
                        options.append(c)
            else:
                for c in player.hand:
                    if c.d.is_action and self.can_play(player, c):
                        options.append(c)
            if not options:
                break
            card = ask(Decision(PLAY, player, "Play an Action", options, 0, 1, game=self))
            if card is None:
                break
            self.actions -= 1
            self.play(player, card, player.hand)
        if self.phase == "action":  # start_buy_phase(), without the call
            self.phase = "buy"
            if "start_buy" in listeners:
                self.emit("start_buy", self.player)
        treasures = []
        for c in player.hand:
            if c.d.is_treasure:
                treasures.append(c)
        agent = player.agent
        if treasures:
            if getattr(agent, "plays_all_treasures", False):
                chosen = treasures  # what such an agent answers; no need to ask
            else:
                chosen = ask(
                    Decision(TREASURES, player, "Play Treasures", treasures, 0, len(treasures),
                             game=self)
                )
            if chosen:
                self._play_treasures(player, chosen if chosen is treasures else list(chosen))
        self._buy_phase(player, getattr(agent, "choose_buy", None))
        self.end_turn()

    def _buy_phase(self, player: Player, choose_buy: Callable | None) -> None:
        """The buys of take_turn: the agent's `choose_buy` (answering from the state: `options`
        tests affordability lazily, and `buy` refuses what is not legal), else a BUY decision.
        A plain buy (nothing listens, costs as printed, no when-gain ability) is made here."""
        piles, listeners = self.piles, self.listeners
        options = None
        while self.buys > 0:
            if player.coffers:  # (no decision is made for a player without Coffers)
                self.offer_coffers(player)
            if choose_buy is not None:
                if options is None:
                    options = self._affordable
                    if options is None:
                        options = self._affordable = Affordable(self)
                name = choose_buy(self, player, options)
            else:
                name = ask(Decision(BUY, player, "Buy a card", self.affordable(), 0, 1, game=self))
            if name is None:
                break
            if self._overpay:  # (no decision is made in a game without an Overpay card)
                self.buy(player, name, self.offer_overpay(player, name))
                continue
            pile = piles.get(name)
            if (pile is not None and pile.cards and pile.in_supply and not listeners
                    and not self.cost_reduction and self.log is None and self.phase == "buy"):
                card = pile.cards[-1]
                top = card.d
                if top.name == name and top.cost <= self.coins and "gain" not in top.triggers:
                    # buy() and receive() for it, without the calls
                    self.buys -= 1
                    self.steps_left -= 1
                    if self.steps_left <= 0:
                        self.stalled(f"buying {name}")
                    self.bought = True
                    self.coins -= top.cost
                    pile.cards.pop()
                    player.discard.append(card)
                    self.gained_this_turn.append(card)
                    self.gain_log.append((player, card, "buy"))
                    continue
            self.buy(player, name)

    def _plain_turn(self, player: Player, choose_buy: Callable) -> bool:
        """take_turn, when nothing listens, no effect waits for this turn and the hand holds
        no Action and only plain +$N Treasures (else False, nothing done): the agent plays
        them all (plays_all_treasures) and answers `choose_buy`. Nothing moves a card
        meanwhile, so the Treasures go to play together, in hand order, as _play_treasures
        would move them one by one."""
        played: list[Card] = []
        kept = []
        coins = 0
        for card in player.hand:
            d = card.d
            if d.is_action:
                return False
            if d.is_treasure:
                if d.coins is None:
                    return False
                played.append(card)
                coins += d.coins
            else:
                kept.append(card)
        if not self.extra_turn:  # start_turn()
            player.turns_taken += 1
        self.turn_number += 1
        self.actions = self.buys = 1
        self.played_this_turn = played
        self.gained_this_turn = []
        self.gain_log = []
        self.bought = False
        self.hand_plays = 0
        self.extra_choices = {}
        self.phase = "buy"  # no Action to play: the Buy phase, its start heard by nobody
        if played:
            player.hand[:] = kept
            player.in_play.extend(played)
        self.coins = coins
        self._buy_phase(player, choose_buy)
        if self.listeners or player.next_turn or self.kept_in_hand or self._discard_from_play:
            self.end_turn()  # a gain made something happen: the full Clean-up
            return True
        self.phase = "cleanup"  # cleanup() with nothing staying or listening
        discard = player.discard
        discard.extend(player.in_play)
        player.in_play = []
        discard.extend(player.hand)
        deck = player.deck
        if len(deck) >= 5:
            hand = deck[-5:]
            del deck[-5:]
            hand.reverse()
        else:
            hand = self.take_from_deck(player, 5)
        player.hand = hand
        self.cost_reduction = 0
        if self.is_over():
            self.game_over = True
            self._affordable = None  # (it refers to the game)
        elif self.extra_turns or self.skips:
            self.advance()
        else:  # advance(), to the next player
            self.hand_play_limit = None
            self.extra_turn = False
            self.current = (self.current + 1) % len(self.players)
            self.turns_in_a_row = 1
        return True

    def offer_coffers(self, player: Player) -> int:
        """Ask `player` how many Coffers to spend now (a NUMBER decision, topic SPEND_COFFERS:
        0 up to all of them, each +$1); spend them and return how many."""
        have = player.coffers
        n = ask(Decision(NUMBER, player, f"Spend Coffers? (you have {have}, and ${self.coins})",
                         list(range(have + 1)), game=self, topic=SPEND_COFFERS))
        if n:
            player.coffers -= n
            self.coins += n
            if self.log is not None:
                self.note(f"{player.name} spends {n} Coffers")
            self.tokens_changed(player)
        return n

    def offer_overpay(self, player: Player, name: str) -> int:
        """How much `player` overpays for `name` about to be bought: 0 unless its top card has an
        Overpay ability and coins are left over, else asked (a NUMBER decision, topic OVERPAY,
        about that card: 0 up to the coins left)."""
        pile = self.piles.get(name)  # (not `or`: Pile.__bool__ is a Python call)
        if pile is None:
            pile = self.pile_of.get(name)
        if pile is None or not pile.cards:
            return 0
        card = pile.cards[-1]
        top = card.d
        if not top.overpay or (top.name != name and pile.name != name):
            return 0
        spare = self.coins - self.cost(top)
        if spare <= 0:
            return 0
        return ask(Decision(NUMBER, player, f"Overpay for {top.name}? (${spare} left over)",
                            list(range(spare + 1)), card=card, game=self, topic=OVERPAY))

    def affordable(self) -> list[str]:
        coins, cost = self.coins, self.cost
        if not self.cost_reduction and not self.listeners.get("cost"):
            return [
                pile.cards[-1].d.name
                for pile in self.piles.values()
                if pile.in_supply and pile.cards and pile.cards[-1].d.cost <= coins
            ]
        return [
            pile.cards[-1].d.name
            for pile in self.piles.values()
            if pile.in_supply and pile.cards and cost(pile.cards[-1].d) <= coins
        ]

    def stalled(self, doing: str) -> None:
        """Raise GameStalled: the step budget is used up (`doing` is the step that used it)."""
        raise GameStalled(f"used up its budget of steps (card plays, buys, Reactions revealed) "
                          f"in turn {self.turn_number} without ending; stopped while {doing}")

    def run(self, max_turns: int = 500) -> None:
        """Play turns until the game ends, or until each player has had `max_turns` turns (a
        safety bound, per player as the turn statistics count; extra turns don't count)."""
        players = self.players
        while not self.game_over and players[self.current].turns_taken < max_turns:
            self.take_turn()
        self.game_over = True
        self._affordable = None  # (it refers to the game)

    # ----------------------------------------------------------------- scoring
    def score(self, player: Player) -> int:
        total = player.vp_tokens
        for card in player.owned():
            d = card.d
            total += d.vp
            if d.worth is not None:
                total += d.worth(self, player)
        if "score" in self.listeners:
            box = [total]
            self.emit("score", player, None, box)
            total = box[0]
        return total

    def winners(self) -> list[Player]:
        """Most points; a tie goes to whoever had fewer turns; still tied players share it."""
        scores = {p: self.score(p) for p in self.players}
        best = max(scores.values())
        tied = [p for p in self.players if scores[p] == best]
        fewest = min(p.turns_taken for p in tied)
        return [p for p in tied if p.turns_taken == fewest]


# New cards by (first uid, definitions, as a pile): a Card is immutable (a definition and a
# uid), and a game tells its cards apart by identity among its own, so games set up alike share
# their piles' and starting decks' Card objects instead of creating ~200 of them per game.
# (cards, distinct definitions, whether one has a when-discarded-from-play ability)
NewCards = tuple[tuple[Card, ...], tuple[CardDef, ...], bool]
_NEW_CARDS: dict[tuple, NewCards] = {}


def numbered_cards(uid: int, defs: list[CardDef], pile: bool) -> NewCards:
    """Cards numbered from uid + 1 (a pile's: the first definition on top, numbered first),
    the distinct definitions, and whether one has a when-discarded-from-play ability."""
    first = defs[0] if defs else None
    # all alike (the usual pile): a short key
    key = (uid, pile, first, len(defs)) if defs.count(first) == len(defs) else (uid, pile, *defs)
    made = _NEW_CARDS.get(key)
    if made is None:
        if len(_NEW_CARDS) >= 8192:
            _NEW_CARDS.clear()
        uids = range(uid + 1, uid + 1 + len(defs))
        cards = tuple(map(Card, reversed(defs), uids) if pile else map(Card, defs, uids))
        distinct = tuple(dict.fromkeys(defs))
        when_discarded = any("discard_from_play" in d.triggers for d in distinct)
        made = _NEW_CARDS[key] = (cards, distinct, when_discarded)
    return made


class Affordable:
    """The names `Game.affordable()` would list, tested one at a time (for fast agents)."""

    __slots__ = ("game", "listeners", "pile_of", "piles")

    def __init__(self, game: Game) -> None:
        self.game = game
        # (the game's dicts, mutated, never replaced)
        self.pile_of, self.piles, self.listeners = game.pile_of, game.piles, game.listeners

    def __contains__(self, name: object) -> bool:
        pile = self.pile_of.get(name)  # (not `or`: Pile.__bool__ is a Python call)
        if pile is None:
            pile = self.piles.get(name)
            if pile is None:
                return False
        cards = pile.cards
        if not cards or not pile.in_supply:
            return False
        top = cards[-1].d
        if top.name != name:
            return False
        game = self.game
        if not game.cost_reduction and "cost" not in self.listeners:
            return top.cost <= game.coins
        return game.cost(top) <= game.coins  # (the same when an empty "cost" group is left)

    def __iter__(self):
        return iter(self.game.affordable())

    def __len__(self) -> int:
        return len(self.game.affordable())


def _shuffle(getrandbits: Callable[[int], int], cards: list) -> None:
    """random.Random.shuffle, with its _randbelow inlined: the same permutation, faster."""
    size = len(cards)
    plan = _PLANS.get(size)
    if plan is None:
        plan = _plan(size)
    for i, k in plan:  # swap position i with one of 0..i, drawn with k bits (until <= i)
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _plan(size: int) -> tuple[tuple[int, int], ...]:
    """The steps of a shuffle of `size` items: (position i, bits drawn for a choice among the
    i + 1 first), as random.Random.shuffle takes them."""
    plan = tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    if size < 1024:
        _PLANS[size] = plan
    return plan


_PLANS: dict[int, tuple[tuple[int, int], ...]] = {}


def _same_as_random_shuffle() -> bool:
    for size in (0, 1, 2, 7, 10, 33, 300):
        a, b = random.Random(size), random.Random(size)
        x, y = list(range(size)), list(range(size))
        a.shuffle(x)
        _shuffle(b.getrandbits, y)
        if x != y or a.random() != b.random():
            return False
    return True


_FAST_SHUFFLE = _same_as_random_shuffle()  # else this Python shuffles differently: use its own
