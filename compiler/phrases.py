"""The phrase reference: every phrase of the card DSL, read from the grammar and the primitives.

Each named alternative of the grammar (`-> alias`, in grammar/effect.lark and in each
primitive's registered rule) is a phrase. Its readable form comes from the grammar (keywords as
words, other rules as <placeholders>); its example is the shortest statement of a built-in card
(or of examples/harbor) that uses it, else the `// e.g.` comment written next to it; its
meaning is the docstring of the code that builds it. `kingdom phrases` prints it and
docs/dsl.md is this module's Markdown output (tests/test_phrases.py keeps it up to date).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from kingdom.compiler import primitives
from kingdom.compiler.grammar import with_token_words
from kingdom.compiler.parser import GRAMMAR_FILE, ToNodes
from kingdom.compiler.phrase_examples import Example, aliases_of, card_units, english
from kingdom.runtime import tokens

INTRO = Path(__file__).resolve().parent / "templates" / "dsl.md.j2"
REGENERATE = "kingdom phrases --markdown > docs/dsl.md"

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
    "ref_selection_aside": "ref",
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

PUNCTUATION = {"_COMMA_THEN": ", then"}  # terminals written as they read, not as <placeholders>


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
def _terminal_words(body: str) -> list[str] | None:
    """The words of a terminal made of string literals ("cards" | "card") or a whole-word
    regex of them (/(?:cards|card)(?![a-z])/), else None."""
    listed = re.fullmatch(r"/\(\?:([a-z|]+)\)\(\?!.*\)/", body.strip())
    if listed:
        return listed.group(1).split("|")
    parts = [p.strip() for p in body.split("|")]
    if all(re.fullmatch(r'"[^"]*"', p) for p in parts):
        return [p[1:-1] for p in parts]
    return None


def _terminal_text(name: str) -> str:
    _, terminals = grammar()
    if name in PUNCTUATION:
        return PUNCTUATION[name]
    if name in TERMINALS:
        return f"<{TERMINALS[name][0]}>"
    words = _terminal_words(terminals.get(name, ""))
    if words and len(words) <= 3:
        return "/".join(sorted(words, key=len))
    return f"<{name.lower().replace('_', ' ')}>"


def _inlined(name: str) -> tuple[str, bool] | None:
    """The written-out forms of a small rule without aliases, and whether they are several
    ("a/an" for single words); None for a rule shown as a placeholder."""
    rules, _ = grammar()
    rule = rules.get(name)
    if rule is None or name in ALWAYS_PLACEHOLDER or any(a for _, a, _ in rule.alternatives):
        return None
    forms = [_readable(items) for items, _, _ in rule.alternatives]
    if len(forms) > 1 and all(re.fullmatch(r"[\w'-]+", f) for f in forms):
        return "/".join(forms), False
    text = " | ".join(forms)
    return (text, len(forms) > 1) if len(text) <= INLINE_LIMIT else None


def placeholder(name: str) -> str:
    return f"<{PLACEHOLDERS.get(name, name.replace('_', ' '))}>"


def _readable(items: list[str]) -> str:
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
            alternatives = [_readable(p) for p in _split(items[i + 1 : j - 1])]
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
        return _terminal_text(tok), False
    return _inlined(tok) or (placeholder(tok), False)


def _tidy(text: str) -> str:
    text = re.sub(r" ([,;:)])", r"\1", text)
    text = re.sub(r"\( ", "(", text)
    return re.sub(r"\+ (<\$?n>)", r"+\1", text)


# --------------------------------------------------------------------------- meanings
def _first_line(doc: str | None) -> str:
    """A docstring's first paragraph on one line."""
    return " ".join((doc or "").split("\n\n")[0].split())


def meaning(alias: str, built: type | None) -> str:
    """What a phrase does: the docstring of its builder, else of the node class it builds."""
    method = getattr(ToNodes, alias, None) or primitives.BUILDERS.get(alias)
    if method is not None and method.__doc__:
        return _first_line(method.__doc__)
    return _first_line(built.__doc__) if built is not None else ""


