"""The Buy phase: buying a card, the tokens offered before each buy (Coffers), Overpay, and the
buys an agent makes."""

from __future__ import annotations

from collections.abc import Callable

from kingdom.runtime.cards import Card
from kingdom.runtime.context import Ctx
from kingdom.runtime.costs import Affordable
from kingdom.runtime.decisions import BUY, NUMBER, OVERPAY, Decision, ask
from kingdom.runtime.errors import IllegalMove
from kingdom.runtime.piles import Pile
from kingdom.runtime.player import Player
from kingdom.runtime.tokens import OFFERED

BUY_OFFERS = OFFERED["buy"]  # tokens offered before each buy (Coffers); kept up to date


class Buying:
    """The part of Game that buys cards."""

    __slots__ = ()  # Game holds the slots (see Game.__slots__)

    def _buy_phase(self, player: Player, choose_buy: Callable | None) -> None:
        """The buys of take_turn: the agent's `choose_buy` (answering from the state: `options`
        tests affordability lazily, and `buy` refuses what is not legal), else a BUY decision.
        A plain buy (nothing listens, costs as printed, no when-gain ability) is made here."""
        piles, listeners = self.piles, self.listeners
        options = None
        while self.buys > 0 and self.phase == "buy":  # (a gain may return to the Action phase)
            for kind in BUY_OFFERS:
                if getattr(player, kind.key):  # (no decision is made for a player holding none)
                    self.offer_tokens(player, (kind,))
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
            if self._overpay or self._buy_limits:  # (the plain buy below checks neither)
                self.buy(player, name, self.offer_overpay(player, name) if self._overpay else 0)
                continue
            pile = piles.get(name)
            if (pile is not None and pile.cards and pile.in_supply and not listeners
                    and not self.cost_reduction and self.log is None and self.phase == "buy"):
                card = pile.cards[-1]
                top = card.d
                if (top.name == name and top.cost <= self.coins and "gain" not in top.triggers
                        and "buy" not in top.triggers):
                    # buy() and receive() for it, without the calls
                    self.buys -= 1
                    self.steps_left -= 1
                    if self.steps_left <= 0:
                        self.stalled(f"buying {name}")
                    self.bought = True
                    self.coins -= top.cost
                    pile.cards.pop()
                    player.discard.append(card)
                    if self.bought_this_turn is not None:
                        self.bought_this_turn.append((player, card))
                    self.gained_this_turn.append(card)
                    self.gain_log.append((player, card, "buy"))
                    continue
            self.buy(player, name)

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
        if self._buy_limits:
            refused = self.buy_refused(top, player)
            if refused:
                raise IllegalMove(f"cannot buy {name}: {refused[0].upper()}{refused[1:]}")
        if overpay:
            if overpay < 0:
                raise IllegalMove(f"cannot overpay ${overpay}")
            if not top.overpay:
                raise IllegalMove(f"cannot overpay for {name}: it has no Overpay ability")
        price = (top.cost if not self.cost_reduction and "cost" not in listeners
                 else self.cost(top))  # (cost() without the call when nothing changes costs)
        if self.phase == "action" and "cost" in listeners:  # priced as in the Buy phase it starts
            self.phase = "buy"
            price = self.cost(top)
            self.phase = "action"
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
        if self.bought_this_turn is not None:  # (kept only when a card counts buys)
            self.bought_this_turn.append((player, card))
        own = card.d.triggers.get("buy")  # "when you buy this": before it is gained
        if own:
            self.run_triggers(own, player, card)
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
