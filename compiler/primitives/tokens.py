"""Spending tokens and money: "spend a Favor", "spend 2 Favors", "pay $2".

A token is any kind that cards may name (runtime/tokens: `by_cards`; the grammar's TOKEN_WORD),
its words, names and counter from its declaration."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.errors import PhraseError
from kingdom.compiler.nodes import Env, Node, article
from kingdom.compiler.primitives import primitive
from kingdom.compiler.primitives.bonus import Bonus, resource_of
from kingdom.compiler.selections.filters import Filter, Noun
from kingdom.compiler.selections.selection import Selection
from kingdom.runtime.decisions import PILE, Decision, ask
from kingdom.runtime.tokens import BY_RESOURCE, BY_WORD, VP_TOKENS

if TYPE_CHECKING:
    from kingdom.runtime.context import Ctx


@primitive(
    "spend_step",
    r"""
      "spend" article TOKEN_WORD            -> spend_one
    | "spend" INT TOKEN_WORD                -> spend_n
    | "pay" MONEY                           -> pay
""",
)
class Spend(Node):
    """Spending is all or nothing: with too few tokens nothing is spent and `did` is false."""

    pays = True  # "you may spend a Favor to <choice>": the choice decides (compiler.structure.may)

    def __init__(self, what: str, amount: int) -> None:
        self.what = what
        self.amount = amount

    def feasibility(self):
        """Whether there is enough to spend: a "you may spend ..." that can't is not offered."""
        what, amount = self.what, self.amount
        if what == "$":
            return lambda ctx: ctx.game.coins >= amount
        key = BY_RESOURCE[what].key
        return lambda ctx: getattr(ctx.player, key) >= amount

    @staticmethod
    def build_spend_one(_article, word) -> Spend:
        """Spends one Favor or Coffers; with none to spend, nothing happens and "if you did" is false."""
        return Spend(_token(word), 1)

    @staticmethod
    def build_spend_n(n, word) -> Spend:
        """Spends that many Favors or Coffers, all or nothing: with too few, nothing is spent."""
        return Spend(_token(word), int(n))

    @staticmethod
    def build_pay(money) -> Spend:
        """Pays coins from those you have this turn, all or nothing."""
        return Spend("$", int(str(money)[1:]))

    def compile(self, env: Env):
        what, amount = self.what, self.amount
        attr = "coins" if what == "$" else BY_RESOURCE[what].key  # the game's coins, or a token

        def spend(ctx: Ctx) -> None:
            holder = ctx.game if what == "$" else ctx.player
            have = getattr(holder, attr)
            ctx.did = have >= amount
            if ctx.did:
                setattr(holder, attr, have - amount)
                if holder is ctx.player:
                    ctx.game.tokens_changed(holder, ctx.source)

        return spend

    def render(self, they: bool = False) -> str:
        return self._text(str)

    def unparse(self) -> str:
        return self._text(str.lower)

    def _text(self, case) -> str:
        """"pay $2", "spend a Favor", "spend an Ember", "spend 2 Coffers"; `case` sets the
        name's case (the DSL writes it in lower case)."""
        if self.what == "$":
            return f"pay ${self.amount}"
        name = BY_RESOURCE[self.what].name(self.amount)
        return f"spend {article(name) if self.amount == 1 else self.amount} {case(name)}"


def _token(word) -> str:
    """The resource of a token kind's word: "favors" -> "Favor"."""
    return BY_WORD[str(word)].resource


