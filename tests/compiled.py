"""Compile one statement as a card would: in a copy of the card file it comes from, with the
built-in and example cards' names known. For tests of hints and suggestions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = (ROOT / "cards", ROOT / "examples" / "harbor", ROOT / "examples" / "foundry",
           ROOT / "tests" / "dsl-cards")


@cache
def _names() -> tuple[set[str], set[str], set[str], Any, Any]:
    from kingdom.compiler.build import _suggester, compile_folders
    from kingdom.runtime.library import CARD_TYPES

    library, _ = compile_folders(list(FOLDERS), strict=False)
    names = {c.name for c in library} | set(library.split_piles)
    roles = {n.pile_role for card in library if card.tree is not None
             for section in (card.tree.play, card.tree.triggers) if section is not None
             for n in section.walk() if getattr(n, "pile_role", "")}  # ("its cards are Banes")
    types = set(CARD_TYPES) | {t for card in library for t in card.types}
    return (names, set(library.split_piles) | roles, types, library.resolve,
            _suggester(names | types))


def compile_card_text(text: str, file: str = "card.yaml", line: int = 0) -> list[str]:
    """The diagnostics (as 'CODE message') of a card file's text compiled against the
    built-in cards (those at its `line` only, when given); [] when it compiles."""
    return [f"{d.code} {d.message}" for d in card_diagnostics(text, file)
            if not line or d.line == line]


def card_diagnostics(text: str, file: str = "card.yaml") -> list[Any]:
    """Every Diagnostic of a card file's text compiled against the built-in cards."""
    from kingdom.compiler.card import compile_card, parse_card
    from kingdom.compiler.nodes import Env

    parsed = parse_card(Path(file), "test", text)
    if isinstance(parsed, list):
        return parsed
    names, piles, types, resolve, suggest = _names()
    roles = {n.pile_role for section in (parsed.play, parsed.triggers) if section is not None
             for n in section.walk() if getattr(n, "pile_role", "")}  # ("its cards are Banes")
    env = Env(parsed.doc, names | {parsed.name}, piles | roles, types,
              lambda n: n if n == parsed.name else resolve(n), suggest)
    compile_card(parsed, env)
    return [*parsed.diagnostics, *env.diagnostics]


def compile_statement(statement: str, section: str = "play", start: str = "statements",
                      file: str = "", replacing: str = "") -> str:
    """'' when `statement` compiles as the `section` of the card file `file` (a plain Action
    without one) in place of its line `replacing` (in place of the whole section when not
    found), else its first problem. Only problems at the statement count: those of the card's
    other lines (a later "the rest" that the statement no longer binds) are the card's."""
    source = yaml.safe_load((ROOT / file).read_text(encoding="utf-8")) if file else {}
    data = {"dsl": 1, "name": "Trial Card", "cost": 3, "types": ["Action"], **(source or {})}
    new = {statement: "+1 card"} if start == "head_only" else statement
    data[section] = _replaced(data.get(section), replacing, new) if replacing else None
    if data[section] is None:
        data[section] = [new]
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10**6)
    key = next(iter(new)) if isinstance(new, dict) else new
    at = next((n for n, row in enumerate(text.splitlines(), 1) if key in row
               or yaml.safe_dump(key, width=10**6).strip() in row), 0)
    problems = compile_card_text(text, file or "card.yaml", at)
    return problems[0] if problems else ""


def _replaced(value: Any, line: str, new: Any) -> Any:
    """`value` (a YAML block) with its first statement line or head `line` made `new`; None
    when it has no such line."""
    if isinstance(value, str):
        lines = value.split("\n")
        for n, text in enumerate(lines):
            if text.strip() == line.strip() and isinstance(new, str):
                return "\n".join([*lines[:n], new, *lines[n + 1 :]])
        return None
    if isinstance(value, list):
        for n, item in enumerate(value):
            changed = _replaced(item, line, new)
            if changed is not None:
                return [*value[:n], changed, *value[n + 1 :]]
        return None
    if isinstance(value, dict):
        for head, body in value.items():
            if str(head) == line:
                key = next(iter(new)) if isinstance(new, dict) else new
                return {(key if k == head else k): v for k, v in value.items()}
            changed = _replaced(body, line, new)
            if changed is not None:
                return {**value, head: changed}
    return None
