"""Effects lasting this turn (or until your next turn): "this turn, when you gain a card: ...",
"the first time you play a Silver this turn: ..." (`Lasting`), and "if you discard it from play
this turn: ..." (`IfDiscardedFromPlay`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.structure.ability import check_reaction
from kingdom.compiler.structure.block import compile_apart
from kingdom.compiler.structure.common import unparse_compound
from kingdom.compiler.structure.may import MayStep
from kingdom.compiler.structure.when import When
from kingdom.runtime.context import Ctx
from kingdom.runtime.game import Listener

if TYPE_CHECKING:
    from kingdom.compiler.structure.block import Block
    from kingdom.runtime.cards import Card
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player


class IfDiscardedFromPlay(Node):
    """"if you discard it from play this turn: ...": the card bound as "it" now is watched
    until the end of this turn; if Clean-up discards it from play, the block is done with
    "it" being that card on its way to the discard pile ("put it onto your deck" takes it out
    of the cards leaving play). A card staying in play, or gone from play, does nothing."""

    def __init__(self, body: Block) -> None:
        self.body = body

    def compile(self, env: Env):
        body = compile_apart(self.body, env)

        def watch(ctx: Ctx) -> None:
            cards = [c for c, _zone in ctx.vars.get("it", ())]
            if not cards:
                return
            owner, source = ctx.you, ctx.card

            def fire(game: Game, player: Player, card: Card | None, leaving: Any) -> None:
                if player is not owner:
                    return
                game.unlisten(listener)
                run = Ctx(game, owner, source, dict(ctx.vars))
                run.vars["it"] = [(c, leaving) for c in cards if any(c is x for x in leaving)]
                if run.vars["it"]:
                    body(run)

            listener = ctx.game.listen(Listener("leave_play", owner, fire, None, source, "turn"))

        return watch

    def render(self, they: bool = False) -> str:
        return f"if you discard it from play this turn, {self.body.render()}"

    def unparse_head(self) -> str:
        return "if you discard it from play this turn"

    @staticmethod
    def sentences(block: Block) -> str:
        """The block's text, each "if you discard it ..." a sentence of its own, as printed
        ("... you have in play. If you discard it from play this turn, ...")."""
        text = ""
        for node in block.statements:
            part = node.render()
            if text:
                part = (". " + part[0].upper() + part[1:]) if isinstance(
                    node, IfDiscardedFromPlay) else "; " + part
            text += part
        return text

    def unparse(self) -> str:
        return unparse_compound(self)


class Lasting(Node):
    """"this turn, when you gain a card: ..." / "the first time you play a Silver this turn"."""

    def __init__(self, when: When, body: Block, until: str = "turn") -> None:
        self.when = when
        self.body = body
        self.until = until

    def check(self, env: Env) -> None:
        if self.when.react:
            check_reaction(self.when, self, env, lasting=True)

    def compile(self, env: Env):
        body = compile_apart(self.body, env)
        when, until = self.when, self.until
        event = When.EVENTS[when.event]
        match = when.matcher()

        scope, first_each_turn = when.scope, getattr(when, "first_each_turn", False)
        pred = when.filter.compile_pred() if first_each_turn else None
        # "once this turn, when ...": used up when it fires, or, for "you may ...", when taken
        once_this_turn = getattr(when, "once_this_turn", False)
        offered = once_this_turn and [type(n) for n in self.body.statements] == [MayStep]

        def install(ctx: Ctx) -> None:
            owner, source, unaffected = ctx.you, ctx.card, ctx.unaffected

            def fire(game: Game, player: Player, card: Card | None, data: Any) -> None:
                if scope == "others":  # "each other player": not you, nor who was unaffected
                    if player is owner or player in unaffected:
                        return
                elif player is not owner and until == "turn":
                    return
                if first_each_turn and card is not None and next(
                    (c for c in game.played_this_turn if pred(Ctx(game, player, c), c.d)), None
                ) is not card:
                    return  # only the first such card that player plays each turn
                # (the match counts "the first time you play a Silver" over the whole turn,
                # from before this effect too: the play itself is already listed)
                if when.once:
                    game.unlisten(listener)
                run = Ctx(game, owner, source)
                run.unaffected = unaffected  # a Reaction to the Attack still protects
                if isinstance(data, list):  # where the event put it (a gain): lose track of
                    run.vars["it"] = [(card, data)] if card in data else []  # it once it moves
                elif card is not None:
                    run.vars["it"] = [(card, game.zone_list(card) or player.discard)]
                if isinstance(data, Ctx):
                    run.vars["event"] = data  # the play being resolved ("it does nothing")
                if once_this_turn and not offered:
                    game.unlisten(listener)
                body(run)
                if offered and run.did:
                    game.unlisten(listener)

            listener = ctx.game.listen(Listener(event, owner, fire, match, source, until))

        return install

    def render(self, they: bool = False) -> str:
        body = self.body.render() if not any(  # "... in play. If you discard it ..."
            isinstance(n, IfDiscardedFromPlay) for n in self.body.statements) else (
            IfDiscardedFromPlay.sentences(self.body))
        if self.until == "next_turn":
            until = "until then" if getattr(self.when, "until_then", False) else (
                "until your next turn")
            if body == "it does nothing":
                return f"{until}, {self.when.render()} does nothing"
            return f"{until}, {self.when.render()}, {body}"
        if getattr(self.when, "this_turn_implied", False):  # "at the start of Clean-up, ..."
            return f"{self.when.render()}, {body}"
        if getattr(self.when, "once_this_turn", False):
            return f"once this turn, {self.when.render()}, {body}"
        if self.when.once or getattr(self.when, "this_turn_after", False):
            return f"{self.when.render()} this turn, {body}"
        return f"this turn, {self.when.render()}, {body}"

    def unparse_head(self) -> str:
        when = self.when.unparse()
        if self.until == "next_turn":
            return f"until {'then' if getattr(self.when, 'until_then', False) else 'your next turn'}, {when}"
        if getattr(self.when, "this_turn_implied", False):
            return when
        if getattr(self.when, "once_this_turn", False):
            return f"once this turn, {when}"
        return f"{when} this turn" if getattr(self.when, "this_turn_after", False) else (
            f"this turn, {when}")

    def unparse(self) -> str:
        return unparse_compound(self)
