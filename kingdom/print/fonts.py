"""The typeface of proxies and dividers: Source Serif Pro (SIL Open Font License 1.1), from the
PyPI package font-source-serif-pro, embedded in each PDF. ReportLab's built-in Times covers
Latin-1 only: a card named `Żółw` or `Дракон` printed black boxes. This one covers Latin
Extended-A, Greek and Cyrillic; a character it lacks is refused by name (`missing`), never drawn
as a box.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

PACKAGE = "font_source_serif_pro"
FILES = {"KingdomSerif": "SourceSerifPro-Regular.ttf", "KingdomSerif-Bold": "SourceSerifPro-Bold.ttf"}
FONT, BOLD = FILES
UNDRAWN = "\n\t"  # characters that place text rather than print a glyph


def font_file(name: str) -> str:
    """The path of one of FILES inside the installed package."""
    return str(resources.files(PACKAGE) / "files" / FILES[name])


@cache
def register() -> None:
    """Make FONT and BOLD known to ReportLab (once per process)."""
    for name in FILES:
        pdfmetrics.registerFont(TTFont(name, font_file(name)))


@cache
def covered() -> frozenset[int]:
    """The code points both faces have a glyph for."""
    register()
    faces = [pdfmetrics.getFont(name).face for name in FILES]
    return frozenset.intersection(*(frozenset(face.charToGlyph) for face in faces))


def missing(text: str) -> list[str]:
    """The characters of `text` the faces cannot print, each once, in order."""
    have = covered()
    return list(dict.fromkeys(c for c in text if c not in UNDRAWN and ord(c) not in have))


def describe(chars: list[str]) -> str:
    """Characters as a reader can find them: 'Ω' (U+2126), ..."""
    return ", ".join(f"'{c}' (U+{ord(c):04X})" for c in chars)
