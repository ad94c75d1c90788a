"""One game of Dominion, as ../shared/rules/gameplay.txt describes it: the Game's state, built here
from one part per area of the rules (each a mixin in its own module):

    zones.py    every move of a card (shuffling, drawing, Stop-Moving, gaining, trashing)
    playing.py  playing cards, Reactions to Attacks
    turn.py     the turn and its phases, Clean-up, the plain-turn fast path
    buying.py   buying, Overpay
    tokens/     token kinds, each declared once (Coffers, Favors, ...); spending.py: spending them
    order.py    whose turn is next (extra, skipped turns), game end and scoring
    costs.py    current costs, what can be afforded
    events.py   listeners and the event dispatcher

Compiled effects call Game's methods; they never touch lists themselves. The names other
modules take from here (Pile, Listener, IllegalMove, ...) stay importable from runtime.game.
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Any

from kingdom.runtime.buying import Buying
from kingdom.runtime.cards import Card, CardDef
from kingdom.runtime.costs import Affordable, Costs
from kingdom.runtime.errors import RECURSION_LIMIT, STEP_BUDGET, GameStalled, IllegalMove
from kingdom.runtime.events import Events, Listener
from kingdom.runtime.order import TurnOrder
from kingdom.runtime.piles import NewCards, Pile, numbered_cards
from kingdom.runtime.player import Player
from kingdom.runtime.playing import Playing
from kingdom.runtime.tokens.spending import TokenSpending
from kingdom.runtime.turn import Turn
from kingdom.runtime.zones import Zones

if TYPE_CHECKING:
    from kingdom.runtime.library import Library

__all__ = [
    "STEP_BUDGET", "Affordable", "Game", "GameStalled", "IllegalMove", "Listener", "NewCards", "Pile",
    "numbered_cards",
]


class Game(Zones, Playing, Turn, Buying, TokenSpending, TurnOrder, Costs, Events):
    """One game: players, piles, trash, the turn in progress and the event dispatcher."""

    # Slots for the attributes below: with more than 30 of them in a __dict__, Python 3.11's
    # fast attribute access gives up on the object. Other attributes still go to a __dict__.
    __slots__ = (
        "__dict__", "__weakref__", "_affordable", "_buy_limits", "_discard_from_play", "_next_uid",
        "_overpay",
        "actions", "ally", "asking", "bought", "bought_this_turn", "buys", "card_tokens", "chain", "coins",
        "cost_reduction", "current",
        "extra_choices", "extra_turn", "extra_turns", "gain_log", "gained_this_turn", "game_over",
        "hand_play_limit", "hand_plays", "kept_in_hand", "library", "listeners", "log", "loops_stopped",
        "phase",
        "pile_of", "piles", "played_this_turn", "players", "rng", "seed", "setup_choices",
        "setup_piles", "shuffles", "skips", "steps_left", "trash", "turn_number", "turns_in_a_row",
    )

    def __init__(self, library: Library, agents: list[Any], seed: int | None = None) -> None:
        if not 2 <= len(agents) <= 6:
            raise IllegalMove("a game has 2 to 6 players")
        if sys.getrecursionlimit() < RECURSION_LIMIT:  # room for a chain of CHAIN_LIMIT links
            sys.setrecursionlimit(RECURSION_LIMIT)
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
        self.chain = 0  # plays and abilities resolving inside one another (CHAIN_LIMIT)
        self.loops_stopped = 0  # chains stopped at CHAIN_LIMIT (Kingdom's loop rule)
        self.asking: str | None = None  # the game-wide ability (an Ally's) resolving now, whose
        #                                  questions it asks (a person is told who asks)
        self.cost_reduction = 0
        self.played_this_turn: list[Card] = []
        self.gained_this_turn: list[Card] = []
        self.listeners: dict[str, list[Listener]] = {}
        self.bought = False  # Treasures can't be played once buying has begun
        # this turn's buys (who, what), kept only when a card of the game counts them
        self.bought_this_turn: list[tuple[Player, Card]] | None = None
        self.game_over = False
        self.log: list[str] | None = None
        self._next_uid = 0
        # What the agents with `choose_buy` get as options, made by take_turn and dropped when
        # the game ends: no reference cycle is left, so a finished game is freed at once.
        self._affordable: Affordable | None = None
        self._discard_from_play = False  # a card of this game has a when-discarded-from-play ability
        self._overpay = False  # a pile of this game holds a card with an Overpay ability
        self._buy_limits = False  # a pile of this game holds a card with a rule on buying it
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
        if definition.records:
            self.keep_history((definition,))
        return Card(definition, self._next_uid)

    def new_cards(self, defs: list[CardDef]) -> list[Card]:
        """New cards, one per definition in order (as `new_card` for each)."""
        cards, distinct, when_discarded = numbered_cards(self._next_uid, defs, False)
        self._next_uid += len(defs)
        if when_discarded:
            self._discard_from_play = True
        self.keep_history(distinct)
        return list(cards)

    def keep_history(self, defs: tuple[CardDef, ...]) -> None:
        """Start keeping the turn history these cards read ("cards you've bought this turn")."""
        for d in defs:
            if "buy" in d.records and self.bought_this_turn is None:
                self.bought_this_turn = []

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
            if d.buy_limit is not None:
                self._buy_limits = True
        if not cards:  # set up empty, it is still that card's pile (a card can return to it)
            pile_of.setdefault(name, pile)
        self.keep_history(distinct)
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