# --------------------------------------------------------------------------- the reference
@cache
def phrases() -> dict[str, Phrase]:
    """Every phrase (grammar alias) in grammar order, with its forms, meaning and example."""
    rules, _ = grammar()
    found: dict[str, Phrase] = {}
    for rule in rules.values():
        for items, alias, example in rule.alternatives:
            if alias:
                phrase = found.setdefault(alias, Phrase(alias, rule.name))
                phrase.forms.append(Form(_readable(items), example))
    units = card_units()
    for phrase in found.values():
        using = [u for u in units if phrase.alias in u.aliases]
        built = next((u.aliases[phrase.alias] for u in using if u.aliases[phrase.alias]), None)
        if using:
            unit = min(using, key=lambda u: (not u.english, u.source.count("\n"), len(u.source),
                                             u.source))
            phrase.example = Example(unit.source, unit.card, unit.english)
        else:
            written = next((f.example for f in phrase.forms if f.example), "")
            if written:
                phrase.example = Example(written, "", english(written, _start(phrase)))
                built = aliases_of(written, _start(phrase)).get(phrase.alias)
        phrase.meaning = meaning(phrase.alias, built)
    return found


tokens.watch(grammar.cache_clear, phrases.cache_clear)  # token kinds' words are in the grammar


def _start(phrase: Phrase) -> str:
    return "worth" if phrase.rule == "worth" else "statements"


def matching(word: str) -> list[Phrase]:
    """The phrases mentioning `word` (`Phrase.mentions`) in the best place any does: those
    whose forms have it, else those whose meaning has it, else those whose example has it."""
    ranked = [(rank, p) for p in phrases().values() if (rank := p.mentions(word)) is not None]
    best = min((rank for rank, _p in ranked), default=None)
    return [p for rank, p in ranked if rank == best]


def text_listing(selected: list[Phrase]) -> str:
    """The phrases as plain text, for `kingdom phrases`."""
    out = []
    for phrase in selected:
        out.extend(f.text for f in phrase.forms)
        if phrase.meaning:
            out.append(f"    {phrase.meaning}")
        if phrase.example is not None:
            source = phrase.example.source.replace("\n", "\n        ")
            out.append(f"    e.g. {source}" + (f"   ({phrase.example.card})" if phrase.example.card
                                              else ""))
            out.append("      -> " + phrase.example.english.replace("\n", "\n         "))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


# --------------------------------------------------------------------------- Markdown
SECTION_TITLES = {
    "entry points": "Statements", "heads": "Heads (`head: block`)", "steps": "Steps",
    "triggers": "Triggers", "selections": "Cards", "numbers and money": "Numbers and money",
    "conditions": "Conditions",
}


def markdown() -> str:
    """docs/dsl.md: the template filled with every section."""
    from jinja2 import Environment, FileSystemLoader

    env = Environment(loader=FileSystemLoader(str(INTRO.parent)), keep_trailing_newline=True,
                      autoescape=False)
    rules, _ = grammar()
    modules = list(dict.fromkeys(r.group for r in rules.values() if r.group not in (
        *STRUCTURE_SECTIONS, *NOUN_SECTIONS)))
    return env.get_template(INTRO.name).render(
        count=len(phrases()),
        structure=_sections(STRUCTURE_SECTIONS),
        primitives="\n\n".join(_module_section(m) for m in modules),
        nouns=_sections(NOUN_SECTIONS),
        terminals="\n".join(f"| `{w}` | {m} |" for w, m in terminal_meanings()),
        keys="\n".join(_key_rows()),
        errors="\n".join(f"| `{code}` | {text} |" for code, text in sorted(_codes().items())),
    ).rstrip() + "\n"


def _sections(groups: tuple[str, ...]) -> str:
    rules, _ = grammar()
    out = []
    for group in groups:
        out.append(f"### {SECTION_TITLES[group]}")
        out.extend(_rule_markdown(r) for r in rules.values() if r.group == group and _listed(r))
    return "\n\n".join(out)


def _module_section(module: str) -> str:
    import importlib

    rules, _ = grammar()
    doc = _first_line(importlib.import_module(f"kingdom.compiler.primitives.{module}").__doc__)
    out = [f"### {module.replace('_', ' ')}", doc]
    for rule in (r for r in rules.values() if r.group == module and _listed(r)):
        out.append(_rule_markdown(rule))
    return "\n\n".join(out)


def placeholders_used() -> set[str]:
    """The rules that some phrase names as a <placeholder>."""
    rules, _ = grammar()
    words = {m for p in phrases().values() for f in p.forms for m in re.findall(r"<([^<>]+)>", f.text)}
    for rule in rules.values():
        for items, _, _ in rule.alternatives:
            words |= set(re.findall(r"<([^<>]+)>", _readable(items)))
    return {name for name in rules if placeholder(name)[1:-1] in words}


