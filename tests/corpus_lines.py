"""The corpus of effect lines: every statement line of the built-in cards, tests/dsl-cards and
examples, as its author wrote it, and the cut points of each (the start of every token)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
CORPUS_FOLDERS = (ROOT / "cards", ROOT / "tests" / "dsl-cards", ROOT / "examples")
SECTIONS = ("play", "triggers")
# a card name ("Fork Road", one token as the grammar reads it), a word, "+1", "$2", a sign
_TOKEN = re.compile(r"[A-Z][\w'-]*(?: (?:of )?[A-Z][\w'-]*)*|[+$]*\w[\w'$-]*|[^\w\s]")


@dataclass(frozen=True)
class CorpusLine:
    """One statement line (or a nested head, start 'head_only') of a card file."""

    text: str
    start: str
    section: str
    file: str
    kind: str = "kingdom"
    nested: bool = False  # under a head: its statements are the head's, not the section's

    @property
    def where(self) -> tuple[str, str]:
        """What `parse` is told of where the line is."""
        return ("" if self.nested else self.section, self.kind)


def _leaves(value: Any, section: str, file: str, kind: str, nested: bool = False
            ) -> Iterator[CorpusLine]:
    from kingdom.compiler.card import _text_lines

    items = value if isinstance(value, list) else [value]
    for item in items:
        if isinstance(item, list):
            yield from _leaves(item, section, file, kind, nested)
        elif isinstance(item, dict):
            for head, body in item.items():
                yield CorpusLine(str(head), "head_only", section, file, kind, nested)
                yield from _leaves(body, section, file, kind, True)
        elif item is not None:
            for _, line, _ in _text_lines(str(item)):
                yield CorpusLine(line, "statements", section, file, kind, nested)


@cache
def corpus_lines() -> tuple[CorpusLine, ...]:
    """Every line that compiles as part of its card (the files of tests/dsl-cards that are
    meant to fail are left out: a line is kept only if it parses alone)."""
    from kingdom.compiler.parser import DSLSyntaxError, parse

    found: dict[tuple[str, str], CorpusLine] = {}
    for folder in CORPUS_FOLDERS:
        for file in sorted(folder.rglob("*.yaml")):
            try:
                data = yaml.safe_load(file.read_text(encoding="utf-8"))
            except yaml.YAMLError:
                continue
            if not isinstance(data, dict):
                continue
            for section in SECTIONS:
                if section in data:
                    for line in _leaves(data[section], section, str(file.relative_to(ROOT)),
                                        str(data.get("kind", "kingdom"))):
                        found.setdefault((line.text, line.start), line)
    kept = []
    for line in found.values():
        try:
            parse(line.text, line.start)
        except DSLSyntaxError:
            continue
        kept.append(line)
    return tuple(kept)


def cut_points(line: CorpusLine) -> list[int]:
    """The offset of every token of the line after the first: where a cut leaves a prefix."""
    return [m.start() for m in _TOKEN.finditer(line.text) if m.start()]
