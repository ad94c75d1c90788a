"""Card descriptions, references, counts, money and conditions: the nouns of the DSL.

Each compiles to a small function of the runtime context: a filter to `pred(ctx, carddef)`, an
amount to `f(ctx) -> int`, a condition to `f(ctx) -> bool`, and a selection to
`pick(ctx, prompt, default_zone, optional) -> list[(card, zone)]`, where `zone` is the list the
card is in now, so that the step that moves it can honour the Stop-Moving rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kingdom.compiler.nodes import NUMBER_WORDS, Env, Node, article, plural
from kingdom.runtime.decisions import CARDS, NUMBER, Decision, ask
from kingdom.runtime.history import this_turn
from kingdom.runtime.tokens import BY_WORD

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card, CardDef
    from kingdom.runtime.context import Ctx

Placed = tuple["Card", list]
Pred = Callable[["Ctx", "CardDef"], bool]


# ------------------------------------------------------------------------- zones and refs
def revealed_zone(ctx: Ctx) -> list:
    """The acting player's revealed (or looked-at) cards, held apart until they move on."""
    zone = ctx.vars.get("revealed")
    if zone is None:
        zone = ctx.vars["revealed"] = []
    return zone


def held_apart(ctx: Ctx) -> list[Placed]:
    """The cards this effect revealed from the deck (held apart), then the cards it looked at
    that are still on the deck: looking moves nothing, so a card drawn since is not one."""
    zone = revealed_zone(ctx)
    held = [(c, zone) for c in zone]
    for card, deck in ctx.vars.get("looked", ()):
        if any(c is card for c in deck):
            held.append((card, deck))
    return held


def look_at_top(ctx: Ctx, count: int) -> list[Placed]:
    """The top `count` cards of the acting player's deck, top first, left where they are; with
    too few, the discard pile is shuffled under the deck first (as drawing them would)."""
    player = ctx.player
    if len(player.deck) < count and player.discard:
        ctx.game.shuffle(player)
    deck = player.deck
    placed = [(c, deck) for c in reversed(deck[-count:])] if count > 0 else []
    ctx.vars.setdefault("looked", []).extend(placed)
    ctx.vars.setdefault("revealed_all", []).extend(placed)
    return placed


def this_zone(ctx: Ctx) -> list:
    zone = ctx.vars.get("this_zone")
    return ctx.you.in_play if zone is None else zone


def zone_list(ctx: Ctx, zone: str) -> list:
    player = ctx.player
    if zone == "hand":
        return player.hand
    if zone == "discard":
        return player.discard
    if zone == "deck":
        return player.deck
    if zone in ("in_play", "leaving_play"):
        return player.in_play
    if zone == "trash":
        return ctx.game.trash
    if zone == "revealed":
        return revealed_zone(ctx)
    raise ValueError(zone)


def still_where_bound(ref: Ref) -> Callable[[Ctx], bool]:
    """Whether any card `ref` names is still in the zone it was bound in (Stop-Moving): a
    "you may put it ..." or "you may play it" of a card that moved on asks nothing."""
    return lambda ctx: any(any(c is card for c in where) for card, where in ref.resolve(ctx))


def bind(ctx: Ctx, name: str, placed: list[Placed], picked_from: list[Placed] | None = None
         ) -> None:
    """Bind moved cards as `it` and under the step's participle ("trashed", ...). Cards
    picked from a set ("trash one of them") leave "them" meaning that set until `it` is bound
    again: "discard one of them" next picks among the cards still there."""
    ctx.vars["it"] = placed
    ctx.vars[name] = placed
    if picked_from is not None:
        ctx.vars["picked_from"] = (placed, picked_from)