@primitive(
    "spend_any_step",
    r"""
      "spend" "any" "number" "of" TOKEN_WORD "to" primitive     -> spend_any
""",
)
class SpendAny(Node):
    """"spend any number of Favors to trash that many cards from your hand": one pick of up to
    as many cards as Favors held; as many Favors as cards picked are spent."""

    def __init__(self, what: str, step: Node) -> None:
        self.what = what
        self.step = step

    @staticmethod
    def build_spend_any(word, step) -> SpendAny:
        what = _token(word)
        selection = getattr(step, "selection", None)
        if not isinstance(selection, Selection) or selection.quantity[0] != "that_many":
            tokens = BY_RESOURCE[what].plural
            raise PhraseError(f"'spend any number of {tokens} to ...' needs a step on 'that many "
                              f"cards', the cards the {tokens} pay for",
                              f"write 'spend any number of {tokens} to trash that many cards "
                              "from your hand'")
        selection.spend_token = BY_RESOURCE[what].key
        return SpendAny(what, step)

    @property
    def selection(self) -> Selection:
        return self.step.selection

    def compile(self, env: Env):
        return self.step.compile(env)

    def render(self, they: bool = False) -> str:
        return f"spend any number of {BY_RESOURCE[self.what].plural} to {self.step.render()}"

    def unparse(self) -> str:
        return f"spend any number of {BY_RESOURCE[self.what].plural.lower()} to {self.step.unparse()}"


@primitive(
    "token_pile_step",
    r"""
      "put" article TOKEN_WORD "token" "you" "have" "on" article adjective* supply_pile -> put_token
supply_pile: "supply" PILE_WORD
""",
)
class PutToken(Node):
    """"put a Favor token you have on a non-Victory Supply pile": the player picks the pile;
    a Favor token on a pile makes its cards cost $1 less (the rule "cards cost $1 less per
    Favor token on their piles" turns that on).

    The token is one of the kind written (its declaration's counter and name); on the pile it
    is a cost token whatever its kind."""

    chooses = True  # "you may put ...": the pile is the one decision (`no` declines)

    def __init__(self, filter: Filter, what: str) -> None:
        self.filter = filter
        self.what = what
        self.optional = False

    @staticmethod
    def build_put_token(_article, word, _article2, *rest) -> PutToken:
        adjectives = [a for a in rest if isinstance(a, tuple)]
        return PutToken(Filter(adjectives, Noun("any"), []), _token(word))

    def feasibility(self):
        key = BY_RESOURCE[self.what].key
        return lambda ctx: getattr(ctx.player, key) >= 1

    def compile(self, env: Env):
        pred = self.filter.compile_pred()
        optional = self.optional
        kind = BY_RESOURCE[self.what]
        key, token = kind.key, f"{article(kind.singular)} {kind.singular} token"
        prompt = f"Put {token} on a {self._piles()}"

        def put_token(ctx: Ctx) -> None:
            game, player = ctx.game, ctx.player
            ctx.did = False
            if getattr(player, key) < 1:
                return
            options = [name for name, pile in game.piles.items()
                       if pile.in_supply and pile.cards and pred(ctx, pile.cards[-1].d)]
            name = ask(Decision(PILE, player, prompt, options, 0 if optional else 1, 1,
                                card=ctx.card, game=game))
            ctx.commit(name is not None)
            if name is None:
                return
            setattr(player, key, getattr(player, key) - 1)
            pile = game.piles[name]
            pile.tokens["cost"] = pile.tokens.get("cost", 0) + 1
            game.note(f"{player.name} puts {token} on {name}")
            game.tokens_changed(player, ctx.source)
            ctx.did = True

        return put_token

    def _piles(self) -> str:
        words = [f"non-{a[1]}" for a in self.filter.adjectives if a[0] == "not"]
        return " ".join([*words, "Supply pile"])

    def render(self, they: bool = False) -> str:
        name = BY_RESOURCE[self.what].singular
        return f"put {article(name)} {name} token you have on a {self._piles()}"

    def unparse(self) -> str:
        name = BY_RESOURCE[self.what].singular.lower()
        adjectives = Filter(self.filter.adjectives, Noun("any"), []).unparse().removesuffix("card")
        return f"put {article(name)} {name} token you have on a {adjectives}supply pile"


