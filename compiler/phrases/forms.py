"""The grammar read as a designer reads it: rules, their named alternatives (phrases) and
readable forms (keywords as words, other rules as <placeholders>)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from kingdom.compiler import primitives
from kingdom.compiler.grammar import with_token_words
from kingdom.compiler.parser import GRAMMAR_FILE

if TYPE_CHECKING:
    from kingdom.compiler.phrases.examples import Example


# How a designer thinks of the grammar's sections (the `// ---- name` lines of effect.lark).
STRUCTURE_SECTIONS = ("entry points", "heads", "steps", "triggers")
NOUN_SECTIONS = ("selections", "numbers and money", "conditions")

# Rules shown as a <placeholder>, by the word a designer would use; other rules print as their
# name. Rules with no alias and a short body are written out in place instead.
PLACEHOLDERS = {
    "statement": "statement", "step": "step", "primitive": "simple step", "head": "head",
    "chain": "chain", "option": "option", "trigger": "trigger", "trigger_event": "event",
    "selection": "cards", "quantity": "quantity", "source": "from", "zone": "zone",
    "ref": "ref", "filter": "card description", "adjective": "adjective", "noun": "noun",
    "qualifier": "qualifier", "amount": "amount", "money": "money", "countable": "countable",
    "place": "place", "condition": "condition", "put_place": "put where",
    "ref_selection_aside": "ref", "primitive_they": "simple step, said of them",
}
ALWAYS_PLACEHOLDER = {"statements", "head_only", "filter", "option", "put_place", "worth"}
INLINE_LIMIT = 48  # a rule without aliases whose forms fit in this many characters is inlined

# Terminals: what each stands for, for the section on words and numbers.
TERMINALS = {
    "NAME": ("Name", "a card, type or pile name, capitalised as printed: Silver, Action, "
             "Throne Room, Victory cards"),
    "INT": ("n", "a number written in digits: 2"),
    "MONEY": ("$n", "an amount of coins: $2"),
    "NON_TYPE": ("non-Type", "non- before a type: non-Victory"),
    "REMINDER": ("(reminder)", "a reminder in parentheses, printed as written and changing "
                 "nothing: (after drawing)"),
    "CMP": ("comparison", "one of >= <= == != > <"),
    "COINS_EQUAL": ("$", "a $ without a number, followed by \"equal to\": +$ equal to its cost"),
    "VP_TOKEN": ("vp token(s)", "one of: vp token, vp tokens"),
}

# terminals written as they read, not as <placeholders>
PUNCTUATION = {"_COMMA_THEN": ", then", "_ROUND_DOWN": "(round down)", "_PUTTING_ONE": ", putting one"}


# --------------------------------------------------------------------------- the grammar
@dataclass
class Form:
    """One alternative of a rule: its readable text and a hand-written example, if any."""

    text: str
    example: str = ""


@dataclass
class Phrase:
    """A named alternative of the grammar (an alias) and everything the reference says of it."""

    alias: str
    rule: str  # the grammar rule it is an alternative of
    forms: list[Form] = field(default_factory=list)
    meaning: str = ""
    example: Example | None = None

    def mentions(self, word: str) -> int | None:
        """Where a word starting with `word` (in any case) is: 0 in its forms, 1 in its meaning,
        2 in its example or the example's English; None if nowhere. "trashed" finds "the
        trashed card", "gain" finds "gained"."""
        pattern = re.compile(rf"(?<!\w){re.escape(word.strip())}", re.IGNORECASE)
        example = self.example
        places = ([f.text for f in self.forms], [self.meaning],
                  [*(f.example for f in self.forms),
                   *((example.source, example.english) if example is not None else ())])
        return next((rank for rank, texts in enumerate(places)
                     if any(pattern.search(text) for text in texts)), None)


@dataclass
class Rule:
    name: str
    group: str
    alternatives: list[tuple[list, str, str]]  # (items, alias, e.g. comment)


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"i?|/(?:[^/\\]|\\.)+/\w*|->|⟦[^⟧]*⟧|[A-Za-z_]\w*|[()|?*+\[\]]')
_HEAD = re.compile(r"^([?!]?)([A-Za-z_]\w*)(\.\d+)?\s*:(.*)$")
_EG = re.compile(r"//\s*e\.g\.\s*(.*)$")


def _definitions(text: str, group: str) -> list[tuple[str, str, str]]:
    """(name, body, group) per rule or terminal of Lark text; `// e.g. X` kept as ⟦X⟧ and a
    `// ---- name` line starting a new group."""
    out: list[list[str]] = []
    text = re.sub(r"(//\s*e\.g\.[^\n]*)\n\s*//(?!\s*-{4})\s*", r"\1 ", text)  # e.g. on 2 lines
    for line in text.splitlines():
        section = re.match(r"\s*//\s*-{4,}\s*(.+)$", line)
        if section:
            group = section.group(1).strip()
            continue
        example = _EG.search(line)
        line = re.sub(r"\s*//.*$", "", line) + (f" ⟦{example.group(1).strip()}⟧" if example else "")
        head = _HEAD.match(line)
        if head:
            out.append([head.group(2), head.group(4), group])
        elif line.strip() and not line.lstrip().startswith("%") and out:
            out[-1][1] += " " + line.strip()
    return [(name, body, grp) for name, body, grp in out]


def _tokens(body: str) -> list[str]:
    return _TOKEN.findall(body)


def _split(tokens: list[str], sep: str = "|") -> list[list[str]]:
    """Top-level alternatives (outside parentheses)."""
    parts: list[list[str]] = [[]]
    depth = 0
    for tok in tokens:
        depth += tok in "([" and len(tok) == 1
        depth -= tok in ")]" and len(tok) == 1
        if tok == sep and depth == 0:
            parts.append([])
        else:
            parts[-1].append(tok)
    return parts


