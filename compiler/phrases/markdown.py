"""docs/dsl.md: the reference as Markdown, from the template compiler/templates/dsl.md.j2."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from kingdom.compiler.phrases.forms import (
    NOUN_SECTIONS,
    STRUCTURE_SECTIONS,
    TERMINALS,
    Phrase,
    Rule,
    first_line,
    grammar,
    placeholder,
    readable,
    terminal_text,
    terminal_words,
)
from kingdom.compiler.phrases.listing import phrases

INTRO = Path(__file__).resolve().parents[1] / "templates" / "dsl.md.j2"
REGENERATE = "kingdom phrases --markdown > docs/dsl.md"

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

    rules, _ = grammar()
    doc = first_line(importlib.import_module(f"kingdom.compiler.primitives.{module}").__doc__)
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
            words |= set(re.findall(r"<([^<>]+)>", readable(items)))
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
        forms = ", ".join(f"`{readable(items)}`" for items, _, _ in rule.alternatives)
        out.append(f"`{placeholder(rule.name)}` is one of: {forms}." if len(rule.alternatives) > 1
                   else f"`{placeholder(rule.name)}` is `{readable(rule.alternatives[0][0])}`.")
        return "\n\n".join(out)
    plain = [readable(items) for items, alias, _ in rule.alternatives if not alias]
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
        shown = terminal_text(name)
        if name in TERMINALS:
            out.append((shown, TERMINALS[name][1]))
        else:
            words = terminal_words(body) or []
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

