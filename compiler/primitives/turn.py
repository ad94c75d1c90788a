"""Steps about the turn and the rules themselves: being unaffected by an Attack, naming a card,
cost reductions for the turn, extra and skipped turns, "can't play" restrictions until your
next turn, and a play that does nothing."""

from __future__ import annotations

from kingdom.compiler.errors import PhraseError
from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.runtime.context import Ctx
from kingdom.runtime.decisions import NAME, NAME_CARD, Decision, ask
from kingdom.runtime.game import Listener
from kingdom.runtime.tokens import BY_WORD


@primitive(
    "rule_step",
    r"""
      "be" "unaffected" "by" "it"                         -> unaffected
    | "name" "a" "card"                                   -> name_card
    | CARD_WORD "cost" MONEY "less" "this" "turn"         -> cost_less_this_turn
    | CARD_WORD REMINDER "cost" MONEY "less" "this" "turn" -> cost_less_this_turn_reminded
    | "this" "turn" "," CARD_WORD "cost" MONEY "less"     -> cost_less_this_turn  // e.g.
      // this turn, cards cost $1 less
    | "this" "turn" "," CARD_WORD REMINDER "cost" MONEY "less" -> cost_less_this_turn_reminded
    | CARD_WORD "cost" MONEY "less" "per" TOKEN_WORD "token" "on" "their" PILE_WORD -> cost_less_per_token
""",
)
class Rule(Node):
    def __init__(self, kind: str, amount: int = 0) -> None:
        self.kind = kind
        self.amount = amount

    @staticmethod
    def build_unaffected() -> Rule:
        """In a Reaction: the Attack played does nothing to you."""
        return Rule("unaffected")

    @staticmethod
    def build_name_card() -> Rule:
        """The player names a card; "the named card" compares with it."""
        return Rule("name")

    @staticmethod
    def build_cost_less_this_turn(_word, money) -> Rule:
        """Every card costs that much less (not below $0) for the rest of the turn."""
        return Rule("cost_less", int(str(money)[1:]))

    @staticmethod
    def build_cost_less_this_turn_reminded(_word, reminder, money) -> Rule:
        """"cards (everywhere) cost $1 less this turn": the reminder printed as written."""
        rule = Rule("cost_less", int(str(money)[1:]))
        rule.noun_reminder = str(reminder)
        return rule

    @staticmethod
    def build_cost_less_per_token(_word, money, token, _piles) -> Rule:
        """Cards cost $1 less for each Favor token on their Supply pile."""
        if money != "$1":
            raise PhraseError(f"a token on a pile makes its cards cost $1 less, not {money}",
                              "write 'cards cost $1 less per Favor token on their piles'")
        rule = Rule("cost_per_token", 1)
        rule.token = BY_WORD[str(token)].singular  # the kind the pile's tokens are written as
        return rule

    def compile(self, env: Env):
        if self.kind == "cost_per_token":
            def cost_per_token(ctx: Ctx) -> None:
                # Game.cost counts pile.tokens["cost"] while a "cost" listener says costs change.
                game = ctx.game
                if not any(x.source == "pile tokens" for x in game.listeners.get("cost", ())):
                    game.listen(Listener("cost", None, lambda *a: 0, source="pile tokens"))
            return cost_per_token
        if self.kind == "unaffected":
            def unaffected(ctx: Ctx) -> None:
                ctx.vars["unaffected"] = True
            return unaffected
        if self.kind == "name":
            def name_card(ctx: Ctx) -> None:
                names = sorted(d.name for d in ctx.game.library)
                ctx.vars["named_card"] = ask(Decision(NAME, ctx.player, "Name a card", names,
                                                      card=ctx.card, game=ctx.game,
                                                      topic=NAME_CARD, source="deck"))
            return name_card
        amount = self.amount

        def cost_less(ctx: Ctx) -> None:
            ctx.game.cost_reduction += amount
        return cost_less

    def render(self, they: bool = False) -> str:
        if self.kind == "unaffected":
            return "be unaffected by it"
        if self.kind == "name":
            return "name a card"
        if self.kind == "cost_per_token":
            return f"cards cost $1 less per {self.token} token on their piles"
        cards = " ".join(("cards", getattr(self, "noun_reminder", ""))).strip()
        return f"this turn, {cards} cost ${self.amount} less"

    def unparse(self) -> str:
        if self.kind == "cost_per_token":
            return f"cards cost $1 less per {self.token.lower()} token on their piles"
        if self.kind == "cost_less":
            cards = " ".join(("cards", getattr(self, "noun_reminder", ""))).strip()
            return f"{cards} cost ${self.amount} less this turn"
        return self.render()  # be unaffected by it; name a card


