"""Syntax errors of the DSL: where the parser stopped, what it expected there (grouped as
phrases), and a did-you-mean for a misspelt step or keyword."""

from __future__ import annotations

import difflib
import re
from functools import cache

from kingdom.compiler.grammar import parser
from kingdom.runtime import tokens
from lark.exceptions import UnexpectedInput

STEP_WORDS = [
    "draw", "gain", "trash", "discard", "put", "play", "reveal", "look", "set", "return",
    "spend", "pay", "name", "be", "cards", "you", "choose", "each", "if", "otherwise",
    "repeat", "twice", "for", "at", "this", "until", "when", "setup", "overpay",
]


class DSLSyntaxError(Exception):
    """A syntax error at (line, column) of the parsed text, with what was expected."""

    def __init__(self, message: str, line: int, column: int, code: str = "K200", hint: str = ""):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.code = code
        self.hint = hint


# Ordinary English words a card's text uses: a near miss of a keyword that is one of these was
# meant as itself ("they" is no misspelt "then"), so it gets no did-you-mean.
_COMMON_TEXT = """
a about after again all also an and another any are as at back be been before both but by can
card cards cost costs did do does down during each either else even every first for from gain
gains get gets had has have her here his how if in into is it its just last less may might more
most much must next no nor not now of off on once one only onto or other others our out over own
per play plays put same second she so some such than that the their them then there these they
third this those three through time times to too top turn two under until up upon us was way we
were what when where whether which while who whom whose why will with would yet you your
"""
COMMON_WORDS = frozenset(_COMMON_TEXT.split())


def _syntax_error(text: str, exc: UnexpectedInput) -> DSLSyntaxError:
    line, column = exc.line if exc.line > 0 else 1, exc.column if exc.column > 0 else 1
    lines = text.splitlines() or [""]
    here = lines[line - 1][column - 1 :] if line <= len(lines) else ""
    word = here.split(" ")[0].rstrip(",;:") if here else ""
    before = lines[line - 1][: column - 1].rstrip() if line <= len(lines) else ""
    expected = sorted(set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
                      - {"WORD"})  # (WholeWords makes every state accept it; no rule does)
    at_step_start = before == "" or before.endswith((";", ":"))
    if at_step_start and word and word[0].islower() and word not in STEP_WORDS:
        match = _did_you_mean(word, STEP_WORDS, 0.6)
        hint = (f"did you mean '{match}'?" if match
                else f"a statement starts with {_grouped(expected)}" + _phrases_hint(word))
        return DSLSyntaxError(f"unknown primitive '{word}': no statement starts with it",
                              line, column, "K201", hint)
    found = f"'{word}'" if word else f"'{here[0]}'" if here.strip() else "the end of the text"
    hint = f"expected {_grouped(expected)}" if expected else ""
    if here.startswith(",") and any(_describe(t) == "':'" for t in expected):
        hint = (f"write ':' here, not ',': a trigger or an opening such as '{_opening(before)}' "
                f"is followed by a colon ('when you gain a card: ...'); {hint}")
    elif _reaction_hint(before):
        hint = _reaction_hint(before) + (f"; {hint}" if hint else "")
    close = _did_you_mean(word, [w for t in expected for w in _keywords(t)], 0.7)
    if close:
        hint = f"did you mean '{close}'? ({hint})"
    elif word:
        hint += _phrases_hint(word)
    return DSLSyntaxError(f"unexpected {found}", line, column, "K200", hint)


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


def _did_you_mean(word: str, keywords: list[str], cutoff: float) -> str | None:
    """The keyword `word` is a near miss of, unless `word` is a word in its own right (of
    English, or of another phrase): then the author meant it, and the phrase is what is missing."""
    if not word or word.lower() in COMMON_WORDS or word.lower() in _all_keywords():
        return None
    close = difflib.get_close_matches(word, keywords, n=1, cutoff=cutoff)
    return close[0] if close else None


def _phrases_hint(word: str) -> str:
    """Where to look for the phrases a word belongs to, or that none has it."""
    if word.lower() in _all_keywords():
        return f"; no phrase goes on with '{word}' here: `kingdom phrases {word}` lists those using it"
    if word.islower() and word.isalpha():
        return f"; no phrase has the word '{word}': `kingdom phrases` lists them all"
    return ""


@cache
def _all_keywords() -> frozenset[str]:
    """Every word some phrase of the grammar takes."""
    return frozenset(w for t in parser().terminals for w in _keywords(t.name))


NAMED_TERMINALS = {"$END": "the end of the statement", "NAME": "a card or type name",
                   "NON_TYPE": "non-Type", "INT": "a number", "MONEY": "an amount like $2",
                   "REMINDER": "a reminder in ( )",
                   "CMP": "a comparison (>=, <=, ==, !=, >, <)", "_COMMA_THEN": "', then'"}
PHRASE_GROUPS = (  # what a syntax error lists, grouped: (phrase, the rule its words start);
    # a word goes to the first that fits, so the narrowest phrases come first
    ("a card", "filter"), ("cards", "selection"), ("a number", "amount"), ("coins", "money"),
    ("a condition", "condition"), ("a step", "step"))


@cache
def _first_terminals(rule: str) -> frozenset[str]:
    """The terminals a phrase of `rule` can start with (its FIRST set, from the parser's
    rules: the same for a parser loaded from cached tables)."""
    expansions: dict[str, list[list]] = {}
    for r in parser().rules:
        expansions.setdefault(r.origin.name, []).append(r.expansion)
    found: set[str] = set()
    seen: set[str] = set()
    todo = [rule]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for expansion in expansions.get(name, ()):
            if expansion and expansion[0].is_term:
                found.add(expansion[0].name)
            elif expansion:
                todo.append(expansion[0].name)
    return frozenset(found)


tokens.watch(_all_keywords.cache_clear, _first_terminals.cache_clear)  # the grammar's words


def _grouped(expected: list[str]) -> str:
    """Every terminal the parser could take, grouped as phrases: "a step: 'draw', 'gain';
    a condition: 'you'; a word: 'the'; a sign: ';'". Never cut short."""
    groups: dict[str, list[str]] = {}
    for terminal in expected:
        group = next((g for g, rule in PHRASE_GROUPS if terminal in _first_terminals(rule)),
                     "a word" if _keywords(terminal) else "a sign")
        groups.setdefault(group, []).append(_describe(terminal))
    order = [g for g, _ in reversed(PHRASE_GROUPS)] + ["a word", "a sign"]
    return "; ".join(f"{g}: {', '.join(groups[g])}" for g in order if g in groups)


def _keywords(terminal: str) -> list[str]:
    """The words a keyword terminal accepts ("card", "cards", ...), for did-you-mean."""
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return []
    if pattern.type == "str":
        return [pattern.value] if re.fullmatch(r"[a-z][a-z'/-]*", pattern.value) else []
    words = re.match(r"\(\?:([a-z|]+)\)", pattern.value)  # (card|cards)(?!...)
    return words.group(1).split("|") if words else []


def _describe(terminal: str) -> str:
    """A terminal as the author would write it: 'draw', 'card' or 'cards', a number."""
    if terminal in NAMED_TERMINALS:
        return NAMED_TERMINALS[terminal]
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal
    if pattern.type == "str":
        return repr(pattern.value)
    words = _keywords(terminal)
    if terminal == "NUMBER_WORD":
        return "a number word (" + ", ".join(words) + ")"
    return " or ".join(repr(w) for w in sorted(words)) if words else terminal

