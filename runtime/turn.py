"""The turn and its phases: its start, Treasures, Clean-up, and a whole turn asked of agents
(with the fast path of a plain turn)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kingdom.runtime.at_once import start_of_turn
from kingdom.runtime.cards import Card
from kingdom.runtime.decisions import PLAY, TREASURES, Decision, ask
from kingdom.runtime.player import Player
from kingdom.runtime.tokens import OFFERED

ACTION_OFFERS = OFFERED["action"]  # tokens offered out of Actions (Villagers); kept up to date


class Turn:
    """The part of Game that runs a turn through its phases."""

    __slots__ = ()  # Game holds the slots (see Game.__slots__)

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
        if self.bought_this_turn is not None:  # (kept only when a card counts buys)
            self.bought_this_turn = []
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
        if player.next_turn or "start_turn" in listeners:
            start_of_turn(self, player)  # in the order the player picks

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
            "play" in listeners or "after_play" in listeners or "can_play" in listeners
            or "announce" in listeners))
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

    def cleanup(self) -> None:
        """Clean-up: discard hand and play (Durations with work left stay), draw 5."""
        player = self.players[self.current]
        self.phase = "cleanup"
        listeners = self.listeners
        if "cleanup" in listeners:
            self.emit("cleanup", player)
        staying = player.next_turn and self.staying_in_play(player)
        in_play = player.in_play  # (each zone is one list all game: emptied, never replaced)
        if staying:
            leaving = [c for c in in_play if id(c) not in staying]
            in_play[:] = [c for c in in_play if id(c) in staying]
        else:
            leaving = in_play[:]
            in_play.clear()
        if "leave_play" in listeners:  # (h-discard) "this turn, you may put one of your ..."
            self.emit("leave_play", player, None, leaving)  # may take cards out of `leaving`
        if "discard_from_play" in listeners or (self._discard_from_play and any(
            "discard_from_play" in c.d.triggers for c in leaving
        )):
            for card in leaving:
                player.discard.append(card)
                for trigger in card.d.triggers.get("discard_from_play", ()):
                    self.run_triggers([trigger], player, card)
        else:
            player.discard.extend(leaving)
        hand = player.hand
        if self.kept_in_hand:  # kept in hand for next turn (Coastal Haven); 5 are still drawn
            kept = {id(c) for c in self.kept_in_hand}
            player.discard.extend(c for c in hand if id(c) not in kept)
            hand[:] = [c for c in hand if id(c) in kept]
            self.kept_in_hand = []
        else:
            player.discard.extend(hand)
            hand.clear()
        self.draw(player, 5)
        self.cost_reduction = 0
        if listeners:
            self._expire("turn")

    @staticmethod
    def staying_in_play(player: Player) -> set[int]:
        """The ids of the cards Clean-up leaves in play: a Duration with work left, and the
        cards that played it more than once or later ("kept_with": Throne Room)."""
        return {
            id(kept) for card, _effect, ctx in player.next_turn if card is not None
            and (ctx.vars.get("keep_while") is None or ctx.vars["keep_while"](ctx))
            for kept in (card, *ctx.vars.get("kept_with", ()))
        }

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

    def take_turn(self) -> None:
        """Play one whole turn, asking the current player's agent for every move. A turn is
        a step of the budget: turns without a play or a buy end a game that never ends too."""
        self.steps_left -= 1
        if self.steps_left <= 0:
            self.stalled("starting a turn")
        player = self.players[self.current]
        listeners = self.listeners  # (the same dict all game: mutated, never replaced)
        if not listeners and self.log is None and not self._overpay and not player.next_turn:
            agent = player.agent
            if getattr(agent, "plays_all_treasures", False):
                choose_buy = getattr(agent, "choose_buy", None)
                if choose_buy is not None and self._plain_turn(player, choose_buy):
                    return
        self.start_turn()
        self._phases(player)
        self.end_turn()

    def _phases(self, player: Player) -> None:
        """The Action and Buy phases of take_turn; again from the Action phase when a card
        returns to it ("return to your Action phase")."""
        listeners = self.listeners  # (the same dict all game: mutated, never replaced)
        while (self.actions > 0 or self.holds(player, ACTION_OFFERS)) and self.phase == "action":
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
            if not options or (self.actions < 1 and not self.offer_tokens(player, ACTION_OFFERS)):
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
        if self.phase == "action":
            self._phases(player)

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
        if self.bought_this_turn is not None:  # (kept only when a card counts buys)
            self.bought_this_turn = []
        self.hand_plays = 0
        self.extra_choices = {}
        self.phase = "buy"  # no Action to play: the Buy phase, its start heard by nobody
        if played:
            player.hand[:] = kept
            player.in_play.extend(played)
        self.coins = coins
        self._buy_phase(player, choose_buy)
        returned = self.phase == "action"
        if returned:  # a gain returned to the Action phase: the turn goes on from there
            self._phases(player)
        if returned or self.listeners or player.next_turn or self.kept_in_hand or \
                self._discard_from_play:
            self.end_turn()  # a gain made something happen: the full Clean-up
            return True
        self.phase = "cleanup"  # cleanup() with nothing staying or listening
        discard, in_play, hand = player.discard, player.in_play, player.hand
        discard.extend(in_play)
        in_play.clear()
        discard.extend(hand)
        deck = player.deck
        if len(deck) >= 5:
            hand[:] = deck[-5:]
            del deck[-5:]
            hand.reverse()
        else:
            hand[:] = self.take_from_deck(player, 5)
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