class Ref(Node):
    """it, them, this, those cards, the trashed card, ...: what each means after each kind of
    step is `compiler.references.REFERENCES`."""

    plural = False  # "them", "those", "the trashed cards": all of the cards, a set

    def __init__(self, kind: str, name: str = "it") -> None:
        self.kind = kind
        self.name = name

    def resolve(self, ctx: Ctx) -> list[Placed]:
        if self.kind == "this":
            return [(ctx.card, this_zone(ctx))] if ctx.card is not None else []
        if self.kind == "revealed":
            return held_apart(ctx)
        if self.kind == "revealed_all":  # each card once, where its latest reveal found it
            return list({id(c): (c, z) for c, z in ctx.vars.get("revealed_all", ())}.values())
        if self.plural and self.name == "it":
            picked = ctx.vars.get("picked_from")
            if picked is not None and picked[0] is ctx.vars.get("it"):
                return list(picked[1])  # "one of them" was picked: "them" is still the set
        return list(ctx.vars.get(self.name, ()))

    def defs(self, ctx: Ctx) -> list[CardDef]:
        return [card.d for card, _zone in self.resolve(ctx)]

    def compile(self, env: Env) -> Callable[[Ctx], list[Placed]]:
        return self.resolve

    def render(self, they: bool = False) -> str:
        if getattr(self, "text", None):  # "that card"
            return self.text
        if self.kind == "this":
            return "this"
        if self.kind == "revealed":
            return "those cards"
        if self.name == "it":
            return "it"
        return f"the {self.name} {'cards' if self.plural else 'card'}"


# ------------------------------------------------------------------------------- filters

    def unparse(self) -> str:
        return self.render()  # (a reference is written as it is printed)
class Noun(Node):
    """The head of a card description: card, a type, a card name, "A or B", a copy of it."""

    def __init__(self, kind: str, names: tuple = (), plural_form: bool = False, ref: Ref | None = None):
        self.kind = kind  # any, named, either, copy
        self.names = names
        self.plural_form = plural_form
        self.ref = ref
        self.resolved: list[tuple[str, str]] = []

    def check(self, env: Env) -> None:
        self.resolved = [env.card_or_type(str(n), self) for n in self.names]

    def predicate(self) -> Pred:
        if self.kind == "any":
            return lambda ctx, d: True
        if self.kind == "copy":
            ref = self.ref
            return lambda ctx, d: any(d.name == other.name for other in ref.defs(ctx))
        tests = []
        for kind, name in self.resolved:
            if kind == "type":
                tests.append(lambda ctx, d, t=name: t in d.type_set)
            elif kind == "pile":  # a pile by name, or by the role a setup gave it ("Bane")
                tests.append(lambda ctx, d, p=name: ctx.game.pile_of.get(d.name) is not None
                             and (ctx.game.pile_of[d.name].name == p
                                  or p in getattr(ctx.game.pile_of[d.name], "roles", ())))
            else:
                tests.append(lambda ctx, d, n=name: d.name == n)
        if len(tests) == 1:
            return tests[0]
        return lambda ctx, d: any(t(ctx, d) for t in tests)

    def is_type(self) -> bool:
        return bool(self.resolved) and all(k == "type" for k, _ in self.resolved)

    def render(self, they: bool = False, many: bool = False) -> str:
        word = "cards" if many else "card"
        if self.kind == "any":
            return word
        if self.kind == "copy":
            return f"copy of {self.ref.render()}"
        names = [str(n) for n in self.names]
        if many and not self.plural_form:  # "4 Silvers" resolves to Silver: pluralise that
            names = [plural(r[1] if r[0] in ("card", "type") and r[1] else n)
                     for n, r in zip(names, self.resolved or [("", "")] * len(names), strict=False)]
        text = " or ".join(names)
        return f"{text} {word}" if self.plural_form else text

    def unparse(self, many: bool = False) -> str:
        if self.kind == "copy":
            return f"copy of {self.ref.unparse()}"
        if self.kind == "any":
            return "cards" if many else "card"
        names = " or ".join(str(n) for n in self.names)  # as written: "Golds", "Action"
        return f"{names} {'cards' if many else 'card'}" if self.plural_form else names


