"""Words for a screen reader: money, counts and card texts without symbols.

Plain narration and prompts use only letters, digits, spaces and `. , ; : ' ( ) - ? !`, since a
screen reader reads a symbol by its name or not at all ("dollar two", "plus", a box-drawing
character read as noise): "+$2" is "plus 2 coins", "-7 VP" is "minus 7 VP".
"""

from __future__ import annotations

import re
from typing import Any

PLAIN_PUNCTUATION = set(".,;:'()-?! ")
_MONEY = re.compile(r"([+-]?)\$(\d+|X)")
_SIGNED = re.compile(r"(?<![\w)])([+-])(\d+|X)\b")
_REPLACEMENTS = {"/s ": " a second ", "[": "(", "]": ")", "\u2019": "'", "\u2018": "'",
                 "\u201c": "", "\u201d": "", '"': "", "\u2014": " - ", "\u2013": " - ",
                 "\u2192": " then ", "&": " and ",
                 "/": " or ", "%": " percent", "\u2026": "...", "*": "", "|": ", "}


def money(amount: int, plain: bool = True) -> str:
    """'3 coins' (read well aloud), or '$3'."""
    if not plain:
        return f"${amount}"
    return f"{amount} coin" if amount == 1 else f"{amount} coins"


def count(n: int, word: str) -> str:
    """'1 Favor token', '2 Favor tokens'; VP is the same in both numbers; a negative count is
    'minus 7 VP'. (A token kind says its own: TokenKind.count.)"""
    plural = word if word == "VP" or abs(n) == 1 else word + "s"
    return f"minus {-n} {plural}" if n < 0 else f"{n} {plural}"


def names(items: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(items) <= 1:
        return "".join(items) or "nothing"
    return ", ".join(items[:-1]) + " and " + items[-1]


def grouped(items: list[str]) -> list[str]:
    """Names with repeats counted, in first-seen order: ['Copper (3)', 'Estate']."""
    return [name if n == 1 else f"{name} ({n})" for name, n in _runs(items).items()]


def tallied(items: list[str]) -> list[str]:
    """Names with repeats as '2 Copper', in first-seen order."""
    return [name if n == 1 else f"{n} {name}" for name, n in _runs(items).items()]


def counted(items: list[str]) -> str:
    """A deck, most numerous first: '7 Copper, 3 Estate and Silver'."""
    return names([name if n == 1 else f"{n} {name}" for name, n in sorted(
        _runs(items).items(), key=lambda item: (-item[1], item[0]))])


def _runs(items: list[str]) -> dict[str, int]:
    runs: dict[str, int] = {}
    for name in items:
        runs[name] = runs.get(name, 0) + 1
    return runs


def words(text: str) -> str:
    """`text` with its symbols said in words: '+$2' -> 'plus 2 coins', '$3' -> '3 coins',
    '+1 Card' -> 'plus 1 Card', '-1' -> 'minus 1'; any other character a screen reader would
    spell out becomes a space."""
    def say_money(match: re.Match) -> str:
        sign = {"+": "plus ", "-": "minus ", "": ""}[match.group(1)]
        amount = match.group(2)
        return sign + (f"{amount} coins" if amount == "X" else money(int(amount)))

    text = _MONEY.sub(say_money, text)
    text = re.sub(r"(\d)-(\d)", r"\1 to \2", text)  # a range: "9.7-70.0"
    text = _SIGNED.sub(lambda m: ("plus " if m.group(1) == "+" else "minus ") + m.group(2), text)
    for symbol, said in _REPLACEMENTS.items():
        text = text.replace(symbol, said)
    out = "".join(ch if ch.isalnum() or ch in PLAIN_PUNCTUATION else " " for ch in text)
    return re.sub(r" {2,}", " ", out).strip()


def one_line(text: str) -> str:
    """A card's text on one line, each printed line a sentence ("+1 Card. +1 Action. ..."), a
    dividing line said as a full stop."""
    out = []
    for line in (raw.strip() for raw in text.splitlines()):
        if not line:
            continue
        if set(line) <= {"-", "\u2014", "_"}:
            line = ""
        elif line[-1] not in ".:;!?":
            line += "."
        if line:
            out.append(line)
    return " ".join(out)


def table_lines(table: Any) -> list[str]:
    """A rich Table read row by row: its title, then one line per row naming each column
    ("Bot default; Card Copper; Bought 0.00"), in words; a box of lines says nothing aloud."""
    columns = table.columns
    lines = [words(str(table.title)) + ":"] if table.title else []
    for row in range(table.row_count):
        cells = [f"{words(str(column.header))} {_cell(list(column.cells)[row])}"
                 for column in columns]
        lines.append("; ".join(cells) + ".")
    return lines


def _cell(value: Any) -> str:
    said = words(str(value))
    return "none" if said in ("", "-") else said


def is_plain(text: str) -> bool:
    """Whether `text` has only letters, digits, spaces and the plain punctuation."""
    return all(ch.isalnum() or ch in PLAIN_PUNCTUATION for ch in text)
