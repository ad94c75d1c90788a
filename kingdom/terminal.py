"""Text on its way out to a terminal: card names and texts, set and bot names come from files
anyone can write, so control and bidi-override characters are escaped before they are printed.

Below every part of the package that prints (the commands, the table, the lab's reports), so
that none of them imports another, or a higher layer, for it.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_KEEP_LINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str, lines: bool = False) -> str:
    """`text` with control and bidi-override characters escaped (`\\x1b`), so a card's name or
    text cannot drive the terminal; with `lines`, newlines are kept."""
    pattern = _UNSAFE_KEEP_LINES if lines else _UNSAFE
    return pattern.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
