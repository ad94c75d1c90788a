"""Playing a card from somewhere: "play an Action card from your hand twice", "play it"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kingdom.compiler.nodes import NUMBER_WORDS, Env, Node
from kingdom.compiler.primitives import primitive
from kingdom.compiler.selections.filters import Filter
from kingdom.compiler.selections.selection import Selection
from kingdom.compiler.selections.zones import bind, still_where_bound
from kingdom.runtime.context import Ctx
from kingdom.runtime.decisions import BENEFIT, CARDS, PLAY_CARD, Decision, ask

if TYPE_CHECKING:
    from kingdom.compiler.references import Bound
    from kingdom.runtime.cards import Card


@primitive(
    "play_step",
    r"""
      "play" selection                   -> play_once
    | "play" selection "twice"           -> play_twice
    | "play" selection NUMBER_WORD "times" -> play_times  // e.g. play a Village from your hand three times
    | "play" selection "again"           -> play_again
    | "play" selection "with" "an" "extra" "option" extra_option_when  -> play_extra_option
extra_option_when: "when" "it" "gives" "you" "a" "choice" "this" "turn"
""",
)
class Play(Node):
    """Plays the picked card. Playing it "twice" ("three times") resolves it that many times
    even if it left play meanwhile; it is moved into play once."""

    binds = "played"

    def __init__(self, selection: Selection, times: int = 1, again: bool = False,
                 extra_option: bool = False) -> None:
        self.selection = selection
        self.times = times
        self.again = again
        if not again:
            selection.playing = True  # a card that can't be played from hand now isn't offered
        self.extra_option = extra_option  # its "choose" gets an extra option this turn

    @staticmethod
    def build_play_once(selection) -> Play:
        return Play(selection)

    @staticmethod
    def build_play_twice(selection) -> Play:
        return Play(selection, 2)

    @staticmethod
    def build_play_times(selection, times) -> Play:
        return Play(selection, next(n for n, word in NUMBER_WORDS.items() if word == times))

    @staticmethod
    def build_play_again(selection) -> Play:
        return Play(selection, 1, again=True)

    @staticmethod
    def build_play_extra_option(selection, _when) -> Play:
        return Play(selection, extra_option=True)

    def check_bound(self, bound: Bound, env: Env) -> None:
        """K312: `this` played from its own play (already in play: it would not be played, or,
        "again", play itself without end); K313: "play it again" of a card no step played."""
        ref = self.selection.ref if self.selection.kind == "ref" else None
        if ref is None:
            return
        if ref.kind == "this" and bound.playing:
            env.error("K312", f"'{self.render()}': a card cannot play itself while it is being "
                      "played", self, "to do its steps again write 'twice: ...' or 'repeat 2: "
                      "...'; a card in play is played again only by another card")
        elif self.again and ref.kind != "this" and bound.it != "played" and ref.name != "played":
            env.error("K313", f"'{self.render()}': 'again' replays a card this effect played, "
                      f"and '{ref.render()}' was not played", self, "play it first ('play an "
                      "Action card from your hand; play it again'), or leave out 'again'")

    def feasibility(self):
        """"you may play it" of a card no longer where it was bound (Stop-Moving) asks nothing."""
        ref = self.selection.ref if self.selection.kind == "ref" else None
        return still_where_bound(ref) if ref is not None and not self.again else None

    topic = PLAY_CARD  # what its decisions are about (runtime/decisions.py)

    def compile(self, env: Env):
        if self._by_name():
            return self._compile_by_name()
        select = self.selection.compile_select("hand", PLAY_CARD, env.reward_of(self))
        times, again, extra_option = self.times, self.again, self.extra_option
        prompt = self.render()[0].upper() + self.render()[1:]

        # A card that plays another more than once stays in play as long as a Duration it
        # played does (Throne Room, Specialist's "play it again"); one that plays it once, now
        # or later (Elder, Contract), does not.
        tracks = times > 1 or again

        def play(ctx: Ctx) -> None:
            game, player = ctx.game, ctx.player
            placed = select(ctx, prompt)
            played = []
            keeper = ctx.card if tracks else None
            for card, zone in placed:
                waiting = len(player.next_turn)
                if extra_option:
                    game.extra_choices[card.uid] = game.extra_choices.get(card.uid, 0) + 1
                if again:
                    game.resolve(player, card)
                    played.append((card, player.in_play))
                elif zone is not player.in_play and game.play(player, card, zone, times):
                    played.append((card, player.in_play))
                if keeper is not None:
                    keep_with(player.next_turn[waiting:], card, keeper)
            bind(ctx, "played", played, tried=[c for c, _z in placed])
            ctx.did = bool(played)

        return play

    def _by_name(self) -> bool:
        """"play any number of Action cards with the same name from your hand"."""
        selection = self.selection
        return (selection.kind == "pick" and selection.quantity[0] == "any" and self.times == 1
                and selection.source in (None, "hand") and not self.again
                and any(q.kind == "same_name" for q in selection.filter.qualifiers))

    def _compile_by_name(self):
        """One card at a time from your hand, each played before the next is picked (so a copy
        one drew can be played next): the first fits the description but its name, which it
        gives the rest; you stop when you like, or when none is left."""
        filter_ = self.selection.filter
        named = filter_.compile_pred()
        first = Filter(filter_.adjectives, filter_.noun,
                       [q for q in filter_.qualifiers if q.kind != "same_name"]).compile_pred()
        prompt = self.render()[0].upper() + self.render()[1:]

        def play_by_name(ctx: Ctx) -> None:
            game, player = ctx.game, ctx.player
            played: list = []
            while True:
                fits = named if played else first
                probe = ctx if not played else _bound_to(ctx, played[0][0])
                options = [c for c in player.hand if fits(probe, c.d)]
                picked = ask(Decision(CARDS, player, prompt, options, 0, 1, card=ctx.card,
                                      game=game, topic=PLAY_CARD, purpose=BENEFIT)
                             ) if options else []
                if not picked:
                    break
                if game.play(player, picked[0], player.hand, 1):
                    played.append((picked[0], player.in_play))
            bind(ctx, "played", played)
            ctx.did = bool(played)

        return play_by_name

    def render(self, they: bool = False) -> str:
        text = f"play {self.selection.render()}"
        text += _times(self.times)
        if self.again:
            text += " again"
        if self.extra_option:
            text += ('. When it gives you a choice of abilities (with "choose") this turn, '
                     "you may choose an extra (different) option")
        return text

    def unparse(self) -> str:
        text = f"play {self.selection.unparse()}"
        text += _times(self.times)
        if self.again:
            text += " again"
        if self.extra_option:
            text += " with an extra option when it gives you a choice this turn"
        return text


def _bound_to(ctx: Ctx, card: Card) -> Ctx:
    """`ctx` with `card` as "it", for "with the same name" to compare with."""
    probe = Ctx(ctx.game, ctx.you, ctx.card, {**ctx.vars, "it": [(card, ctx.player.in_play)]})
    probe.player = ctx.player
    return probe


def _times(times: int) -> str:
    """" twice", " three times": how many times a card is played (once says nothing)."""
    if times == 1:
        return ""
    return " twice" if times == 2 else f" {NUMBER_WORDS[times]} times"


def keep_with(waiting: list[tuple], played: Card, keeper: Card) -> None:
    """`keeper` played `played` more than once: it stays in play through each Clean-up that a
    later-turn effect of that very card keeps it in play for (not one of a card it played: a
    Throne Room that played a Throne Room which played a Duration is not kept)."""
    for card, _effect, later in waiting:
        kept_with = later.vars.get("kept_with", ())
        if card is played and keeper not in kept_with:
            later.vars["kept_with"] = [*kept_with, keeper]
