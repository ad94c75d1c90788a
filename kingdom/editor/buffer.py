"""Where the cursor is in a card file or scenario file as an editor holds it (often not valid
YAML while it is typed): which key's value, and the effect text before and around the cursor.

Read line by line rather than through the YAML loader, so that a half-typed line still has a
place: the top-level key it belongs to, and for an effect key (`play:`, `triggers:`, `vp:`) the
text of the statement on the cursor's line, without the YAML around it (`- `, quotes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

EFFECT_KEYS = {"play": "statements", "triggers": "statements", "vp": "worth"}
_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:")
_ITEM = re.compile(r"^\s*(?:-\s+)+")
_WORD = re.compile(r"[A-Za-z0-9$+][\w'$+-]*")
_NAME_WORD = re.compile(r"[A-Z][\w'-]*")


@dataclass
class Place:
    """The cursor's place: `key` is the top-level key whose value it is in ("" at the start of a
    top-level line, where a key is typed); `effect` the effect text of its line and `offset`
    the cursor's index in it (for an effect key); `typed` the part of a word before the cursor."""

    key: str
    line: str
    column: int
    effect: str | None = None
    effect_start: int = 0  # the column where `effect` starts on the line
    start_rule: str = "statements"
    typed: str = ""

    @property
    def offset(self) -> int:
        return self.column - self.effect_start

    @property
    def at_key(self) -> bool:
        return self.key == ""


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def place_at(text: str, line: int, column: int) -> Place:
    """The place of (line, column), both from 0, in `text`."""
    lines = lines_of(text)
    here = lines[line] if 0 <= line < len(lines) else ""
    column = max(0, min(column, len(here)))
    before = here[:column]
    typed = re.search(r"[\w'$+-]*$", before).group(0)
    if not here[:1].isspace() and ":" not in before and not before.startswith("-"):
        return Place("", here, column, typed=typed)
    key = top_key(lines, line)
    place = Place(key, here, column, typed=typed)
    if key in EFFECT_KEYS:
        start = _effect_start(here, key)
        if start is not None and start <= column:
            end = len(here)
            quote = here[start - 1] if start and here[start - 1] in "\"'" else ""
            if quote and quote in here[start:]:
                end = here.rindex(quote)
            place.effect, place.effect_start = here[start:end], start
            place.start_rule = EFFECT_KEYS[key]
    return place


def top_key(lines: list[str], line: int) -> str:
    """The top-level key whose value line `line` is in ("" if none)."""
    for n in range(min(line, len(lines) - 1), -1, -1):
        match = _KEY.match(lines[n])
        if match:
            return match.group(1)
    return ""


def _effect_start(line: str, key: str) -> int | None:
    """Where a line's effect text starts: after `key:` on the key's line, after the `- ` of a
    list item, after the indentation of a block's line; past an opening quote."""
    match = _KEY.match(line)
    if match and match.group(1) == key:
        start = match.end()
        rest = line[start:]
        start += len(rest) - len(rest.lstrip())
        if line[start:start + 1] in ("|", ">"):
            return None
    else:
        item = _ITEM.match(line)
        start = item.end() if item else len(line) - len(line.lstrip())
    if line[start:start + 1] in ("\"", "'"):
        start += 1
    return start


def word_range(line: str, column: int) -> tuple[int, int]:
    """The columns (start, end) of the word at `column` of `line` (empty at a space)."""
    for match in _WORD.finditer(line):
        if match.start() <= column <= match.end():
            return match.start(), match.end()
    return column, column


def names_around(line: str, column: int) -> list[tuple[str, int, int]]:
    """The runs of capitalised words that cover `column` ("Throne Room"), longest first, as
    (text, start, end): a card's name is looked up as the longest that names one."""
    words = [(m.group(0), m.start(), m.end()) for m in _NAME_WORD.finditer(line)]
    runs = []
    for i, (_word, start, _end) in enumerate(words):
        for j in range(i, min(i + 4, len(words))):
            if j > i and line[words[j - 1][2]:words[j][1]] != " ":
                break
            end = words[j][2]
            if start <= column <= end:
                runs.append((line[start:end], start, end))
    return sorted(runs, key=lambda r: r[1] - r[2])
