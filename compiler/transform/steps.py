"""Steps that hold other steps: 'you may X to Y', chains with 'and' or 'then', inline options."""

from __future__ import annotations

from kingdom.compiler.errors import PhraseError
from kingdom.compiler.selections.amounts import Amount
from kingdom.compiler.structure.ability import Ability
from kingdom.compiler.structure.as_you import AsYou
from kingdom.compiler.structure.block import Block
from kingdom.compiler.structure.choose import Choose, option_block
from kingdom.compiler.structure.each import Each
from kingdom.compiler.structure.may import MayStep, Unless
from kingdom.compiler.structure.next_turn import Deferred
from kingdom.compiler.structure.repeat import RepeatAsDesired
from kingdom.compiler.structure.sequence import Sequence, Then
from kingdom.compiler.transform.common import THEN, _joined
from lark import Transformer, v_args


@v_args(meta=True)
class StepRules(Transformer):
    """ToNodes' methods for steps; Lark calls each by its rule's name or alias."""

    def may_step(self, meta, c):
        return MayStep(c[0]).at(meta)

    def they_get(self, meta, c):
        """"each player gets +1 Coffers": the bonus, said of them."""
        return c[0]

    they_may = may_step  # "each other player may trash a card": said of them, the same step
    may_do = may_step  # "choose one: you may trash a card | +2 cards", as the option nested

    def may_step_immediately(self, meta, c):
        """"you may immediately X": X now, in the middle of resolving the card, as printed."""
        step = MayStep(c[0]).at(meta)
        step.adverb = "immediately"
        return step

    def may_for(self, meta, c):
        return MayStep(c[0], Block([[c[1]]]), "for").at(meta)

    def may_to(self, meta, c):
        return MayStep(c[0], Block([[c[1]]]), "to").at(meta)

    def may_comma_to(self, meta, c):
        return MayStep(c[0], Block([[c[1]]]), ", to").at(meta)

    def may_for_options(self, meta, c):
        options = Choose(Amount("number", 1), [Block([[o]]) for o in c[1:]]).at(meta)
        options.style = "or"
        return MayStep(c[0], Block([[options]]), ", for").at(meta)

    def either_or(self, meta, c):
        """A choice of one of two options written as a phrase: "either A or B"."""
        options = Choose(Amount("number", 1), list(c)).at(meta)
        options.style = "either"
        return options

    def have_each_other(self, meta, c):
        each = Each("others", Block([[c[0]]])).at(meta)
        each.have = True
        return each

    def unless(self, meta, c):
        return Unless(c[0], c[1]).at(meta)

    def repeat_as_desired(self, meta, c):
        return RepeatAsDesired().at(meta)

    def chain_and(self, meta, c):
        return Sequence(list(c), "and").at(meta)

    def chain_then(self, meta, c):
        return Sequence(list(c), "then").at(meta)

    def chain_comma_then(self, meta, c):
        return Sequence(list(c), ", then").at(meta)

    def chain_comma_and(self, meta, c):
        return Sequence(list(c), ", and").at(meta)

    def reminded(self, meta, c):
        """A statement with a reminder after it, printed and not compiled."""
        if isinstance(c[0], list):  # "if X: A, otherwise B" is two statements
            raise PhraseError("a reminder goes after a statement, not after 'if ..., otherwise "
                              "...'", "put the reminder after the condition or after one step")
        c[0].reminder = str(c[1])
        return c[0]

    def reminded_condition(self, meta, c):
        """A condition with a reminder after it: the reminder is printed and changes nothing."""
        c[0].reminder = str(c[1])
        return c[0]

    def then_step(self, meta, c):
        return Then(c[0]).at(meta)

    def inline_choice(self, meta, c):
        head, options = c[0], list(c[1:])
        choose = head[2] if head[0] == "may_to" else head
        if choose[0] != "choose":
            raise PhraseError("options separated by '|' need a 'choose' head",
                              "write 'choose one: A | B', or 'you may X to choose one: A | B'")
        node = Choose(choose[1], options, by_you=choose[2], different=choose[3]).at(meta)
        return node if choose is head else MayStep(head[1], Block([[node]]), "to").at(meta)

    def option(self, meta, c):
        return option_block(_joined(c, THEN, "then_before"))

    def then_sep(self, meta, c):
        return THEN

    def different(self, meta, c):
        return "different"

    def trailing_trigger(self, meta, c):
        """A step that happens when the event does, written after it: "gain one when you gain a Ferryman"."""
        step, when = c[0], c[1]
        when.text = f"when you {when.text}"
        ability = Ability(when, Block([[step]])).at(meta)
        ability.trailing = True
        return ability

    def may_and(self, meta, c):
        return MayStep(c[0], Block([[c[1]]]), ", and").at(meta)

    def you_do(self, meta, c):
        return AsYou(c[0]).at(meta)

    def deferred_next_turn(self, meta, c):
        return Deferred(c[0], "next_turn").at(meta)

    def deferred_end_turn(self, meta, c):
        return Deferred(c[0], "end_turn").at(meta)

    def deferred_end_of_turn(self, meta, c):
        """The printed "at end of turn": the same time as "at the end of this turn"."""
        return Deferred(c[0], "end_of_turn").at(meta)
