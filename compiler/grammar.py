"""The Lark parser of the DSL: grammar/effect.lark plus the rules each primitive registers,
built as LALR tables kept in the compile cache."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from kingdom.compiler import primitives
from kingdom.compiler.cache import digest, lark_parser
from kingdom.compiler.lexicon import POSSESSIVES, third_person_rule
from kingdom.runtime import tokens
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


def with_token_words(text: str) -> str:
    """Grammar `text` with the words of the token kinds (runtime/tokens) filled in, each a
    regex alternation, plural first: @CARD_TOKENS@, the kinds cards name ("spend a Favor":
    favors|favor|coffers); @BONUS_TOKENS@, every kind's "+N" bonus word; @NAMED_TOKENS@, the
    name of a kind whose bonus has another word ("+1 vp token", besides "+1 vp")."""
    # (the kinds worth points last among the bonus words, as the grammar always listed them)
    bonus = sorted(tokens.KINDS, key=lambda kind: kind.scored)
    words = {"@CARD_TOKENS@": [w for kind in tokens.BY_CARDS for w in kind.words],
             "@BONUS_TOKENS@": [w for kind in bonus for w in kind.words],
             "@NAMED_TOKENS@": [w for kind in tokens.KINDS for w in kind.name_words]}
    for marker, alternatives in words.items():
        text = text.replace(marker, "|".join(alternatives))
    return text


@cache
def grammar_text() -> str:
    """The grammar: grammar/effect.lark and the primitives' rules, in name order (the same text
    whatever order the primitives registered in, so one key for Lark's cached tables), with the
    token kinds' words filled in."""
    primitives.load_all()
    order = sorted(primitives.GRAMMAR)
    rules = "\n".join(primitives.GRAMMAR[name] for name in order)
    names = " | ".join(order)
    they = {name: rule for name in order if (rule := third_person_rule(primitives.GRAMMAR[name]))}
    they_rules = "\n".join(they.values())
    they_names = " | ".join(f"{name}_they" for name in they)
    text = (GRAMMAR_FILE.read_text(encoding="utf-8") + f"\n?primitive: {names}\n{rules}\n"
            f"\n?primitive_they: {they_names}\n{they_rules}\n")
    return with_token_words(with_possessives(text))


def with_possessives(text: str) -> str:
    """Grammar `text` reading "their" wherever it reads "your" (compiler/lexicon.py): the words
    said of another player ("reveals the top card of their deck") build the same tree. The
    rule `_your` is inlined and its word filtered, so no builder sees it."""
    forms = " | ".join(f'"{word}"' for word in (*POSSESSIVES, *POSSESSIVES.values()))
    chunks = re.split(r"(?m)^(?=[ \t]*[?!]?\w+(?:\.\d+)?[ \t]*:)", text)
    # (a rule that keeps its words, "!put_place", keeps this one too, read as "your": ToNodes)
    text = "".join(c.replace('"your"', "_your_kept" if c.lstrip().startswith("!") else "_your")
                   for c in chunks)
    return text + f"\n_your: {forms}\n!_your_kept: {forms}\n"


@cache
def grammar_key() -> str:
    """A short hash of the grammar: what a parsed card kept in the cache was parsed with (a
    token kind declared or taken away changes the words, and so what a card file means)."""
    return digest(grammar_text())[:16]


@cache
def parser() -> Lark:
    """The LALR parser; its tables are kept in the compile cache (compiler.cache), keyed by the
    grammar, so a new process need not build them again."""
    return lark_parser(grammar_text(), LARK_OPTIONS)


tokens.watch(grammar_text.cache_clear, grammar_key.cache_clear, parser.cache_clear)

