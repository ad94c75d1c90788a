"""The reference: every phrase with its forms, meaning and example; the phrases a word finds."""

from __future__ import annotations

from functools import cache

from kingdom.compiler import primitives
from kingdom.compiler.parser import ToNodes
from kingdom.compiler.phrases.examples import Example, aliases_of, card_units, english
from kingdom.compiler.phrases.forms import Form, Phrase, first_line, grammar, readable
from kingdom.runtime import tokens


def meaning(alias: str, built: type | None) -> str:
    """What a phrase does: the docstring of its builder, else of the node class it builds."""
    method = getattr(ToNodes, alias, None) or primitives.BUILDERS.get(alias)
    if method is not None and method.__doc__:
        return first_line(method.__doc__)
    return first_line(built.__doc__) if built is not None else ""


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
                phrase.forms.append(Form(readable(items), example))
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



tokens.watch(grammar.cache_clear, phrases.cache_clear)  # token kinds' words are in the grammar
