"""Checks on the names a card file gives (its name, former names, types, members).

A name is printed by `kingdom show` and `list` and written into effects, so it must be visible
text (no control, format or zero-width characters: an escape sequence would reach the terminal),
must not be a word of the effect language, and must not pass for another card's name (one
differing only by case, or by a Cyrillic a, U+0430, for a Latin a).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import TYPE_CHECKING, Any

from kingdom.compiler.errors import Diagnostic
from kingdom.compiler.texts import NAME_LENGTH, PARAGRAPH_LENGTH, TITLE_LENGTH, text_problem
from kingdom.runtime import tokens

if TYPE_CHECKING:
    from kingdom.compiler.card import ParsedCard
    from kingdom.compiler.loader import Located

# Cyrillic and Greek letters that look like Latin ones (capitals, then small letters), and the
# Latin letter each passes for.
LOOK_ALIKES = str.maketrans(
    "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0405\u0406\u0408\u0423"
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0455\u0456\u0458\u0501\u04bb\u04cf\u051b\u051d\u04af"
    "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7"
    "\u03bf\u03bd\u03b1\u03b9\u03ba\u03c1\u03c5\u03c7",
    "ABEKMHOPCTXSIJY" "aeopcyxsijdhlqwy" "ABEZHIKMNOPTYX" "ovaikpux",
)


def visible_name_problem(name: str) -> str | None:
    """Why `name` cannot be shown as it is written, or None."""
    if not name.strip():
        return "is blank"
    if name != name.strip():
        return "starts or ends with a space"
    for char in name:
        category = unicodedata.category(char)
        if category[0] in "CZ" and char != " ":  # control, format, private, unassigned, spaces
            what = unicodedata.name(char, "a control character")
            return f"contains the invisible or control character U+{ord(char):04X} ({what})"
    return None


@cache
def effect_words() -> frozenset[str]:
    """The words of the effect language ("if", "gain", "card", ...), from the grammar."""
    from kingdom.compiler.expectations import keywords

    return frozenset(w for w in keywords() if re.fullmatch(r"[a-z][a-z-]*", w))


tokens.watch(effect_words.cache_clear)  # a token kind's words are effect words


def skeleton(name: str) -> str:
    """What `name` looks like: compatibility forms, look-alike letters and case folded away."""
    return unicodedata.normalize("NFKC", name).translate(LOOK_ALIKES).casefold()


def check_file_names(doc: Located, data: dict[str, Any]) -> list[Diagnostic]:
    """K113 for a name that is not visible text, K117 for a name, set or ruling over its
    length limit, K411 for a card named like an effect word."""
    out = []
    listed = [(key, i, value) for key in ("former_names", "types", "members")
              for i, value in enumerate(data.get(key, ()))]
    for key, index, value in [("name", None, data["name"]), *listed]:
        path = (key,) if index is None else (key, index)
        what = key.rstrip('s').replace('_', ' ')
        problem = visible_name_problem(value)
        if problem:
            out.append(Diagnostic("K113", f"{what} {value!r} {problem}", doc.file,
                                  *doc.where(path), "write the name with visible letters only"))
        elif problem := text_problem(value, NAME_LENGTH):
            out.append(Diagnostic("K117", f"{what} '{value[:NAME_LENGTH]}...' {problem}", doc.file,
                                  *doc.where(path), "a name is printed on one line of a card"))
    texts = [(("set",), "set", TITLE_LENGTH, data.get("set"))]
    texts += [(("rulings", i), "ruling", PARAGRAPH_LENGTH, v)
              for i, v in enumerate(data.get("rulings", ()))]
    for path, what, limit, value in texts:
        problem = text_problem(value, limit, lines=what == "ruling") if isinstance(value, str) else ""
        if problem:
            out.append(Diagnostic("K117", f"the {what} {problem}", doc.file, *doc.where(path)))
    if data["name"].casefold() in effect_words():
        out.append(Diagnostic("K411", f"a card cannot be named '{data['name']}': it is a word "
                              "of the effect language", doc.file, *doc.where(("name",)),
                              "choose another name"))
    return out


def check_library_names(cards: list[ParsedCard]) -> list[Diagnostic]:
    """K410 for a name that passes for an earlier card's, K412 for a former name that is
    another card's name or former name."""
    out = []
    looks: dict[str, ParsedCard] = {}
    names = {card.name: card for card in reversed(cards)}  # (the first of a name wins)
    former: dict[str, ParsedCard] = {}
    for card in cards:
        first = looks.setdefault(skeleton(card.name), card)
        if first.name != card.name:
            out.append(Diagnostic(
                "K410", f"card name '{card.name}' looks like '{first.name}' ({first.doc.file})",
                card.doc.file, *card.doc.where(("name",)),
                f"differs only by {_difference(card.name, first.name)}; rename one of them"))
        for i, old in enumerate(card.data.get("former_names", ())):
            clash = names.get(old) or former.get(old)
            if clash is not None:
                out.append(Diagnostic(
                    "K412", f"former name '{old}' is already a name of '{clash.name}' "
                    f"({clash.doc.file})", card.doc.file,
                    *card.doc.where(("former_names", i)), "remove it from former_names"))
            former.setdefault(old, card)
    return out


def check_library_types(cards: list[ParsedCard], dominion_types: tuple[str, ...]
                        ) -> list[Diagnostic]:
    """K300 for a likely misspelt type in `types:` ("Acton"): one that only a single card
    uses and that is within two edits of a known type, Dominion's or one that two or more
    cards use. A custom expansion's new type ("Tide") passes: it is either used by several
    cards or not like a known one."""
    users: dict[str, set[str]] = {}
    for card in cards:
        for kind in card.data.get("types", ()):
            users.setdefault(kind, set()).add(card.name)
    known = set(dominion_types) | {t for t, names in users.items() if len(names) > 1}
    out = []
    for card in cards:
        for i, kind in enumerate(card.data.get("types", ())):
            if kind in known:
                continue
            close = sorted((_edits(kind, k), k) for k in known)
            if close and close[0][0] <= 2:
                out.append(Diagnostic(
                    "K300", f"unknown card type '{kind}'", card.doc.file,
                    *card.doc.where(("types", i)),
                    f"did you mean '{close[0][1]}'? (a new type is one that two or more cards "
                    "use, or that is not within two letters of a known type)"))
    return out


def _edits(a: str, b: str) -> int:
    """The Levenshtein distance: letters inserted, removed or changed to make `b` of `a`."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def _difference(name: str, other: str) -> str:
    """How two names of one skeleton differ: "case", or the first look-alike letter."""
    if name.casefold() == other.casefold():
        return "case"
    for a, b in zip(name, other, strict=False):
        if a.casefold() != b.casefold():
            return (f"a look-alike letter: U+{ord(a):04X} {unicodedata.name(a, '?')} for "
                    f"U+{ord(b):04X} {unicodedata.name(b, '?')}")
    return "look-alike letters"
