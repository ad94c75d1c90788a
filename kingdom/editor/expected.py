"""What may come next in an effect text, as the language service offers it: the compiler's
expected items in the designer's words (compiler/expectations.py, the service behind syntax
errors too), each keyword run on to the words only it leads to ("up" -> "up to"). Everything
the editor knows of what comes next goes through `expected_at`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kingdom.compiler import expectations

CHAIN_LIMIT = 8  # words a completion runs on for while only one word can follow
OPEN_KINDS = {"name", "number", "money", "reminder", "comparison"}  # the designer's own words


@dataclass(frozen=True)
class Expected:
    """One thing that may come next: `text` to insert (a keyword or the words only it leads to:
    "up to"), or for `kind` "name", "money", "number"... a place for the designer's own words;
    `example` a statement of the reference that uses it."""

    kind: str  # "words" or one of OPEN_KINDS
    text: str
    description: str = ""
    example: str = ""


def expected_at(source: str, offset: int, start: str = "statements") -> list[Expected] | None:
    """The items that may come at `offset` of `source`, most likely first (the word being
    typed is not read as written: it is what the items complete); None when the text before
    the cursor is already wrong."""
    before = source[:offset]
    typed = typed_part(before)
    prefix = before[:len(before) - len(typed)]
    if expectations.accepted(prefix, start) is None:
        return None
    written = before if not typed[:1].isupper() else prefix  # (a name is matched by the caller)
    found: dict[str, Expected] = {}
    for item in expectations.expected_at(written, len(written), start):
        if item.kind in OPEN_KINDS:
            found.setdefault(item.kind, Expected(item.kind, "", item.label, item.example))
        elif item.kind in ("word", "sign"):
            text = " ".join([item.insert, *_runs_on(prefix, item.insert, start)])
            found.setdefault(text, Expected("words", text, item.label, item.example))
    return list(found.values())


def typed_part(before: str) -> str:
    """The part of the text before the cursor that is being typed: the word the cursor is in,
    and for a capitalised one the capitalised words before it ("Throne R" of a card's name)."""
    typed = re.search(r"[\w'-]*$", before).group(0)
    if typed[:1].isupper():
        typed = re.search(r"(?:[A-Z][\w'-]* )*[\w'-]*$", before).group(0)
    return typed


def _runs_on(prefix: str, word: str, start: str) -> list[str]:
    """The words that must follow `word` after `prefix` while exactly one word can: "up"
    runs on to "up to"; nothing when there is a choice, or after a sign."""
    if not re.fullmatch(r"[a-z][a-z'-]*", word):
        return []
    words: list[str] = []
    text = f"{prefix}{word}"
    while len(words) < CHAIN_LIMIT:
        terminals = expectations.accepted(text, start)
        nexts = [t for t in terminals or () if t != "WORD"]
        following = expectations.words_of(nexts[0]) if len(nexts) == 1 else []
        if len(following) != 1 or not re.fullmatch(r"[a-z][a-z'-]*", following[0]):
            return words
        words.append(following[0])
        text = f"{text} {following[0]}"
    return words