@cache
def grammar() -> tuple[dict[str, Rule], dict[str, str]]:
    """The rules (in order, each with its group) and the terminals' bodies."""
    primitives.load_all()
    sources = [(with_token_words(GRAMMAR_FILE.read_text(encoding="utf-8")), "grammar")]
    by_module = sorted(primitives.GRAMMAR, key=lambda r: primitives.MODULES.index(_module_of(r)))
    sources.extend((with_token_words(primitives.GRAMMAR[rule]), _module_of(rule))
                   for rule in by_module)
    rules: dict[str, Rule] = {}
    terminals: dict[str, str] = {}
    for text, group in sources:
        for name, body, grp in _definitions(text, group):
            if name.isupper():
                terminals[name] = body.strip()
                continue
            alternatives = []
            for alt in _split(_tokens(body)):
                example = next((t[1:-1] for t in alt if t.startswith("⟦")), "")
                alt = [t for t in alt if not t.startswith("⟦")]
                alias = alt[alt.index("->") + 1] if "->" in alt else ""
                items = alt[: alt.index("->")] if "->" in alt else alt
                alternatives.append((items, alias, example))
            rules[name] = Rule(name, grp, alternatives)
    rules["primitive"] = Rule("primitive", "steps", [([r], "", "") for r in by_module])
    return rules, terminals


def _module_of(rule: str) -> str:
    """The primitive module that registered `rule` (its grammar names one of its builders)."""
    for alias in re.findall(r"->\s*(\w+)", primitives.GRAMMAR[rule]):
        builder = primitives.BUILDERS.get(alias)
        if builder is not None:
            return builder.__module__.rsplit(".", 1)[-1]
    return "primitives"


# --------------------------------------------------------------------------- readable forms
def terminal_words(body: str) -> list[str] | None:
    """The words of a terminal made of string literals ("cards" | "card"), a whole-word regex
    of them (/(?:cards|card)(?![a-z])/) or one word before a lookahead (/or(?=[ ]+a)/), else None."""
    listed = re.fullmatch(r"/\(\?:([a-z|]+)\)\(\?!.*\)/", body.strip())
    if listed:
        return listed.group(1).split("|")
    word = re.fullmatch(r"/([a-z]+)\(\?[=!].*\)/", body.strip())
    if word:
        return [word.group(1)]
    parts = [p.strip() for p in body.split("|")]
    if all(re.fullmatch(r'"[^"]*"', p) for p in parts):
        return [p[1:-1] for p in parts]
    return None


def terminal_text(name: str) -> str:
    _, terminals = grammar()
    if name in PUNCTUATION:
        return PUNCTUATION[name]
    if name in TERMINALS:
        return f"<{TERMINALS[name][0]}>"
    words = terminal_words(terminals.get(name, ""))
    if words and len(words) <= 3:
        return "/".join(sorted(words, key=len))
    return f"<{name.strip('_').lower().replace('_', ' ')}>"


def _inlined(name: str) -> tuple[str, bool] | None:
    """The written-out forms of a small rule without aliases, and whether they are several
    ("a/an" for single words); None for a rule shown as a placeholder."""
    rules, _ = grammar()
    rule = rules.get(name)
    if rule is None or name in ALWAYS_PLACEHOLDER or any(a for _, a, _ in rule.alternatives):
        return None
    forms = [readable(items) for items, _, _ in rule.alternatives]
    if len(forms) > 1 and all(re.fullmatch(r"[\w'-]+", f) for f in forms):
        return "/".join(forms), False
    text = " | ".join(forms)
    return (text, len(forms) > 1) if len(text) <= INLINE_LIMIT else None


def placeholder(name: str) -> str:
    return f"<{PLACEHOLDERS.get(name, name.replace('_', ' '))}>"


def readable(items: list[str]) -> str:
    """Grammar items as a designer reads them: `"gain" quantity noun?` -> `gain <quantity> [<noun>]`."""
    words: list[str] = []
    i = 0
    while i < len(items):
        tok = items[i]
        if tok in "([" and len(tok) == 1:
            depth, j = 1, i + 1
            while depth:
                depth += items[j] in ("(", "[")
                depth -= items[j] in (")", "]")
                j += 1
            alternatives = [readable(p) for p in _split(items[i + 1 : j - 1])]
            text, i, bracket = " | ".join(alternatives), j, tok == "["
            grouped = len(alternatives) > 1
        else:
            (text, grouped), i, bracket = _atom(tok), i + 1, False
        op = items[i] if i < len(items) and items[i] in ("?", "*", "+") else ""
        i += bool(op)
        if op == "?" or bracket:
            text = f"[{text}]"
        elif op == "*":
            text = f"[{_group(text, grouped)} ...]"
        elif op == "+":
            text = f"{_group(text, grouped)} [...]"
        else:
            text = _group(text, grouped)
        words.append(text)
    return _tidy(" ".join(words))


def _group(text: str, grouped: bool) -> str:
    return f"({text})" if grouped else text


def _atom(tok: str) -> tuple[str, bool]:
    if tok.startswith('"'):
        return tok.rstrip("i")[1:-1], False
    if tok.isupper():
        return terminal_text(tok), False
    return _inlined(tok) or (placeholder(tok), False)


def _tidy(text: str) -> str:
    text = re.sub(r" ([,;:)])", r"\1", text)
    text = re.sub(r"\( ", "(", text)
    return re.sub(r"\+ (<\$?n>)", r"+\1", text)



def first_line(doc: str | None) -> str:
    """A docstring's first paragraph on one line."""
    return " ".join((doc or "").split("\n\n")[0].split())
