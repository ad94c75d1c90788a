"""Numbers, money and what can be counted: "3", "the number of X", "$2 more than it",
"Action cards in play", "Favors you have".

An `Amount` compiles to `f(ctx) -> int`; `Money` (a cost to compare with: "$3", "$2 more than
it", "the total cost of the trashed cards") to `f(ctx) -> int | None` (None: no card to compare
with, so nothing matches); a `Countable` (cards at a place, empty Supply piles, tokens) to a
count `f(ctx) -> int`, and where those cards are is `_place_cards`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kingdom.compiler.checks import check_divisor
from kingdom.compiler.nodes import NUMBER_WORDS, Env, Node, plural
from kingdom.compiler.selections.zones import Ref, known_defs
from kingdom.runtime.decisions import NUMBER, Decision, ask
from kingdom.runtime.history import this_turn
from kingdom.runtime.tokens import BY_WORD

if TYPE_CHECKING:
    from kingdom.compiler.selections.filters import Filter
    from kingdom.runtime.context import Ctx

DONE = {"play": "played", "gain": "gained", "buy": "bought"}  # verb -> its past participle


class Amount(Node):
    """A number: 3, "two", the number of X, cost(it), types(it), a + b."""

    def __init__(self, kind: str, value: Any = None, other: Any = None) -> None:
        self.kind = kind
        self.value = value
        self.other = other

    @property
    def constant(self) -> int | None:
        return self.value if self.kind == "number" else None

    def compile_amount(self) -> Callable[[Ctx], int]:
        kind, value = self.kind, self.value
        if kind == "number":
            return lambda ctx: value
        if kind == "count":
            return value.compile_count()
        if kind == "cost_of":
            return lambda ctx: sum(ctx.game.cost(d) for d in value.defs(ctx))
        if kind == "types_of":
            return lambda ctx: sum(len(d.types) for d in value.defs(ctx))
        left, right = value.compile_amount(), self.other.compile_amount()
        if kind == "add":
            return lambda ctx: left(ctx) + right(ctx)
        return lambda ctx: left(ctx) - right(ctx)

    def render(self, they: bool = False) -> str:
        words = {1: "one", 2: "two", 3: "three", 4: "four"}
        if self.kind == "number":
            if getattr(self, "article", False):
                return "a"
            return str(self.value) if not getattr(self, "word", False) else words[self.value]
        if self.kind == "count":
            return f"the number of {self.value.render(many=True)}"
        if self.kind == "cost_of":
            return f"the cost{' in $' if getattr(self, 'in_coins', False) else ''} of {self.value.render()}"
        if self.kind == "types_of":
            return f"the number of types of {self.value.render()}"
        op = "+" if self.kind == "add" else "-"
        return f"{self.value.render()} {op} {self.other.render()}"

    def unparse(self) -> str:
        if self.kind == "number":
            if getattr(self, "article", False):
                return "a"
            return NUMBER_WORDS[self.value] if getattr(self, "word", False) else str(self.value)
        if self.kind == "count":
            return f"the number of {self.value.unparse()}"
        if self.kind == "cost_of" and getattr(self, "in_coins", False):
            return f"the cost in $ of {self.value.unparse()}"
        if self.kind in ("cost_of", "types_of"):
            return f"{self.kind.removesuffix('_of')}({self.value.unparse()})"
        return f"{self.value.unparse()} {'+' if self.kind == 'add' else '-'} {self.other.unparse()}"


class Money(Node):
    """$3, $2 more than it, $1 less than it, $1 per differently named card in play, it."""

    def __init__(self, kind: str, coins: int = 0, other: Any = None) -> None:
        self.kind = kind
        self.coins = coins
        self.other = other

    COMPARED = ("money_more", "money_less", "money_of", "money_more_per")

    def check(self, env: Env) -> None:
        """A cost compared with several cards ("costing exactly the trashed cards") has no
        one meaning: the sum is written out."""
        other = self.other
        if self.kind in self.COMPARED and isinstance(other, Ref) and other.plural:
            env.error("K322", f"'{other.render()}' are several cards; a cost here is one "
                      "card's", other, f"write 'the total cost of {other.render()}' for their "
                      "sum, or name one card ('the trashed card')")

    def compile_money(self) -> Callable[[Ctx], int | None]:
        coins, other = self.coins, self.other
        if self.kind == "money":
            return lambda ctx: coins
        if self.kind == "money_total":  # "the total cost of the trashed cards"
            return lambda ctx: sum(ctx.game.cost(d) for d in other.defs(ctx))
        if self.kind in ("money_more", "money_less", "money_of"):
            sign = {"money_more": 1, "money_less": -1, "money_of": 0}[self.kind]

            def relative(ctx: Ctx) -> int | None:
                defs = other.defs(ctx)
                if not defs:
                    return None  # "it" was never bound: nothing can match (Mine without a trash)
                return ctx.game.cost(defs[0]) + sign * coins

            return relative
        if self.kind == "money_more_per":  # "$1 more than it per Coffers you spend"
            per = self.per.compile_count() if self.per.kind != "spend" else _spend_asked(self.per)

            def more_per(ctx: Ctx) -> int | None:
                defs = other.defs(ctx)
                return None if not defs else ctx.game.cost(defs[0]) + coins * per(ctx)

            return more_per
        count = other.compile_count()
        return lambda ctx: coins * count(ctx)

    def render(self, they: bool = False) -> str:
        if self.kind == "money":
            return f"${self.coins}"
        if self.kind == "money_more":
            return f"${self.coins} more than {self.other.render()}"
        if self.kind == "money_less":
            return f"${self.coins} less than {self.other.render()}"
        if self.kind == "money_of":
            return self.other.render()
        if self.kind == "money_total":
            return f"the total cost of {self.other.render()}"
        if self.kind == "money_more_per":
            return f"${self.coins} more than {self.other.render()} per {self.per.render()}"
        return f"${self.coins} per {self.other.render()}"

    def unparse(self) -> str:
        if self.kind == "money":
            return f"${self.coins}"
        other = self.other.unparse()
        if self.kind == "money_of":
            return other
        if self.kind == "money_total":
            return f"the total cost of {other}"
        if self.kind == "money_per":
            return f"${self.coins} per {other}"
        more = "less" if self.kind == "money_less" else "more"
        per = f" per {self.per.unparse()}" if self.kind == "money_more_per" else ""
        return f"${self.coins} {more} than {other}{per}"


class Countable(Node):
    """Something counted: "card in your hand", "empty Supply pile", "Duchy you have"."""

    def __init__(self, kind: str, filter: Filter | None = None, place: str = "", word: str = ""):
        self.kind = kind  # cards, empty_piles, tokens, coins_in_cost, coins_overpaid
        self.filter = filter
        self.place = place
        self.word = word

    def check(self, env: Env) -> None:
        if self.kind == "coins_in_cost":  # K304: "per $0 it costs"
            check_divisor(self, int(self.word[1:] or 1), env)

    @property
    def records(self) -> tuple[str, ...]:
        """The turn history a game must keep for this count (buys are kept only if asked)."""
        return ("buy",) if self.place == "you_buy" else ()

    def compile_cards(self) -> Callable[[Ctx], list]:
        """The counted cards themselves (for "for each ... revealed")."""
        pred = self.filter.compile_pred()
        cards_at = _place_cards(self.place)
        return lambda ctx: [c for c in cards_at(ctx) if pred(ctx, c.d)]

    def compile_count(self) -> Callable[[Ctx], int]:
        kind = self.kind
        if kind == "empty_piles":
            return lambda ctx: ctx.game.empty_supply_piles()
        if kind in ("tokens", "spend"):  # "Favors you have"; "Favor you spend": what is held
            key = BY_WORD[self.word].key
            return lambda ctx: getattr(ctx.player, key)
        if kind == "coins_in_cost":
            unit = int(self.word[1:] or 1)
            return lambda ctx: sum(ctx.game.cost(d) for d in known_defs(ctx)) // unit
        if kind == "coins_overpaid":
            return lambda ctx: ctx.vars.get("overpaid", 0)
        pred = self.filter.compile_pred()
        distinct = self.filter.distinct
        cards_at = _place_cards(self.place)
        if distinct:
            return lambda ctx: len({c.d.name for c in cards_at(ctx) if pred(ctx, c.d)})
        if self.place == "one_copy_in_play":  # names you have exactly one card of in play
            def single_copies(ctx: Ctx) -> int:
                names = Counter(c.d.name for c in cards_at(ctx))
                return sum(1 for c in cards_at(ctx) if names[c.d.name] == 1 and pred(ctx, c.d))
            return single_copies
        return lambda ctx: sum(1 for c in cards_at(ctx) if pred(ctx, c.d))

    def render(self, they: bool = False, many: bool = False) -> str:
        """`many`: the plural, for "the number of cards in your hand" (not "per card ...")."""
        if self.kind == "empty_piles":
            return plural("empty Supply pile", 2 if many else 1)
        if self.kind == "tokens" and self.place == "bare":
            return BY_WORD[self.word].plural
        if self.kind == "tokens":
            return f"{BY_WORD[self.word].name(2 if many else 1)} you have"
        if self.kind == "spend":
            return f"{BY_WORD[self.word].singular} you spend"
        if self.kind == "coins_in_cost":
            return f"{self.word or '$1'} it costs"
        if self.kind == "coins_overpaid":
            return "$1 overpaid"
        place = {
            "in_hand": "in your hand", "in_hand_short": "in hand", "in_play": "you have in play",
            "owned": "you have",
            "played_this_turn": "played this turn", "in_revealed": "revealed",
            "gained_this_phase": "you gained in it",
            "in_play_counting": "you have in play (counting this)",
            "in_discarded": "discarded", "in_trash": "in the trash", "in_bound": "in it",
            "in_play_counting_it": "you have in play (counting it)",
            "in_deck_and_discard": "in your deck and discard pile",
            "one_copy_in_play": "you have exactly one copy of in play",
            **{f"you_{verb}": f"you've {done} this turn" for verb, done in DONE.items()},
        }[self.place]
        return f"{self.filter.render(many=many)} {place}"

    def unparse(self) -> str:
        kind = self.kind
        word = BY_WORD[self.word].plural.lower() if kind in ("tokens", "spend") else ""
        if kind == "empty_piles":
            return "empty supply pile"
        if kind == "tokens":
            return word if self.place == "bare" else f"{word} you have"
        if kind == "spend":
            return f"{word} you spend"
        if kind in ("coins_in_cost", "coins_overpaid"):
            return self.render()
        return self.render().replace(self.filter.render(), self.filter.unparse(), 1)


def _spend_asked(countable: Countable) -> Callable[[Ctx], int]:
    """"per Coffers you spend" in an amount: the player says how many (0 up to all they have)
    the first time it is needed; those are spent, and that number is the count from then on."""
    attr = BY_WORD[countable.word].key
    key = f"spent_{attr}"

    def spent(ctx: Ctx) -> int:
        if key not in ctx.vars:
            have = getattr(ctx.player, attr)
            n = ask(Decision(NUMBER, ctx.player, f"Spend how many {countable.render()}?",
                             list(range(have + 1)), card=ctx.card, game=ctx.game))
            setattr(ctx.player, attr, have - n)
            ctx.vars[key] = n
        return ctx.vars[key]

    return spent


def _place_cards(place: str) -> Callable[[Ctx], list]:
    if place in ("in_hand", "in_hand_short"):
        return lambda ctx: ctx.player.hand
    if place == "in_play":
        return lambda ctx: ctx.player.in_play
    if place == "owned":
        return lambda ctx: ctx.player.owned()
    if place == "played_this_turn":
        return lambda ctx: ctx.game.played_this_turn
    if place in ("in_play_counting", "in_play_counting_it", "one_copy_in_play"):  # (this in play)
        return lambda ctx: ctx.player.in_play
    if place == "in_deck_and_discard":
        return lambda ctx: ctx.player.deck + ctx.player.discard
    if place == "gained_this_phase":  # "card you gained in it" (this phase)
        return lambda ctx: [c for p, c, phase in getattr(ctx.game, "gain_log", ())
                            if p is ctx.player and phase == ctx.game.phase]
    if place == "in_trash":
        return lambda ctx: ctx.game.trash
    if place.startswith("you_"):  # "card you've gained this turn": the whole turn's
        verb = place.removeprefix("you_")
        return lambda ctx: this_turn(ctx.game, ctx.player, verb)
    if place == "in_revealed":
        return lambda ctx: [c for c, _ in ctx.vars.get("revealed_all", ())]
    if place == "in_bound":
        return lambda ctx: [c for c, _ in ctx.vars.get("it", ())]
    if place == "in_discarded":
        return lambda ctx: [c for c, _ in ctx.vars.get("discarded", ())]
    raise ValueError(place)

