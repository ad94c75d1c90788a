"""Where an effect's cards are, and the references that name them: "it", "them", "this".

The acting player's zones by name (`zone_list`), the cards an effect revealed or looked at
(`look_at_top`: left where they are; `revealed_zone`: the cards revealed "until" one turns up,
held apart until they move on; `held_apart`: both, while still there), `bind`, which
names the cards a step moved ("it", "the trashed cards"), and `Ref`, which reads them back.
Each picked card travels with the list it is in now (`Placed`), so that the step that moves it
can honour the Stop-Moving rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card, CardDef
    from kingdom.runtime.context import Ctx

Placed = tuple["Card", list]


def revealed_zone(ctx: Ctx) -> list:
    """The cards revealed from the deck "until" one turns up, held apart until they move on
    (and the cards being shuffled, for a when-shuffling ability)."""
    zone = ctx.vars.get("revealed")
    if zone is None:
        zone = ctx.vars["revealed"] = []
    return zone


def held_apart(ctx: Ctx) -> list[Placed]:
    """The cards this effect revealed "until" (held apart), then the cards it revealed or
    looked at on the deck that are still there: that moves nothing, so a card drawn since is
    not one."""
    zone = revealed_zone(ctx)
    held = [(c, zone) for c in zone]
    for card, deck in ctx.vars.get("looked", ()):
        if any(c is card for c in deck):
            held.append((card, deck))
    return held


def look_at_top(ctx: Ctx, count: int) -> list[Placed]:
    """The top `count` cards of the acting player's deck, top first, left where they are
    (revealing or looking at them moves nothing); with too few, the discard pile is shuffled
    under the deck first (as drawing them would)."""
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


def bind(ctx: Ctx, name: str, placed: list[Placed], picked_from: list[Placed] | None = None,
         tried: list[Card] | None = None) -> None:
    """Bind moved cards as `it` and under the step's participle ("trashed", ...). Cards
    picked from a set ("trash one of them") leave "them" meaning that set until `it` is bound
    again: "discard one of them" next picks among the cards still there. `tried`: the cards
    the step was to move, when some could not be: later steps do not move those (they left),
    but read them as last known ("a card costing $1 more than it")."""
    ctx.vars["it"] = placed
    ctx.vars[name] = placed
    if picked_from is not None:
        ctx.vars["picked_from"] = (placed, picked_from)
    if tried is not None and len(tried) > len(placed):
        ctx.vars["last_known"] = (placed, tried)


def known_defs(ctx: Ctx, name: str = "it") -> list[CardDef]:
    """What the cards bound as `name` are, to read their cost, name or types: a card the step
    that bound them could not move (it had left) still counts, as it was last known."""
    known = ctx.vars.get("last_known")
    if known is not None and ctx.vars.get(name) is known[0]:
        return [card.d for card in known[1]]
    return [card.d for card, _zone in ctx.vars.get(name, ())]


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
        """What the cards are, to read their cost, name or types (last known: `known_defs`)."""
        if self.kind in ("it", "bound") and not (self.plural and self.name == "it"):
            return known_defs(ctx, self.name)
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

    def unparse(self) -> str:
        return self.render()  # (a reference is written as it is printed)
