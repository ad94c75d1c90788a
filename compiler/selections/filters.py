"""Card descriptions: "a non-Victory Action card costing up to $4 other than Copper".

A `Filter` is a whole description: adjectives ("non-Victory", "differently named"), a `Noun`
(card, a type, a card name, "A or B", a copy of it) and `Qualifier`s after it ("costing up to
$4", "other than Copper", "cheaper than it", "sharing a type with it"). Each compiles to a
predicate `pred(ctx, carddef) -> bool` (`Pred`); what each qualifier means is
`Qualifier.predicate`, how it is printed `Qualifier.render`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kingdom.compiler.nodes import Env, Node, article, plural
from kingdom.compiler.selections.zones import known_defs

if TYPE_CHECKING:
    from kingdom.compiler.selections.zones import Ref
    from kingdom.runtime.cards import CardDef
    from kingdom.runtime.context import Ctx

Pred = Callable[["Ctx", "CardDef"], bool]


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
            return lambda ctx, d: any(ctx.game.cost(d) == ctx.game.cost(o) for o in known_defs(ctx))
        if kind == "same_name":  # the same name as `it` (nothing matches when nothing is bound)
            return lambda ctx, d: any(d.name == o.name for o in known_defs(ctx))
        raise ValueError(kind)

    def render(self, they: bool = False) -> str:
        kind, value = self.kind, self.value
        return {
            "cost_up_to": lambda: (f"costing at most {value.render()}" if getattr(
                self, "at_most", False) else f"costing {value.render()} or less" if getattr(
                self, "or_less", False) else f"costing up to {value.render()}"),
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
            "same_name": lambda: "with the same name",
        }[kind]()

    def unparse(self) -> str:
        kind, value = self.kind, self.value
        if kind == "cost_up_to" and getattr(self, "at_most", False):
            return f"costing at most {value.unparse()}"
        if kind == "cost_up_to" and getattr(self, "or_less", False):
            return f"costing {value.unparse()} or less"
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
            tests.append(lambda ctx, d: all(d.name != o.name for o in known_defs(ctx)))
        if any(a[0] == "cheaper" for a in self.adjectives):  # "a cheaper card": than `it`
            tests.append(lambda ctx, d: any(ctx.game.cost(d) < ctx.game.cost(o) for o in known_defs(ctx)))
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

    def unparse(self, many: bool = False) -> str:
        words = [f"non-{a[1]}" if a[0] == "not" else "differently named" if a[0] == "distinct"
                 else a[0] for a in self.adjectives]
        words.append(self.noun.unparse(many))
        words.extend(q.unparse() for q in self.qualifiers if not getattr(q, "after_source", False))
        return " ".join(words)
