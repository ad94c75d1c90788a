"""Parse DSL text into the typed node tree.

The grammar is grammar/effect.lark plus the rules each primitive registers (compiler.grammar);
a Lark Transformer (compiler.transform) turns parse trees into nodes (compiler.nodes,
.selections, .structure and the primitives); compiler.syntax_errors says what went wrong.
Here: parse() and the fallback that reads a refused one-line `head: steps` as its nested layout.
"""

from __future__ import annotations

import re
from typing import Any

from kingdom.compiler.errors import PhraseError
from kingdom.compiler.grammar import GRAMMAR_FILE, LARK_OPTIONS, STARTS, grammar_text, parser
from kingdom.compiler.structure.block import Block
from kingdom.compiler.structure.compound import make_compound
from kingdom.compiler.syntax_errors import DSLSyntaxError, _syntax_error
from kingdom.compiler.transform import ToNodes
from lark import Token, Tree
from lark.exceptions import UnexpectedInput, VisitError

__all__ = ["GRAMMAR_FILE", "LARK_OPTIONS", "STARTS", "DSLSyntaxError", "ToNodes", "grammar_text",
           "parse", "parser"]


MAX_TREE_DEPTH = 60  # rules inside each other in one statement; the built-in cards reach 9


def parse(text: str, start: str = "statements") -> Any:
    """Parse `text` from rule `start` into nodes; raises DSLSyntaxError."""
    try:
        tree = parser().parse(text, start=start)
    except UnexpectedInput as exc:
        error = _syntax_error(text, exc)
        try:
            nodes = _as_nested(text) if start == "statements" else None
        except DSLSyntaxError as nested:  # (the error found further on is the better one)
            error = max(error, nested, key=lambda e: (e.line, e.column))
            nodes = None
        if nodes is None:
            raise error from None
        return nodes
    _check_limits(tree)  # (the transformer recurses once per level)
    try:
        return ToNodes().transform(tree)
    except VisitError as exc:  # raised by a method of ToNodes
        meta = getattr(exc.obj, "meta", None)
        line, col = (meta.line, meta.column) if meta and not meta.empty else (1, 1)
        if isinstance(exc.orig_exc, PhraseError):  # the author's words: said precisely
            raise DSLSyntaxError(str(exc.orig_exc), line, col, "K202", exc.orig_exc.hint) from None
        raise DSLSyntaxError(f"cannot build '{exc.rule}': {exc.orig_exc}", line, col,
                             "K115") from None


def _blank(text: str) -> str:
    """`text` with every character but line breaks made a space: what is cut off a statement
    keeps its place, so the rest is parsed at its own lines and columns."""
    return re.sub(r"[^\n]", " ", text)


def _as_nested(text: str) -> list | None:
    """A one-line `head: steps` the grammar refused, read as its nested layout `{head: steps}`
    (the head's block is the rest of the line), so that a text means the same in either
    layout: "if you did: +1 card and +1 action". The statements before the head are parsed on
    their own. None when no head ends at a ':'; the error of the part that fails otherwise,
    where the nested layout would report it."""
    for colon in (m.start() for m in re.finditer(":", text)):
        cut = text.rfind(";", 0, colon)
        joined = re.match(r"\s*and\s", text[cut + 1 : colon]) if cut >= 0 else None
        skip = joined.end() if joined else 0  # "A; and head: B", the head joined to A
        try:
            head = parse(_blank(text[: cut + 1 + skip]) + text[cut + 1 + skip : colon],
                         "head_only")
        except DSLSyntaxError:
            continue
        before = parse(text[:cut]) if cut >= 0 else []
        body = parse(_blank(text[: colon + 1]) + text[colon + 1 :])
        start = len(text[: cut + 1]) + len(text[cut + 1 :]) - len(text[cut + 1 :].lstrip())
        line = text.count("\n", 0, start) + 1
        compound = make_compound(head, Block([body]), None)
        compound.line, compound.column = line, start - text.rfind("\n", 0, start)
        if joined:
            compound.and_before = True
        return [*before, compound]
    return None


def _check_limits(tree: Tree) -> None:
    """Refuse a tree deeper than MAX_TREE_DEPTH (1,000 reminders in a row) or with a number
    too long to convert, walking it without recursion."""
    from kingdom.compiler.loader import MAX_NUMBER_LENGTH

    stack: list[tuple[Tree | Token, int, Tree]] = [(tree, 1, tree)]
    while stack:
        node, depth, parent = stack.pop()
        if isinstance(node, Token):
            digits = max(map(len, re.findall(r"[0-9]+", node)), default=0)
            if digits > MAX_NUMBER_LENGTH:
                raise DSLSyntaxError(f"number too long ({digits:,} digits; at most "
                                     f"{MAX_NUMBER_LENGTH})", node.line or 1, node.column or 1,
                                     "K112")
            continue
        if depth > MAX_TREE_DEPTH:
            meta = parent.meta
            line, col = (meta.line, meta.column) if not meta.empty else (1, 1)
            raise DSLSyntaxError(f"the statement is nested too deeply (more than "
                                 f"{MAX_TREE_DEPTH} levels)", line, col, "K114",
                                 "split it into several statements, or remove reminders")
        stack.extend((child, depth + 1, node) for child in node.children)


