"""A card's printed text read as its source: the `text:` of a card file.

The printed layout (sentence capitals, final stops, "+1 Card", ". " between sentences, "; or"
between the options of a choice, the comma after a head) is undone line by line by
`normalise_line`, which changes only letter case and separators and keeps every character's
place, so a syntax error in the normalised text is at its column of the printed text. The
grammar then reads the words as printed (third person, "or" options, printed commas).
`printed_sections` splits the text at its divider into the part above (played) and below
(triggers, worth).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from kingdom.compiler.grammar import grammar_text

DIVIDER = "---"


@cache
def keywords() -> frozenset[str]:
    """Every word the grammar spells out ("gain", "action", "each"): the capitalised words a
    printed sentence starts with that are not names."""
    words = set(re.findall(r'"([a-z][a-z\'-]*)"', grammar_text()))
    for alternatives in re.findall(r"\(\?:([a-z|' -]+)\)", grammar_text()):
        words.update(alternatives.split("|"))
    return frozenset(words)


# Where a printed sentence (or a choice's option, or a bonus's noun) starts: the start of the
# line, after a sentence's stop, after a colon, after "+1" / "+$1".
_STARTS = re.compile(r"(?:^|(?<=[.:;!?] )|(?<=\+\d )|(?<=\+\d\d )|(?<=\+\$\d ))[ \t]*([A-Z][a-z']*)\b")
_STOP = re.compile(r"(?<!\.)\.(?!\.)(?=(?:\s+[A-Z+(\"]|\s*$))")
_CHOICE = re.compile(r"\bchoose (?:one|two|three|four)(?: different options)?:", re.IGNORECASE)


def _lowered(match: re.Match) -> str:
    word = match.group(1)
    if word.lower() in keywords():
        return match.group(0).replace(word, word.lower(), 1)
    return match.group(0)


def normalise_line(line: str) -> str:
    """One printed line as DSL of the same length: sentence capitals lowered where the word is
    a keyword (names keep theirs), a sentence's stop made the statement separator ";" (a
    reminder "(...)" after it stays with its sentence), a choice's "; or" made "|". Idempotent."""
    text = re.sub(r"(?<!\.)\.(?=\s+\()", " ", line)  # "their choice. (They may ...)"
    text = _STOP.sub(lambda m: ";" if text[m.end():].strip() else " ", text)
    text = _STARTS.sub(_lowered, text)
    choice = _CHOICE.search(text)
    if choice:
        start = choice.end()
        tail = re.sub(r";[ \t]+or(?=[ \t])", "|   ", text[start:])
        text = text[:start] + tail
    return text


@dataclass
class PrintedParts:
    """A printed text as the parts of a card file, each the normalised DSL of its lines with
    every other line left blank (so that line N of a part is line N of the text): `play` above
    the divider, `triggers` below it, `worth` a "Worth 1 VP per ..." line, `vp` an "N VP" line."""

    play: str = ""
    triggers: str = ""
    worth: str = ""
    vp: int | None = None


_VP = re.compile(r"\s*(-?\d+) VP\s*")
_WORTH = re.compile(r"(\s*)(Worth)( \d+ )(VP)( per .*?)( \(round down\))?(\.?\s*)")
_TREASURE_VALUE = re.compile(r"\$\d+")
NOT_IN_SUPPLY = "(This is not in the Supply.)"


def printed_parts(text: str, kind: str = "kingdom", treasure: bool = False) -> PrintedParts:
    """The parts of a card's printed `text`: an Ally's whole text is below the line; a Reward's
    "(This is not in the Supply.)" is the layout's, as a Treasure's value printed "$2" is
    "+$2" (compiler/render.py writes them)."""
    lines = text.splitlines()
    parts = PrintedParts()
    blank = [""] * len(lines)
    play, triggers, worth = list(blank), list(blank), list(blank)
    below = kind == "ally"
    first = True
    for n, line in enumerate(lines):
        if line.strip() == DIVIDER:
            below = True
            continue
        if not line.strip() or (kind == "reward" and line.strip() == NOT_IN_SUPPLY):
            continue
        if (vp := _VP.fullmatch(line)) and parts.vp is None:
            parts.vp = int(vp.group(1))
        elif match := _WORTH.fullmatch(line):
            worth[n] = "".join(g if i in (1, 3, 5) else " " * len(g or "")
                               for i, g in enumerate(match.groups(), start=1))
        else:
            if first and treasure and not below and _TREASURE_VALUE.fullmatch(line.strip()):
                line = line.replace("$", "+$", 1)
            (triggers if below else play)[n] = normalise_line(line)
        first = False
    parts.play, parts.triggers, parts.worth = ("\n".join(p) for p in (play, triggers, worth))
    return parts
