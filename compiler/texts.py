"""What a text that Kingdom prints may hold, and how text from a file is printed safely.

A text from a card, manifest, scenario, strategy or save file reaches a terminal, a web page or
a printed card. Control characters (an escape sequence sets a window title or writes the
clipboard: OSC 52), bidi overrides and isolates (they reorder the printed words) and lone
surrogates ("\\ud800", which no printer can encode) are refused where files are read
(`compiler/loader.py`); newlines and tabs are kept where a text may have lines. Text printed
from anywhere else goes through `printable`, which escapes the same characters. Names and
titles have length limits, so that they fit a card or a line.
"""

from __future__ import annotations

import re

# Control characters (C0 but tab and newline, DEL, C1), bidi marks, embeddings, overrides and
# isolates, and the surrogate halves that only a `\\ud800` escape can write.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}\ud800-\udfff]")
_UNSAFE_OR_NEWLINE = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{_BIDI}\ud800-\udfff]")

NAME_LENGTH = 30  # a card's name, type, former name: it fits a proxy card's title line
TITLE_LENGTH = 100  # a scenario's, strategy's or expansion's name; a version; a set id
PARAGRAPH_LENGTH = 2000  # a ruling, a description


def printable(text: str, lines: bool = False) -> str:
    """`text` with control and bidi characters and lone surrogates escaped (`\\x1b`,
    `\\u202e`), so a card's name or text cannot drive the terminal; with `lines`, newlines
    are kept."""
    pattern = UNSAFE if lines else _UNSAFE_OR_NEWLINE
    return pattern.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace")
                       .decode("ascii"), text)


def unsafe_character(text: str) -> str:
    """Why `text` cannot be printed as written ("the control character U+001B"), or ""."""
    found = UNSAFE.search(text)
    if found is None:
        return ""
    code = ord(found.group())
    what = ("a lone surrogate (half of a character)" if 0xD800 <= code <= 0xDFFF
            else "the bidi control" if chr(code) in "\u061c\u200e\u200f" or code >= 0x202A
            else "the control character")
    return f"{what} U+{code:04X}"


def text_problem(text: str, limit: int, lines: bool = False) -> str:
    """Why `text` is no printable name or title of at most `limit` characters (on one line
    unless `lines`), or ""."""
    unsafe = unsafe_character(text)
    if unsafe:
        return f"holds {unsafe}"
    if not lines and ("\n" in text or "\t" in text):
        return "holds a line break or a tab; write it on one line"
    if len(text) > limit:
        return f"is {len(text):,} characters long; the limit is {limit:,}"
    return ""
