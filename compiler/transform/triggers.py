"""Triggers of abilities below the line: 'when you gain this', 'at the start of your turn'."""

from __future__ import annotations

from kingdom.compiler.selections.conditions import ORDINALS
from kingdom.compiler.selections.filters import Filter
from kingdom.compiler.structure.ability import Ability
from kingdom.compiler.structure.block import Block
from kingdom.compiler.structure.when import When
from kingdom.compiler.transform.common import _joined
from lark import Token, Transformer, v_args

REACT_VERBS = ("reveal", "trash", "discard", "play")


def _subject(when: When) -> str:
    """Who does the event: "you", or "another player" (their gains, buys and trashes)."""
    return "another player" if when.who == "other" else "you"


def _done_by(when: When, subject: str) -> When:
    """The event's text with who does it: "when you gain a card"."""
    when.text = f"when {subject} {when.text}"
    return when


@v_args(meta=True)
class TriggerRules(Transformer):
    """ToNodes' methods for triggers; Lark calls each by its rule's name or alias."""

    def when_you(self, meta, c):
        """Fires when you do the event."""
        return _done_by(c[0], "you")

    def nth_time(self, meta, c):
        """Fires once: the first (second, third) time this turn you do the event, counting the
        whole turn (a play or gain before the effect began counts too)."""
        nth, when = c
        when.text = f"the {ORDINALS[nth]} time you {when.text}"
        when.once = True
        when.nth = nth
        return when

    def ordinal(self, meta, c):
        return next(n for n, word in ORDINALS.items() if word == str(c[0]))

    def while_in_play_nth(self, meta, c):
        """While this card is in play, the Nth time this turn you do the event (counting the
        whole turn, before this was played too)."""
        nth, when = c
        when.scope = "in_play"
        when.nth = nth
        when.text = f"while this is in play, the {ORDINALS[nth]} time you {when.text} this turn"
        return when

    def react_trigger(self, meta, c):
        """A Reaction in hand: when the event happens, you may reveal (it stays in your hand),
        trash, discard or play this card from your hand, to do the block ("first": before the
        Attack does anything)."""
        when = c[0]
        min_hand = next((x for x in c if isinstance(x, int)), 0)
        where = f"a hand of {min_hand} or more cards" if min_hand else "your hand"
        first = "first " if "first" in c[1:] else ""
        when.react = next(x for x in c[1:] if x in REACT_VERBS)
        when.min_hand, when.first = min_hand, bool(first)
        when.text = f"{when.text}, you may {first}{when.react} this from {where}"
        return when

    def bare_reaction(self, meta, c):
        """A Reaction whose whole effect is what it does with this card ("you may play this
        from your hand"): an ability with an empty block."""
        return Ability(c[0], Block([])).at(meta)

    def reaction_to(self, meta, c):
        """A Reaction and what it is for, written as printed: "..., to trash it"; the same
        ability as "...: trash it"."""
        ability = Ability(c[0], Block([_joined(c[1:])])).at(meta)
        ability.to_step = ", to"  # unparsed as written: "...: X" would take the next statements
        return ability

    def reaction_to_no_comma(self, meta, c):
        """"... from your hand to gain a Gold", printed without the comma as written;
        the same ability as "..., to gain a Gold"."""
        ability = self.reaction_to(meta, c)
        ability.no_comma = True
        ability.to_step = " to"
        return ability

    def react_verb(self, meta, c):
        """What the Reaction does with this card from your hand."""
        return str(c[0])

    def ev_attacked(self, meta, c):
        """Another player plays an Attack (or a card of that type)."""
        name = next(t for t in c if isinstance(t, Token) and t.type == "NAME")
        when = When("attack", text=f"when another player plays an {name} card", who="other")
        when.attack_type = str(name)
        return when

    def ev_by_you(self, meta, c):
        """You do the event (gain, trash, buy, play a card)."""
        return _done_by(c[0], "you")

    def ev_by_another(self, meta, c):
        """A player other than the one holding this does the event."""
        return _done_by(c[0], "another player")

    def ev_yours_trashed(self, meta, c):
        """One of your cards is trashed (by you, or by another player's Attack)."""
        return When("trash", text="when one of your cards is trashed")

    def ev_gains(self, meta, c):
        """Another player gains a card that fits the description; "it" is that card."""
        return self._event("gain", "gains", c, who="other")

    def ev_buys(self, meta, c):
        """Another player buys a card that fits the description; "it" is that card."""
        return self._event("buy", "buys", c, who="other")

    def ev_trashes(self, meta, c):
        """Another player trashes a card that fits the description; "it" is that card."""
        return self._event("trash", "trashes", c, who="other")

    def from_hand(self, meta, c):
        """The Reaction is revealed from your hand."""
        return 0

    def first_word(self, meta, c):
        return "first"

    def from_big_hand(self, meta, c):
        """The Reaction is revealed from a hand holding at least that many cards."""
        return int(c[0])

    def game_wide(self, meta, c):
        """Fires in every game that uses this card, for every player, whether they own it or not
        ("another player": for each player but the one doing it)."""
        when = c[0]
        when.scope = "game"
        when.text = f"in games using this, when {_subject(when)} {when.text}"
        return when

    def while_in_play(self, meta, c):
        """Works only while this card is in its owner's play area, for that owner's events
        ("another player": the other players' events); an item of `play:` (printed above the
        line) or of `triggers:`, never done on play."""
        when = c[0]
        when.scope = "in_play"
        when.text = f"while this is in play, when {_subject(when)} {when.text}"
        return when

    def while_in_play_at_start(self, meta, c):
        """At the start of your turn (or of that phase), while this card is in your play area
        (a Duration waiting, a card that stays in play): once for each copy there."""
        when = self.at_start(meta, c)
        when.scope = "in_play"
        when.text = f"while this is in play, {when.text}"
        return when

    def at_start(self, meta, c):
        """Fires at the start of your turn or of that phase."""
        part = c[0]
        event = "start_turn" if part == "turn" else "start_buy"
        return When(event, text=f"at the start of your {part.replace('_', ' ')}")

    def at_end(self, meta, c):
        """Fires at the end of your turn or of that phase."""
        if c and c[0] == "Buy phase":
            return When("end_buy", text="at the end of your Buy phase")
        return When("end_turn", text="at the end of your turn")

    def turn(self, meta, c):
        """Your whole turn."""
        return "turn"

    def buy_phase(self, meta, c):
        """Your Buy phase."""
        return "Buy phase"

    def action_phase(self, meta, c):
        """Your Action phase."""
        return "Action phase"

    def after_playing(self, meta, c):
        """Fires after a card you play that fits the description has been resolved."""
        f = c[-1]
        return When("after_play", f, text=f"after playing {f.render_with_article()}")

    def when_shuffling(self, meta, c):
        """Fires when you shuffle your discard pile to form a new deck; "them" are the cards shuffled."""
        return When("shuffle", text="when shuffling")

    def when_scoring(self, meta, c):
        """Fires when the game is scored, at its end."""
        return When("score", text="when scoring")

    def when_cleanup(self, meta, c):
        """Fires in Clean-up as you discard your hand."""
        return When("cleanup", text="when discarding your hand in Clean-up")

    def ev_gain_this(self, meta, c):
        """You gain this card (bought or otherwise)."""
        return When("gain_this", text="gain this")

    def ev_buy_this(self, meta, c):
        """You buy this card: before gaining it, and not when it is gained otherwise."""
        return When("buy_this", text="buy this")

    def ev_trash_this(self, meta, c):
        """You trash this card."""
        return When("trash_this", text="trash this")

    def ev_gain_or_trash_this(self, meta, c):
        """You gain or trash this card."""
        return When("gain_or_trash_this", text="gain or trash this")

    def ev_discard_from_play(self, meta, c):
        """This card leaves play for your discard pile (normally in Clean-up)."""
        return When("discard_from_play", text="discard this from play")

    def ev_discard_this(self, meta, c):
        """This card is discarded (from your hand, deck or revealed cards) other than in Clean-up."""
        return When("discard_this", text="discard this other than during Clean-up")

    def _event(self, event, verb, c, who="you"):
        filter_ = next(x for x in c if isinstance(x, Filter))
        phase = next((x for x in c if isinstance(x, str) and x in ("action", "your_turn")), "")
        text = f"{verb} {filter_.render_with_article()}"
        if phase == "action":
            text += " in an Action phase"
        elif phase == "your_turn":
            text += " during your turn"
        return When(event, filter_, phase=phase, text=text, who=who)

    def ev_gain(self, meta, c):
        """You gain a card that fits the description; "it" is that card."""
        return self._event("gain", "gain", c)

    def ev_trash(self, meta, c):
        """You trash a card that fits the description; "it" is that card."""
        return self._event("trash", "trash", c)

    def ev_play(self, meta, c):
        """You play a card that fits the description; "it" is that card."""
        return self._event("play", "play", c)

    def ev_buy(self, meta, c):
        """You buy a card that fits the description (before gaining it); "it" is that card."""
        return self._event("buy", "buy", c)

    def in_action_phase(self, meta, c):
        """Only gains that happen during an Action phase."""
        return "action"

    def during_your_turn(self, meta, c):
        """Only gains that happen during your own turn."""
        return "your_turn"

    def first_each_other(self, meta, c):
        """Fires for the first matching card each other player plays in each of their turns."""
        filter_ = c[0]
        when = When("play", filter_, scope="others",
                    text=f"the first {filter_.render()} each other player plays each turn")
        when.first_each_turn = True
        return when
