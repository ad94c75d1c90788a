"""Abilities below the line (`Ability`): "when you gain this: ...", a Reaction in hand, "while
this is in play, when you ...", "in games using this, ...", "setup:", "overpay:"; where the card
must be for one to work (`Ability.place`) and what a Reaction in hand must allow
(`check_reaction`, also used by lasting.py)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING

from kingdom.compiler.nodes import Env, Node, sentence
from kingdom.compiler.selections.zones import Ref
from kingdom.compiler.structure.block import compile_apart
from kingdom.compiler.structure.common import unparse_compound
from kingdom.compiler.structure.conditional import If
from kingdom.compiler.structure.when import When
from kingdom.runtime.cards import Trigger

if TYPE_CHECKING:
    from kingdom.compiler.structure.block import Block
    from kingdom.runtime.context import Ctx


class Ability(Node):
    """A below-the-line ability of a card: compiled into `CardDef.triggers` or its setup.

    Every ability says where its card must be for it to work (`place`): "self" (the card
    itself being gained, trashed or discarded from play: "when you gain this"), "hand" (a
    Reaction revealed from hand), "in_play" ("while this is in play, when you gain a card")
    or "game" ("in games using this, when you gain a card", and every ability of an Ally,
    whose place is being the game's Ally). One that says none is an error, not game-wide."""

    # `no_comma`: a Reaction written "... from your hand to gain a Gold" (the layout)
    ATTRIBUTES = Node.ATTRIBUTES | {"no_comma", "to_step"}
    SELF_EVENTS = ("gain_this", "trash_this", "gain_or_trash_this", "discard_from_play",
                   "buy_this", "discard_this")

    def __init__(self, when: When | str, body: Block) -> None:
        self.when = when
        self.body = body

    def check(self, env: Env) -> None:
        if env.path[:1] == ("triggers",):  # how its statements, checked next, will run
            env.context = "setup" if self.when == "setup" else "trigger"
        if getattr(self.when, "react", ""):
            check_reaction(self.when, self, env, empty=not self.body.statements)
        if getattr(self.when, "scope", "") == "game" and env.card_kind != "ally":
            for node in self.body.walk():  # no copy of the card is meant: "this" has no place
                if isinstance(node, Ref) and node.kind == "this":
                    env.error("K323", "'this' in a game-wide ability ('in games using this, "
                              "...') is no particular card, wherever its copies are", node,
                              "a game-wide ability acts on the player and the event's card "
                              "('it'); for a card that must be somewhere, write 'while this is "
                              "in play, when you ...'")

    def compile(self, env: Env):
        """Reached only for an ability inside a block (`play:`, an option, another ability's
        block), where it would be done at once instead of when its trigger fires."""
        head = self.when if isinstance(self.when, str) else self.when.render()
        env.error("K375", f"'{head}' is an ability, not a step: here it would be done at once, "
                  "not when it says", self,
                  "write it as its own item of 'triggers:' (below the line); above the line "
                  "only 'while this is in play, when you ...' works, as an item of 'play:' "
                  "itself; for this turn only, write 'this turn, when you ...'")
        return lambda ctx: None

    def trigger(self, env: Env) -> tuple[str, Trigger]:
        """(slot, Trigger): the slot is where the runtime looks for it."""
        # (when shuffling, "them" are the cards being shuffled, not cards revealed to go back)
        shuffling = getattr(self.when, "event", "") == "shuffle"
        effect = self.body.compile(env) if shuffling else compile_apart(self.body, env)
        if isinstance(self.when, str):  # setup / overpay
            return self.when, Trigger(self.when, effect)
        when = self.when
        if when.event in self.SELF_EVENTS:
            effect = _this_where_it_is(effect)
        label = "unaffected" if self.body.render() == "be unaffected by it" else when.event
        if when.react:  # a Reaction in hand: to an Attack, or to another event ("hand")
            min_hand = when.min_hand
            condition = (lambda ctx: len(ctx.player.hand) >= min_hand) if min_hand else None
            slot = "attack" if when.event == "attack" else "hand"
            return slot, Trigger(When.EVENTS.get(when.event, when.event), effect, condition,
                                 where="hand", label=label, react=when.react, who=when.who)
        if when.event == "gain_or_trash_this":  # compile_card files it under "trash" too
            return "gain", Trigger("gain", effect, label=label)
        if when.event in self.OWN_SLOTS:
            slot = when.event.removesuffix("_this")
            return slot, Trigger(slot, effect, label=label)
        where = self.place(env)
        return "game", Trigger(When.EVENTS[when.event], effect, label=label,
                               where="in_play" if where == "in_play" else "game", who=when.who)

    OWN_SLOTS = ("gain_this", "trash_this", "discard_from_play", "buy_this", "discard_this")

    def is_placed(self) -> bool:
        """Whether `trigger` asks `place` where the card must be: a game event that the card
        hears from somewhere (not setup, a Reaction in hand or an event about the card itself)."""
        when = self.when
        return not isinstance(when, str) and not when.react and (
            when.event != "gain_or_trash_this" and when.event not in self.OWN_SLOTS)

    def place(self, env: Env) -> str:
        """Where the card must be for this event ability to work; reports K320 when the
        text does not say. "gain one when you gain a Ferryman", on Ferryman: the card itself."""
        when = self.when
        if when.scope in ("game", "in_play"):
            return when.scope
        if env.card_kind == "ally":
            return "game"
        if when.event == "end_buy":  # "at the end of your Buy phase" on a card: a copy in play
            return "in_play"
        noun = when.filter.noun if when.filter is not None else None
        if noun is not None and [r[1] for r in noun.resolved] == [env.card_name]:
            return "self"
        text = when.render()
        statement = self.unparse()
        head = statement[: len(statement) - len(self.body.unparse())].rstrip(" :")
        wordings = [(f"while this is in play, {head}: ...", "for while a copy is in play",
                     f"while this is in play, {statement}")]
        if text.startswith("when you "):
            wordings.append((f"in games using this, {head}: ...", "for a game-wide ability",
                             f"in games using this, {statement}"))
        fitting = [w for w in wordings if head and env.fits(w[2])]  # (only what compiles)
        offered = " or ".join(f"'{w}' {why}" for w, why, _ in fitting)
        hint = f"'{text}' works on an Ally (kind: ally)" + (
            f"; on this card write {offered}" if offered
            else "; no wording of it says where a card of another kind must be")
        env.error("K320", f"'{text}' does not say where this card must be for it to work",
                  self, hint, suggestion=fitting[0][2] if fitting else "")
        return "game"

    def render(self, they: bool = False) -> str:
        if self.when == "setup":
            text = " ".join(sentence(s.render()) for s in self.body.statements)
            return "Setup: " + text.replace("player (including you)", "player")  # no "you" yet
        if getattr(self, "trailing", False):  # "gain one when you gain a Ferryman"
            return f"{self.body.render()} {self.when.render()}"
        if self.when == "overpay":
            return f"Overpay: {sentence(self.body.render())}"
        statements = self.body.statements
        if getattr(self.when, "react", ""):  # "you may reveal this from your hand"
            body = self.body.render()  # what revealing it is for: "to draw ...", "If you do, +2"
            if not statements:  # "you may play this from your hand": that is all it does
                return self.when.render()
            comma = "" if getattr(self, "no_comma", False) else ","
            return f"{self.when.render()}. If you do, {body}" if body.startswith("+") else (
                f"{self.when.render()}{comma} to {body}")
        if len(statements) <= 1:
            return f"{self.when.render()}, {self.body.render()}"
        parts = [f"{self.when.render()}, {statements[0].render()}"]
        for before, node in pairwise(statements):
            short = _elided_if(before, node)
            if short:
                parts[-1] += f", and {short}"
            elif getattr(node, "and_before", False):  # "discard it; and gain ...": one sentence
                parts[-1] += f" and {node.render()}"
            else:
                parts.append(node.render())
        return " ".join(sentence(p) for p in parts)

    def unparse_head(self) -> str:
        return self.when if isinstance(self.when, str) else self.when.unparse()

    def unparse(self) -> str:
        if getattr(self, "trailing", False):  # "gain one when you gain a Ferryman"
            return f"{self.body.statements[0].unparse()} {self.when.unparse()}"
        if not self.body.statements:  # a Reaction that only plays this
            return self.when.unparse()
        if getattr(self, "to_step", ""):  # "... from your hand, to gain a Gold": its one step
            return f"{self.when.unparse()}{self.to_step} {self.body.unparse()}"
        return unparse_compound(self)


def check_reaction(when: When, node: Node, env: Env, empty: bool = False,
                   lasting: bool = False) -> None:
    """A Reaction in hand ("you may reveal this from your hand") must be able to happen:
    reported with K350-K353 when its event, its wording or its place rules it out."""
    head = when.render()
    if when.event in Ability.SELF_EVENTS:
        env.error("K350", f"'{head}': the event is about this card itself, which is not in "
                  "your hand then", node, "a Reaction in hand answers another card's event: "
                  "'when you gain a card, you may reveal this from your hand: ...'")
    elif empty and when.react != "play":
        env.error("K351", f"'{head}' does nothing by itself", node,
                  f"say what it is for: '{when.unparse()}: ...'; only 'you may play this "
                  "from your hand' stands alone")
    elif when.first and when.event != "attack":
        env.error("K352", f"'{head}': 'first' means before an Attack does anything, and "
                  "this event is not an Attack", node, "drop 'first'")
    if lasting or env.path[:1] != ("triggers",):
        env.error("K353", f"'{head}' is a Reaction in hand, an ability of the card below "
                  "the line", node, "write it as an item of `triggers:`, not in `play:` or "
                  "after 'this turn,' / 'until your next turn,'")


def _elided_if(before: Node, node: Node) -> str:
    """A second "if you have N or more X" after one about the same X: "and if 10 or more, ..."."""
    if not (isinstance(before, If) and isinstance(node, If) and before.otherwise is None):
        return ""
    first, second = before.condition, node.condition
    if first.kind != "at_least" or second.kind != "at_least":
        return ""
    if first.args[-1].render() != second.args[-1].render():
        return ""
    return f"if {second.args[-2].render()} or more, {node.body.render()}"


def _this_where_it_is(effect: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    """In an ability of the card itself ("when you trash this: discard it"), "this" and "it"
    are the card, wherever it is when the ability fires (the trash, the discard pile, ...)."""

    def run(ctx: Ctx) -> None:
        if ctx.card is not None and "this_zone" not in ctx.vars:
            zone = ctx.game.zone_list(ctx.card)
            if zone is not None:
                ctx.vars["this_zone"] = zone
                ctx.vars.setdefault("it", [(ctx.card, zone)])
        effect(ctx)

    return run