class Qualifier(Node):
    """A restriction after the noun: costing up to $4, other than Copper, cheaper than it."""

    def __init__(self, kind: str, value: Any = None) -> None:
        self.kind = kind
        self.value = value
        self.resolved: tuple[str, str] | None = None

    def check(self, env: Env) -> None:
        if self.kind in ("other_than", "has_name", "not_a"):
            self.resolved = env.card_or_type(str(self.value), self)

    def predicate(self) -> Pred:
        kind, value = self.kind, self.value
        if kind in ("cost_up_to", "cost_exactly", "cost_less", "cost_at_least", "cost_is"):
            amount = value.compile_money()
            compare = {
                "cost_up_to": lambda c, m: c <= m,
                "cost_exactly": lambda c, m: c == m,
                "cost_is": lambda c, m: c == m,
                "cost_less": lambda c, m: c < m,
                "cost_at_least": lambda c, m: c >= m,
            }[kind]

            def costs(ctx: Ctx, d: CardDef) -> bool:
                limit = amount(ctx)
                return limit is not None and compare(ctx.game.cost(d), limit)

            return costs
        if kind == "cheaper_than":
            ref = value
            return lambda ctx, d: any(ctx.game.cost(d) < ctx.game.cost(o) for o in ref.defs(ctx))
        if kind in ("other_than", "not_a"):
            kind_, name = self.resolved or ("card", str(value))
            if kind_ == "type":
                return lambda ctx, d: name not in d.type_set
            return lambda ctx, d: d.name != name
        if kind == "other_than_ref":  # "other than it": a different name
            ref = value
            return lambda ctx, d: all(d.name != o.name for o in ref.defs(ctx))
        if kind == "cost_either":  # "costing $3 or $4"
            first, second = value[0].compile_money(), value[1].compile_money()
            return lambda ctx, d: ctx.game.cost(d) in (first(ctx), second(ctx))
        if kind == "sharing_type":
            ref = value
            return lambda ctx, d: any(d.type_set & o.type_set for o in ref.defs(ctx))
        if kind == "not_in_play":
            return lambda ctx, d: all(c.d.name != d.name for c in ctx.player.in_play)
        if kind in ("leaving_play", "yours_in_play"):  # (picked from play: see Selection)
            return lambda ctx, d: True
        if kind == "not_in_hand":  # "that isn't a copy of one in your hand"
            return lambda ctx, d: all(c.d.name != d.name for c in ctx.player.hand)
        if kind == "cost_overpaid":
            return lambda ctx, d: ctx.game.cost(d) == ctx.vars.get("overpaid", 0)
        if kind == "not_named":
            return lambda ctx, d: d.name != ctx.vars.get("named_card")
        if kind == "same_cost":  # the same cost as `it` (nothing matches when nothing is bound)
            return lambda ctx, d: any(ctx.game.cost(d) == ctx.game.cost(c.d)
                                      for c, _z in ctx.vars.get("it", ()))
        raise ValueError(kind)

    def render(self, they: bool = False) -> str:
        kind, value = self.kind, self.value
        return {
            "cost_up_to": lambda: (f"costing at most {value.render()}" if getattr(
                self, "at_most", False) else f"costing up to {value.render()}"),
            "cost_exactly": lambda: f"costing exactly {value.render()}",
            "cost_is": lambda: f"costing {value.render()}",
            "cost_less": lambda: f"costing less than {value.render()}",
            "cost_at_least": lambda: f"costing {value.render()} or more",
            "cheaper_than": lambda: "cheaper" if value.name == "it" else f"cheaper than {value.render()}",
            "other_than": lambda: f"other than {value}",
            "not_a": lambda: f"that is not {article(str(value))} {value}",
            "other_than_ref": lambda: f"other than {value.render()}",
            "cost_either": lambda: f"costing {value[0].render()} or {value[1].render()}",
            "sharing_type": lambda: f"sharing a type with {value.render()}",
            "not_in_play": lambda: "you don't have a copy of in play",
            "not_named": lambda: "without that name",
            "not_in_hand": lambda: "that isn't a copy of one in your hand",
            "leaving_play": lambda: "you would discard from play this turn",
            "yours_in_play": lambda: "you have in play",
            "cost_overpaid": lambda: "costing the amount overpaid",
            "same_cost": lambda: "with the same cost",
        }[kind]()

    def unparse(self) -> str:
        kind, value = self.kind, self.value
        if kind == "cost_up_to" and getattr(self, "at_most", False):
            return f"costing at most {value.unparse()}"
        if kind == "cheaper_than":
            return f"cheaper than {value.unparse()}"
        if kind == "other_than":
            return f"other than {value}"
        if kind == "cost_either":
            return f"costing {value[0].unparse()} or {value[1].unparse()}"
        if kind == "not_in_hand":
            return "you don't have a copy of in your hand"
        if isinstance(value, Node):
            return self.render().replace(value.render(), value.unparse())
        return self.render()


