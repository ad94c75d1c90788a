"""Helpers the transformer's areas share: number words, step separators, joined step lists."""

from __future__ import annotations

from kingdom.compiler.nodes import Node
from kingdom.compiler.selections.zones import Ref
from kingdom.runtime.tokens import BY_WORD
from lark import Token

NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4}


def _token_word(token: Token) -> str:
    """A token kind's word as a count keeps it, its singular: "favors" -> "favor", "coffers"."""
    return BY_WORD[str(token)].singular.lower()


AND = "; and"  # the separator of steps rendered in one sentence, "X and Y"
THEN = ", then"  # in an option: "+3 Cards, then discard 3 cards"


def _joined(children: list, separator: str = AND, mark: str = "and_before") -> list:
    """Steps with their separators ("; and", or ", then" in an option) dropped; a step after
    one is marked (`and_before`, `then_before`)."""
    out, joined = [], False
    for child in children:
        if isinstance(child, str) and child == separator:
            joined = True
            continue
        if joined and isinstance(child, Node):
            setattr(child, mark, True)
        joined = False
        out.append(child)
    return out


def _plural(ref: Ref, text: str) -> Ref:
    """A plural reference ("them", "those"): the set a step picks "one of them" from."""
    ref.text = text
    ref.plural = True
    return ref


def _int(token: Token) -> int:
    text = str(token)
    return NUMBER_WORDS[text] if text in NUMBER_WORDS else int(text.lstrip("$"))

