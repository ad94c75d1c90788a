"""What may come next in an effect text, as the language service offers it: the compiler's
one service for that (compiler/expectations.py, which syntax errors use too) in the shape
completion wants, a keyword run on to the words only it leads to ("up" -> "up to")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token
from lark.exceptions import LarkError, UnexpectedInput

from kingdom.compiler import expectations
from kingdom.compiler.grammar import parser

CHAIN_LIMIT = 8  # words a completion runs on for while only one word can follow
# the compiler's kinds of a place for the designer's own words, as completion names them
OPEN_KINDS = {"name": "name", "money": "money", "number": "number", "reminder": "reminder",
              "comparison": "comparison"}


@dataclass(frozen=True)
class Expected:
    """One thing that may come next: `text` to insert (a keyword or the words only it leads to:
    "up to"), or for `kind` "name", "money", "number"... a place for the designer's own words."""

    kind: str  # "words" or one of OPEN_KINDS' values
    text: str
    description: str = ""


def expected_at(source: str, offset: int, start: str = "statements") -> list[Expected] | None:
    """The items that may come at `offset` of `source` (the words before it are read, the word
    being typed is not), most likely first; None when the text before the cursor is already
    wrong."""
    before = source[:offset]
    before = before[:len(before) - len(typed_part(before))]
    if expectations.accepted(before, start) is None:
        return None
    found: dict[str, Expected] = {}
    for item in expectations.expected_at(source, len(before), start, back=False):
        if item.kind in OPEN_KINDS:
            kind = OPEN_KINDS[item.kind]
            found.setdefault(kind, Expected(kind, "", item.label))
        elif item.kind in ("word", "sign") and item.insert:
            text = " ".join([item.insert, *_runs_on(before, start, item.insert)])
            found.setdefault(text, Expected("words", text))
    return list(found.values())


def typed_part(before: str) -> str:
    """The part of the text before the cursor that is being typed: the word the cursor is in,
    and for a capitalised one the capitalised words before it ("Throne R" of a card's name)."""
    typed = re.search(r"[\w'-]*$", before).group(0)
    if typed[:1].isupper():
        typed = re.search(r"(?:[A-Z][\w'-]* )*[\w'-]*$", before).group(0)
    return typed


def _runs_on(before: str, start: str, word: str) -> list[str]:
    """The words that must follow `word` after `before` (while exactly one keyword can): "up"
    runs on to "up to"; nothing when there is a choice."""
    words: list[str] = []
    try:
        state = parser().parse_interactive(before, start=start)
        state.exhaust_lexer()
        terminal = next((t for t in state.accepts() if word in expectations.words_of(t)), None)
        if terminal is None:
            return []
        state.feed_token(Token(terminal, word))
        while len(words) < CHAIN_LIMIT:
            nexts = [t for t in state.accepts() if t not in ("WORD", "$END")]
            keywords = [w for w in expectations.words_of(nexts[0]) if w in expectations.keywords()
                        ] if len(nexts) == 1 else []
            if len(keywords) != 1 or len(expectations.words_of(nexts[0])) != 1 or (
                    "$END" in state.accepts()):
                return words
            following = keywords[0]
            state.feed_token(Token(nexts[0], following))
            words.append(following)
    except (UnexpectedInput, LarkError):
        return []
    return words
