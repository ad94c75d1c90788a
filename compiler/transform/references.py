"""References to cards named earlier in the text: 'it', 'them', 'the other one', 'those'."""

from __future__ import annotations

from kingdom.compiler.selections.filters import Filter, Noun
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.selections.zones import Ref
from kingdom.compiler.transform.common import _plural
from lark import Transformer, v_args


@v_args(meta=True)
class ReferenceRules(Transformer):
    """ToNodes' methods for references; Lark calls each by its rule's name or alias."""

    def the_rest(self, meta, c):
        return Selection("rest").at(meta)

    def the_other(self, meta, c):
        """"the other cards": the rest, as written."""
        selection = Selection("rest").at(meta)
        selection.text = "the other cards"
        return selection

    def the_other_one(self, meta, c):
        """"the other one": the cards of the set "one of them" was picked from still there."""
        selection = Selection("ref", ref=_plural(Ref("it").at(meta), "them")).at(meta)
        selection.text = "the other one"
        return selection

    def the_other_revealed(self, meta, c):
        selection = Selection("rest").at(meta)
        selection.text = "the other revealed cards"
        return selection

    def the_both_plural(self, meta, c):
        """"the Actions and Treasures": all the revealed cards of either kind, as written."""
        noun = Noun("named", (c[0], c[1])).at(meta)
        selection = Selection("pick", ("all", 0), Filter([], noun, []), "revealed").at(meta)
        selection.text = f"the {c[0]} and {c[1]}"
        return selection

    def the_both(self, meta, c):
        """"the Victory cards and Curses": all the revealed cards of either kind."""
        noun = Noun("named", (c[0], c[2]), plural_form=True).at(meta)
        selection = Selection("pick", ("all", 0), Filter([], noun, []), "revealed").at(meta)
        selection.text = f"the {c[0]} cards and {c[2]}"
        return selection

    def those_of(self, meta, c):
        """"those Treasure cards": all the revealed cards of that kind."""
        selection = Selection("pick", ("all", 0), Filter([], c[0], []), "revealed").at(meta)
        selection.those = True
        return selection

    def ref_those(self, meta, c):
        return _plural(Ref("it").at(meta), "those")

    def ref_it(self, meta, c):
        return Ref("it").at(meta)

    def ref_this(self, meta, c):
        return Ref("this").at(meta)

    def ref_this_card(self, meta, c):
        ref = Ref("this").at(meta)
        ref.text = "this card"  # as older cards print it
        return ref

    def ref_revealed(self, meta, c):
        return Ref("revealed").at(meta)

    def ref_bound(self, meta, c):
        participle = " ".join(str(t) for t in c[0].children)
        if participle == "revealed":  # every card revealed or looked at, wherever it was
            ref = Ref("revealed_all").at(meta)
            ref.text = f"the revealed {c[1]}"
            return ref
        ref = Ref("bound", participle).at(meta)
        ref.plural = str(c[1]) == "cards"  # "the trashed cards": all of them
        return ref

    def ref_them(self, meta, c):
        return _plural(Ref("it").at(meta), "them")

    def ref_that(self, meta, c):
        ref = Ref("it").at(meta)
        ref.text = "that card"
        return ref