class Filter(Node):
    """A whole card description: adjectives, noun, qualifiers."""

    def __init__(self, adjectives: list, noun: Noun, qualifiers: list[Qualifier]) -> None:
        self.adjectives = adjectives  # ("not", name) | ("distinct",) | ("revealed",)
        self.noun = noun
        self.qualifiers = qualifiers
        self.negated: list[tuple[str, str]] = []

    @property
    def distinct(self) -> bool:
        return any(a[0] == "distinct" for a in self.adjectives)

    @property
    def revealed(self) -> bool:
        return any(a[0] == "revealed" for a in self.adjectives)

    @property
    def leaving_play(self) -> bool:
        """"an Action card you would discard from play this turn": picked from play."""
        return any(q.kind == "leaving_play" for q in self.qualifiers)

    @property
    def yours_in_play(self) -> bool:
        """"an Action card you have in play": picked from play."""
        return any(q.kind == "yours_in_play" for q in self.qualifiers)

    def check(self, env: Env) -> None:
        self.negated = [env.card_or_type(a[1], self) for a in self.adjectives if a[0] == "not"]

    def compile_pred(self) -> Pred:
        tests: list[Pred] = []
        if self.noun.kind != "any":
            tests.append(self.noun.predicate())
        for kind, name in self.negated:
            if kind == "type":
                tests.append(lambda ctx, d, t=name: t not in d.type_set)
            else:
                tests.append(lambda ctx, d, n=name: d.name != n)
        if any(a[0] == "different" for a in self.adjectives):  # "a different Action": than `it`
            tests.append(lambda ctx, d: all(d.name != c.d.name for c, _z in ctx.vars.get("it", ())))
        if any(a[0] == "cheaper" for a in self.adjectives):  # "a cheaper card": than `it`
            tests.append(lambda ctx, d: any(ctx.game.cost(d) < ctx.game.cost(c.d)
                                            for c, _z in ctx.vars.get("it", ())))
        tests.extend(q.predicate() for q in self.qualifiers)
        if not tests:
            return lambda ctx, d: True
        if len(tests) == 1:
            return tests[0]
        return lambda ctx, d: all(t(ctx, d) for t in tests)

    def render(self, they: bool = False, many: bool = False) -> str:
        words = []
        for a in self.adjectives:
            if a[0] == "not":
                words.append(f"non-{a[1]}")
            elif a[0] == "distinct":
                words.append("differently named")
            elif a[0] in ("cheaper", "different"):
                words.append(a[0])
            else:
                words.append("revealed")
        words.append(self.noun.render(many=many))
        words.extend(q.render() for q in self.qualifiers if not getattr(q, "after_source", False))
        return " ".join(words)

    def render_with_article(self) -> str:
        text = self.render()
        return f"{article(text)} {text}"


# ------------------------------------------------------------------------- amounts, money

    def unparse(self, many: bool = False) -> str:
        words = [f"non-{a[1]}" if a[0] == "not" else "differently named" if a[0] == "distinct"
                 else a[0] for a in self.adjectives]
        words.append(self.noun.unparse(many))
        words.extend(q.unparse() for q in self.qualifiers if not getattr(q, "after_source", False))
        return " ".join(words)
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
            return f"the cost of {self.value.render()}"
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
            return lambda ctx: sum(ctx.game.cost(c.d) for c, _ in ctx.vars.get("it", ())) // unit
        if kind == "coins_overpaid":
            return lambda ctx: ctx.vars.get("overpaid", 0)
        pred = self.filter.compile_pred()
        distinct = self.filter.distinct
        cards_at = _place_cards(self.place)
        if distinct:
            return lambda ctx: len({c.d.name for c in cards_at(ctx) if pred(ctx, c.d)})
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
    if place in ("in_play_counting", "in_play_counting_it"):  # a reminder: this is in play
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


