"""The round trip as a law: DSL text parses to a tree, the tree's `unparse()` prints canonical
DSL, and that text parses back to an equal tree (`Node.__eq__`: fields, not positions).

Used by tests/test_round_trip.py over every card and a phrase corpus; kept here so that any
tool can check a statement the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kingdom.compiler.parser import DSLSyntaxError, parse
from kingdom.compiler.structure.block import Block, unparse_steps
from kingdom.compiler.structure.compound import make_compound


def round_trip(text: str, start: str = "statements") -> str | None:
    """Why `text` does not survive parse -> unparse -> parse unchanged, or None when it does.
    `start` is "statements" for a line of steps, "head_only" for the head of a `head: block`
    item, "worth" for a card's `vp:` text. The rendered English must not change either."""
    tree = parse(text, start)
    if start == "worth":
        vp, divisor, countable = tree
        written = f"{vp} per {f'{divisor} ' if divisor > 1 else ''}{countable.unparse()}"
        return None if parse(written, "worth") == tree else f"unparsed as {written!r}"
    if start == "head_only":
        node = make_compound(tree, Block([]), None)
        written = node.unparse_head()
        back = make_compound(parse(written, "head_only"), Block([]), None)
    else:
        node = Block([tree])
        written = unparse_steps(tree)
        back = Block([parse(written)])
    if back != node:
        return f"unparsed as {written!r}: parses to another tree"
    if start == "statements" and back.render_lines() != node.render_lines():
        return f"unparsed as {written!r}: renders {back.render_lines()} not {node.render_lines()}"
    return None


def block_items(value: Any) -> Iterator[tuple[str, str]]:
    """(text, start) for every statement line and every head of a card's YAML block."""
    from kingdom.compiler.card import _text_lines

    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, list):
            yield from block_items(item)
        elif isinstance(item, dict):
            for head, body in item.items():
                yield str(head), "head_only"
                yield from block_items(body)
        else:
            for _, line, _ in _text_lines(str(item)):
                yield line, "statements"


def parsed_cards(folders: list[Path]) -> Iterator[Any]:
    """Every card of `folders` that parses (a ParsedCard), in file order."""
    from kingdom.compiler.card import ParsedCard, parse_card
    from kingdom.compiler.expansions import folder_cards

    for folder in folders:
        files, _ = folder_cards(folder)
        for file, set_name in files:
            card = parse_card(file, set_name)
            if isinstance(card, ParsedCard) and not card.diagnostics:
                yield card


def card_items(folders: list[Path]) -> Iterator[tuple[str, str, str]]:
    """(card name, text, start) for every statement of the cards in `folders`."""
    for card in parsed_cards(folders):
        for key in ("play", "triggers"):
            if key in card.data:
                for text, start in block_items(card.data[key]):
                    yield card.name, text, start
        if isinstance(card.data.get("vp"), str):
            yield card.name, card.data["vp"], "worth"


def failures(items: list[tuple[str, str, str]]) -> list[str]:
    """Every item that does not survive the round trip, with why (a syntax error included)."""
    out = []
    for where, text, start in items:
        try:
            why = round_trip(text, start)
        except DSLSyntaxError as exc:
            why = f"{exc.line}:{exc.column}: {exc.message}"
        if why:
            out.append(f"{where}: {text!r}: {why}")
    return out


__all__ = ["DSLSyntaxError", "block_items", "card_items", "failures", "parsed_cards", "round_trip"]
