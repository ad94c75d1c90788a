"""The one decision interface shared by bots, scripted scenario answers and people.

A `Decision` says what is asked, of whom, the legal options and how many may be picked. `ask`
resolves it without asking when there is only one legal outcome (identical cards count as one),
otherwise hands it to the player's agent and checks the answer. An agent is any object with a
`decide(decision)` method; a step-wise `Session` (runtime/stepwise.py) lets a UI or an AI
service answer one pending decision at a time as plain data (`plain_options`, `accept`),
without slowing this direct path.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player

# Kinds of decision, with the shape of their answer:
CARDS = "cards"  # pick min..max cards from `options` (Card objects)    -> list[Card]
ORDER = "order"  # order all `options` (cards put back), top first      -> list[Card]
OPTION = "option"  # pick one text option (an ability of "choose one")  -> str
YES_NO = "yes_no"  # "you may ..."                                      -> bool
PILE = "pile"  # pick a pile (gain a card costing up to ...)          -> str | None
NAME = "name"  # name a card                                          -> str
NUMBER = "number"  # pick a number in options                           -> int
PLAY = "play"  # turn: play an Action from hand, or None to stop      -> Card | None
TREASURES = "treasures"  # turn: which Treasures to play              -> list[Card]
BUY = "buy"  # turn: buy a pile, or None to stop                     -> str | None
CARD_KINDS = (CARDS, ORDER, TREASURES, PLAY)  # kinds whose options are Card objects

# What a NUMBER decision of the turn itself is about (`Decision.topic`; None for a card's own):
# "spend_<key>" for a token kind the turn offers (runtime/tokens: TokenKind.topic, BY_TOPIC):
#   how many to spend now, 0 up to all ("spend_coffers" before each buy, "spend_villagers" when
#   out of Actions with an Action card to play), and
OVERPAY = "overpay"  # buying `card`, which has an Overpay ability, with coins left over:
#   how much to overpay (0 up to the coins left)
# ... an OPTION decision of the rules themselves:
ORDER_EFFECTS = "order_effects"  # effects waiting at once (the start of a turn): the name of the
#   card or Ally whose effect resolves next; asked while differently named ones wait
# ... and a CARDS decision of the rules themselves:
GAIN = "gain"  # which of some particular cards to gain ("gain any number of the trashed cards")
REACT = "react"  # an Attack or another event's card (`card`): which Reaction in hand to use,
#   if any; a Reaction whose effect does something each time is offered again after it is revealed

# What a card's own decision is about, set by the construct that asks (never read from `prompt`):
# `topic` the verb the picked cards go to, or the kind of offer;
DISCARD = "discard"  # CARDS: discard them (Cellar, Mill, Militia's victims)
TRASH = "trash"  # CARDS: trash them (Chapel, Remodel, Moneylender)
TOPDECK = "topdeck"  # CARDS/ORDER: put them onto (or into) the deck (Harbinger, Artisan)
TAKE = "take"  # CARDS: put them into the hand (Sentry's look, Artisan's gain is GAIN)
SET_ASIDE = "set_aside"  # CARDS: set them aside (Joust's Province, Library's skipped Action)
RETURN = "return"  # CARDS: return them to their pile
REVEAL = "reveal"  # CARDS: reveal them (Bureaucrat's victim, Courtier)
PLAY_CARD = "play_card"  # CARDS: play them (Throne Room); YES_NO: play it (Vassal)
PASS = "pass"  # CARDS: pass them to another player (Masquerade)
KEEP = "keep"  # CARDS: keep them (in hand for next turn, or on the deck)
CHOOSE = "choose"  # OPTION: one of a card's printed options; `gives` says what each gives;
#   `reward` the one bound card its options act on ("discard it | put it back"), if any
MAY = "may"  # YES_NO: "you may <do something>" with no pick (`gives[0]`, leading to `reward`);
#   one about a step with a topic of its own has that topic (PLAY_CARD, DISCARD, ...)
PAY = "pay"  # YES_NO: pay `gives[0]` (a Favor, ...) instead of suffering `reward` ("unless")
SKIP = "skip"  # YES_NO: skip (set aside) a card being drawn (Library); `reward` is that Card
NAME_CARD = "name_card"  # NAME: name a card (Wishing Well-like guesses)
CARD_TOPICS = (DISCARD, TRASH, TOPDECK, TAKE, SET_ASIDE, RETURN, REVEAL, PLAY_CARD, PASS, KEEP,
               CHOOSE, MAY, PAY, SKIP, NAME_CARD, GAIN, REACT, ORDER_EFFECTS)  # (strategy files)
# `purpose` why it is asked of this player:
BENEFIT = "benefit"  # their own card offers it ("you may", "any number", "up to")
COST = "cost"  # their own card offers it to pay for `reward` ("you may X for/to Y", "if you do")
LIMIT = "limit"  # their own card makes them discard down to a number of cards
ATTACK = "attack"  # another player's card makes them do it (Militia, Bureaucrat)
FORCED = "forced"  # their own card makes them pick (Remodel's trash, Artisan's topdeck)
OPPONENT = "opponent"  # they pick for another player, among that player's cards (Advisor)
# `reward` the compiled-tree node of what the decision leads to (what follows "for", "to", "if
# you do", or the next step, as "+1 Card per card discarded"), None when nothing does;
# `source` the zone the options come from ("hand", "discard", "deck", "revealed", "supply", ...);
# `gives` for an OPTION decision, the tree node of each option (in the order of `options`);
#   for a YES_NO one, (what answering yes does,).


class IllegalAnswer(Exception):
    """An answer that is not one of the decision's legal outcomes."""


