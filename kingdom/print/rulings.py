"""Rulings and accessibility notes for the cards a summary shows.

The rules files (shared/rules/*.txt, or `--rules`, or KINGDOM_RULES) have a "Clarifications"
section per card ("Name: ruling") and "Accessibility Notes"; a summary prints the ones for
its cards. Accessibility notes in our words ship with the cards (cards/<set>/accessibility.txt),
so an installed package has them: they are used unless a rules folder is named.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from kingdom.compiler.files import read_text
from kingdom.compiler.texts import printable
from kingdom.print.selection import RenderError

RULES_ENV = "KINGDOM_RULES"
DEFAULT_RULES = Path(__file__).resolve().parents[3] / "shared" / "rules"
RULES_BYTES = 1024 * 1024  # a rules file is a few dozen KB
NOTES_FILE = "accessibility.txt"  # a set folder's accessibility notes, shipped with its cards


# ------------------------------------------------------------------------------ rulings
_NAME_COLON = re.compile(r"^([A-Z][\w'\u2019.-]*(?:[ -](?:of |the )?[A-Z][\w'\u2019.-]*)*): (.+)$")
_SECTION_END = ("Accessibility Notes", "Source", "Setup", "What You Need")


def parse_rulings(text: str) -> dict[str, list[str]]:
    """Per-card-name paragraphs from every "... Clarifications" section of a rules file.

    Two layouts are read: a card name alone on its line followed by paragraphs, and
    `Name: paragraph` on one line. A section ends at the next heading that is not a card
    (another Clarifications section, Accessibility Notes, Source).
    """
    rulings: dict[str, list[str]] = {}
    inside = False
    current: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.endswith("Clarifications"):
            inside, current = True, None
            continue
        if not inside:
            continue
        if line in _SECTION_END:
            inside, current = False, None
            continue
        match = _NAME_COLON.match(line)
        if match and len(match.group(1)) <= 40:
            if "\u2192" not in match.group(2):  # "Augurs: Herb Gatherer → ...": the pile order
                rulings.setdefault(match.group(1), []).append(match.group(2))
            current = None
            continue
        if _is_heading(line):
            current = line
            continue
        if current is not None:
            rulings.setdefault(current, []).append(line)
    return rulings


def _is_heading(line: str) -> bool:
    """A card name on its own line: short, no sentence punctuation, capitalised words."""
    if len(line) > 40 or line[-1] in ".:;!?”\"" or "→" in line:
        return False
    words = line.split()
    return len(words) <= 5 and all(w[0].isupper() or w in ("of", "the", "and") for w in words)


def rules_folder(folder: str | Path | None = None) -> Path | None:
    """The rules folder: the one given, $KINGDOM_RULES, or ../shared/rules beside the project."""
    candidates = [folder, os.environ.get(RULES_ENV), DEFAULT_RULES]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


def load_rulings(folder: str | Path | None = None) -> dict[str, list[str]]:
    """Every ruling of every rules file in the folder; empty when there is no such folder."""
    found = rules_folder(folder)
    rulings: dict[str, list[str]] = {}
    if found is None:
        return rulings
    for file in sorted(found.glob("*.txt")):
        for name, paragraphs in parse_rulings(_rules_text(file)).items():
            rulings.setdefault(name, []).extend(paragraphs)
    return rulings


def _rules_text(file: Path) -> str:
    """A rules file's text: a regular file of at most RULES_BYTES (RenderError otherwise), its
    control and bidi characters escaped as they would be on a terminal."""
    try:
        return printable(read_text(file, RULES_BYTES), lines=True)
    except OSError as exc:
        raise RenderError(f"cannot read the rules file {file}: {exc.strerror or exc}") from None


def parse_accessibility(text: str) -> list[str]:
    """The paragraphs of a rules file's "Accessibility Notes" section."""
    out: list[str] = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if line == "Accessibility Notes":
            inside = True
        elif inside and line in _SECTION_END:
            break
        elif inside and line:
            out.append(line)
    return out


def load_accessibility(folder: str | Path | None = None) -> list[tuple[frozenset[str], list[str]]]:
    """Per file of notes: the card names it concerns, and its accessibility notes. Those shipped
    with the cards (each set's accessibility.txt), unless a rules folder is named (`folder` or
    $KINGDOM_RULES): then the notes of its rules files, each about the cards it has rulings for."""
    named = folder or os.environ.get(RULES_ENV)
    if not named:
        return [(names, list(notes.values())) for names, notes in shipped_accessibility()]
    found = rules_folder(named)
    if found is None:
        return []
    out = []
    for file in sorted(found.glob("*.txt")):
        text = _rules_text(file)
        notes = parse_accessibility(text)
        if notes:
            out.append((frozenset(parse_rulings(text)), notes))
    return out


def shipped_accessibility() -> list[tuple[frozenset[str], dict[str, str]]]:
    """The notes shipped with the built-in cards: per set folder with an accessibility.txt, its
    cards' names and its notes by key ("favors": "Favors are public: ...")."""
    from kingdom.compiler.build import builtin_library
    from kingdom.compiler.expansions import BUILTIN_CARDS

    library = builtin_library()
    out = []
    for file in sorted(BUILTIN_CARDS.glob(f"*/{NOTES_FILE}")):
        notes = {}
        for raw in read_text(file, RULES_BYTES).splitlines():
            key, _, text = raw.partition(":")
            if raw.strip() and not raw.startswith("#"):
                notes[key.strip()] = text.strip()
        names = frozenset(c.name for c in library if c.set == file.parent.name)
        out.append((names, notes))
    return out
