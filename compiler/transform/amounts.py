"""Numbers, money ('+$2', '$1 per ...') and what can be counted ('Action cards in play')."""

from __future__ import annotations

from kingdom.compiler.selections.amounts import Amount, Countable, Money
from kingdom.compiler.selections.filters import Filter, Noun
from kingdom.compiler.transform.common import _int, _token_word
from lark import Transformer, v_args


@v_args(meta=True)
class AmountRules(Transformer):
    """ToNodes' methods for amounts; Lark calls each by its rule's name or alias."""

    def number(self, meta, c):
        return Amount("number", int(c[0])).at(meta)

    def number_word(self, meta, c):
        amount = Amount("number", _int(c[0])).at(meta)
        amount.word = True
        return amount

    def count(self, meta, c):
        return Amount("count", c[0]).at(meta)

    def cost_of(self, meta, c):
        return Amount("cost_of", c[0]).at(meta)

    def cost_in_coins(self, meta, c):
        """"the cost in $ of the trashed card": its cost now, as a number (a card that left
        counts as last known; none: 0)."""
        amount = Amount("cost_of", c[0]).at(meta)
        amount.in_coins = True
        return amount

    def types_of(self, meta, c):
        return Amount("types_of", c[0]).at(meta)

    def add(self, meta, c):
        return Amount("add", c[0], c[1]).at(meta)

    def sub(self, meta, c):
        return Amount("sub", c[0], c[1]).at(meta)

    def money(self, meta, c):
        return Money("money", _int(c[0])).at(meta)

    def money_more(self, meta, c):
        return Money("money_more", _int(c[0]), c[1]).at(meta)

    def money_less(self, meta, c):
        return Money("money_less", _int(c[0]), c[1]).at(meta)

    def money_per(self, meta, c):
        return Money("money_per", _int(c[0]), c[1]).at(meta)

    def money_of(self, meta, c):
        return Money("money_of", 0, c[0]).at(meta)

    def money_total(self, meta, c):
        """The sum of the costs of all the cards referred to ("the total cost of the trashed cards")."""
        return Money("money_total", 0, c[0]).at(meta)

    def countable(self, meta, c):
        adjectives = [x for x in c if isinstance(x, tuple)]
        noun = next(x for x in c if isinstance(x, Noun))
        return Countable("cards", Filter(adjectives, noun, []), c[-1]).at(meta)

    def empty_piles(self, meta, c):
        return Countable("empty_piles").at(meta)

    def tokens_spent(self, meta, c):
        return Countable("spend", word=_token_word(c[0])).at(meta)

    def tokens_bare(self, meta, c):
        return Countable("tokens", place="bare", word=_token_word(c[0])).at(meta)

    def tokens_held(self, meta, c):
        return Countable("tokens", word=_token_word(c[0])).at(meta)

    def coins_in_cost(self, meta, c):
        """Each $N of what the card referred to costs ("+1 VP per $2 it costs": rounded down)."""
        return Countable("coins_in_cost", word=str(c[0])).at(meta)

    def coins_overpaid(self, meta, c):
        return Countable("coins_overpaid").at(meta)

    def in_hand(self, meta, c):
        """The cards in your hand."""
        return "in_hand"

    def in_hand_short(self, meta, c):
        """The cards in your hand, written "in hand"."""
        return "in_hand_short"

    def in_play(self, meta, c):
        """The cards you have in play."""
        return "in_play"

    def owned(self, meta, c):
        """Every card you have, wherever it is (deck, hand, discard pile, in play, set aside)."""
        return "owned"

    def played_this_turn(self, meta, c):
        """The cards you played this turn, counting each play."""
        return "played_this_turn"

    def in_revealed(self, meta, c):
        """The cards just revealed."""
        return "in_revealed"

    def in_discarded(self, meta, c):
        """The cards the step before discarded."""
        return "in_discarded"

    def in_bound(self, meta, c):
        """The cards bound as "it" (revealed, set aside, gained just before)."""
        return "in_bound"

    def done_this_turn(self, meta, c):
        """The cards you played, gained or bought this turn (the whole turn, each play counts)."""
        return f"you_{c[0]}"

    def one_copy_in_play(self, meta, c):
        """The cards you have in play whose name no other card you have in play shares."""
        return "one_copy_in_play"

    def in_trash(self, meta, c):
        """The cards in the trash."""
        return "in_trash"

    def money_more_per(self, meta, c):
        money = Money("money_more_per", _int(c[0]), c[1]).at(meta)
        money.per = c[2]
        return money

    def gained_this_phase(self, meta, c):
        """The cards you gained in the phase just named ("at the end of your Buy phase")."""
        return "gained_this_phase"

    def in_play_counting(self, meta, c):
        """The cards you have in play, this card included, as printed."""
        return "in_play_counting"

    # computed worths and cost changes
    def in_play_counting_it(self, meta, c):
        """The cards you have in play, the Treasure being played included, as printed."""
        return "in_play_counting_it"

    def in_deck_and_discard(self, meta, c):
        """The cards in your deck and your discard pile together."""
        return "in_deck_and_discard"
