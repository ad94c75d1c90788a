"""Conditions of "if" heads and "unless": "if you have at least 5 cards in hand", "if you
did", "if it's an Action card", "if you've gained a Victory card this turn".

A `Condition` compiles to `f(ctx) -> bool` (`Condition.compile_test`, one branch per kind)
and prints itself (`Condition.render`; a comparison in words is `_compared`). The turn-history
conditions ("you've played ...", "this is the first time you ...") count the turn's cards
through a `Countable` at place "you_<verb>" (`_history_test`, `_history_render`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kingdom.compiler.nodes import NUMBER_WORDS, Node, plural
from kingdom.compiler.selections.amounts import DONE
from kingdom.compiler.selections.zones import held_apart

if TYPE_CHECKING:
    from kingdom.compiler.selections.amounts import Amount, Countable
    from kingdom.runtime.context import Ctx


class Condition(Node):
    def __init__(self, kind: str, *args: Any) -> None:
        self.kind = kind
        self.args = list(args)

    def children(self):
        return (a for a in self.args if isinstance(a, Node))

    def compile_test(self) -> Callable[[Ctx], bool]:
        kind, args = self.kind, self.args
        if kind == "all_of":
            left, right = args[0].compile_test(), args[1].compile_test()
            return lambda ctx: left(ctx) and right(ctx)
        if kind == "compare":
            left, op, right = args[0].compile_amount(), str(args[1]), args[2].compile_amount()
            ops = {">=": int.__ge__, "<=": int.__le__, "==": int.__eq__, "!=": int.__ne__,
                   ">": int.__gt__, "<": int.__lt__}
            fn = ops[op]
            return lambda ctx: fn(left(ctx), right(ctx))
        if kind in ("at_least", "at_most", "played_at_least"):
            amount, count = args[0].compile_amount(), args[1].compile_count()
            if kind != "at_most":
                return lambda ctx: count(ctx) >= amount(ctx)
            return lambda ctx: count(ctx) <= amount(ctx)
        if kind == "none_of":
            count = args[0].compile_count()
            return lambda ctx: count(ctx) == 0
        if kind == "no_empty_piles":
            return lambda ctx: ctx.game.empty_supply_piles() == 0
        if kind == "is_a":
            ref, pred = args[0], args[1].compile_pred()
            return lambda ctx: any(pred(ctx, d) for d in ref.defs(ctx))
        if kind == "did":
            return lambda ctx: ctx.did
        if kind == "did_not":
            return lambda ctx: not ctx.did
        if kind == "is_named":
            return lambda ctx: any(
                d.name == ctx.vars.get("named_card") for d in args[0].defs(ctx)
            )
        if kind == "is_not_named":  # "if it isn't the named card" (false when nothing is bound)
            return lambda ctx: any(
                d.name != ctx.vars.get("named_card") for d in args[0].defs(ctx)
            )
        if kind in ("costs_at_least", "costs_at_most"):  # (nothing to compare with: false)
            ref, money, at_least = args[0], args[1].compile_money(), kind == "costs_at_least"

            def costs(ctx: Ctx) -> bool:
                limit = money(ctx)
                return limit is not None and any(
                    (ctx.game.cost(d) >= limit) if at_least else (ctx.game.cost(d) <= limit)
                    for d in ref.defs(ctx))

            return costs
        if kind == "copy_in_play":  # a card of yours in play with its name
            ref = args[0]
            return lambda ctx: any(c.d.name == d.name for d in ref.defs(ctx)
                                   for c in ctx.player.in_play)
        if kind == "its_your":  # "it's your turn", "it's your Buy phase"
            phase = {"turn": None, "Buy phase": "buy", "Action phase": "action"}[args[0]]
            return lambda ctx: ctx.player is ctx.game.player and phase in (None, ctx.game.phase)
        if kind == "made_shuffle":  # a draw of this effect shuffled (set by the draw steps)
            return lambda ctx: bool(ctx.vars.get("shuffled"))
        if kind == "moved_at_least":  # "if you discarded at least one"
            key, least = {"set aside": "set aside"}.get(args[0], args[0]), args[1]
            return lambda ctx: len(ctx.vars.get(key, ())) >= least
        if kind in HISTORY_CONDITIONS:
            return _history_test(kind, args)
        if kind == "all_different":  # no two revealed cards share a name (true for none)
            def all_different(ctx: Ctx) -> bool:
                names = [c.d.name for c, _ in ctx.vars.get("revealed_all", ())]
                return len(names) == len(set(names))
            return all_different
        if kind == "your_card_costs":
            return _your_card_costs(args[0] == "more")
        if kind == "no_duplicates_in_hand":
            def no_duplicates(ctx: Ctx) -> bool:
                names = [c.d.name for c in ctx.player.hand]
                return len(names) == len(set(names))
            return no_duplicates
        if kind == "revealed_any":  # "if you revealed any Treasure cards": they are "them"
            pred = args[0].compile_pred()

            def revealed_any(ctx: Ctx) -> bool:
                ctx.vars["it"] = found = [(c, z) for c, z in held_apart(ctx) if pred(ctx, c.d)]
                return bool(found)
            return revealed_any
        raise ValueError(kind)

    def render(self, they: bool = False) -> str:
        """`they`: said of the player "each other player" is at ("they revealed ...")."""
        if getattr(self, "text", None):  # written differently ("it's the named card")
            return self.text
        kind, args = self.kind, self.args
        if kind == "all_of":
            return f"{args[0].render()} and {args[1].render()}"
        if kind == "compare":
            return _compared(args[0], str(args[1]), args[2])
        if kind == "at_least":
            if getattr(self, "there_are", False):
                return f"there are {args[0].render()} or more {args[1].render(many=True)}"
            if getattr(self, "at_least_words", False):
                return f"you have at least {args[0].render()} {count_tail(args[1])}"
            return f"you have {args[0].render()} or more {count_tail(args[1])}"
        if kind == "at_most":
            return f"you have {args[0].render()} or fewer {count_tail(args[1])}"
        if kind == "played_at_least":  # "you've played 3 or more Actions this turn"
            what = args[1].filter.render(many=True)
            counting = " (counting this)" if args[2] else ""
            return f"you've played {args[0].render()} or more {what} this turn{counting}"
        if kind == "none_of":
            return f"you have no {count_tail(args[0])}"
        if kind == "no_empty_piles":
            return "no Supply piles are empty"
        if kind == "is_a":
            subject = args[0].render()
            subject = "it's" if subject == "it" else f"{subject} is"  # "If it's an Action, ..."
            return f"{subject} {args[1].render_with_article()}"
        if kind in HISTORY_CONDITIONS:
            return _history_render(kind, args)
        if kind == "is_named":
            return "you named it"
        if kind == "is_not_named":
            return "wrong"
        if kind in ("costs_at_least", "costs_at_most"):
            more = "more" if kind == "costs_at_least" else "less"
            return f"{args[0].render()} costs {args[1].render()} or {more}"
        if kind == "made_shuffle":
            return "this made you shuffle (at least one card)"
        if kind == "its_your":
            return f"it's your {args[0]}"
        if kind == "copy_in_play":
            return f"you have a copy of {args[0].render()} in play"
        if kind == "moved_at_least":
            words = {1: "one", 2: "two", 3: "three", 4: "four"}
            return f"you {args[0]} at least {words.get(args[1], args[1])}"
        if kind == "all_different":
            return "the revealed cards all have different names"
        if kind == "no_duplicates_in_hand":
            return f"{'their' if they else 'your'} hand has no duplicate cards"
        if kind == "your_card_costs":
            return f"your card costs {args[0]}"
        if kind == "revealed_any":
            return f"{'they' if they else 'you'} revealed any {args[0].render(many=True)}"
        who = "they" if they else "you"  # "if they did, they draw a card"
        if args == ["do"]:
            return {"did": f"{who} do", "did_not": f"{who} don't"}[kind]
        return {"did": f"{who} did", "did_not": f"{who} didn't"}[kind]

    def unparse(self) -> str:
        reminder = f" {self.reminder}" if getattr(self, "reminder", "") else ""
        return self._unparse() + reminder

    def _unparse(self) -> str:
        kind, args = self.kind, [a.unparse() if isinstance(a, Node) else a for a in self.args]
        if getattr(self, "text", None):
            return self.text
        if kind == "compare":
            return f"{args[0]} {args[1]} {args[2]}"
        if kind == "at_least" and getattr(self, "there_are", False):
            return f"there are {args[0]} or more {args[1]}"
        if kind == "at_least" and getattr(self, "at_least_words", False):
            return f"at least {args[0]} {args[1]}"
        if kind in ("at_least", "at_most"):
            return f"you have {args[0]} or {'more' if kind == 'at_least' else 'fewer'} {args[1]}"
        if kind == "played_at_least":
            counting = " (counting this)" if args[2] else ""
            return (f"you've played {args[0]} or more {self.args[1].filter.unparse(many=True)} "
                    f"this turn{counting}")
        if kind == "is_a":
            return f"{args[0]} is a {args[1]}"
        if kind in HISTORY_CONDITIONS:
            return self.render().replace(self.args[-1].filter.render(),
                                         self.args[-1].filter.unparse(), 1)
        if kind in ("is_named", "is_not_named"):
            verb = "is" if kind == "is_named" else "isn't"
            return f"{args[0]} {verb} the named card"
        return {
            "all_of": lambda: f"{args[0]} and {args[1]}",
            "none_of": lambda: f"you have no {args[0]}",
            "no_empty_piles": lambda: "no supply piles are empty",
            "costs_at_least": lambda: f"{args[0]} costs {args[1]} or more",
            "costs_at_most": lambda: f"{args[0]} costs {args[1]} or less",
            "made_shuffle": lambda: "this made you shuffle",
            "its_your": lambda: f"it's your {args[0].lower()}",
            "copy_in_play": lambda: f"you have a copy of {args[0]} in play",
            "moved_at_least": lambda: f"you {args[0]} at least {NUMBER_WORDS[args[1]]}",
            "all_different": lambda: "the revealed cards all have different names",
            "no_duplicates_in_hand": lambda: "your hand has no duplicate cards",
            "your_card_costs": lambda: f"your card costs {args[0]}",
            "revealed_any": lambda: f"you revealed any {args[0]}",
            "did": lambda: "you do" if args == ["do"] else "you did",
            "did_not": lambda: "you don't" if args == ["do"] else "you didn't",
        }[kind]()


def _your_card_costs(more: bool) -> Callable[[Ctx], bool]:
    """"if your card costs more (less)": your last revealed card against each other player's
    in this effect; nothing of theirs to compare with counts as costing less than any card."""

    def compare(ctx: Ctx) -> bool:
        revealed = ctx.vars.get("revealed_by", {})
        yours = revealed.get(ctx.you)
        if not yours:
            return False
        cost = ctx.game.cost(yours[-1][0].d)
        theirs = [placed for player, placed in revealed.items() if player is not ctx.you]
        if not theirs:
            return False
        costs = [ctx.game.cost(placed[-1][0].d) if placed else None for placed in theirs]
        if more:
            return all(other is None or cost > other for other in costs)
        return all(other is not None and cost < other for other in costs)

    return compare


# ------------------------------------------------------------------ turn history conditions
ORDINALS = {1: "first", 2: "second", 3: "third"}
# "you've gained a Victory card this turn", "you didn't buy a Victory card this turn", "this is
# the first time you played a Village this turn"; the last argument is the Countable of the
# turn's cards, a filter at place "you_<verb>"
HISTORY_CONDITIONS = ("done_this_turn", "not_done_this_turn", "nth_time")


def _history_test(kind: str, args: list) -> Callable[[Ctx], bool]:
    count = args[-1].compile_count()
    if kind == "done_this_turn":
        return lambda ctx: count(ctx) > 0
    if kind == "not_done_this_turn":
        return lambda ctx: count(ctx) == 0
    ref, nth, pred = args[0], args[1], args[-1].filter.compile_pred()
    # the card referred to fits, and the turn's matching cards (it last) number exactly nth
    return lambda ctx: any(pred(ctx, d) for d in ref.defs(ctx)) and count(ctx) == nth


def _history_render(kind: str, args: list) -> str:
    counted = args[-1]
    verb, when = counted.place.removeprefix("you_"), "this turn"
    if counted.place == "gained_this_phase":  # "you didn't gain a Victory card in it"
        verb, when = "gain", "in it"
    what = f"{counted.filter.render_with_article()} {when}"
    if kind == "done_this_turn":
        return f"you've {DONE[verb]} {what}"
    if kind == "not_done_this_turn":
        return f"you didn't {verb} {what}"
    return f"{args[0].render()} is the {ORDINALS[args[1]]} time you {DONE[verb]} {what}"


_HOW_MANY = {">=": "{} or more", "<=": "{} or fewer", "==": "exactly {}", ">": "more than {}",
             "<": "fewer than {}"}
_COSTS = {">=": "costs {} or more", "<=": "costs {} or less", "==": "costs exactly {}",
          ">": "costs more than {}", "<": "costs less than {}", "!=": "does not cost {}"}
_IS = {">=": "is at least", "<=": "is at most", "==": "is", ">": "is more than",
       "<": "is less than", "!=": "is not"}


def _compared(left: Amount, op: str, right: Amount) -> str:
    """A comparison in words: "there are 5 or more cards in your hand", "you have exactly one
    Gold", "the cost of it is more than $3"."""
    plain = right.kind == "number" and op in _HOW_MANY
    if left.kind == "cost_of" and right.kind == "number":  # "it costs $3 or more"
        costs = _COSTS[op].format(f"${right.value}")
        return f"{left.value.render()} {costs}"
    if left.kind == "types_of" and plain:  # "it has 2 or more types"
        one = op == "==" and right.value == 1
        how_many = _HOW_MANY[op].format("one" if one else right.value)
        return f"{left.value.render()} has {how_many} {plural('type', 1 if one else 2)}"
    if left.kind != "count" or op not in _HOW_MANY:
        return f"{left.render()} {_IS[op]} {right.render()}"
    countable = left.value
    one = op == "==" and right.kind == "number" and right.value == 1
    how_many = _HOW_MANY[op].format("one" if one else right.render())
    if countable.kind == "cards" and countable.place in ("owned", "in_play"):
        where = " in play" if countable.place == "in_play" else ""  # "you have 2 or more Golds"
        return f"you have {how_many} {countable.filter.render(many=not one)}{where}"
    if countable.kind in ("cards", "empty_piles"):
        return f"there {'is' if one else 'are'} {how_many} {countable.render(many=not one)}"
    return f"{left.render()} {_IS[op]} {right.render()}"


def count_tail(countable: Countable) -> str:
    """The countable after "you have N or more": "Action cards in play", not "Action cards
    you have in play" (the "you have" is said once)."""
    return countable.render(many=countable.kind == "cards").replace(" you have", "", 1)

