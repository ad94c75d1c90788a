"""Examples for the phrase reference (compiler/phrases.py): every statement of the built-in cards
and examples/harbor as a unit, with the grammar aliases its parse uses and the English it
prints; a phrase's example is the shortest unit that uses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from kingdom.compiler.parser import DSLSyntaxError, ToNodes, parse, parser
from lark import Tree
from lark.exceptions import LarkError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_FOLDERS = (ROOT / "cards", ROOT / "examples" / "harbor")


@dataclass
class Example:
    """A statement that uses a phrase: its source, where it comes from and its English."""

    source: str
    card: str  # the card it is taken from, or "" for a hand-written one
    english: str


@dataclass
class Unit:
    """One statement of a card as its author wrote it, with the phrases it uses."""

    source: str
    card: str
    aliases: dict[str, type | None]
    english: str


def aliases_of(text: str, start: str = "statements") -> dict[str, type | None]:
    """The grammar aliases a text's parse uses ("draw_n", "if_head", ...), each with the class
    of the node it builds (None when it builds no node of its own)."""
    recorder = _Recorder()
    recorder.transform(parser().parse(text, start=start))
    return {alias: _node_class(built) for alias, built in recorder.built.items()}


def english(text: str, start: str = "statements") -> str:
    """The rules text of a statement written on its own, as a card would print it."""
    if start == "worth":
        vp, divisor, countable = parse(text, "worth")
        _resolve_names(countable)
        per = f"{divisor} {countable.filter.render(many=True)} you have" if divisor > 1 else (
            countable.render())
        return f"Worth {vp} VP per {per}" + (" (round down)." if divisor > 1 else ".")
    from kingdom.compiler.structure import Block

    return block_english(Block([parse(text, start)]))


def block_english(block: Any) -> str:
    """A block's rules text, its names resolved first as compiling a card does ("4 Silvers")."""
    _resolve_names(block)
    return "\n".join(block.render_lines())


@cache
def _names_env() -> Any:
    """A compile environment knowing every built-in and example card, type and pile name."""
    from kingdom.compiler.build import compile_folders
    from kingdom.compiler.loader import Located
    from kingdom.compiler.nodes import Env
    from kingdom.runtime.library import CARD_TYPES

    library, _ = compile_folders(list(EXAMPLE_FOLDERS), strict=False)
    types = set(CARD_TYPES) | {t for card in library for t in card.types}
    return Env(Located("example", None, ""), {c.name for c in library}, set(library.split_piles),
               types, library.resolve, library.suggest)


def _resolve_names(tree: Any) -> None:
    env = _names_env()
    for node in tree.walk():
        node.check(env)
    env.diagnostics.clear()  # (an unknown name renders as written)


def statement_units(line: str, card: str) -> list[Unit]:
    """Each statement of one line of a card ("a; b" gives two), as a unit of its own; the
    whole line where a statement cannot stand alone."""
    tree = parser().parse(line, start="statements")
    pieces = [line[t.meta.start_pos : t.meta.end_pos] for t in tree.children
              if isinstance(t, Tree) and t.data != "and_sep" and not t.meta.empty]
    units = []
    for text in pieces if len(pieces) > 1 else [line]:
        try:
            units.append(Unit(text, card, aliases_of(text), english(text)))
        except (DSLSyntaxError, LarkError):
            return [Unit(line, card, aliases_of(line), english(line))]
    return units


@cache
def card_units() -> tuple[Unit, ...]:
    """Every statement of the built-in cards and examples/harbor, each with its phrases."""
    from kingdom.compiler.round_trip import parsed_cards

    units: list[Unit] = []
    for card in parsed_cards(list(EXAMPLE_FOLDERS)):
        for key in ("play", "triggers"):
            if key in card.data:
                units.extend(_block_units(card, card.data[key], (key,)))
        if isinstance(card.data.get("vp"), str):
            text = card.data["vp"]
            units.append(Unit(text, card.name, aliases_of(text, "worth"), english(text, "worth")))
    return tuple(units)


def _block_units(card: Any, value: Any, path: tuple) -> list[Unit]:
    """The statements of a YAML block: string lines, and each `head: block` with its body."""
    from kingdom.compiler.card import _parse_block, _text_lines

    out: list[Unit] = []
    items = value if isinstance(value, list) else [value]
    for i, item in enumerate(items):
        item_path = (*path, i) if isinstance(value, list) else path
        if isinstance(item, list):
            for j, sub in enumerate(item):
                out.extend(_block_units(card, sub, (*item_path, j)))
        elif isinstance(item, dict):
            (head, body), = item.items()
            inner = _block_units(card, body, (*item_path, head))
            block = _parse_block(card, [item], path)
            source = yaml.safe_dump(item, sort_keys=False, width=1000, allow_unicode=True).strip()
            used = aliases_of(str(head), "head_only")
            for unit in inner:
                used = unit.aliases | used
            out.append(Unit(source, card.name, used, block_english(block)))
            out.extend(inner)
        else:
            for _, line, _ in _text_lines(str(item)):
                out.extend(statement_units(line, card.name))
    return out



# --------------------------------------------------------------------------- recording
class _Recorder(ToNodes):
    """ToNodes that remembers what each alias built, to find the node class behind it."""

    def __init__(self) -> None:
        super().__init__()
        self.built: dict[str, Any] = {}

    def _call_userfunc(self, tree: Tree, new_children: list | None = None) -> Any:
        result = super()._call_userfunc(tree, new_children)
        self.built.setdefault(str(tree.data), result)
        return result


def _node_class(built: Any) -> type | None:
    """The node class behind what a builder returned: a node, a head (a tuple, made into its
    node by `make_compound`) or a list of one statement."""
    from kingdom.compiler.nodes import Node
    from kingdom.compiler.structure import Block, make_compound

    if isinstance(built, list) and len(built) == 1:
        built = built[0]
    if isinstance(built, tuple) and built and isinstance(built[0], str):
        try:
            built = make_compound(built, Block([]), None)
        except (ValueError, IndexError, TypeError):
            return None
    return type(built) if isinstance(built, Node) else None
