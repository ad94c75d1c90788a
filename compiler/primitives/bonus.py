"""Vanilla bonuses: +N Cards, +N Actions, +N Buys, +$N, -$N, +$ equal to a cost, +N Favors,
+N Coffers, +N Villagers, +N VP (and "+N VP tokens", the same tokens as printed).

The tokens are any kind runtime/tokens declares: its words (the grammar's @BONUS_TOKENS@ and
@NAMED_TOKENS@), its printed forms and its counter come from its declaration."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kingdom.compiler.checks import check_bonus, check_divisor
from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.amounts import Countable
from kingdom.compiler.selections.zones import Ref
from kingdom.runtime.tokens import BY_RESOURCE, BY_WORD

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx

# The bonuses of the turn, by word; a token kind's words are its own (tokens.BY_WORD).
RESOURCES = {
    "card": "Card", "cards": "Card", "action": "Action", "actions": "Action", "buy": "Buy",
    "buys": "Buy",
}


def resource_of(word: str) -> str:
    """What a bonus word gives: "cards" -> "Card", "favors" -> "Favor", "vp" -> "VP"."""
    return RESOURCES.get(word) or BY_WORD[word].resource


@primitive(
    "bonus",
    r"""
      "+" INT RESOURCE ("per" countable)?      -> bonus
    | "+" INT RESOURCE "per" INT countable _ROUND_DOWN   -> bonus_per_n  // e.g.
        // +1 card per 3 cards you have in play (round down)
    | "+" MONEY ("per" countable)?             -> bonus_money
    | "+" MONEY "per" INT countable _ROUND_DOWN   -> bonus_money_per_n
    | "-" MONEY ("per" countable)?             -> penalty_money  // e.g. -$1 per Treasure card in your hand
    | "+" COINS_EQUAL "equal" "to" coins_worth -> bonus_money_equal  // e.g. +$ equal to its cost
    | "+" INT VP_TOKEN ("per" countable)?      -> bonus_vp_tokens  // e.g. +1 vp token
    | "+" INT VP_TOKEN "per" countable _ROUND_DOWN   -> bonus_vp_tokens_round  // e.g.
        // +1 vp token per $2 it costs (round down)
    | played_worth MONEY ("per" countable)?   -> worth_when_played  // e.g.
        // when you play this, it's worth $1 per Treasure you have in play (counting it)
    | played_worth MONEY "per" INT countable _ROUND_DOWN   -> worth_when_played_per_n  // e.g.
        // when you play this, it's worth $1 per 5 cards in your deck and discard pile (round down)
played_worth: "when" "you" "play" "this" "," "it's" "worth"
coins_worth: "its" "cost"                      -> worth_its_cost  // e.g. +$ equal to its cost
           | "the" "total" "cost" "of" ref     -> worth_total_cost  // e.g.
           // trash 2 cards from your hand; +$ equal to the total cost of the trashed cards
