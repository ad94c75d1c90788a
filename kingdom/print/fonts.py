"""The typeface of every PDF (proxies, dividers, summaries and Kingdom sheets): Source Serif Pro
(SIL Open Font License 1.1), from the PyPI package font-source-serif-pro, embedded in each PDF.
ReportLab's built-in Times covers Latin-1 only: a card named `Żółw` or `Дракон` printed black
boxes. This one covers Latin Extended-A, Greek and Cyrillic; a character it lacks is refused by
name (`unprintable`), never drawn as a box.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

PACKAGE = "font_source_serif_pro"
FILES = {"KingdomSerif": "SourceSerifPro-Regular.ttf", "KingdomSerif-Bold": "SourceSerifPro-Bold.ttf",
         "KingdomSerif-Italic": "SourceSerifPro-It.ttf",
         "KingdomSerif-BoldItalic": "SourceSerifPro-BoldIt.ttf"}
FONT, BOLD = "KingdomSerif", "KingdomSerif-Bold"
TEXT_FACES = (FONT, BOLD)  # what names and texts print in (the italics, Latin only, set our own words)
STYLES = {FONT: ("normal", "normal"), BOLD: ("bold", "normal"),  # (weight, style) in CSS
          "KingdomSerif-Italic": ("normal", "italic"), "KingdomSerif-BoldItalic": ("bold", "italic")}
UNDRAWN = "\n\t"  # characters that place text rather than print a glyph


def folder() -> str:
    """The installed package's folder of font files."""
    return str(resources.files(PACKAGE) / "files")


def font_file(name: str) -> str:
    """The path of one of FILES inside the installed package."""
    return str(Path(folder()) / FILES[name])


@cache
def register() -> None:
    """Make FONT and BOLD known to ReportLab (once per process)."""
    for name in FILES:
        pdfmetrics.registerFont(TTFont(name, font_file(name)))


@cache
def covered() -> frozenset[int]:
    """The code points both TEXT_FACES have a glyph for."""
    register()
    faces = [pdfmetrics.getFont(name).face for name in TEXT_FACES]
    return frozenset.intersection(*(frozenset(face.charToGlyph) for face in faces))


def missing(text: str) -> list[str]:
    """The characters of `text` the faces cannot print, each once, in order."""
    have = covered()
    return list(dict.fromkeys(c for c in text if c not in UNDRAWN and ord(c) not in have))


def describe(chars: list[str]) -> str:
    """Characters as a reader can find them: 'Ω' (U+2126), ..."""
    return ", ".join(f"'{c}' (U+{ord(c):04X})" for c in chars)


def unprintable(texts: Iterable[tuple[str, str]]) -> str | None:
    """The refusal of the first (what, text) pair with characters the faces lack, naming `what`
    (a card's name, 'the title ...'); None when everything prints."""
    for what, text in texts:
        if lacking := missing(text):
            return (f"{what}: the print font has no glyph for {describe(lacking)}; "
                    "write the text without them to print it")
    return None


def css() -> str:
    """@font-face rules that embed the faces in a PDF drawn from HTML (xhtml2pdf), as FONT."""
    return "\n".join(f'@font-face {{ font-family: {FONT}; src: url("{font_file(name)}"); '
                     f"font-weight: {weight}; font-style: {style}; }}"
                     for name, (weight, style) in STYLES.items())