class Agent(Protocol):
    def decide(self, decision: Decision) -> Any: ...


class Decision:
    """What is asked: `kind`, `prompt`, legal `options`, and `min`..`max` picks; `topic`,
    `purpose`, `reward`, `source` and `gives` say what it is about as data (see above), so an
    agent never reads the prompt; `topic` also tells the turn's own NUMBER decisions (a token
    kind's spend, OVERPAY) from those of cards."""

    __slots__ = ("card", "exact", "game", "gives", "kind", "max", "min", "options", "player",
                 "prompt", "purpose", "reward", "source", "topic")

    def __init__(
        self,
        kind: str,
        player: Player,
        prompt: str,
        options: list,
        min: int = 1,
        max: int = 1,
        card: Card | None = None,
        game: Game | None = None,
        exact: bool = False,
        topic: str | None = None,
        purpose: str | None = None,
        reward: Any = None,
        source: str | None = None,
        gives: tuple | None = None,
    ) -> None:
        self.kind = kind
        self.player = player
        self.prompt = prompt
        self.options = options
        self.min = min
        self.max = max
        self.card = card
        self.game = game
        self.exact = exact  # CARDS: none or all `max` ("you may discard 2 cards"), nothing between
        self.topic = topic
        self.purpose = purpose
        self.reward = reward
        self.source = source
        self.gives = gives

    @property
    def optional(self) -> bool:
        return self.min == 0

    def forced(self) -> tuple[bool, Any]:
        """(True, outcome) when only one outcome is legal, so nobody needs to be asked."""
        kind, options = self.kind, self.options
        if kind == CARDS:
            if self.max == 0 or not options:
                return True, []
            if self.min >= len(options):
                return True, list(options)
            if self.min == self.max and len({c.d for c in options}) == 1:
                return True, list(options[: self.min])
            return False, None
        if kind == ORDER:
            if len({c.d for c in options}) <= 1:
                return True, list(options)
            return False, None
        if kind in (OPTION, PILE, NAME, NUMBER):
            if not options:
                return True, None
            if len(options) == 1 and self.min >= 1:
                return True, options[0]
            return False, None
        return False, None

    def check(self, answer: Any) -> Any:
        """Return the answer if legal, else raise IllegalAnswer saying what was expected."""
        kind = self.kind
        if kind in (CARDS, ORDER, TREASURES):
            if not isinstance(answer, list) or not {id(c) for c in answer} <= {
                id(o) for o in self.options
            }:
                raise IllegalAnswer(f"{self.prompt}: choose from {self.describe_options()}")
            if len({id(c) for c in answer}) != len(answer):
                raise IllegalAnswer(f"{self.prompt}: a card was picked twice")
            if kind == ORDER and len(answer) != len(self.options):
                raise IllegalAnswer(f"{self.prompt}: order all of {self.describe_options()}")
            if kind == CARDS and not (self.min <= len(answer) <= self.max and (
                    not self.exact or len(answer) in (0, self.max))):
                raise IllegalAnswer(
                    f"{self.prompt}: pick {self.describe_count()}, not {len(answer)}"
                )
            return answer
        if kind == YES_NO:
            if not isinstance(answer, bool):
                raise IllegalAnswer(f"{self.prompt}: answer yes or no")
            return answer
        if answer is None:
            if self.min == 0 or kind in (PLAY, BUY):
                return None
            raise IllegalAnswer(f"{self.prompt}: an answer is required")
        if kind == PLAY:
            for option in self.options:  # (a loop, not any(): no generator on the turn's path)
                if answer is option:
                    return answer
        elif kind == BUY:
            if answer in self.options:
                return answer
        elif answer in self.options:
            return answer
        raise IllegalAnswer(f"{self.prompt}: {answer!r} is not one of {self.describe_options()}")

    def cards_named(self, names: Iterable[Any]) -> list[Card]:
        """The option cards `names` names, in that order (each by its name or a former name, each
        card once: identical cards are interchangeable); IllegalAnswer for a name that matches
        no option card left."""
        pool = list(self.options)
        picked = []
        for name in names:
            match = next((c for c in pool if c.d.name == name or name in c.d.former_names), None)
            if match is None:
                if any(c.d.name == name for c in picked):
                    raise IllegalAnswer(f"{self.prompt}: {name!r} named more often than there "
                                        f"are in {self.describe_options()}")
                raise IllegalAnswer(f"{self.prompt}: {name!r} is not one of "
                                    f"{self.describe_options()}")
            pool.remove(match)
            picked.append(match)
        return picked

    def plain_options(self) -> tuple:
        """The options as plain data: cards by name, other options as they are."""
        if self.kind in CARD_KINDS:
            return tuple(c.d.name for c in self.options)
        return tuple(self.options)

    def accept(self, answer: Any) -> Any:
        """The legal outcome a plain-data answer stands for (cards named as `plain_options`
        names them: a list of names, or one name or None for PLAY); IllegalAnswer, saying what
        would be accepted, for anything else."""
        kind = self.kind
        if kind == PLAY:
            if answer is None:
                return None
            if not isinstance(answer, str):
                raise IllegalAnswer(f"{self.prompt}: answer a card's name from "
                                    f"{self.describe_options()}, or None to stop")
            return self.check(self.cards_named([answer])[0])
        if kind in CARD_KINDS:
            if not isinstance(answer, (list, tuple)) or not all(isinstance(n, str) for n in answer):
                how = "all, top first" if kind == ORDER else f"pick {self.describe_count()}"
                raise IllegalAnswer(f"{self.prompt}: answer a list of card names from "
                                    f"{self.describe_options()} ({how})")
            return self.check(self.cards_named(answer))
        if answer is None or kind == YES_NO:
            return self.check(answer)
        # a number (an int, not a bool, 1.0 or 1+0j) or a text option, taken by exact type and
        # value: the outcome is the option itself, never the caller's object (whose `==` may lie)
        wanted = int if kind == NUMBER else str
        if type(answer) is wanted:
            for option in self.options:
                if type(option) is wanted and option == answer:
                    return self.check(option)
        what = "a number" if kind == NUMBER else "text"
        raise IllegalAnswer(f"{self.prompt}: {answer!r} is not one of {self.describe_options()} "
                            f"(answer {what}, as the options are written)")

    def describe_count(self) -> str:
        if self.exact:
            return f"0 or {self.max}"
        if self.min == self.max:
            return str(self.min)
        return f"{self.min} to {self.max}"

    def describe_options(self) -> str:
        names = [getattr(o, "name", o) for o in self.options]
        return ", ".join(str(n) for n in names) or "(nothing)"

    def __repr__(self) -> str:
        return f"<Decision {self.kind} {self.prompt!r} {self.describe_options()}>"


def ask(decision: Decision) -> Any:
    """Resolve a decision: forced outcomes need no agent; others are asked and checked."""
    is_forced, outcome = decision.forced()
    if is_forced:
        return outcome
    return decision.check(decision.player.agent.decide(decision))
