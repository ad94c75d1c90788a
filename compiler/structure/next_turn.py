"""Later: "at the start of your next turn: ..." (`NextTurn`, a Duration; with "now and", "then"
or "either now or"), and one step done later, "... at the start of your next turn" or "... at
the end of this turn" (`Deferred`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kingdom.compiler.nodes import Env, Node
from kingdom.compiler.structure.block import compile_apart
from kingdom.compiler.structure.choose import bound_ref
from kingdom.compiler.structure.common import unparse_compound
from kingdom.runtime.context import Ctx
from kingdom.runtime.decisions import OPTION, Decision, ask
from kingdom.runtime.game import Listener

if TYPE_CHECKING:
    from kingdom.compiler.structure.block import Block
    from kingdom.runtime.cards import Card
    from kingdom.runtime.game import Game
    from kingdom.runtime.player import Player


def acts_on_nothing(steps: list[Node]) -> Callable[[Ctx], bool]:
    """A test of whether later steps have nothing to do: steps that only act on cards bound
    now ("put them into your hand", "put it into your hand at the start of your next turn")
    have nothing to do when none were bound (nothing was set aside); then nothing waits, and
    a Duration leaves play in the Clean-up of this turn."""
    bound = [bound_ref(step) for step in steps]
    refs = [ref for ref in bound if ref is not None]
    if not refs or len(refs) != len(bound):
        return lambda ctx: False
    return lambda ctx: not any(ref.resolve(ctx) for ref in refs)


class NextTurn(Node):
    """"at the start of your next turn: ..." — a Duration; the card stays in play until then
    while it has something left to do: "set aside up to 2 cards; at the start of your next
    turn: put them into your hand" with none set aside waits for nothing and leaves play."""

    def __init__(self, body: Block, now: bool = False) -> None:
        self.body = body
        self.now = now  # "now and at the start of your next turn": the block runs twice

    def compile(self, env: Env):
        body = compile_apart(self.body, env)
        now = body if self.now else None
        # A Duration stays in play while it has something to do: a step may say when it has
        # nothing left to do (tokens to remove, ...) through a `keep_while()` test.
        keep = next((n.keep_while() for n in self.body.walk() if hasattr(n, "keep_while")), None)
        nothing_to_do = acts_on_nothing(self.body.statements)

        def schedule(ctx: Ctx) -> None:
            if nothing_to_do(ctx):
                return
            later = Ctx(ctx.game, ctx.you, ctx.card, dict(ctx.vars))
            later.vars.pop("revealed", None)
            later.vars.pop("looked", None)
            if keep is not None:
                later.vars["keep_while"] = keep
            ctx.you.next_turn.append((ctx.card, again if every else body, later))

        every = getattr(self, "every", False)

        def again(later: Ctx) -> None:
            """For the rest of the game: the block on a fresh copy of what was bound on play,
            then waiting again for the next turn (so the card stays in play)."""
            body(Ctx(later.game, later.you, later.card, dict(later.vars)))
            later.you.next_turn.append((later.card, again, later))

        if getattr(self, "either", False):
            return self._now_or_schedule(body, schedule)
        if now is None:
            return schedule

        def now_and_schedule(ctx: Ctx) -> None:
            schedule(ctx)  # (the next turn's context is taken before "now" binds anything)
            now(ctx)

        return now_and_schedule

    @staticmethod
    def _now_or_schedule(body: Callable[[Ctx], None], schedule: Callable[[Ctx], None]):
        """Asks when: "now" does the block at once (the card leaves play in Clean-up), the
        other answer waits as a Duration. Each resolution asks on its own (Throne Room)."""
        later = "at the start of your next turn"

        def now_or_schedule(ctx: Ctx) -> None:
            when = ask(Decision(OPTION, ctx.you, "When?", ["now", later], 1,
                                card=ctx.card, game=ctx.game))
            (schedule if when == later else body)(ctx)

        return now_or_schedule

    def _when(self) -> str:
        if getattr(self, "every", False):
            return "at the start of each of your turns for the rest of the game"
        if getattr(self, "either", False):
            return "either now or at the start of your next turn"
        if self.now:
            return "now and at the start of your next turn"
        return f"{'then ' if getattr(self, 'then', False) else ''}at the start of your next turn"

    def render(self, they: bool = False) -> str:
        mark = ":" if self.now or getattr(self, "either", False) or getattr(self, "every", False) \
            else ","  # printed "Now and ...: ..."
        return f"{self._when()}{mark} {self.body.render(they)}"

    def unparse_head(self) -> str:
        return self._when()

    def unparse(self) -> str:
        return unparse_compound(self)


class Deferred(Node):
    """One step done later: "play it at the start of your next turn", "+1 Card at the end of
    this turn". What the step refers to ("it", "$1 overpaid") is kept from now; a step at the
    start of your next turn that only acts on cards set aside now, none of which were, waits
    for nothing (a Duration then leaves play in this Clean-up)."""

    TIMES = {"next_turn": "at the start of your next turn", "end_turn": "at the end of this turn",
             "end_of_turn": "at end of turn"}  # (the last as printed on Faithful Hound)

    def __init__(self, step: Node, when: str) -> None:
        self.step = step
        self.when = when

    def compile(self, env: Env):
        body = compile_apart(self.step, env)
        when = self.when
        nothing_to_do = acts_on_nothing([self.step])

        def defer(ctx: Ctx) -> None:
            if when == "next_turn" and nothing_to_do(ctx):
                return  # ("put it into your hand at the start of your next turn", none set aside)
            game, owner = ctx.game, ctx.you
            later = Ctx(game, owner, ctx.card, dict(ctx.vars))
            later.vars.pop("revealed", None)
            later.vars.pop("looked", None)
            if when == "next_turn":
                # a Duration card stays in play while it has this to do; others stay nowhere
                card = ctx.card
                keep = card if card is not None and card.d.is_duration and any(
                    c is card for c in owner.in_play) else None
                owner.next_turn.append((keep, body, later))
                return

            def fire(g: Game, player: Player, card: Card | None, data: Any) -> None:
                g.unlisten(listener)
                body(later)

            listener = game.listen(Listener("end_turn", owner, fire, None, ctx.card, "game"))

        return defer

    def render(self, they: bool = False) -> str:
        text, time = self.step.render(), self.TIMES[self.when]
        if text.startswith("+") and " per " in text:  # "+1 Card at the end of this turn per $1"
            head, _, per = text.partition(" per ")
            return f"{head} {time} per {per}"
        return f"{text} {time}"

    def unparse(self) -> str:
        return f"{self.step.unparse()} {self.TIMES[self.when]}"
