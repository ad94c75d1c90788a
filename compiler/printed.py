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
from kingdom.compiler.parser import DSLSyntaxError, parse
from kingdom.compiler.structure.ability import Ability
from kingdom.compiler.structure.block import Block
from kingdom.compiler.structure.choose import Choose
from kingdom.compiler.structure.compound import make_compound
from kingdom.runtime import tokens

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
_STOP = re.compile(r"(?<!\.)\.(?!\.)(?=(?:\s+[A-Za-z+(\"]|\s*$))")
_CHOICE = re.compile(r"\bchoose (?:one|two|three|four)(?: different options)?:", re.IGNORECASE)
_OR_OPTION = re.compile(r";(?:[ \t]+or(?=[ \t]))?")


# Game terms printed with a capital that the DSL writes in lower case ("your Buy phase", "a
# Supply pile", "in Clean-up"), besides the token kinds' names ("+1 Favor", "2 Coffers").
TERMS = ("Buy", "Supply", "Clean-up", "Kingdom", "Trash")
_PHASE = re.compile(r"\b(Action|Buy|Night)(?= phase\b)")


@cache
def _terms() -> re.Pattern:
    words = {*TERMS, *(w for kind in tokens.KINDS for w in (kind.singular, kind.plural))}
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])({alternatives})(?![\w-])")


def _term(match: re.Match) -> str:
    return match.group(1).lower() if match.group(1).lower() in keywords() else match.group(1)


def _lowered(match: re.Match) -> str:
    word = match.group(1)
    if word.lower() in keywords():
        return match.group(0).replace(word, word.lower(), 1)
    return match.group(0)


def normalise_line(line: str, in_choice: bool = False) -> str:
    """One printed line as DSL of the same length: sentence capitals lowered where the word is
    a keyword (names keep theirs), a sentence's stop made the statement separator ";" (a
    reminder "(...)" after it stays with its sentence), a choice's "; or" (or ";") made "|".
    `in_choice`: the line goes on with the options of a choice begun on the line before.
    Idempotent: DSL is left as it is."""
    text = re.sub(r"(?<!\.)\.(?=\s+\()", " ", line)  # "their choice. (They may ...)"
    stops = [m.start() for m in _STOP.finditer(text)]
    starts = [m.end() for m in _CHOICE.finditer(text)] + ([0] if in_choice else [])
    for start in starts:
        end = next((stop for stop in stops if stop > start), len(text))
        text = text[:start] + _OR_OPTION.sub(lambda m: "|".ljust(len(m.group(0))),
                                             text[start:end]) + text[end:]
    if in_choice:
        text = re.sub(r"^([ \t]*)or(?=[ \t])", r"\1  ", text)
    text = _PHASE.sub(lambda m: m.group(1).lower(), _terms().sub(_term, text))
    return _STARTS.sub(_lowered, text)


def opens_choice(line: str) -> bool:
    """Whether a normalised line leaves a choice's options to the next line ("choose one:",
    or an option ending with "|")."""
    return line.rstrip().endswith("|") or bool(_CHOICE.search(line) and line.rstrip()
                                                   .endswith(":"))


def read_printed(text: str) -> list:
    """The statements of a normalised printed line, each sentence read on its own at its own
    columns: where a sentence is not DSL as it stands, the first comma that ends a head is read
    as the head's colon ("if you did, +1 card", "when you gain a card, +1 buy"), its block the
    rest of the sentence. A statement after a ";" is in the same sentence as the one before
    ("Look through it; you may ...")."""
    nodes: list = []
    at = 0
    ability = each = None
    for sentence in _sentences(text):
        padded = _blank(text[:at]) + sentence
        semi = at > 0 and text[at - 1] == ";"
        at += len(sentence) + 1
        if not sentence.strip():
            continue
        if _DIFFERENT.fullmatch(sentence) and nodes and isinstance(nodes[-1], Choose):
            nodes[-1].different = True  # "Choose two: ... The choices must be different."
            continue
        if each is not None and _THEY.search(sentence):  # "... They discard the rest."
            read, _ = _read_sentence(*_said_of_them(padded))
            each.body = Block([*each.body.lines, _and_apart(read)], each.body.joiner)
            continue
        read, head = _read_sentence(padded)
        read = _and_apart(read)
        if semi and read and nodes:
            read[0].semi_before = True
        if ability is not None:  # "At the start of your turn, A. B.": B is the ability's too
            ability.body = Block([*ability.body.lines, read], ability.body.joiner)
            continue
        nodes.extend(read)
        if head and len(read) == 1 and isinstance(read[0], Ability):
            ability = read[0]
        each = read[-1] if read and getattr(read[-1], "runs_on", False) else None
    return nodes


