"""The language service: what an editor shows of a card file or a scenario file as it is typed.

One `Workspace` per set of card folders answers, for a file and the text an editor holds of it
(saved or not): its problems with ranges and quick fixes (the compiler's own diagnostics, as
`kingdom check` reports them with that text in place of the file); completions at the cursor
(the grammar's expected words, with the phrase each belongs to and its example; card, pile and
type names; the card file's keys from the JSON Schema); hover text (a phrase's reference entry,
a card's rendered text); and where a card named at the cursor is defined. Positions are
(line, column) from 0, as the Language Server Protocol counts them; both `kingdom lsp` and
Kingdom Studio use this module alone.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from lark.exceptions import LarkError

from kingdom.compiler.build import compile_folders
from kingdom.compiler.errors import CODES, Diagnostic
from kingdom.compiler.expansions import discover
from kingdom.compiler.grammar import parser
from kingdom.compiler.phrases.forms import Phrase
from kingdom.compiler.phrases.listing import matching, phrases
from kingdom.compiler.schema import card_schema
from kingdom.editor.buffer import lines_of, names_around, place_at, word_range
from kingdom.editor.expected import expected_at, typed_part
from kingdom.runtime.cards import CardDef
from kingdom.runtime.library import CARD_TYPES, Library
from kingdom.scenarios.check import check_references, load_file

DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'\?")
MONEY_EXAMPLES = ("$1", "$2", "$3", "$4", "$5")


@dataclass(frozen=True)
class Range:
    """From (line, column) to (end_line, end_column), from 0, the end excluded."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class Fix:
    """A quick fix: put `text` in place of `range`."""

    title: str
    range: Range
    text: str


@dataclass(frozen=True)
class Problem:
    """A diagnostic placed on the words it is about."""

    range: Range
    code: str
    message: str
    hint: str = ""
    fixes: tuple[Fix, ...] = ()

    @property
    def summary(self) -> str:
        return CODES.get(self.code, "")


@dataclass(frozen=True)
class Completion:
    """Something to type at the cursor: `text` in place of `range` (the word being typed)."""

    label: str
    kind: str  # "phrase" (words of the DSL), "card", "type", "key", "value"
    text: str
    range: Range
    detail: str = ""
    documentation: str = ""  # Markdown: the phrase's forms, meaning and example


@dataclass(frozen=True)
class Hover:
    markdown: str
    range: Range


@dataclass(frozen=True)
class Location:
    file: Path
    range: Range