# ----------------------------------------------------------------------------- conditions
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
        if kind == "costs_at_least":
            ref, money = args[0], args[1].compile_money()
            return lambda ctx: any(ctx.game.cost(d) >= money(ctx) for d in ref.defs(ctx))
        if kind == "copy_in_play":  # a card of yours in play with its name
            ref = args[0]
            return lambda ctx: any(c.d.name == d.name for d in ref.defs(ctx)
                                   for c in ctx.player.in_play)
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
        if kind == "costs_at_least":
            return f"{args[0].render()} costs {args[1].render()} or more"
        if kind == "made_shuffle":
            return "this made you shuffle (at least one card)"
        if kind == "copy_in_play":
            return f"you have a copy of {args[0].render()} in play"
        if kind == "moved_at_least":
            words = {1: "one", 2: "two", 3: "three", 4: "four"}
            return f"you {args[0]} at least {words.get(args[1], args[1])}"
        if kind == "all_different":
            return "the revealed cards all have different names"
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
            "made_shuffle": lambda: "this made you shuffle",
            "copy_in_play": lambda: f"you have a copy of {args[0]} in play",
            "moved_at_least": lambda: f"you {args[0]} at least {NUMBER_WORDS[args[1]]}",
            "all_different": lambda: "the revealed cards all have different names",
            "revealed_any": lambda: f"you revealed any {args[0]}",
            "did": lambda: "you do" if args == ["do"] else "you did",
            "did_not": lambda: "you don't" if args == ["do"] else "you didn't",
        }[kind]()



# ------------------------------------------------------------------ turn history conditions
DONE = {"play": "played", "gain": "gained", "buy": "bought"}  # verb -> its past participle
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


