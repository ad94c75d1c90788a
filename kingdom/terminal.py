"""Text on its way out to a terminal: card names and texts, set and bot names come from files
anyone can write, so control and bidi characters and lone surrogates are escaped before they
are printed (the same characters that `compiler/texts.py` refuses in the files Kingdom reads).

Below every part of the package that prints (the commands, the table, the lab's reports), so
that none of them imports another, or a higher layer, for it.
"""

from __future__ import annotations

from kingdom.compiler.texts import UNSAFE, UNSAFE_OR_NEWLINE


def printable(text: str, lines: bool = False) -> str:
    """`text` with control and bidi characters and lone surrogates escaped (`\\x1b`,
    `\\u202e`), so a card's name or text cannot drive the terminal; with `lines`, newlines
    are kept."""
    pattern = UNSAFE if lines else UNSAFE_OR_NEWLINE
    return pattern.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