// one token, so that "... you have in play (round down)" is not read as "(counting this)"
_ROUND_DOWN.2: /\(round down\)/
COINS_EQUAL.2: /\$(?= equal to\b)/
VP_TOKEN.2: /(?:@NAMED_TOKENS@)(?![a-z'\/-])/
RESOURCE.1: /(?:cards|card|actions|action|buys|buy|@BONUS_TOKENS@)(?![a-z'\/-])/
""",
)
class Bonus(Node):
    def __init__(self, resource: str, amount: int, per: Countable | None = None) -> None:
        self.resource = resource
        self.amount = amount
        self.per = per

    @staticmethod
    def build_bonus(amount, resource, per=None) -> Bonus:
        """+N Cards, Actions, Buys, Favors, Coffers or VP: draws the cards or adds to the counter."""
        return Bonus(resource_of(str(resource)), int(amount), per)

    @staticmethod
    def build_bonus_per_n(amount, resource, divisor, per) -> Bonus:
        """"+1 Card per 3 cards you have in play (round down)": one bonus per whole N counted,
        for any of them (+Cards, +Actions, +Buys, +Coffers, +Favors, +VP)."""
        bonus = Bonus.build_bonus(amount, resource, per)
        bonus.divisor = int(divisor)
        return bonus

    @staticmethod
    def build_bonus_money(money, per=None) -> Bonus:
        """+$N: coins to spend this turn."""
        return Bonus("$", int(str(money)[1:]), per)

    @staticmethod
    def build_bonus_money_per_n(money, divisor, per) -> Bonus:
        """"+$1 per 4 Favors you have (round down)"."""
        bonus = Bonus("$", int(str(money)[1:]), per)
        bonus.divisor = int(divisor)
        return bonus

    @staticmethod
    def build_penalty_money(money, per=None) -> Bonus:
        """-$N: coins taken away this turn, never below $0."""
        return Bonus("$", -int(str(money)[1:]), per)

    @staticmethod
    def build_bonus_money_equal(_dollar, worth: CoinsWorth) -> Bonus:
        """"+$ equal to its cost": coins worth what the cards referred to cost."""
        bonus = Bonus("$", 0)  # (no fixed amount: what the bots and the randomizer read)
        bonus.equal_to = worth
        return bonus

    @staticmethod
    def build_bonus_vp_tokens(amount, _word, per=None) -> Bonus:
        """"+1 VP token": the VP counter, written as printed."""
        bonus = Bonus(BY_WORD[str(_word)].resource, int(amount), per)
        bonus.tokens = True
        return bonus

    @staticmethod
    def build_bonus_vp_tokens_round(amount, word, per) -> Bonus:
        """"+1 VP token per $2 it costs (round down)": the reminder kept in the text."""
        bonus = Bonus.build_bonus_vp_tokens(amount, word, per)
        bonus.round_down = True
        return bonus

    @staticmethod
    def build_worth_when_played(_head, money, per=None) -> Bonus:
        """"When you play this, it's worth $1 per ...": a Treasure's coins, counted each time it
        is played (a second play counts again); the same as "+$1 per ...", as printed."""
        bonus = Bonus.build_bonus_money(money, per)
        bonus.worth_when_played = True
        return bonus

    @staticmethod
    def build_worth_when_played_per_n(_head, money, divisor, per) -> Bonus:
        """"When you play this, it's worth $1 per 5 cards in ... (round down)"."""
        bonus = Bonus.build_bonus_money_per_n(money, divisor, per)
        bonus.worth_when_played = True
        return bonus

    @staticmethod
    def build_worth_its_cost() -> CoinsWorth:
        """"its cost": the cost of the card "it" refers to (the one just trashed or revealed)."""
        return CoinsWorth(Ref("it"), total=False)

    @staticmethod
    def build_worth_total_cost(ref: Ref) -> CoinsWorth:
        """"the total cost of the trashed cards": the sum of their costs."""
        return CoinsWorth(ref, total=True)

    def plain_coins(self) -> int | None:
        """N for a plain "+$N" (nothing counted, taken away or looked up), which a Treasure
        gives without the interpreter; else None."""
        plain = self.resource == "$" and self.per is None and self.amount > 0
        return self.amount if plain and not hasattr(self, "equal_to") else None

    def check(self, env: Env) -> None:
        check_bonus(self, env)  # K311
        check_divisor(self, getattr(self, "divisor", 1), env)  # K304: "per 0 ... (round down)"

    def compile(self, env: Env):
        amount, resource = self.amount, self.resource
        if resource == "$" and (amount < 0 or hasattr(self, "equal_to")):
            return self._compile_coins_change(env)
        count = self.per.compile_count() if self.per is not None else None
        divisor = getattr(self, "divisor", 1)
        if divisor > 1:
            whole = count
            count = lambda ctx: whole(ctx) // divisor  # noqa: E731

        def value(ctx: Ctx) -> int:
            return amount if count is None else amount * count(ctx)

        if resource == "Card":
            def run(ctx: Ctx) -> None:
                shuffles = ctx.game.shuffles
                ctx.did = len(ctx.game.draw(ctx.player, value(ctx))) > 0
                if ctx.game.shuffles != shuffles:  # for "if this made you shuffle"
                    ctx.vars["shuffled"] = True
        # +Actions, +Buys and +$ belong to the turn: on another player's turn they do nothing.
        elif resource == "Action":
            def run(ctx: Ctx) -> None:
                if ctx.player is ctx.game.player:
                    ctx.game.actions += value(ctx)
        elif resource == "Buy":
            def run(ctx: Ctx) -> None:
                if ctx.player is ctx.game.player:
                    ctx.game.buys += value(ctx)
        elif resource == "$":
            if count is None:
                def run(ctx: Ctx) -> None:
                    if ctx.player is ctx.game.player:
                        ctx.game.coins += amount
            else:
                def run(ctx: Ctx) -> None:
                    if ctx.player is ctx.game.player:
                        ctx.game.coins += value(ctx)
        else:  # a token kind's counter, kept by the player whoever's turn it is
            key = BY_RESOURCE[resource].key

            def run(ctx: Ctx) -> None:
                player = ctx.player
                setattr(player, key, getattr(player, key) + value(ctx))
                ctx.game.tokens_changed(player)
        return run

    def _compile_coins_change(self, env: Env):
        """-$N (never below $0) and "+$ equal to its cost": on another player's turn, nothing."""
        if hasattr(self, "equal_to"):
            value = self.equal_to.compile(env)
        else:
            count = self.per.compile_count() if self.per is not None else lambda ctx: 1
            amount = self.amount
            value = lambda ctx: amount * count(ctx)  # noqa: E731

        def run(ctx: Ctx) -> None:
            if ctx.player is ctx.game.player:
                ctx.game.coins = max(0, ctx.game.coins + value(ctx))
        return run

    def _coins_text(self) -> str:
        if hasattr(self, "worth_when_played"):
            return f"when you play this, it's worth ${self.amount}"
        if hasattr(self, "equal_to"):
            return "+$ equal to "
        return f"-${-self.amount}" if self.amount < 0 else f"+${self.amount}"

    def _word(self) -> str:
        """The word of "+N ...", as printed: "Cards", "Coffers", "VP"; a token kind's name
        when written so ("+1 VP token")."""
        kind = BY_RESOURCE.get(self.resource)
        if kind is None:
            return self.resource + ("s" if self.amount != 1 else "")
        return kind.name(self.amount) if hasattr(self, "tokens") else kind.bonus_word(self.amount)

    def render(self, they: bool = False) -> str:
        if hasattr(self, "equal_to"):
            return self._coins_text() + self.equal_to.render()
        text = self._coins_text() if self.resource == "$" else f"+{self.amount} {self._word()}"
        divisor = getattr(self, "divisor", 1)
        if self.per is not None and divisor > 1:
            # "per 5 cards in ...", "per 4 Favors you have"
            things = self.per.render(many=self.per.kind in ("cards", "tokens"))
            text += f" per {divisor} {things} (round down)"
        elif self.per is not None:
            text += f" per {self.per.render()}"
        return text + (" (round down)" if hasattr(self, "round_down") else "")

    def unparse(self) -> str:
        if hasattr(self, "equal_to"):
            return self._coins_text() + self.equal_to.unparse()
        text = self._coins_text() if self.resource == "$" else f"+{self.amount} {self._word().lower()}"
        written = hasattr(self, "divisor")  # "per 3 ... (round down)", even "per 0" (K304) or 1
        divisor = getattr(self, "divisor", 1)
        if self.per is not None:
            text += f" per {f'{divisor} ' if written else ''}{self.per.unparse()}"
        return text + (" (round down)" if written or hasattr(self, "round_down") else "")


class CoinsWorth(Node):
    """What "+$ equal to ..." is worth: "its cost", "the total cost of the trashed cards"."""

    def __init__(self, ref: Ref, total: bool) -> None:
        self.ref = ref
        self.total = total

    def compile(self, env: Env) -> Callable[[Ctx], int]:
        """The coins: the sum of the costs of the cards referred to (none: $0)."""
        ref = self.ref
        return lambda ctx: sum(ctx.game.cost(d) for d in ref.defs(ctx))

    def render(self, they: bool = False) -> str:
        return f"the total cost of {self.ref.render()}" if self.total else "its cost"

    def unparse(self) -> str:
        return f"the total cost of {self.ref.unparse()}" if self.total else "its cost"
