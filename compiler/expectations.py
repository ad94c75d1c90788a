"""What may come next at a position of an effect text, in the designer's words: the one service
behind syntax errors (compiler/syntax_errors.py) and an editor's completion.

`expected_at(source, offset)` asks the LALR parser which terminals it would take after the
text before `offset` (a half-written word at `offset` is what was written, not part of the
prefix) and turns each into an `Expected`: a label a designer reads ("the word 'gain'", "a card
name"), an example phrase from the reference, and the text to insert. They are ranked by how
close each comes to what was written there. No terminal or rule name of the grammar leaves
this module.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml
from kingdom.compiler.grammar import grammar_text, parser
from kingdom.runtime import tokens
from lark.exceptions import UnexpectedInput

END = "$END"
BUILTIN_CARDS = Path(__file__).resolve().parent.parent / "cards"  # (as compiler.expansions)

# Terminals that are no word: (label, insert, example). Every other terminal is a word (or a
# few alternative words) and is offered word by word.
SPECIAL = {
    END: ("the end of the statement", "", ""),
    "NAME": ("a card or type name such as Silver", "Silver", "gain a Silver"),
    "NON_TYPE": ("'non-' and a type", "non-Victory", "gain a non-Victory card"),
    "INT": ("a number", "2", "+2 cards"),
    "MONEY": ("an amount like $2", "$2", "+$2"),
    "REMINDER": ("a reminder in parentheses", "(after drawing)",
                 "if you have 5 or fewer cards in hand (after drawing): +1 card"),
    "CMP": ("a comparison (>=, <=, ==, !=, >, <)", ">=", ""),
    "COINS_EQUAL": ("'$ equal to'", "$", "+$ equal to its cost"),
    "_ROUND_DOWN": ("'(round down)'", "(round down)", ""),
    "_COMMA_THEN": ("', then'", ", then", ""),
    "SEMICOLON": ("';' before the next statement", ";", "+1 card; +1 action"),
    "COMMA": ("','", ",", ""),
    "COLON": ("':' after a head or trigger", ":", "when you gain this: +1 card"),
    "VBAR": ("'|' between options", "|", "choose one: +1 card | +1 action"),
}
# What an editor does with each: insert the text as it is ("word", "sign"), or leave a place
# for the designer's own ("name", "number", "money", "reminder", "comparison"); "end": nothing.
KINDS = {END: "end", "NAME": "name", "NON_TYPE": "name", "INT": "number", "MONEY": "money",
         "REMINDER": "reminder", "CMP": "comparison"}
# What a word starts, for grouping a long list ("a step: 'draw', 'gain', ..."): the narrowest
# phrases first, as a word goes to the first group that has it.
GROUPS = (("a card", "filter"), ("cards", "selection"), ("a number", "amount"),
          ("coins", "money"), ("a condition", "condition"), ("a step", "step"))
GROUP_ORDER = ("the end", "a sign", "a word", "a card", "a number", "coins", "cards",
               "a condition", "a step")
WORDY = re.compile(r"[A-Za-z0-9$'/-]")  # what a written word is made of, for its bounds
TOKEN = re.compile(r"[+$]*\w[\w'$/-]*|\.\.\.|[^\w\s]")  # a word, "+1", "$2", a sign


@dataclass(frozen=True)
class Expected:
    """One thing that may come next: `label` in the designer's words, an `example` phrase
    from the reference that uses it, the text to `insert`, the `group` it belongs to ("a
    step", "a condition", "a word", "a sign", "the end", ...) and its `kind`: "word" or
    "sign" (insert as it is), "name", "number", "money", "reminder", "comparison" (a place
    for the designer's own words; `insert` is an example) or "end"."""

    label: str
    example: str
    insert: str
    group: str
    kind: str = "word"


def word_at(source: str, offset: int, back: bool = True) -> tuple[int, str]:
    """Where the word around `offset` starts, and the whole word (empty between words); with
    `back` False, the word starting at `offset` (a token a parser stopped at)."""
    start = offset
    while back and start > 0 and WORDY.match(source[start - 1]):
        start -= 1
    end = start
    while end < len(source) and WORDY.match(source[end]):
        end += 1
    if start == end and end < len(source) and not source[end].isspace():
        end += 1  # a sign: ',' ':' '+'
    return start, source[start:end]


def expected_at(source: str, offset: int, start: str = "statements", back: bool = True
                ) -> list[Expected]:
    """Everything that may come at `offset` of `source` (a statement line of a card, parsed
    from grammar rule `start`), most likely first: those closest to the word written there,
    then the words that go on with the phrase, then whole new phrases. Empty when the text
    before `offset` is already wrong (its own error comes first). With `back` False, `offset`
    is where a word starts (a cursor after "gai" completes "gai" otherwise)."""
    begin, written = word_at(source, offset, back)
    terminals = accepted(source[:begin], start)
    if terminals is None:
        return []
    return rank(_items(terminals, source[:begin]), written, source[:begin])


def accepted(prefix: str, start: str = "statements") -> set[str] | None:
    """The terminals the parser takes after `prefix`, also reading a one-line `head: steps`
    as the head's block (as compiler.parser does); None if `prefix` itself does not parse."""
    found = _accepts(prefix, start)
    if start == "statements":
        for colon in (m.start() for m in re.finditer(":", prefix)):
            cut = prefix.rfind(";", 0, colon)
            if _accepts(prefix[cut + 1 : colon], "head_only") is None:
                continue
            body = _accepts(prefix[colon + 1 :], "statements")
            if body is not None:
                found = (found or set()) | body
    return found


def _accepts(prefix: str, start: str) -> set[str] | None:
    interactive = parser().parse_interactive(prefix, start=start)
    try:
        for _token in interactive.iter_parse():
            pass
        return set(interactive.accepts())
    except UnexpectedInput:
        return None


def rank(items: list[Expected], written: str, prefix: str = "") -> list[Expected]:
    """`items` most likely first: by closeness to `written`, then by how often the reference
    statements go on with each after the word before (and how often they use it at all),
    then by group (what goes on with the phrase before what starts a new one)."""
    order = {item: n for n, item in enumerate(items)}
    before = [_norm(t) for t in TOKEN.findall(prefix)]
    previous = before[-1] if before else ""
    pairs, singles = _frequencies()

    def key(item: Expected) -> tuple:
        word = _norm(item.insert) if item.insert else ""
        return (-closeness(item, written), -pairs.get((previous, word), 0),
                -singles.get(word, 0), _group_rank(item.group), order[item])

    return sorted(items, key=key)


def closeness(item: Expected, written: str) -> float:
    """How close `item` comes to `written`: 1 for the very word (or one it begins), down to 0
    for nothing alike; a lower-case word where a card name goes counts as a near miss."""
    if not written:
        return 0.0
    low, insert = written.lower(), item.insert.lower()
    if item.insert == SPECIAL["NAME"][1]:
        return 0.8 if written[:1].isupper() else 0.5 if written.isalpha() else 0.0
    if not insert:
        return 0.0
    if insert == low:
        return 1.0
    if insert.startswith(low):
        return 0.9
    ratio = difflib.SequenceMatcher(None, low, insert).ratio()
    return ratio if ratio >= 0.6 else 0.0


def _group_rank(group: str) -> int:
    return GROUP_ORDER.index(group) if group in GROUP_ORDER else len(GROUP_ORDER)


def _items(terminals: set[str], prefix: str) -> list[Expected]:
    """The expected items of a set of terminals, in the grammar's terminal order, each word of
    a terminal that accepts several ("card" or "cards") an item of its own."""
    items: dict[str, Expected] = {}
    before = [_norm(t) for t in TOKEN.findall(prefix)][-2:]
    for terminal in sorted(terminals, key=_terminal_order):
        if terminal == "WORD":  # (WholeWords makes every state accept it; no rule does)
            continue
        group = group_of(terminal)
        if terminal in SPECIAL:
            label, insert, example = SPECIAL[terminal]
            kind = KINDS.get(terminal, "word" if re.search(r"[a-z]", insert) else "sign")
            items.setdefault(label, Expected(label, example or _example(insert, before),
                                             insert, "the end" if terminal == END else group,
                                             kind))
            continue
        for word in words_of(terminal):
            if word == "non-" and "NON_TYPE" in terminals:  # (one item for both spellings)
                continue
            label = f"'{word}'"
            kind = "word" if re.search(r"[a-z]", word) else "sign"
            items.setdefault(label, Expected(label, _example(word, before), word, group, kind))
    return list(items.values())


def _terminal_order(terminal: str) -> tuple[int, str]:
    return (0 if terminal == END else 1, terminal)


def group_of(terminal: str) -> str:
    """The phrase a terminal's word starts ("a step" for 'draw'), else "a word" or "a sign"."""
    if terminal == END:
        return "the end"
    group = next((g for g, rule in GROUPS if terminal in _first_terminals(rule)), None)
    if group:
        return group
    value = _pattern(terminal)
    return "a word" if re.search(r"[a-z]", value or "") else "a sign"


def words_of(terminal: str) -> list[str]:
    """What a terminal accepts, as written: its string, or each word of an alternation
    ("(?:card|cards)(?!...)"), or the word before a lookahead ("and(?=...)")."""
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return []
    if pattern.type == "str":
        return [pattern.value]
    alternatives = re.match(r"\(\?:([a-z |']+)\)", pattern.value)
    if alternatives:
        return sorted(alternatives.group(1).split("|"), key=lambda w: (len(w), w))
    literal = re.match(r"([a-z]+)\(\?=", pattern.value)
    return [literal.group(1)] if literal else []


def _pattern(terminal: str) -> str | None:
    try:
        return parser().get_terminal(terminal).pattern.value
    except KeyError:
        return None


@cache
def keywords() -> frozenset[str]:
    """Every word some phrase of the grammar takes."""
    return frozenset(w for t in parser().terminals for w in words_of(t.name)
                     if re.fullmatch(r"[a-z][a-z'/-]*", w))


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


# --------------------------------------------------------------------------- the reference
@cache
def reference_statements() -> tuple[str, ...]:
    """Complete statements a designer can copy: every `// e.g.` example of the grammar and the
    primitives, then every statement line of the built-in cards, shortest first."""
    text = re.sub(r"(//\s*e\.g\.[^\n]*)\n\s*//(?!\s*-{4})\s*", r"\1 ", grammar_text())
    found = dict.fromkeys(e.strip() for e in re.findall(r"//\s*e\.g\.\s*([^\n]+)", text))
    for file in sorted(BUILTIN_CARDS.rglob("*.yaml")):
        data = yaml.safe_load(file.read_text(encoding="utf-8"))  # (Kingdom's own files)
        data = data if isinstance(data, dict) else {}
        for key in ("play", "triggers"):
            found.update(dict.fromkeys(_statement_lines(data.get(key))))
    return tuple(sorted((s for s in found if s and "\n" not in s), key=lambda s: (len(s), s)))


def _statement_lines(value: object) -> list[str]:
    """The one-line strings of a YAML block, and each `head: body` written as one line."""
    if isinstance(value, str):
        return [line.strip() for line in value.splitlines() if line.strip()]
    if isinstance(value, list):
        return [line for item in value for line in _statement_lines(item)]
    if isinstance(value, dict):
        return [f"{head}: {body}" for head, body in value.items() if isinstance(body, str)
                and "\n" not in body]
    return []


def _example(word: str, before: list[str]) -> str:
    """The reference statement that best shows `word` after the compared tokens `before` (the
    last two of the text before it): one where it follows the same words, else the shortest
    using it."""
    if not word:
        return ""
    statements = _tokenised()
    best, best_score = "", -1
    for index, n in _occurrences().get(_norm(word), ()):
        found = statements[index][2]
        score = sum(1 for k in range(1, len(before) + 1)
                    if n - k >= 0 and found[n - k] == before[-k])
        if score > best_score:
            best, best_score = statements[index][0], score
        if best_score == len(before):
            break
    return best


@cache
def _tokenised() -> tuple[tuple[str, tuple[re.Match, ...], tuple[str, ...]], ...]:
    """Each reference statement with its tokens and their compared forms (`_norm`)."""
    out = []
    for statement in reference_statements():
        marks = tuple(TOKEN.finditer(statement))
        out.append((statement, marks, tuple(_norm(m.group(0)) for m in marks)))
    return tuple(out)


@cache
def _occurrences() -> dict[str, tuple[tuple[int, int], ...]]:
    """Where each compared token occurs: (statement, token) pairs, shortest statement first."""
    found: dict[str, list[tuple[int, int]]] = {}
    for index, (_statement, _marks, words) in enumerate(_tokenised()):
        for n, word in enumerate(words):
            found.setdefault(word, []).append((index, n))
    return {word: tuple(places) for word, places in found.items()}


# --------------------------------------------------------------------------- suggestions
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


def is_word(written: str) -> bool:
    """Whether `written` is a word in its own right (of English, or of another phrase): then
    the author meant it, and no keyword that looks like it is a did-you-mean."""
    low = written.lower()
    return low in COMMON_WORDS or low in keywords() or "'" in low.strip("'")


@dataclass(frozen=True)
class Suggestion:
    """A complete statement near what was written that parses; `word` is the keyword put in
    place of a misspelt one, when that is all it changes."""

    text: str
    word: str = ""


Parses = Callable[[str, str], bool]


def nearest_phrase(source: str, offset: int, start: str, parses: Parses,
                   expected: list[Expected] | None = None) -> Suggestion | None:
    """The complete statement nearest to `source` with a fault at `offset`, that `parses`:
    a misspelt keyword put right, the reference statement that goes on from the same words,
    one expected item inserted or put in place of the word at fault (or of the sign before
    it: "hand, +1 action"), or the word at fault left out, in that order."""
    begin, written = word_at(source, offset, back=False)
    expected = expected_at(source, begin, start, back=False) if expected is None else expected
    tried: set[str] = set()

    statement_end = source.find(";", begin)  # (a later statement's own fault is not this one's)

    def fits(raw: str | None) -> bool:
        if raw is None:
            return False
        text = _tidy(raw)
        if not text or text in tried:
            return False
        tried.add(text)
        if parses(text, start):
            return True
        shift = len(raw) - len(source)
        return statement_end >= 0 and parses(_tidy(raw[: statement_end + shift]), start)

    head, tail = source[:begin], source[begin + len(written):]
    close = [e for e in expected if e.insert and e.group != "the end"
             and closeness(e, written) >= 0.7 and e.insert != written]
    if written and not is_word(written):
        for word in [*_same_number(written, expected), *(e.insert for e in close[:4])]:
            text = _joined(head, word, tail)
            if fits(text):
                return Suggestion(_tidy(text), word)
    for text in _completions(source, begin, written):
        if fits(text):
            return Suggestion(_tidy(text))
    for text, word in _one_token_repairs(source, begin, written, expected, start):
        if fits(text):
            return Suggestion(_tidy(text), word)
    return None


def _same_number(written: str, expected: list[Expected]) -> list[str]:
    """A number written where coins go ("up to 4": "$4"), or coins where a number goes."""
    inserts = {e.insert for e in expected}
    if written.isdigit() and SPECIAL["MONEY"][1] in inserts:
        return [f"${written}"]
    if re.fullmatch(r"\$\d+", written) and SPECIAL["INT"][1] in inserts:
        return [written[1:]]
    return []


def _one_token_repairs(source: str, begin: int, written: str, expected: list[Expected],
                       start: str) -> Iterator[tuple[str, str]]:
    """Texts that differ from `source` by one token at `begin`, each with the word put in
    place of `written` (or ""): an expected item inserted there or put in place of
    `written`; the same at the sign before it; `written` left out."""
    head, tail = source[:begin], source[begin + len(written):]
    for item in [e for e in expected if e.insert][:12]:
        yield _joined(head, item.insert, source[begin:]), ""
        if written and not is_word(written):
            yield _joined(head, item.insert, tail), item.insert
    sign = re.search(r"([,;:|])\s*$", head)
    if sign:
        before = head[: sign.start(1)]
        for item in [e for e in expected_at(source, sign.start(1), start, back=False)
                     if e.insert][:12]:
            yield _joined(before, item.insert, source[sign.end(1):]), ""
    if written:
        yield head + tail, ""


def _joined(head: str, insert: str, tail: str) -> str:
    space = "" if not head or head.endswith(" ") or insert[:1] in ",;:)" else " "
    after = "" if not tail or tail.startswith(" ") or tail[:1] in ",;:)" else " "
    return f"{head}{space}{insert}{after}{tail}"


def _tidy(text: str) -> str:
    return re.sub(r"[ \t]+", " ", text).strip()


def _completions(source: str, begin: int, written: str, most: int = 6) -> list[str]:
    """`source` completed from the reference statements that share the words just before
    `begin`: their words up to the one written at `begin` go in between (or all the rest of
    theirs, when they never reach it). The longest shared run first."""
    before = [_norm(t) for t in TOKEN.findall(source[:begin])]
    if not before:
        return []
    found: list[tuple[int, int, str]] = []
    statements = _tokenised()
    for index, last in _occurrences().get(before[-1], ()):
        statement, marks, words = statements[index]
        n = last + 1
        if n >= len(words):
            continue
        run = 1
        while run < len(before) and run < n and words[n - 1 - run] == before[-1 - run]:
            run += 1
        cont_start = marks[n].start()
        reach = next((m for m in range(n, len(words)) if written
                      and words[m] == _norm(written)), None)
        if reach is not None and reach > n:
            middle = statement[cont_start : marks[reach].start()].strip()
            found.append((run, len(middle), _joined(source[:begin], middle, source[begin:])))
        elif not source[begin:].strip() and (run >= 2 or run == len(before)):
            found.append((run, len(statement) - cont_start,
                          _joined(source[:begin], statement[cont_start:], "")))
    found.sort(key=lambda f: (-f[0], f[1]))
    return list(dict.fromkeys(text for _run, _size, text in found))[:most]


def _norm(token: str) -> str:
    """A token compared with others: lower case, every number the same, every name "Name"."""
    if token[:1].isupper():
        return "Name"
    if token.startswith("+"):
        return "+"
    return re.sub(r"\d+", "0", token.lower())


@cache
def _frequencies() -> tuple[dict[tuple[str, str], int], dict[str, int]]:
    """How often each token follows each other (and appears at all) in the reference
    statements, counting the start of a statement as the token ""."""
    pairs: dict[tuple[str, str], int] = {}
    singles: dict[str, int] = {}
    for _statement, _marks, words in _tokenised():
        previous = ""
        for word in words:
            if word in ";:|":
                previous = ""
                continue
            pairs[previous, word] = pairs.get((previous, word), 0) + 1
            singles[word] = singles.get(word, 0) + 1
            previous = word
    return pairs, singles


tokens.watch(keywords.cache_clear, _first_terminals.cache_clear, reference_statements.cache_clear,
             _frequencies.cache_clear, _tokenised.cache_clear, _occurrences.cache_clear)
