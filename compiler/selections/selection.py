"""Selections: which cards a step acts on, and how many may or must be picked.

"up to 2 cards from your hand", "a Treasure from the trash", "the top 3 cards of your deck",
"cards from your deck until you reveal 2 Treasures", "one of them", "your hand". A `Selection`
compiles to `select(ctx, prompt) -> [(card, zone)]` (`compile_select`): the player's pick among
the cards that fit (`_compile_pick`: how many, from where, who chooses) or the cards it names
outright.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kingdom.compiler.nodes import NUMBER_WORDS, Node, article, plural
from kingdom.compiler.selections.zones import Placed, held_apart, look_at_top, revealed_zone, zone_list
from kingdom.runtime.decisions import ATTACK, BENEFIT, CARDS, COST, FORCED, LIMIT, OPPONENT, Decision, ask
from kingdom.runtime.tokens import BY_WORD

if TYPE_CHECKING:
    from kingdom.compiler.selections.amounts import Countable
    from kingdom.compiler.selections.filters import Filter
    from kingdom.compiler.selections.zones import Ref
    from kingdom.runtime.context import Ctx


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

    def compile_select(self, default_zone: str = "hand", topic: str | None = None,
                       reward: Node | None = None) -> Callable[[Ctx, str], list[Placed]]:
        """Return `select(ctx, prompt) -> [(card, zone)]`; a pick it asks carries `topic` (what
        the step does with the cards) and `reward` (what it leads to: runtime/decisions.py)."""
        kind = self.kind
        if kind == "ref":
            return lambda ctx, prompt: self.ref.resolve(ctx)
        if kind == "hand":
            return lambda ctx, prompt: [(c, ctx.player.hand) for c in ctx.player.hand]
        if kind == "deck":
            return lambda ctx, prompt: [(c, ctx.player.deck) for c in ctx.player.deck]
        if kind == "rest":
            return lambda ctx, prompt: held_apart(ctx)
        if kind == "top":  # revealed, looked at or moved, they are named where they are
            equal_to = getattr(self, "equal_to", None)
            if equal_to is not None:  # "a number of cards ... equal to N": N as it is now
                number = equal_to.compile_amount()
                return lambda ctx, prompt: look_at_top(ctx, max(0, number(ctx)))
            count = self.quantity[1]
            return lambda ctx, prompt: look_at_top(ctx, count)
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
                                      card=ctx.card, game=ctx.game, topic=topic,
                                      purpose=LIMIT if ctx.player is ctx.you else ATTACK,
                                      source="hand"))
                return [(c, hand) for c in picked]

            return down_to
        return self._compile_pick(default_zone, topic, reward)

    def _compile_pick(self, default_zone: str, topic: str | None, reward: Node | None
                      ) -> Callable[[Ctx, str], list[Placed]]:
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
            if left or (by_you and ctx.player is not ctx.you):  # picks among another's cards
                purpose = OPPONENT
            elif chooser is not ctx.you:
                purpose = ATTACK
            else:
                purpose = FORCED if low else COST if reward is not None else BENEFIT
            picked = ask(Decision(CARDS, chooser, prompt, options, low, high,
                                  card=ctx.card, game=ctx.game, exact=exact, topic=topic,
                                  purpose=purpose, reward=reward, source=source))
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
        if kind == "top" and getattr(self, "equal_to", None) is not None:
            return ("a number of cards from the top of your deck equal to "
                    f"{self.equal_to.render()}")
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
        if kind == "top" and getattr(self, "equal_to", None) is not None:
            return f"a number of cards from the top of your deck equal to {self.equal_to.unparse()}"
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
