"""Choosing among your cards as they are discarded from play in Clean-up: "this turn, you may
put one of your Action cards onto your deck when you discard it from play" (Scheme), "once this
turn, when you discard a Treasure from play, you may put it onto your deck" (Herbalist)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kingdom.compiler.nodes import Env, Node, article
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.filters import Filter
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.selections.zones import bind
from kingdom.runtime.context import Ctx
from kingdom.runtime.decisions import CARDS, Decision, ask
from kingdom.runtime.game import Listener

if TYPE_CHECKING:
    from kingdom.runtime.cards import Card
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player


@primitive(
    "from_play_step",
    r"""
      "this" "turn" "," "you" "may" "put" "one" "of" "your" filter _onto_deck _when_discarded -> put_back_one
    // e.g. this turn, you may put one of your Action cards onto your deck when you discard it from play
    | "once" "this" "turn" "," "when" "you" "discard" article filter _from_play _may_put_it -> put_back_once
    // e.g. once this turn, when you discard a Treasure from play, you may put it onto your deck
_onto_deck: "onto" "your" "deck"
_when_discarded: "when" "you" "discard" "it" _from_play
_from_play: "from" "play"
_may_put_it: "," "you" "may" "put" "it" _onto_deck
""",
)
class PutBackFromPlay(Node):
    """Lasts this turn: when your cards are discarded from play in Clean-up, you may put one
    of them that fits the description onto your deck instead. Each resolution of the step is
    one such choice (two Schemes, or one played twice by Throne Room, give two); a Duration
    staying in play is not discarded from play, so it is not offered."""

    def __init__(self, filter: Filter, once: bool = False) -> None:
        self.filter = filter
        self.once = once  # Herbalist's wording: "once this turn, when you discard a ..."

    @staticmethod
    def build_put_back_one(filter_) -> PutBackFromPlay:
        return PutBackFromPlay(filter_)

    @staticmethod
    def build_put_back_once(*args) -> PutBackFromPlay:
        return PutBackFromPlay(next(a for a in args if isinstance(a, Filter)), once=True)

    def compile(self, env: Env):
        pred = self.filter.compile_pred()
        prompt = self.render()[0].upper() + self.render()[1:]

        def install(ctx: Ctx) -> None:
            owner, source = ctx.you, ctx.card

            def fire(game: Game, player: Player, card: Card | None, leaving: Any) -> None:
                if player is not owner:  # another player's Clean-up: nothing of yours leaves
                    return
                game.unlisten(listener)
                check = Ctx(game, owner, source)
                options = [c for c in leaving if pred(check, c.d)]
                picked = ask(Decision(CARDS, owner, prompt, options, 0, 1, card=source,
                                      game=game)) if options else []
                for chosen in picked:  # onto the deck instead of into the discard pile
                    if game.move(chosen, leaving, owner.deck):
                        game.note(f"{owner.name} puts {chosen.d.name} onto their deck")

            listener = ctx.game.listen(Listener("leave_play", owner, fire, None, source, "turn"))

        return install

    def render(self, they: bool = False) -> str:
        if self.once:
            return (f"once this turn, when you discard {self.filter.render_with_article()} "
                    "from play, you may put it onto your deck")
        return (f"this turn, you may put one of your {self.filter.render(many=True)} onto your "
                "deck when you discard it from play")

    def unparse(self) -> str:
        if self.once:
            what = self.filter.unparse()
            return (f"once this turn, when you discard {article(what)} {what} from play, you may "
                    "put it onto your deck")
        return (f"this turn, you may put one of your {self.filter.unparse(many=True)} onto your "
                "deck when you discard it from play")



@primitive(
    "choose_in_play",
    r"""
      "choose" article filter                              -> choose_in_play  // e.g.
      // you may choose an Action card you have in play
""",
)
class ChooseInPlay(Node):
    """Picks one of your cards in play that fits the description ("an Action card you have
    in play"), without moving it: it is "it" for what follows (Scheme's "if you discard it
    from play this turn"). Other descriptions say nothing of where: K377."""

    binds = "chosen"

    def __init__(self, filter: Filter) -> None:
        self.filter = filter
        self.selection = Selection("pick", ("one", 1), filter)

    @staticmethod
    def build_choose_in_play(*args) -> ChooseInPlay:
        return ChooseInPlay(next(a for a in args if isinstance(a, Filter)))

    def compile(self, env: Env):
        if not self.filter.yours_in_play:
            env.error("K377", f"'{self.render()}' does not say where the card is", self,
                      "write 'choose a card you have in play'")
        select = self.selection.compile_select("in_play")
        prompt = "Choose " + self.filter.render_with_article()

        def choose(ctx: Ctx) -> None:
            picked = select(ctx, prompt)
            bind(ctx, "chosen", picked)
            ctx.did = bool(picked)

        return choose

    def render(self, they: bool = False) -> str:
        return f"choose {self.filter.render_with_article()}"

    def unparse(self) -> str:
        what = self.filter.unparse()
        return f"choose {article(what)} {what}"
