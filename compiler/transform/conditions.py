"""Conditions of 'if' heads and 'unless': comparisons, 'you did', 'it is a ...'."""

from __future__ import annotations

from kingdom.compiler.selections.amounts import Countable
from kingdom.compiler.selections.conditions import Condition
from kingdom.compiler.selections.filters import Filter, Noun
from kingdom.compiler.selections.zones import Ref
from kingdom.compiler.transform.common import _int
from lark import Transformer, v_args


@v_args(meta=True)
class ConditionRules(Transformer):
    """ToNodes' methods for conditions; Lark calls each by its rule's name or alias."""

    def _cond(self, kind, meta, c):
        return Condition(kind, *[x for x in c if not (isinstance(x, str) and x == "a")]).at(meta)

    def all_of(self, meta, c):
        """True when both conditions are."""
        return self._cond("all_of", meta, c)

    def compare(self, meta, c):
        """Compares two numbers: >=, <=, ==, !=, > or <."""
        return self._cond("compare", meta, c)

    def at_least(self, meta, c):
        """True when the count is that number or more."""
        return self._cond("at_least", meta, c)

    def at_least_words(self, meta, c):
        """"at least 5 cards in hand": "5 or more", printed as written."""
        condition = self._cond("at_least", meta, c)
        condition.at_least_words = True
        return condition

    def there_are(self, meta, c):
        """"there are 2 or more empty Supply piles": "2 or more", printed as written."""
        condition = self._cond("at_least", meta, c)
        condition.there_are = True
        return condition

    def played_at_least(self, meta, c):
        """True when you have played that many such cards this turn (each play counts)."""
        adjectives = [x for x in c if isinstance(x, tuple)]
        noun = next(x for x in c if isinstance(x, Noun))
        played = Countable("cards", Filter(adjectives, noun, []), "played_this_turn").at(meta)
        return Condition("played_at_least", c[0], played, "counting" in c).at(meta)

    def counting_this(self, meta, c):
        return "counting"

    def at_most(self, meta, c):
        """True when the count is that number or fewer."""
        return self._cond("at_most", meta, c)

    def none_of(self, meta, c):
        """True when the count is 0."""
        return self._cond("none_of", meta, c)

    def no_empty_piles(self, meta, c):
        """True while no Supply pile is empty."""
        return self._cond("no_empty_piles", meta, c)

    def is_a(self, meta, c):
        """True when the card referred to fits the description."""
        return self._cond("is_a", meta, c)

    def its_a(self, meta, c):
        """"it's an Action card", as printed: "it is an Action card"."""
        return self._cond("is_a", meta, [Ref("it"), *c])

    def did(self, meta, c):
        """True when the step before did all it said (gained, trashed, spent, ...)."""
        return self._cond("did", meta, c)

    def did_not(self, meta, c):
        """True when the step before did not do all it said (or was declined)."""
        return self._cond("did_not", meta, c)

    def did_present(self, meta, c):
        """The same test as "if you did", printed "if you do"."""
        return Condition("did", "do").at(meta)

    def did_not_present(self, meta, c):
        """The same test as "if you didn't", printed "if you don't"."""
        return Condition("did_not", "do").at(meta)

    def is_named(self, meta, c):
        """True when the card referred to is the card named by "name a card"."""
        return Condition("is_named", c[0]).at(meta)

    def its_named(self, meta, c):
        """True when the card just revealed is the card named by "name a card"."""
        condition = Condition("is_named", Ref("it")).at(meta)
        condition.text = "it's the named card"
        return condition

    def its_your(self, meta, c):
        """True on your turn ("it's your turn"), or in that phase of it ("it's your Buy phase")."""
        return Condition("its_your", c[0]).at(meta)

    def is_not_named(self, meta, c):
        """True when the card referred to is not the card named by "name a card"."""
        return Condition("is_not_named", c[0]).at(meta)

    def costs_at_least(self, meta, c):
        """True when the card referred to costs that much or more."""
        return Condition("costs_at_least", c[0], c[1]).at(meta)

    def costs_at_most(self, meta, c):
        """True when the card referred to costs that much or less."""
        return Condition("costs_at_most", c[0], c[1]).at(meta)

    def copy_in_play(self, meta, c):
        """True when a card of yours in play has the name of the card referred to."""
        return Condition("copy_in_play", c[0]).at(meta)

    def made_shuffle(self, meta, c):
        """True when the step before made you shuffle your discard pile into your deck."""
        return Condition("made_shuffle").at(meta)

    def moved_at_least(self, meta, c):
        """True when the step before moved (discarded, trashed, ...) at least that many cards."""
        word = " ".join(str(t) for t in c[0].children)
        return Condition("moved_at_least", word, _int(c[1])).at(meta)

    # turn history
    def done_verb(self, meta, c):
        """"played", "gained", "bought": what was done this turn (its verb: "gain")."""
        return {"played": "play", "gained": "gain", "bought": "buy"}[str(c[0])]

    def do_verb(self, meta, c):
        return str(c[0])

    @staticmethod
    def _turn_cards(meta, c) -> Countable:
        """The turn's cards that fit the filter, of the verb among `c`."""
        verb = next(x for x in c if isinstance(x, str) and x in ("play", "gain", "buy"))
        filter_ = next(x for x in c if isinstance(x, Filter))
        return Countable("cards", filter_, f"you_{verb}").at(meta)

    def done_any_this_turn(self, meta, c):
        """True when you played, gained or bought such a card earlier this turn (or now)."""
        return Condition("done_this_turn", self._turn_cards(meta, c)).at(meta)

    def not_done_this_turn(self, meta, c):
        """True when you played, gained or bought no such card this turn."""
        return Condition("not_done_this_turn", self._turn_cards(meta, c)).at(meta)

    def not_gained_this_phase(self, meta, c):
        """True when you gained no such card in the phase the trigger names ("in it")."""
        filter_ = next(x for x in c if isinstance(x, Filter))
        counted = Countable("cards", filter_, "gained_this_phase").at(meta)
        return Condition("not_done_this_turn", counted).at(meta)

    def nth_time_this_turn(self, meta, c):
        """True when the card referred to fits and is the Nth such card played, gained or
        bought this turn ("this is the first time you played a Village this turn")."""
        nth = next(x for x in c if isinstance(x, int))
        return Condition("nth_time", c[0], nth, self._turn_cards(meta, c)).at(meta)

    def all_different(self, meta, c):
        """True when no two of the revealed cards share a name."""
        return Condition("all_different").at(meta)

    def your_card_costs_more(self, meta, c):
        """Compares the card you revealed last with the one each other player in the effect
        revealed ("the player to your left: reveal the top card of your deck"): true when yours
        costs more than each of theirs; a player who revealed nothing (an empty deck) has a card
        that any card costs more than; with nothing revealed by you it is false."""
        return Condition("your_card_costs", "more").at(meta)

    def your_card_costs_less(self, meta, c):
        """As "your card costs more", the other way: true when yours costs less than each of
        theirs (false when they revealed nothing)."""
        return Condition("your_card_costs", "less").at(meta)

    def no_duplicates_in_hand(self, meta, c):
        """True when no two cards in your hand share a name (an empty hand has none)."""
        return Condition("no_duplicates_in_hand").at(meta)

    def revealed_any(self, meta, c):
        """True when a revealed card fits the description; binds those cards as "them"."""
        return Condition("revealed_any", c[0]).at(meta)
