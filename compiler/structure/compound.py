"""A `head: block` statement made into its node (`make_compound`), from the head's tuple that
compiler.transform.heads builds: the one place that knows every construct."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kingdom.compiler.nodes import Node
from kingdom.compiler.structure.ability import Ability
from kingdom.compiler.structure.block import Block
from kingdom.compiler.structure.choose import Choose, _option_block
from kingdom.compiler.structure.conditional import Case, Cases, If, Otherwise
from kingdom.compiler.structure.each import Each
from kingdom.compiler.structure.lasting import IfDiscardedFromPlay, Lasting
from kingdom.compiler.structure.may import MayStep
from kingdom.compiler.structure.next_turn import NextTurn
from kingdom.compiler.structure.repeat import ForEach, Repeat


def make_compound(head: tuple, body: Block, env_error: Callable[[str, str, Any], None]) -> Node:
    """Build the node for a `{head: body}` statement."""
    kind, args = head[0], head[1:]
    if kind == "if":
        return If(args[0], body)
    if kind == "otherwise":
        return Otherwise(body)
    if kind == "may":
        return MayStep(args[0], body, word="to")
    if kind == "may_to":  # "you may X to choose one:": the head inside the offer takes the block
        return MayStep(args[0], Block([[make_compound(args[1], body, env_error)]]), word="to")
    if kind == "choose":
        return Choose(args[0], [_option_block(s) for s in body.lines], by_you=args[1],
                      different=args[2] if len(args) > 2 else False)
    if kind == "each":
        return Each(args[0], body, args[1])
    if kind == "repeat":
        return Repeat(args[0], body)
    if kind == "for_each":
        return ForEach(args[0], body)
    if kind == "next_turn":
        node = NextTurn(body, now=args == ("now",))  # "now and at the start of your next turn"
        node.then = args == ("then",)  # "then at the start of your next turn, ..."
        node.either = args == ("either",)  # "either now or at the start of your next turn"
        node.every = args == ("every",)  # "... of each of your turns for the rest of the game"
        return node
    if kind == "lasting":
        return Lasting(args[0], body, args[1])
    if kind == "ability":
        return Ability(args[0], body)
    if kind == "nested":  # "at the end of your Buy phase, if ...": the second head inside
        return make_compound(args[0], Block([[make_compound(args[1], body, env_error)]]),
                             env_error)
    if kind == "if_discarded_from_play":
        return IfDiscardedFromPlay(body)
    if kind == "cases":
        return Cases(args[0], body)
    if kind == "case":
        return Case(args[0], body)
    raise ValueError(kind)