def _listed(rule: Rule) -> bool:
    """Whether a rule gets an entry: it has phrases, or is a placeholder other phrases use."""
    aliases = [alias for _, alias, _ in rule.alternatives if alias]
    if aliases:
        return any(phrases()[alias].rule == rule.name for alias in aliases)
    return rule.name in placeholders_used()


def _rule_markdown(rule: Rule) -> str:
    found = phrases()
    out = [f"#### `{placeholder(rule.name)}`"] if rule.name in placeholders_used() else []
    if rule.name in placeholders_used() and not any(a for _, a, _ in rule.alternatives):
        forms = ", ".join(f"`{_readable(items)}`" for items, _, _ in rule.alternatives)
        out.append(f"`{placeholder(rule.name)}` is one of: {forms}." if len(rule.alternatives) > 1
                   else f"`{placeholder(rule.name)}` is `{_readable(rule.alternatives[0][0])}`.")
        return "\n\n".join(out)
    plain = [_readable(items) for items, alias, _ in rule.alternatives if not alias]
    if plain and rule.name in placeholders_used():
        out.append(f"`{placeholder(rule.name)}` is also " + ", ".join(f"`{p}`" for p in plain) + ".")
    aliases = list(dict.fromkeys(a for _, a, _ in rule.alternatives if a))
    out.append("\n".join(_phrase_markdown(found[a]) for a in aliases if found[a].rule == rule.name))
    return "\n\n".join(x for x in out if x)


def _phrase_markdown(phrase: Phrase) -> str:
    forms = " or ".join(f"`{f.text}`" for f in phrase.forms)
    lines = [f"- {forms}" + (f": {phrase.meaning}" if phrase.meaning else "")]
    example = phrase.example
    if example is not None:
        where = f" ({example.card})" if example.card else ""
        said = " / ".join(example.english.splitlines()) or "(printed with the statement before it)"
        if "\n" in example.source:
            block = "\n".join(f"  {line}" for line in example.source.splitlines())
            lines.append(f"\n  Example{where}:\n\n  ```yaml\n{block}\n  ```\n\n  prints: {said}\n")
        else:
            lines.append(f"\n  Example{where}: `{example.source}` prints: {said}\n")
    return "\n".join(lines)


def terminal_meanings() -> list[tuple[str, str]]:
    """(as written in a phrase, what it stands for) for each word-like terminal."""
    _, terminals = grammar()
    out = []
    for name, body in terminals.items():
        if name == "WORD" or name.startswith("_"):  # (no phrase uses WORD; "_CARDS" is a word)
            continue
        shown = _terminal_text(name)
        if name in TERMINALS:
            out.append((shown, TERMINALS[name][1]))
        else:
            words = _terminal_words(body) or []
            out.append((shown, "one of: " + ", ".join(words)))
    return out


def _key_rows() -> list[str]:
    from kingdom.compiler.schema import card_schema

    schema = card_schema()
    required = set(schema.get("required", ()))
    return [f"| `{key}` | {_schema_type(spec)} | {'yes' if key in required else ''} | "
            f"{spec.get('description', '')} |" for key, spec in schema["properties"].items()]


def _schema_type(spec: dict) -> str:
    if "enum" in spec:
        return "one of " + ", ".join(f"`{v}`" for v in spec["enum"])
    if "$ref" in spec:
        return "block"
    if "oneOf" in spec:
        return " or ".join(_schema_type(s) for s in spec["oneOf"])
    kind = spec.get("type", "")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        return f"list of {_schema_type(spec.get('items', {}))}"
    return kind


def _codes() -> dict[str, str]:
    from kingdom.compiler.errors import CODES

    return CODES


def run(word: str | None, as_markdown: bool) -> int:
    """`kingdom phrases [WORD] [--markdown]`: 0, or 1 when no phrase contains WORD."""
    if as_markdown:
        print(markdown(), end="")
        return 0
    selected = matching(word) if word else list(phrases().values())
    if not selected:
        print(f"no phrase, meaning or example has a word starting with '{word}' (try a shorter "
              "word, or `kingdom phrases` for them all)", file=sys.stderr)
        return 1
    print(text_listing(selected), end="")
    return 0
