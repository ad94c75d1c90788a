"""The Lark parser of the DSL: grammar/effect.lark plus the rules each primitive registers,
built as LALR tables kept in the compile cache."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from kingdom.compiler import primitives
from kingdom.compiler.cache import lark_parser
from lark import Lark
from lark.lark import PostLex


class WholeWords(PostLex):
    """Makes every state of Lark's contextual lexer try WORD (any lower-case word), so that a
    keyword matches only as a whole word: without it a state that expects "the" lexes "then"
    as "the" + "n", and accepts "gaina Silver". The tokens pass through unchanged."""

    always_accept = ("WORD",)

    def process(self, stream):
        return stream


GRAMMAR_FILE = Path(__file__).resolve().parent.parent / "grammar" / "effect.lark"
STARTS = ["statements", "head_only", "worth"]
LARK_OPTIONS = {"start": STARTS, "parser": "lalr", "propagate_positions": True,
                "maybe_placeholders": False, "postlex": WholeWords()}


@cache
def grammar_text() -> str:
    """The grammar: grammar/effect.lark and the primitives' rules, in name order (the same text
    whatever order the primitives registered in, so one key for Lark's cached tables)."""
    primitives.load_all()
    order = sorted(primitives.GRAMMAR)
    rules = "\n".join(primitives.GRAMMAR[name] for name in order)
    names = " | ".join(order)
    return GRAMMAR_FILE.read_text(encoding="utf-8") + f"\n?primitive: {names}\n{rules}\n"


@cache
def parser() -> Lark:
    """The LALR parser; its tables are kept in the compile cache (compiler.cache), keyed by the
    grammar, so a new process need not build them again."""
    return lark_parser(grammar_text(), LARK_OPTIONS)