# "...; 2 or 6: ...": the next case of a table by a number, in the same sentence
_NEXT_CASE = re.compile(r"[ \t]*\d+(?:[ \t]+or[ \t]+\d+)*[ \t]*:")
_THEY = re.compile(r"\bthey\b")
_DIFFERENT = re.compile(r"\s*the choices must be different\s*")


def _said_of_them(padded: str) -> tuple[str, list[int]]:
    """A sentence about "they" after "each other player ...", as a line of its block: "if they
    ..." is "if you ..." (the player the block is done by), and the "they" a clause starts with
    goes; where it went, a head may end ("if it costs $3 or more they gain ...")."""
    text = re.sub(r"\bif they\b", "if you ", padded)
    heads = [m.start() for m in _THEY.finditer(text)]
    return _THEY.sub("    ", text), heads


def _and_apart(nodes: list) -> list:
    """"A and B" printed as a sentence of two steps is the statements A and B, B joined to A
    (`; and` in DSL, which prints the same), in a sentence and in a head's block."""
    out = []
    for node in nodes:
        body = getattr(node, "body", None)
        if isinstance(body, Block) and len(body.lines) == 1:
            node.body = Block([_and_apart(body.lines[0])], body.joiner)
        if type(node).__name__ == "Sequence" and node.word == "and" and len(node.steps) == 2 \
                and not getattr(node, "verb_once", False) and not getattr(node, "reminder", ""):
            first, second = node.steps
            second.and_before = True
            out.extend([first, second])
        else:
            out.append(node)
    return out


def _sentences(text: str) -> list[str]:
    """`text` cut at each ";" and each sentence's stop outside parentheses (blank parts kept,
    so that their lengths add up to the text's)."""
    out, depth, begin = [], 0, 0
    stops = {m.start() for m in _STOP.finditer(text)}
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if ((char == ";" and not _NEXT_CASE.match(text, i + 1)) or i in stops) and depth == 0:
            out.append(text[begin:i])
            begin = i + 1
    out.append(text[begin:])
    return out


def _read_sentence(padded: str, heads: list[int] | None = None) -> tuple[list, bool]:
    """A sentence's statements, and whether a comma (or a place in `heads`) was read as a
    head's colon."""
    try:
        return parse(padded), False
    except DSLSyntaxError as error:
        ends = sorted([m.start() for m in re.finditer(",", padded)] + (heads or []))
        for comma in ends:
            try:
                head = parse(padded[:comma], "head_only")
            except DSLSyntaxError:
                continue
            try:
                return parse(padded[:comma] + ":" + padded[comma + 1:]), True
            except DSLSyntaxError:
                pass
            try:  # a head in the block too: "after playing an Action, if ..., you may ..."
                body, _ = _read_sentence(_blank(padded[:comma + 1]) + padded[comma + 1:])
            except DSLSyntaxError:
                continue
            node = make_compound(head, Block([body]), None)
            start = len(padded) - len(padded.lstrip())
            node.line = padded.count("\n", 0, start) + 1
            node.column = start - padded.rfind("\n", 0, start)
            return [node], True
        raise error from None


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


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
    first, in_choice = True, False
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
            text = normalise_line(line, in_choice)
            in_choice = opens_choice(text)
            part = triggers if below else play
            if _DIFFERENT.fullmatch(text.rstrip(".")) and n and part[n - 1]:
                part[n - 1] += " " + text  # (the choice's, read with it: read_printed)
                continue
            part[n] = text
        first = False
    parts.play, parts.triggers, parts.worth = ("\n".join(p) for p in (play, triggers, worth))
    return parts


def side_by_side(given: str, rendered: str, width: int = 48) -> str:
    """The given printed text beside the text its tree renders, line by line, a mark at each
    line that differs: what `kingdom check` shows when they differ."""
    left, right = given.splitlines(), rendered.splitlines()
    rows = [f"  {'text: (as given)':<{width}} | rendered from its tree"]
    for n in range(max(len(left), len(right))):
        a = left[n] if n < len(left) else ""
        b = right[n] if n < len(right) else ""
        rows.append(f"{'*' if a != b else ' '} {a:<{width}} | {b}")
    return "\n".join(rows)