@primitive(
    "pair_step",
    r"""
      "pair" "up" "your" TOKEN_WORD "with" CARD_WORD "you" "have" qualifier* pair_reward -> pair_up
pair_reward: "," "for" INT RESOURCE "per" "pair"
""",
)
class PairUp(Node):
    """"pair up your Favors with cards you have costing $2, for 2 VP per pair": when scoring,
    VP for each Favor matched with a different such card (not a lasting VP token)."""

    def __init__(self, what: str, filter: Filter, vp: int) -> None:
        self.what = what
        self.filter = filter
        self.vp = vp

    @staticmethod
    def build_pair_up(word, _cards, *rest) -> PairUp:
        qualifiers = [q for q in rest if isinstance(q, Node)]
        vp = int(rest[-1].children[0])  # pair_reward: INT RESOURCE
        return PairUp(_token(word), Filter([], Noun("any"), qualifiers), vp)

    def compile(self, env: Env):
        pred, points_each = self.filter.compile_pred(), self.vp
        attr, vp = BY_RESOURCE[self.what].key, VP_TOKENS.key

        def pair_up(ctx: Ctx) -> None:
            cards = sum(1 for c in ctx.player.owned() if pred(ctx, c.d))
            points = points_each * min(getattr(ctx.player, attr), cards)
            box = ctx.vars.get("score")
            if box is not None:
                box[0] += points
            else:  # (outside scoring: kept as VP tokens)
                setattr(ctx.player, vp, getattr(ctx.player, vp) + points)

        return pair_up

    def render(self, they: bool = False) -> str:
        what = BY_RESOURCE[self.what].plural
        quals = " ".join(q.render() for q in self.filter.qualifiers)
        return f"pair up your {what} with cards you have {quals}, for {self.vp} VP per pair"

    def unparse(self) -> str:
        what = BY_RESOURCE[self.what].plural.lower()
        quals = "".join(f" {q.unparse()}" for q in self.filter.qualifiers)
        return f"pair up your {what} with cards you have{quals}, for {self.vp} vp per pair"



@primitive(
    "card_token_step",
    r"""
      "add" "a" "token" "here"                                   -> add_token_here
    | "remove" "them" "for" "+" INT RESOURCE "each"              -> remove_tokens_for
""",
)
class CardTokens(Node):
    """Tokens on a card itself (Game.card_tokens, by the card's uid): "add a token here";
    "remove them for +1 Card each" later. A Duration with no tokens left to remove has
    nothing to do, so it leaves play in Clean-up (`keep_while`)."""

    def __init__(self, kind: str, amount: int = 0, resource: str = "") -> None:
        self.kind = kind
        self.amount = amount
        self.resource = resource

    @staticmethod
    def build_add_token_here() -> CardTokens:
        """Puts a token on this card. A Duration whose next-turn effect removes them stays
        in play while it has tokens to remove; tokens alone keep no card in play."""
        return CardTokens("add")

    @staticmethod
    def build_remove_tokens_for(amount, resource) -> CardTokens:
        """Removes this card's tokens, giving the bonus once per token removed."""
        return CardTokens("remove", int(amount), resource_of(str(resource)))

    def compile(self, env: Env):
        if self.kind == "add":
            def add_token(ctx: Ctx) -> None:
                if ctx.card is not None:
                    tokens = ctx.game.card_tokens
                    tokens[ctx.card.uid] = tokens.get(ctx.card.uid, 0) + 1
            return add_token
        amount, resource = self.amount, self.resource

        def remove_tokens(ctx: Ctx) -> None:
            count = ctx.game.card_tokens.pop(ctx.card.uid, 0) if ctx.card is not None else 0
            if count:
                Bonus(resource, amount * count).compile(env)(ctx)
            ctx.did = count > 0

        return remove_tokens

    def keep_while(self):
        if self.kind != "remove":
            return None
        return lambda ctx: ctx.card is not None and ctx.game.card_tokens.get(ctx.card.uid, 0) > 0

    def render(self, they: bool = False) -> str:
        if self.kind == "add":
            return "add a token here"
        return f"remove them for {Bonus(self.resource, self.amount).render()} each"

    def unparse(self) -> str:
        if self.kind == "add":
            return "add a token here"
        return f"remove them for {Bonus(self.resource, self.amount).unparse()} each"
