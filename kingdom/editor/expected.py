"""What may come next in an effect text: the grammar's expected items at a cursor, as words a
designer types. Everything the language service knows of what comes next goes through
`expected_at`, so a compiler-level service can take its place behind that one function."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token
from lark.exceptions import LarkError, UnexpectedInput

from kingdom.compiler.grammar import parser
from kingdom.compiler.syntax_errors import NAMED_TERMINALS, _keywords

CHAIN_LIMIT = 8  # words a completion runs on for while only one word can follow
# terminals that stand for something the designer writes in their own words
OPEN_TERMINALS = {"NAME": "name", "MONEY": "money", "INT": "number", "NON_TYPE": "non-type",
                  "REMINDER": "reminder", "CMP": "comparison"}


@dataclass(frozen=True)
class Expected:
    """One thing that may come next: `text` to insert (a keyword or the words only it leads to:
    "up to"), or for `kind` "name", "money", "number"... a place for the designer's own words."""

    kind: str  # "words" or one of OPEN_TERMINALS' values
    text: str
    description: str = ""


def expected_at(source: str, offset: int, start: str = "statements") -> list[Expected] | None:
    """The items that may come at `offset` of `source` (the words before it are read, the word
    being typed is not); None when the text before the cursor is already wrong."""
    before = source[:offset]
    before = before[:len(before) - len(typed_part(before))]
    try:
        state = parser().parse_interactive(before, start=start)
        state.exhaust_lexer()
    except (UnexpectedInput, LarkError):
        return None
    found: dict[str, Expected] = {}
    for terminal in sorted(state.accepts()):
        if terminal in ("WORD", "$END"):
            continue
        if terminal in OPEN_TERMINALS:
            kind = OPEN_TERMINALS[terminal]
            found.setdefault(kind, Expected(kind, "", NAMED_TERMINALS.get(terminal, kind)))
            continue
        for word in _keywords(terminal) or _literal(terminal):
            text = " ".join([word, *_runs_on(state, terminal, word)])
            found.setdefault(text, Expected("words", text))
    return list(found.values())


def typed_part(before: str) -> str:
    """The part of the text before the cursor that is being typed: the word the cursor is in,
    and for a capitalised one the capitalised words before it ("Throne R" of a card's name)."""
    typed = re.search(r"[\w'-]*$", before).group(0)
    if typed[:1].isupper():
        typed = re.search(r"(?:[A-Z][\w'-]* )*[\w'-]*$", before).group(0)
    return typed


def _literal(terminal: str) -> list[str]:
    """A terminal of punctuation (";", ":", "+"), as written."""
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return []
    return [pattern.value] if pattern.type == "str" else []


def _runs_on(state, terminal: str, word: str) -> list[str]:
    """The words that must follow `word` (while exactly one keyword can): "up" runs on to
    "up to"; nothing when there is a choice."""
    words: list[str] = []
    try:
        state = state.copy()
        state.feed_token(Token(terminal, word))
        while len(words) < CHAIN_LIMIT:
            nexts = [t for t in state.accepts() if t not in ("WORD", "$END")]
            if len(nexts) != 1 or len(_keywords(nexts[0])) != 1 or "$END" in state.accepts():
                return words
            following = _keywords(nexts[0])[0]
            state.feed_token(Token(nexts[0], following))
            words.append(following)
    except (UnexpectedInput, LarkError):
        return []
    return words
