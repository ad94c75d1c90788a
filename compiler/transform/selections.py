"""Selections of cards: how many, from where, who picks ('up to 2 cards from your hand')."""

from __future__ import annotations

from kingdom.compiler.errors import PhraseError
from kingdom.compiler.selections.amounts import Amount
from kingdom.compiler.selections.filters import Filter, Noun, Qualifier
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.selections.zones import Ref
from kingdom.compiler.transform.common import _int, _plural
from lark import Transformer, v_args


class WordCount(tuple):
    """A count written as a word ("two Silvers"), which a gain prints as written."""

    def __new__(cls, quantity: tuple, word: str) -> WordCount:
        count = super().__new__(cls, quantity)
        count.word = word
        return count


@v_args(meta=True)
class SelectionRules(Transformer):
    """ToNodes' methods for selections; Lark calls each by its rule's name or alias."""

    def pick_ref(self, meta, c):
        return Selection("pick", c[0], None, "ref", ref=c[1]).at(meta)

    def pick_not_in_play(self, meta, c):
        """"an Action card from your hand that you don't have a copy of in play" (Shop)."""
        qualifier = Qualifier("not_in_play").at(meta)
        qualifier.after_source = True  # printed after "from your hand"
        c[1].qualifiers.append(qualifier)
        return self.pick(meta, c)

    def pick(self, meta, c):
        quantity, filter_ = c[0], c[1]
        source = next((x for x in c[2:] if isinstance(x, str) and x != "you"), None)
        chooser = "you" if "you" in c[2:] else "player"
        return Selection("pick", quantity, filter_, source, chooser).at(meta)

    def pick_per(self, meta, c):
        source = c[3] if len(c) > 3 else None
        selection = Selection("pick", ("per", 1), c[1], source, per=c[2]).at(meta)
        selection.per_quantity = c[0]  # "up to 2 cards per Favor you spend"
        return selection

    def any_number_of_them(self, meta, c):
        selection = Selection("pick", ("any", 0), Filter([], Noun("any"), []), "revealed")
        selection.bare = True  # "discard any number": of the cards just looked at
        return selection.at(meta)

    def ref_selection(self, meta, c):
        return Selection("ref", ref=c[0]).at(meta)

    def whole_hand(self, meta, c):
        return Selection("hand").at(meta)

    def whole_deck(self, meta, c):
        return Selection("deck").at(meta)

    def top_card(self, meta, c):
        return Selection("top", ("exact", 1)).at(meta)

    def top_of_deck(self, meta, c):
        return Selection("top", ("exact", int(c[0]))).at(meta)

    def top_equal_to(self, meta, c):
        """"a number of cards from the top of your deck equal to N": as many as N is then."""
        selection = Selection("top", ("exact", 0)).at(meta)
        selection.equal_to = c[-1]
        return selection

    def down_to(self, meta, c):
        return Selection("down_to", ("exact", int(c[0]))).at(meta)

    def until_revealed(self, meta, c):
        return Selection("until", until=(c[-2], c[-1])).at(meta)

    def q_one(self, meta, c):
        """One card."""
        return ("one", 1)

    def q_exact(self, meta, c):
        """Exactly that many cards (fewer if there are not enough)."""
        return ("exact", int(c[0]))

    def q_exact_word(self, meta, c):
        """Exactly that many cards, the number written as a word."""
        return WordCount(("exact", _int(c[0])), str(c[0]))

    def q_up_to(self, meta, c):
        """Any number of cards from none up to that many, as the player picks."""
        return ("up_to", int(c[0]))

    def q_any(self, meta, c):
        """Any number of cards, as the player picks, none included."""
        return ("any", 0)

    def q_that_many(self, meta, c):
        """As many cards as the step before counted (the Favors spent, ...)."""
        return ("that_many", 1)

    def q_all(self, meta, c):
        """Every card that fits the description."""
        return ("all", 0)

    def from_zone(self, meta, c):
        """From your hand, discard pile or deck."""
        return c[0]

    def from_trash(self, meta, c):
        """From the trash."""
        return "trash"

    def from_supply(self, meta, c):
        """From the Supply piles."""
        return "supply"

    def from_revealed(self, meta, c):
        """From the cards revealed or looked at that nothing has moved yet."""
        return "revealed"

    def from_it(self, meta, c):
        """From the cards just revealed, or the pile just looked through."""
        return "revealed_it"  # the revealed cards, or the pile just looked through

    def z_hand(self, meta, c):
        """Your hand."""
        return "hand"

    def z_discard(self, meta, c):
        """Your discard pile."""
        return "discard"

    def z_deck(self, meta, c):
        """Your deck (from the top)."""
        return "deck"

    def chooser(self, meta, c):
        return "you"

    def pick_bare(self, meta, c):
        """"put one into your hand": one of the bound cards ("it", "them")."""
        selection = Selection("pick", ("exact", _int(c[0])), None, "ref",
                              ref=_plural(Ref("it").at(meta), "them")).at(meta)
        selection.text = str(c[0])
        return selection

    def all_but_bare(self, meta, c):
        """"reveal all but one": of the cards in hand."""
        selection = Selection("pick", ("all_but", _int(c[0])), Filter([], Noun("any"), []),
                              "hand").at(meta)
        selection.text = f"all but {c[0]}"
        return selection

    def pick_ref_of(self, meta, c):
        quantity = ("one", 1) if c[0] == ("exact", 1) else c[0]
        chooser = "you" if len(c) > 2 else "player"
        return Selection("pick", quantity, None, "ref", chooser, ref=c[1]).at(meta)

    def pick_ref_of_you(self, meta, c):
        """"one of those you choose": you pick, as "that you choose"."""
        selection = self.pick_ref_of(meta, [c[0], c[1], "you"])
        selection.text = f"{selection.render().removesuffix(' that you choose')} you choose"
        return selection

    def q_all_but(self, meta, c):
        """Every card there but that many, which the player keeps back."""
        return ("all_but", _int(c[0]))

    def until_revealing(self, meta, c):
        """"cards from the top of your deck until revealing one costing $3 or more"."""
        amount = Amount("number", _int(c[1])).at(meta)
        selection = Selection("until", until=(amount, Filter([], Noun("any"), list(c[2:]))))
        selection.revealing = str(c[1])
        return selection.at(meta)

    def until_revealed_one(self, meta, c):
        amount = Amount("number", 1).at(meta)
        amount.article = True  # "until you reveal a card that ..."
        return Selection("until", until=(amount, c[-1])).at(meta)

    def one_of_each(self, meta, c):
        if c[0] != ("exact", 1):
            raise PhraseError("'of each' takes one: one card of each kind",
                              "write 'one of each differently named card'")
        return Selection("one_each", filter=c[1], source=c[2] if len(c) > 2 else None).at(meta)
