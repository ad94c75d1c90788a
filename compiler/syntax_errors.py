"""Syntax errors of the DSL in the designer's words: where the parser stopped, what may come
there (compiler/expectations.py, at most a dozen, ranked), and the nearest complete statement
that parses as the suggestion. Every error has a help line."""

from __future__ import annotations

import re

from kingdom.compiler.expectations import (
    Expected,
    Parses,
    Suggestion,
    expected_at,
    keywords,
    nearest_phrase,
    word_at,
)

STEP_WORDS = [
    "draw", "gain", "trash", "discard", "put", "play", "reveal", "look", "set", "return",
    "spend", "pay", "name", "be", "cards", "you", "choose", "each", "if", "otherwise",
    "repeat", "twice", "for", "at", "this", "until", "when", "setup", "overpay",
]
MOST_EXPECTED = 12  # items a message lists; the rest are named by their group
GROUP_NOUNS = {"a step": "another step", "a condition": "another condition",
               "a card": "another card description", "cards": "other cards",
               "a number": "another number", "coins": "another amount of coins",
               "a word": "another word", "a sign": "another sign"}


class DSLSyntaxError(Exception):
    """A syntax error at (line, column) of the parsed text, with what was expected there
    (`expected`, ranked) and the nearest statement that parses (`suggestion`, or "")."""

    def __init__(self, message: str, line: int, column: int, code: str = "K200", hint: str = "",
                 expected: list[Expected] | None = None, suggestion: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.code = code
        self.hint = hint
        self.expected = expected or []
        self.suggestion = suggestion


def offset_of(text: str, line: int, column: int) -> int:
    """The index in `text` of a 1-based (line, column)."""
    lines = text.split("\n")
    line = min(max(line, 1), len(lines))
    return min(sum(len(x) + 1 for x in lines[: line - 1]) + max(column, 1) - 1, len(text))


def explain(text: str, line: int, column: int, start: str, parses: Parses) -> DSLSyntaxError:
    """The error at (line, column) of `text` told as a designer can act on it (a column past
    the end of its line is the end of the text)."""
    offset = offset_of(text, line, column)
    begin, _ = word_at(text, offset, back=False)
    word = text[begin:].split(" ")[0].split("\n")[0].rstrip(",;:")
    lines = text.splitlines() or [""]
    before = lines[line - 1][: column - 1].rstrip() if line <= len(lines) else ""
    here = text[begin:]
    expected = expected_at(text, begin, start, back=False)
    suggestion = nearest_phrase(text, begin, start, parses, expected)
    did = _did_you_mean(suggestion, text)
    at_step_start = before == "" or before.endswith((";", ":"))
    if at_step_start and word and word[0].islower() and word not in STEP_WORDS:
        hint = did or ("a statement starts with " + describe(expected))
        return DSLSyntaxError(f"unknown primitive '{word}': no statement starts with it",
                              line, column, "K201", hint + _phrases_hint(word), expected,
                              suggestion.text if suggestion else "")
    found = f"'{word}'" if word else f"'{here[0]}'" if here.strip() else "the end of the text"
    parts = [did] if did else []
    if here.startswith(",") and any(e.insert == ":" for e in expected):
        parts.append(f"write ':' here, not ',': a trigger or an opening such as "
                     f"'{_opening(before)}' is followed by a colon ('when you gain a card: ...')")
    elif _reaction_hint(before):
        parts.append(_reaction_hint(before))
    parts.append("expected " + describe(expected) if expected else
                 "nothing can go on here: end the statement before it, or start a new one "
                 "after ';'")
    hint = "; ".join(parts) + ("" if did else _phrases_hint(word))
    return DSLSyntaxError(f"unexpected {found}", line, column, "K200", hint, expected,
                          suggestion.text if suggestion else "")


def _did_you_mean(suggestion: Suggestion | None, text: str) -> str:
    """The suggestion as a help line's opening: the keyword meant, and the whole statement."""
    if suggestion is None:
        return ""
    if suggestion.word:
        return f"did you mean '{suggestion.word}'? (`{suggestion.text}`)"
    return f"did you mean: `{suggestion.text}`?"


def describe(expected: list[Expected], most: int = MOST_EXPECTED) -> str:
    """At most `most` expected items as a phrase, in their rank order: "'and', ',' or the end
    of the statement"; past that, each group left is named once ("another step")."""
    labels = shown_labels(expected, most)
    more = " (`kingdom phrases` lists them all)" if len(labels) < len(expected) else ""
    return _listed(labels) + more


def shown_labels(expected: list[Expected], most: int = MOST_EXPECTED) -> list[str]:
    """The labels a message lists for `expected`: all of them, or the first ones and a label
    for each group left ("another step"), `most` in all."""
    if len(expected) <= most:
        return [e.label for e in expected]
    for n in range(most - 1, 0, -1):
        left = list(dict.fromkeys(e.group for e in expected[n:]))
        if n + len(left) <= most:
            return [e.label for e in expected[:n]] + [GROUP_NOUNS.get(g, g) for g in left]
    return [e.label for e in expected[:most]]


def _listed(labels: list[str]) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]


def _opening(before: str) -> str:
    """The text of the statement so far: what follows its last ';' or ':'."""
    return re.split(r"[;:]", before)[-1].strip()


def _reaction_hint(before: str) -> str:
    """After a 'when ...' trigger and its ',' (or ', you may') only a Reaction in hand goes on:
    say so, and that any other ability takes ':' after its trigger."""
    match = re.search(r"(?:^|, )(when [^,]*),(?: you may)?$", _opening(before))
    if not match:
        return ""
    return (f"after '{match.group(1)},' only a Reaction in hand goes on ('you may reveal, trash, "
            f"discard or play this from your hand'); any other ability takes ':' after its "
            f"trigger ('{match.group(1)}: ...')")


def _phrases_hint(word: str) -> str:
    """Where to look for the phrases a word belongs to, or that none has it."""
    if word.lower() in keywords():
        return f"; no phrase goes on with '{word}' here: `kingdom phrases {word}` lists those using it"
    if word.islower() and word.isalpha():
        return f"; no phrase has the word '{word}': `kingdom phrases` lists them all"
    return ""
