"""The words whose form depends on who does a step, declared once for both directions: the
grammar reads "each other player discards down to 3 cards in hand" with the forms of `VERBS`
and `POSSESSIVES` (compiler/grammar.py generates a third-person rule from each primitive's
rule), and render writes them from the same table (compiler/nodes.py `third_person`).

Agreement is a parameter of a step, as in Grammatical Framework: "you" (the imperative, "your"),
"each" (a subject that takes the -s form and "their": "each other player gains a Curse").
"""

from __future__ import annotations

import re

# Each verb a step can begin with and its form after "each other player" / "the player to your
# left"; the grammar accepts exactly these, and render writes exactly these.
VERBS = {
    "add": "adds", "choose": "chooses", "discard": "discards", "do": "does", "draw": "draws",
    "exchange": "exchanges", "gain": "gains", "get": "gets", "have": "has", "keep": "keeps",
    "look": "looks", "may": "may", "name": "names", "pass": "passes", "pay": "pays",
    "pick": "picks", "play": "plays", "put": "puts", "remove": "removes", "return": "returns",
    "reveal": "reveals", "rotate": "rotates", "set": "sets", "shuffle": "shuffles",
    "skip": "skips", "spend": "spends", "take": "takes", "trash": "trashes", "are": "is",
    "were": "was", "topdeck": "topdecks",
}
POSSESSIVES = {"your": "their"}


def inflected(verb: str) -> str:
    """The third-person form of `verb` (the table's, else the regular -s/-es/-ies form, for a
    word that is not a step's verb: "then")."""
    if verb in VERBS:
        return VERBS[verb]
    if verb.endswith(("sh", "ch", "s", "x")):
        return verb + "es"
    if verb.endswith("y") and not verb.endswith(("ay", "ey", "oy")):
        return verb[:-1] + "ies"
    return verb + "s"


_ALTERNATIVE_START = re.compile(r'(\A|\|)(\s*)"([a-z]+)"')


def third_person_rule(rule: str) -> str | None:
    """A primitive's Lark rule `name: alternatives` (its first rule only) as `name_they`, with
    only the alternatives that begin with a verb, in its third-person form; their aliases stay,
    so each builds the same node. None when no alternative begins with a verb."""
    head, _, body = rule.partition(":")
    body = body.split("\n\n")[0]
    body = re.split(r"\n(?=\s*[?!]?[a-z_]+(?:\.\d+)?\s*:)", body)[0]  # (a helper rule after it)
    body = re.sub(r"//[^\n]*", "", body)
    alternatives = _split_alternatives(body)
    kept = []
    for alternative in alternatives:
        match = re.match(r'\s*"([a-z]+)"', alternative)
        if match and match.group(1) in VERBS:
            alternative = alternative.replace(f'"{match.group(1)}"',
                                              f'"{VERBS[match.group(1)]}"', 1)
            kept.append(re.sub(r'"(then|and/or)" "([a-z]+)"', _inflect_second, alternative))
    if not kept:
        return None
    return f"{head.strip()}_they: " + "\n    | ".join(k.strip() for k in kept)


def _inflect_second(match: re.Match) -> str:
    """The verb after "then" or "and/or" agrees too: "reveals then discards"."""
    verb = match.group(2)
    return f'"{match.group(1)}" "{VERBS.get(verb, verb)}"'


def _split_alternatives(body: str) -> list[str]:
    """`body` cut at each top-level "|" (not inside quotes, a regex, or brackets)."""
    out, depth, begin, quote = [], 0, 0, ""
    for i, char in enumerate(body):
        if quote:
            if char == quote and body[i - 1] != "\\":
                quote = ""
        elif char in "\"/":
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "|" and depth == 0:
            out.append(body[begin:i])
            begin = i + 1
    out.append(body[begin:])
    return [a for a in out if a.strip()]