@dataclass
class Workspace:
    """The card folders an editor works in (besides the built-in and installed cards)."""

    folders: list[Path] = field(default_factory=list)
    _library: Library | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # ------------------------------------------------------------------ the cards
    def library(self) -> Library:
        """The cards that compile, as last compiled (with the last text checked)."""
        if self._library is None:
            with self._lock:
                self._library, _ = compile_folders(discover(self.folders), strict=False)
        return self._library

    def refresh(self) -> None:
        """Compile the files again next time (one was saved, created or deleted)."""
        self._library = None

    def card_of(self, file: Path) -> CardDef | None:
        """The compiled card of `file`, if it compiled."""
        target = Path(file).resolve()
        return next((c for c in self.library() if c.source and Path(c.source).resolve() == target),
                    None)

    # ------------------------------------------------------------------ problems
    def problems(self, file: Path, text: str) -> list[Problem]:
        """Every diagnostic of `file` holding `text`, placed on its words."""
        if is_scenario_file(file, text):
            diagnostics = self._scenario_diagnostics(file, text)
        else:
            diagnostics = self._card_diagnostics(file, text)
        lines = lines_of(text)
        return [_placed(d, lines) for d in diagnostics]

    def _card_diagnostics(self, file: Path, text: str) -> list[Diagnostic]:
        target = Path(file).resolve()
        with self._lock:
            library, diagnostics = compile_folders(discover(self.folders), strict=False,
                                                   texts={target: text})
        self._library = library
        return [d for d in diagnostics if Path(d.file).resolve() == target]

    def _scenario_diagnostics(self, file: Path, text: str) -> list[Diagnostic]:
        scenarios, problems = load_file(Path(file), text)
        if problems:
            return problems
        out: list[Diagnostic] = []
        for scenario in scenarios:
            out.extend(scenario.problems or check_references(scenario, self.library()))
        return out

    # ------------------------------------------------------------------ completion
    def complete(self, file: Path, text: str, line: int, column: int) -> list[Completion]:
        """What may be typed at (line, column)."""
        place = place_at(text, line, column)
        if is_scenario_file(file, text):
            typed = typed_part(place.line[:place.column])
            return self._names(typed, _typed_range(line, place.column, typed), types=False)
        if place.at_key:
            return self._keys(text, line, place.column, place.typed)
        if place.key == "types":
            here = _typed_range(line, place.column, place.typed)
            return [Completion(t, "type", t, here, "a card type") for t in self._type_names()
                    if t.lower().startswith(place.typed.lower())]
        if place.effect is None:
            return []
        expected = expected_at(place.effect, place.offset, place.start_rule)
        if expected is None:
            return []
        typed = typed_part(place.effect[:place.offset])
        here = _typed_range(line, place.column, typed)
        out: list[Completion] = []
        before = place.effect[:place.offset - len(typed)]
        for item in expected:
            if item.kind == "name":
                out.extend(self._names(typed, here))
            elif item.kind == "money" and not typed[:1].isalpha():
                out.extend(Completion(m, "value", m, here, item.description) for m in MONEY_EXAMPLES
                           if m.startswith(typed))
            elif item.kind == "words" and item.text.startswith(typed.lower()):
                phrase = phrase_of(before, item.text)
                example = f"e.g. `{item.example}`" if item.example else ""
                out.append(Completion(item.text, "phrase", item.text, here,
                                      phrase_title(phrase) if phrase else item.description,
                                      phrase_markdown(phrase) if phrase else example))
        return out

    def _names(self, typed: str, here: Range, types: bool = True) -> list[Completion]:
        """Card and pile names (and type names) starting with `typed`, in any case."""
        lower = typed.lower()
        out = [Completion(c.name, "card", c.name, here, _card_title(c), card_markdown(c))
               for c in sorted(self.library(), key=lambda c: c.name)
               if c.name.lower().startswith(lower)]
        if types:
            out.extend(Completion(t, "type", t, here, "a card type") for t in self._type_names()
                       if t.lower().startswith(lower))
        return out

    def _type_names(self) -> list[str]:
        return sorted(set(CARD_TYPES) | {t for c in self.library() for t in c.types})

    def _keys(self, text: str, line: int, column: int, typed: str) -> list[Completion]:
        """The card file's keys not written yet, from the JSON Schema, each with its meaning."""
        written = {m.group(1) for m in re.finditer(r"^([A-Za-z_]\w*)\s*:", text, re.M)}
        here = _typed_range(line, column, typed)
        return [Completion(key, "key", f"{key}: ", here, spec.get("description", ""),
                           spec.get("description", ""))
                for key, spec in card_schema()["properties"].items()
                if key not in written and key.startswith(typed)]

    # ------------------------------------------------------------------ hover, definition
    def hover(self, file: Path, text: str, line: int, column: int) -> Hover | None:
        """A card's rendered text for its name at the cursor; else the phrase the cursor is in."""
        found = self._card_at(text, line, column)
        if found is not None:
            card, where = found
            return Hover(card_markdown(card), where)
        place = place_at(text, line, column)
        if place.effect is None:
            return None
        phrase, start, end = phrase_at(place.effect, place.offset, place.start_rule)
        if phrase is None:
            return None
        return Hover(phrase_markdown(phrase), Range(line, place.effect_start + start, line,
                                                    place.effect_start + end))

    def definition(self, file: Path, text: str, line: int, column: int) -> Location | None:
        """Where the card named at the cursor is defined: its file, at its `name:`."""
        found = self._card_at(text, line, column)
        if found is None or not found[0].source:
            return None
        source = Path(found[0].source)
        try:
            lines = lines_of(source.read_text(encoding="utf-8"))
        except (OSError, UnicodeError):
            lines = []
        at = next((n for n, t in enumerate(lines) if re.match(r"name\s*:", t)), 0)
        return Location(source, Range(at, 0, at, len(lines[at]) if lines else 0))

    def _card_at(self, text: str, line: int, column: int) -> tuple[CardDef, Range] | None:
        lines = lines_of(text)
        here = lines[line] if 0 <= line < len(lines) else ""
        library = self.library()
        for name, start, end in names_around(here, column):
            resolved = library.resolve(name)
            if resolved is not None and resolved in library:
                return library[resolved], Range(line, start, line, end)
        return None


# ---------------------------------------------------------------------- which file is which
def is_scenario_file(file: Path, text: str) -> bool:
    """A scenario file: under a `scenarios` folder, or a list of mappings with a name."""
    if "scenarios" in Path(file).parts[:-1]:
        return True
    return bool(re.match(r"(?:\s*#[^\n]*\n)*\s*-\s+name\s*:", text))