@primitive(
    "turn_control_step",
    r"""
      "take" "an" "extra" "turn" "after" "this" "one" not_third extra_turn_limit?  -> extra_turn
    | "skip" "a" "turn"                                                          -> skip_turn
not_third: "(" "but" "not" "a" "3rd" "turn" "in" "a" "row" ")"
extra_turn_limit: "," "during" "which" "you" "can" "only" "play" INT CARD_WORD "from" "your" "hand"
""",
)
class TurnControl(Node):
    """Extra and skipped turns, through the runtime's turn queue (Game.advance).

    An extra turn comes right after this one, never as a third turn in a row; a card that
    grants one stays in play until that turn (a Duration with something left to do)."""

    def __init__(self, kind: str, hand_plays: int | None = None) -> None:
        self.kind = kind
        self.hand_plays = hand_plays

    @staticmethod
    def build_extra_turn(_not_third, limit=None) -> TurnControl:
        """You take another turn after this one, unless it would be the third turn in a row."""
        return TurnControl("extra", int(limit.children[0]) if limit is not None else None)

    @staticmethod
    def build_skip_turn() -> TurnControl:
        """You skip your next turn."""
        return TurnControl("skip")

    def feasibility(self):
        """An extra turn can't be a 3rd turn in a row (nor a second one for this turn)."""
        if self.kind != "extra":
            return None

        def allowed(ctx: Ctx) -> bool:
            game = ctx.game
            if not game.extra_turn_allowed(ctx.you):
                return False
            return not any(p is ctx.you for p, _options in game.extra_turns)

        return allowed

    def compile(self, env: Env):
        if self.kind == "skip":
            def skip(ctx: Ctx) -> None:
                ctx.game.skip_turn(ctx.you)
            return skip
        hand_plays = self.hand_plays

        def extra_turn(ctx: Ctx) -> None:
            game = ctx.game
            ctx.did = game.schedule_extra_turn(ctx.you, hand_plays=hand_plays)
            if ctx.did and ctx.card is not None:  # stays in play until the extra turn is over
                later = Ctx(game, ctx.you, ctx.card)
                # ... unless that turn will be skipped (a Lich played the same turn)
                later.vars["keep_while"] = lambda c: not c.game.skips.get(c.you.index)
                ctx.you.next_turn.append((ctx.card, lambda c: None, later))

        return extra_turn

    def render(self, they: bool = False) -> str:
        if self.kind == "skip":
            return "skip a turn"
        text = "take an extra turn after this one (but not a 3rd turn in a row)"
        if self.hand_plays is not None:
            text += f", during which you can only play {self.hand_plays} cards from your hand"
        return text

    def unparse(self) -> str:
        return self.render()  # (the printed phrase is the DSL)


@primitive(
    "restriction_step",
    r"""
      "until" "your" "next" "turn" "," others_cant_play article filter copies_in_play  -> cant_play_copies
    // e.g. until your next turn, other players can't play a Silver from their hand that they have 2 or
    // more copies of in play
    | "until" "then" "," others_cant_play article filter copies_in_play  -> cant_play_copies_then
others_cant_play: "other" "players" "can't" "play"
copies_in_play: "from" "their" "hand" "that" "they" "have" INT "or" "more" "copies" "of" "in" "play"
""",
)
class Restriction(Node):
    """"until your next turn, other players can't play ... from their hand": a "can_play"
    listener that forbids the matching plays from hand until the start of your next turn."""

    def __init__(self, filter, copies: int, until: str = "until your next turn") -> None:
        self.filter = filter
        self.copies = copies
        self.until = until  # or "until then", after an "at the start of your next turn"

    @staticmethod
    def build_cant_play_copies(_head, _article, filter_, copies) -> Restriction:
        """Until your next turn, other players can't play matching cards from hand when they already have
        that many copies in play."""
        return Restriction(filter_, int(copies.children[0]))

    @staticmethod
    def build_cant_play_copies_then(_head, _article, filter_, copies) -> Restriction:
        """As "until your next turn, other players can't play ...", written after a Duration's "until
        then"."""
        return Restriction(filter_, int(copies.children[0]), "until then")

    def compile(self, env: Env):
        pred, copies = self.filter.compile_pred(), self.copies

        def restrict(ctx: Ctx) -> None:
            owner, unaffected = ctx.you, ctx.unaffected

            def forbids(game, player, card) -> bool:
                if player is owner or player in unaffected:
                    return False
                same = sum(1 for c in player.in_play if c.d.name == card.d.name)
                return same >= copies and pred(Ctx(game, player, card), card.d)

            ctx.game.listen(Listener("can_play", owner, lambda *a: None, forbids, ctx.card,
                                     "next_turn"))

        return restrict

    def render(self, they: bool = False) -> str:
        noun = self.filter.render()
        if noun.endswith(" card"):
            noun = noun[: -len(" card")]
        return (f"{self.until}, other players can't play {'an' if noun[:1] in 'AEIOU' else 'a'} "
                f"{noun} from their hand that they have {self.copies} or more copies of in play")

    def unparse(self) -> str:
        return (f"{self.until}, other players can't play a {self.filter.unparse()} from their hand "
                f"that they have {self.copies} or more copies of in play")


@primitive(
    "grant_step",
    r"""
      "it" "does" "nothing"                               -> does_nothing
""",
)
class Grant(Node):
    """From a "play" listener ("until your next turn, the first Treasure each other player
    plays each turn does nothing"): the play being resolved does nothing."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    @staticmethod
    def build_does_nothing() -> Grant:
        """The card being played is resolved without effect."""
        return Grant("nothing")

    def compile(self, env: Env):
        def does_nothing(ctx: Ctx) -> None:
            event = ctx.vars.get("event")
            if event is not None:
                event.vars["blanked"] = True  # Game.resolve skips the card's effect
        return does_nothing

    def render(self, they: bool = False) -> str:
        return "it does nothing"

    def unparse(self) -> str:
        return "it does nothing"
