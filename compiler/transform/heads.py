"""Heads of compound statements ('if ...:', 'you may ...:', 'each other player ...:'), as the
tuples make_compound builds nodes from, and the statement lists they open."""

from __future__ import annotations

from kingdom.compiler.errors import PhraseError
from kingdom.compiler.nodes import Node
from kingdom.compiler.selections.amounts import Amount
from kingdom.compiler.structure.block import Block
from kingdom.compiler.structure.compound import make_compound
from kingdom.compiler.structure.conditional import NumberCases, Otherwise
from kingdom.compiler.structure.when import When
from kingdom.compiler.transform.common import AND, _joined
from lark import Token, Transformer, v_args


def _runs_on(node: Node) -> Node:
    """A printed "each other player ..." whose block, as a head's on one line, runs to the end
    of the line (the statements after a ";"), so that it means what `each other player: ...`
    means (a printed text reads each sentence on its own: compiler/printed.py)."""
    node.runs_on = True
    return node


@v_args(meta=True)
class HeadRules(Transformer):
    """ToNodes' methods for heads; Lark calls each by its rule's name or alias."""

    def statements(self, meta, children):
        out = _joined([s for c in children for s in (c if isinstance(c, list) else [c])])
        for i, node in enumerate(out):  # "each other player discards a card; X": X is theirs too
            if getattr(node, "runs_on", False) and i + 1 < len(out):
                node.body = Block([[*node.body.lines[0], *out[i + 1:]]])
                return out[: i + 1]
        return out

    def inline_otherwise(self, meta, children):
        """"if X: A, otherwise B" on one line: the statements `if X: A` and `otherwise: B`, the
        "otherwise" printed after a comma in the same sentence."""
        head, step, other = children
        if head[0] != "if":
            raise PhraseError("', otherwise' follows an 'if'",
                              "write 'if X: A, otherwise B', or leave out 'otherwise'")
        node = make_compound(head, Block([[step]]), None).at(meta)
        otherwise = Otherwise(Block([[other]])).at(meta)
        otherwise.joined = True
        return [node, otherwise]

    def and_sep(self, meta, children):
        return AND

    def head_only(self, meta, children):
        return children[0]

    def worth_per(self, meta, children):
        """Victory points per thing counted when the game is scored: "1 per 10 cards you have" (round
        down)."""
        numbers = [c for c in children if isinstance(c, Token)]
        countable = children[-1]
        vp = int(numbers[0])
        divisor = int(numbers[1]) if len(numbers) > 1 else 1
        return vp, divisor, countable

    def inline_compound(self, meta, children):
        """A head and its block on one line: "if you did: +1 card; +$1"."""
        head, *steps = children
        return make_compound(head, Block([_joined(steps)]), None).at(meta)

    def if_head(self, meta, c):
        """Does the block only if the condition holds when it is reached."""
        return ("if", c[0])

    def else_head(self, meta, c):
        """Does the block when the "if" just before it did not apply."""
        return ("otherwise",)

    def number_cases(self, meta, c):
        """A table of cases as one sentence: the number is taken once, and each case whose
        numbers include it ("1 or 5: ...") applies, in order; the table runs to the end of the line."""
        return NumberCases(c[0], list(c[1:])).at(meta)

    def number_case(self, meta, c):
        *numbers, body = c
        return (tuple(int(n) for n in numbers), body)

    def if_cases_head(self, meta, c):
        return ("cases", c[0])

    def case_head(self, meta, c):
        """One line under "if it is an...:": the block applies when the card fits this description."""
        return ("case", c[0])

    def may_head(self, meta, c):
        """Offers the step; the block follows only if the player does it."""
        return ("may", c[0])

    def choose_head(self, meta, c):
        # "choose two different options": different, and printed that way
        return ("choose", c[0], False, "options" if "options" in c[1:] else "different" in c[1:])

    def different_options(self, meta, c):
        """The options picked must all be different, printed as "different options"."""
        return "options"

    def may_choose_head(self, meta, c):
        """Offers the step; if the player does it, they choose among the options."""
        return ("may_to", c[0], self.choose_head(meta, c[1:]))

    def you_choose_head(self, meta, c):
        return ("choose", c[0], True, "different" in c[1:])

    def each_other_printed(self, meta, c):
        """"each other player discards ...", as printed: `each other player: discard ...`."""
        *condition, steps = c
        return _runs_on(make_compound(self.each_other_head(meta, condition), steps, None))

    def each_player_printed(self, meta, c):
        *condition, steps = c
        return _runs_on(make_compound(self.each_player_head(meta, condition), steps, None))

    def left_player_printed(self, meta, c):
        return _runs_on(make_compound(self.left_player_head(meta, []), c[0], None))

    def they_steps(self, meta, c):
        """Steps said of another player, one line of its block."""
        return Block([list(c)])

    def each_other_head(self, meta, c):
        return ("each", "others", c[0] if c else None)

    def each_player_head(self, meta, c):
        return ("each", "all", c[0] if c else None)

    def left_player_head(self, meta, c):
        return ("each", "left", None)

    def with_clause(self, meta, c):
        return c[0]

    def repeat_head(self, meta, c):
        """Does the block that many times."""
        return ("repeat", c[0])

    def twice_head(self, meta, c):
        """Does the block two times."""
        return ("repeat", Amount("number", 2))

    def for_each_head(self, meta, c):
        """Does the block once for each of those cards, "it" being the card each time."""
        return ("for_each", c[0])

    def for_each_counted_head(self, meta, c):
        return ("for_each", c[0])

    def next_turn_head(self, meta, c):
        return ("next_turn",)

    def then_next_turn_head(self, meta, c):
        return ("next_turn", "then")

    def now_and_next_turn_head(self, meta, c):
        """Does the block now, and again at the start of your next turn (a Duration)."""
        return ("next_turn", "now")

    def rest_of_game_head(self, meta, c):
        """Does the block at the start of each of your turns from the next one on, for the rest
        of the game: the card stays in play for good (and a card that played it more than
        once stays with it)."""
        return ("next_turn", "every")

    def now_or_next_turn_head(self, meta, c):
        """Does the block now or at the start of your next turn, as the player chooses."""
        return ("next_turn", "either")

    def this_turn_head(self, meta, c):
        return ("lasting", c[0], "turn")

    def once_this_turn_head(self, meta, c):
        """Lasts this turn and is done once: at the first event it fires on, or, when its
        block is "you may ...", at the first one the player takes it for (a refusal keeps it)."""
        c[0].once_this_turn = True
        return ("lasting", c[0], "turn")

    def until_then_head(self, meta, c):
        """"until then, ...": until your next turn, after an "at the start of your next turn"."""
        c[0].until_then = True
        return ("lasting", c[0], "next_turn")

    def until_next_turn_head(self, meta, c):
        return ("lasting", c[0], "next_turn")

    def trigger_head(self, meta, c):
        """An ability below the line: the block happens each time the trigger fires."""
        return ("ability", c[0])

    def trigger_if_head(self, meta, c):
        """"at the end of your Buy phase, if ...": an ability whose whole block is an "if"."""
        return ("nested", ("ability", self.at_end(meta, c[:1])), ("if", c[1]))

    def setup_head(self, meta, c):
        """Happens once while the game is set up, before the first turn, in every game using the card."""
        return ("ability", "setup")

    def overpay_head(self, meta, c):
        """When you buy the card you may pay more than its cost; the block uses the amount overpaid."""
        return ("ability", "overpay")

    def start_cleanup_head(self, meta, c):
        """Happens once, at the start of this turn's Clean-up, before any card is discarded."""
        when = When("cleanup", text="at the start of Clean-up")
        when.this_turn_implied = True  # printed without "this turn"
        return ("lasting", when, "turn")

    def start_cleanup_this_turn_head(self, meta, c):
        """"at the start of Clean-up this turn": the same time, printed with "this turn"."""
        when = When("cleanup", text="at the start of Clean-up")
        when.this_turn_after = True
        return ("lasting", when, "turn")

    def if_discarded_from_play_head(self, meta, c):
        """Waits this turn for the card bound as "it" to be discarded from play."""
        return ("if_discarded_from_play",)

    def this_turn_suffix_head(self, meta, c):
        c[0].this_turn_after = True  # "at the end of your Buy phase this turn, ..."
        return ("lasting", c[0], "turn")

    def per_head(self, meta, c):
        """Does the block once per thing counted: "per $1 overpaid"."""
        amount = Amount("count", c[0]).at(meta)
        amount.per = True  # "per $1 overpaid, ..."
        return ("repeat", amount)