# ----------------------------------------------------------------------------- selections
class Selection(Node):
    """Which cards a step acts on, and how many may or must be picked."""

    def __init__(
        self,
        kind: str,
        quantity: tuple[str, int] = ("one", 1),
        filter: Filter | None = None,
        source: str | None = None,
        chooser: str = "player",
        ref: Ref | None = None,
        per: Countable | None = None,
        until: tuple | None = None,
    ) -> None:
        self.kind = kind  # pick, ref, hand, deck, top, rest, down_to, until
        self.quantity = quantity
        self.filter = filter
        self.source = source
        self.chooser = chooser
        self.ref = ref
        self.per = per
        self.until = until
        self.optional = False

    @property
    def from_deck(self) -> bool:
        return self.kind in ("top", "until")

    def compile_select(self, default_zone: str = "hand") -> Callable[[Ctx, str], list[Placed]]:
        """Return `select(ctx, prompt) -> [(card, zone)]`."""
        kind = self.kind
        if kind == "ref":
            return lambda ctx, prompt: self.ref.resolve(ctx)
        if kind == "hand":
            return lambda ctx, prompt: [(c, ctx.player.hand) for c in ctx.player.hand]
        if kind == "deck":
            return lambda ctx, prompt: [(c, ctx.player.deck) for c in ctx.player.deck]
        if kind == "rest":
            return lambda ctx, prompt: held_apart(ctx)
        if kind == "top":
            count = self.quantity[1]
            if getattr(self, "looking", False):  # "look at the top 2 cards": they stay there
                return lambda ctx, prompt: look_at_top(ctx, count)

            def top(ctx: Ctx, prompt: str) -> list[Placed]:
                zone = revealed_zone(ctx)
                cards = ctx.game.take_from_deck(ctx.player, count)
                zone.extend(cards)
                ctx.vars.setdefault("revealed_all", []).extend((c, zone) for c in cards)
                return [(c, zone) for c in cards]

            return top
        if kind == "until":
            return self._compile_until()
        if kind == "one_each":  # "one of each differently named card": the first of each name
            pred = self.filter.compile_pred()
            source = self.source or "revealed"

            def one_each(ctx: Ctx, prompt: str) -> list[Placed]:
                placed = held_apart(ctx) if source == "revealed" else [
                    (c, zone) for zone in (zone_list(ctx, source),) for c in zone]
                seen, out = set(), []
                for c, zone in placed:
                    if c.d.name not in seen and pred(ctx, c.d):
                        seen.add(c.d.name)
                        out.append((c, zone))
                return out

            return one_each
        if kind == "down_to":
            keep = self.quantity[1]

            def down_to(ctx: Ctx, prompt: str) -> list[Placed]:
                hand = ctx.player.hand
                extra = len(hand) - keep
                if extra <= 0:
                    return []
                picked = ask(Decision(CARDS, ctx.player, prompt, list(hand), extra, extra,
                                      card=ctx.card, game=ctx.game))
                return [(c, hand) for c in picked]

            return down_to
        return self._compile_pick(default_zone)

    def _compile_pick(self, default_zone: str) -> Callable[[Ctx, str], list[Placed]]:
        pred = self.filter.compile_pred() if self.filter else (lambda ctx, d: True)
        source = self.source or ("revealed" if self.filter and self.filter.revealed else
                                 "leaving_play" if self.filter and self.filter.leaving_play
                                 else "in_play" if self.filter and self.filter.yours_in_play
                                 else default_zone)
        if source == "revealed_it":  # "from it": as "from those cards"
            source = "revealed"
        how, n = self.quantity
        per = self.per.compile_count() if self.per is not None else None
        by_you = self.chooser == "you"
        left = self.chooser == "left"
        optional = self.optional
        # "that many cards" (after "spend any number of Favors to") and "up to 2 cards per
        # Favor you spend": pick up to that many per token held; the tokens are spent as picked.
        spend = None
        if how == "that_many":
            spend = (getattr(self, "spend_token", "favors"), 1)
        elif self.per is not None and self.per.kind == "spend":
            spend = (BY_WORD[self.per.word].key, getattr(self, "per_quantity", ("one", 1))[1])

        ref = self.ref
        playing = getattr(self, "playing", False)  # picked to be played: only playable cards

        def pick(ctx: Ctx, prompt: str) -> list[Placed]:
            if source == "ref":
                where = {id(c): z for c, z in ref.resolve(ctx) if any(c is x for x in z)}
                options = [c for c, _z in ref.resolve(ctx) if id(c) in where and pred(ctx, c.d)]
            elif source == "supply":  # the top card of each Supply pile
                piles = [p for p in ctx.game.piles.values() if p.in_supply and p.cards]
                where = {id(p.cards[-1]): p.cards for p in piles}
                options = [p.cards[-1] for p in piles if pred(ctx, p.cards[-1].d)]
            elif source == "revealed" and ctx.vars.get("looked_through") is None:
                held = held_apart(ctx)  # revealed, or looked at and still on the deck
                where = {id(c): z for c, z in held}
                options = [c for c, _z in held if pred(ctx, c.d)]
            else:
                zone = zone_list(ctx, source)
                if source == "revealed":
                    zone = ctx.vars["looked_through"]  # "look through ...; ... from it"
                where = None
                options = [c for c in zone if pred(ctx, c.d)]
                if source == "leaving_play":  # not a card Clean-up will leave in play
                    staying = ctx.game.staying_in_play(ctx.player)
                    options = [c for c in options if id(c) not in staying]
                if playing and source == "hand" and (
                        ctx.game.hand_play_limit is not None or "can_play" in ctx.game.listeners):
                    options = [c for c in options if ctx.game.can_play(ctx.player, c)]
            if how == "all":
                return [(c, zone if where is None else where[id(c)]) for c in options]
            if how == "one":
                low, high = 1, 1
            elif how == "exact":
                low = high = n
            elif spend is not None:
                low, high = 0, spend[1] * getattr(ctx.player, spend[0])
            elif how == "per":
                low = high = n * per(ctx)
            elif how == "up_to":
                low, high = 0, n
            elif how == "all_but":  # "all but one card from your hand"
                low = high = max(len(options) - n, 0)
            else:  # any number
                low, high = 0, len(options)
            # "you may discard 2 cards": none or exactly 2; with fewer the player may still
            # discard what there is (and it is not "doing it")
            exact = optional and how == "exact" and 1 < n <= len(options)
            high = min(high, len(options))
            low = 0 if optional else min(low, high)
            chooser = ctx.you if by_you else ctx.player
            if left:  # "the player to your left chooses"
                chooser = ctx.game.others(ctx.player)[0]
            picked = ask(Decision(CARDS, chooser, prompt, options, low, high,
                                  card=ctx.card, game=ctx.game, exact=exact))
            # pays for "you may spend a Favor to <pick>" once picked
            ctx.commit(bool(picked), empty=not options)
            if spend is not None and picked:
                spent = -(-len(picked) // spend[1])
                setattr(ctx.player, spend[0], getattr(ctx.player, spend[0]) - spent)
                ctx.vars["spent"] = spent
            return [(c, zone if where is None else where[id(c)]) for c in picked]

        return pick

    def _compile_until(self) -> Callable[[Ctx, str], list[Placed]]:
        amount, filter_ = self.until
        need = amount.compile_amount()
        pred = filter_.compile_pred()

        def until(ctx: Ctx, prompt: str) -> list[Placed]:
            zone = revealed_zone(ctx)
            wanted, found = need(ctx), 0
            out = []
            while found < wanted:
                cards = ctx.game.take_from_deck(ctx.player, 1)
                if not cards:
                    break
                zone.append(cards[0])
                out.append((cards[0], zone))
                if pred(ctx, cards[0].d):
                    found += 1
            ctx.vars.setdefault("revealed_all", []).extend(out)
            # "it"/"them" afterwards: the cards the reveal was looking for
            ctx.vars["until_found"] = [(c, z) for c, z in out if pred(ctx, c.d)]
            return out

        return until

    def render(self, they: bool = False) -> str:
        if getattr(self, "text", None):  # written differently ("one", "all but one")
            return self.text
        kind = self.kind
        if kind == "ref":
            return self.ref.render()
        if kind == "hand":
            return "your hand"
        if kind == "deck":
            return "your deck"
        if kind == "rest":
            return getattr(self, "text", "the rest")
        if kind == "one_each":
            return f"one of each {self.filter.render()}"
        if kind == "down_to":
            return f"down to {self.quantity[1]} {plural('card', self.quantity[1])} in hand"
        if kind == "top":
            n = self.quantity[1]
            return "the top card of your deck" if n == 1 else f"the top {n} cards of your deck"
        if kind == "until" and getattr(self, "revealing", ""):
            qualifiers = " ".join(q.render() for q in self.until[1].qualifiers)
            return (f"cards from the top of your deck until revealing {self.revealing} "
                    f"{qualifiers}")
        if kind == "until":
            amount, filter_ = self.until
            many = amount.constant != 1
            return (f"cards from your deck until you reveal {amount.render()} "
                    f"{filter_.render(many=many)}")
        how, n = self.quantity
        many = how not in ("one", "per") and not (how in ("exact", "up_to") and n == 1)
        if self.source == "ref":
            prefix = {"one": "one of", "exact": f"{n} of", "up_to": f"up to {n} of",
                      "any": "any number of", "all": "all of"}.get(how, "")
            text = f"{prefix} {self.ref.render()}"
            return text + " that you choose" if self.chooser == "you" else text
        if how == "all_but":
            words = {1: "one", 2: "two", 3: "three", 4: "four"}
            return f"all but {words.get(n, n)} {self.filter.render(many=n != 1)}" + {
                "hand": " from your hand", None: ""}.get(self.source, "")
        noun = self.filter.render(many=many)
        if getattr(self, "bare", False):
            return "any number"
        if how == "one":
            text = f"{article(noun)} {noun}"
        elif how == "that_many":
            text = f"that many {noun}"
        elif how == "per" and self.per.kind == "spend":
            each, k = getattr(self, "per_quantity", ("one", 1))
            noun = self.filter.render(many=k != 1)
            count = {"one": article(noun), "up_to": f"up to {k}"}.get(
                each, "one" if k == 1 else str(k))
            text = f"{count} {noun} per {self.per.render()}"
        elif how == "exact":
            text = f"{article(noun) if n == 1 else n} {noun}"  # "discard a card", not "1 card"
        elif how == "up_to":
            text = f"up to {n} {noun}"
        elif how == "any":
            text = f"any number of {noun}"
        elif how == "per":
            text = f"{article(noun)} {noun} per {self.per.render()}"
        else:
            text = f"those {noun}" if getattr(self, "those", False) else f"the {noun}"
        source = {
            "hand": " from your hand", "discard": " from your discard pile", "deck": " from your deck",
            "trash": " from the trash", "supply": " from the Supply", "revealed": "", None: "",
            "revealed_it": " from it",
        }.get(self.source, "")
        text += source
        if self.chooser == "you":
            text += " that you choose"
        if self.filter is not None:  # "from your hand that you don't have a copy of in play"
            text += "".join(f" that {q.render()}" for q in self.filter.qualifiers
                            if getattr(q, "after_source", False))
        return text

    SOURCES = {"hand": " from your hand", "discard": " from your discard pile", "deck":
               " from your deck", "trash": " from the trash", "supply": " from the supply",
               "revealed": " from them", "revealed_it": " from it", None: ""}

    def unparse(self) -> str:
        if getattr(self, "text", None):  # written differently ("one", "the other cards")
            return self.text
        kind = self.kind
        if kind == "ref":
            return self.ref.unparse()
        if kind == "one_each":
            return f"one of each {self.filter.unparse()}{self.SOURCES[self.source]}"
        if kind == "until" and getattr(self, "revealing", ""):
            qualifiers = " ".join(q.unparse() for q in self.until[1].qualifiers)
            return f"cards from the top of your deck until revealing {self.revealing} {qualifiers}"
        if kind == "until":
            amount, filter_ = self.until
            return f"cards from your deck until you reveal {amount.unparse()} {filter_.unparse()}"
        if kind != "pick":
            return self.render()  # your hand, your deck, the rest, the top cards, down to
        if getattr(self, "bare", False):
            return "any number"
        chooser = " that you choose" if self.chooser == "you" else ""
        if self.source == "ref":
            many = "one" if self.quantity[0] == "one" else _quantity(self.quantity)
            return f"{many} of {self.ref.unparse()}{chooser}"
        if self.quantity[0] == "per":
            text = (f"{_quantity(getattr(self, 'per_quantity', ('one', 1)))} "
                    f"{self.filter.unparse()} per {self.per.unparse()}")
        elif getattr(self, "those", False):
            return f"those {self.filter.noun.unparse(many=True)}"
        else:
            one = self.quantity[0] == "one" or self.quantity == ("exact", 1)
            what = self.filter.unparse(many=not one)
            how = article(what) if self.quantity[0] == "one" else _quantity(self.quantity)
            text = f"{how} {what}"
        after = "".join(f" that {q.unparse()}" for q in self.filter.qualifiers
                        if getattr(q, "after_source", False))
        return f"{text}{self.SOURCES[self.source]}{after}{chooser}"


def _quantity(quantity: tuple[str, int]) -> str:
    """How many, as the DSL writes it: "a", "2", "up to 3", "all but one"."""
    how, n = quantity
    return {"one": "a", "exact": str(n), "up_to": f"up to {n}", "any": "any number of",
            "that_many": "that many", "all": "all", "all_but": f"all but {NUMBER_WORDS.get(n, n)}"
            }[how]