# ---------------------------------------------------------------------- placing diagnostics
def _placed(diagnostic: Diagnostic, lines: list[str]) -> Problem:
    """A diagnostic on the words it names (the quoted word of its message where it stands at
    its position, else the word there), with a quick fix for each did-you-mean."""
    line = max(diagnostic.line - 1, 0)
    column = max(diagnostic.column - 1, 0)
    here = lines[line] if line < len(lines) else ""
    quoted = re.search(r"'([^']+)'", diagnostic.message)
    if quoted and here.startswith(quoted.group(1), column):
        start, end = column, column + len(quoted.group(1))
    else:
        start, end = word_range(here, column)
        if start == end:
            end = min(start + 1, len(here)) if here else start
    where = Range(line, start, line, end)
    fixes = tuple(Fix(f"Change to '{m}'", where, m) for m in DID_YOU_MEAN.findall(diagnostic.hint))
    return Problem(where, diagnostic.code, diagnostic.message, diagnostic.hint, fixes)


def _typed_range(line: int, column: int, typed: str) -> Range:
    return Range(line, column - len(typed), line, column)


# ---------------------------------------------------------------------- phrases and cards
def phrase_at(effect: str, offset: int, start: str = "statements"
              ) -> tuple[Phrase | None, int, int]:
    """The innermost phrase of the reference whose words cover `offset` of `effect`, with its
    span; for a text that does not parse, the first phrase mentioning the word there."""
    known = phrases()
    try:
        tree = parser().parse(effect, start=start)
    except LarkError:
        tree = None
    best: tuple[int, Phrase, int, int] | None = None
    if tree is not None:
        for node in tree.iter_subtrees():
            meta = node.meta
            if meta.empty or not (meta.start_pos <= offset <= meta.end_pos):
                continue
            phrase = known.get(str(node.data))
            if phrase is not None and (best is None or meta.end_pos - meta.start_pos < best[0]):
                best = (meta.end_pos - meta.start_pos, phrase, meta.start_pos, meta.end_pos)
    if best is not None:
        return best[1], best[2], best[3]
    start_col, end_col = word_range(effect, offset)
    word = effect[start_col:end_col]
    found = matching(word) if word.isalpha() else []
    return (found[0], start_col, end_col) if found else (None, 0, 0)


def phrase_of(before: str, words: str) -> Phrase | None:
    """The phrase that `words`, typed after `before`, most likely belong to: one whose form has
    them after the word typed before them, else one whose form starts with them, else one
    whose form has them at all."""
    previous = re.findall(r"[a-z']+", before.lower())[-1:]
    candidates = _forms_with(words)
    ranked = [
        [p for p, text in candidates if previous and _has_words(text, f"{previous[0]} {words}")],
        [p for p, text in candidates if text.startswith(words)],
        [p for p, _text in candidates]]
    return next((found[0] for found in ranked if found), None)


@cache
def _forms_with(words: str) -> list[tuple[Phrase, str]]:
    return [(p, f.text) for p in phrases().values() for f in p.forms if _has_words(f.text, words)]


def _has_words(text: str, words: str) -> bool:
    return re.search(rf"(?<![\w<]){re.escape(words)}(?![\w>])", text) is not None


def phrase_title(phrase: Phrase) -> str:
    return phrase.forms[0].text if phrase.forms else phrase.alias


def phrase_markdown(phrase: Phrase) -> str:
    """A phrase's reference entry: its forms, what it does, its example and that example's
    English (as `kingdom phrases` prints it)."""
    out = [f"`{form.text}`" for form in phrase.forms]
    if phrase.meaning:
        out.append("")
        out.append(phrase.meaning)
    if phrase.example is not None:
        card = f" ({phrase.example.card})" if phrase.example.card else ""
        out.append("")
        out.append(f"e.g. `{phrase.example.source}`{card}")
        out.append(f"→ {phrase.example.english}")
    return "\n".join(out)


def _card_title(card: CardDef) -> str:
    return f"${card.cost} {' - '.join(card.types)}"


def card_markdown(card: CardDef) -> str:
    """A card's name, cost, types and rendered rules text."""
    text = card.text.replace("\n---\n", "\n\n---\n\n").replace("\n", "  \n")
    return f"**{card.name}** ({_card_title(card)}, {card.set})\n\n{text}"
