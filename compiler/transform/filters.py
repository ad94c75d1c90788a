"""Card descriptions: the noun ('Treasure card') and its qualifiers ('costing up to $4')."""

from __future__ import annotations

from kingdom.compiler.selections.filters import Filter, Noun, Qualifier
from kingdom.compiler.transform.common import _int
from lark import Transformer, v_args


@v_args(meta=True)
class FilterRules(Transformer):
    """ToNodes' methods for filters; Lark calls each by its rule's name or alias."""

    def article(self, meta, c):
        return "a"

    def gain_count(self, meta, c):
        return 1 if c[0] == "a" else _int(c[0])

    def gain_to(self, meta, c):
        return "deck" if "deck" in [str(t) for t in c] else "hand"

    def filter(self, meta, c):
        adjectives = [x for x in c if isinstance(x, tuple)]
        noun = next(x for x in c if isinstance(x, Noun))
        qualifiers = [x for x in c if isinstance(x, Qualifier)]
        return Filter(adjectives, noun, qualifiers).at(meta)

    def not_type(self, meta, c):
        """Cards that do not have that type: "non- Victory"."""
        return ("not", str(c[0]).removeprefix("non-"))

    def not_type_word(self, meta, c):
        """Cards that do not have that type: "non-Victory"."""
        return ("not", str(c[0]).removeprefix("non-"))

    def distinct(self, meta, c):
        """Counts each card name once."""
        return ("distinct",)

    def revealed_adj(self, meta, c):
        """Only among the cards revealed."""
        return ("revealed",)

    def any_card(self, meta, c):
        return Noun("any").at(meta)

    def named(self, meta, c):
        return Noun("named", (c[0],), plural_form=len(c) > 1).at(meta)

    def either(self, meta, c):
        return Noun("named", (c[0], c[1]), plural_form=len(c) > 2).at(meta)

    def copy_of(self, meta, c):
        return Noun("copy", ref=c[0]).at(meta)

    def _qualifier(self, kind, meta, c):
        value = c[0] if c else None
        return Qualifier(kind, value).at(meta)

    def cost_up_to(self, meta, c):
        return self._qualifier("cost_up_to", meta, c)

    def cost_at_most(self, meta, c):
        """"costing at most $2 less than it": "up to", as written."""
        qualifier = self._qualifier("cost_up_to", meta, c)
        qualifier.at_most = True
        return qualifier

    def cost_or_less(self, meta, c):
        """"costing $3 or less": "up to", as written."""
        qualifier = self._qualifier("cost_up_to", meta, c)
        qualifier.or_less = True
        return qualifier

    def cost_exactly(self, meta, c):
        return self._qualifier("cost_exactly", meta, c)

    def cost_less(self, meta, c):
        return self._qualifier("cost_less", meta, c)

    def cost_at_least(self, meta, c):
        return self._qualifier("cost_at_least", meta, c)

    def cost_is(self, meta, c):
        return self._qualifier("cost_is", meta, c)

    def cheaper_than(self, meta, c):
        return self._qualifier("cheaper_than", meta, c)

    def other_than(self, meta, c):
        return self._qualifier("other_than", meta, c)

    def sharing_type(self, meta, c):
        return self._qualifier("sharing_type", meta, c)

    def leaving_play(self, meta, c):
        """Your cards in play that this turn's Clean-up will discard: picked from play."""
        return self._qualifier("leaving_play", meta, c)

    def yours_in_play(self, meta, c):
        """Your cards in play (a Duration staying too): picked from play."""
        return self._qualifier("yours_in_play", meta, c)

    def not_in_play(self, meta, c):
        return self._qualifier("not_in_play", meta, c)

    def not_named(self, meta, c):
        return self._qualifier("not_named", meta, c)

    def not_a(self, meta, c):
        """"that is not a Treasure": as "other than Treasure", printed as written."""
        return self._qualifier("not_a", meta, [c[-1]])

    def same_cost(self, meta, c):
        return self._qualifier("same_cost", meta, c)

    def same_name(self, meta, c):
        """A copy of the card bound as "it"; in "play any number of Action cards with the same
        name from your hand", the first card played names them: one is played at a time, and
        copies it (or the others) drew into your hand may be played too."""
        return self._qualifier("same_name", meta, c)

    def cheaper_adj(self, meta, c):
        """Costing less than the card referred to ("a cheaper card": cheaper than it)."""
        return ("cheaper",)

    def different_adj(self, meta, c):
        """Not a copy of the card referred to: another card name."""
        return ("different",)

    def other_than_ref(self, meta, c):
        return self._qualifier("other_than_ref", meta, c)

    def cost_either(self, meta, c):
        return Qualifier("cost_either", (c[0], c[1])).at(meta)

    def not_in_hand(self, meta, c):
        return self._qualifier("not_in_hand", meta, c)

    def cost_overpaid(self, meta, c):
        return Qualifier("cost_overpaid").at(meta)
