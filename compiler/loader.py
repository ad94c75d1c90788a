"""Load YAML safely, keeping the line and column of every value.

`load_yaml` is the one way Kingdom reads a YAML file (cards, manifests, strategies, scenarios),
so every file gets the same limits: UTF-8 text only, at most `MAX_BYTES`, no aliases (a few
hundred bytes of nested aliases expand to gigabytes), nesting at most `MAX_DEPTH` deep (PyYAML's
composer recurses once per level), no duplicate keys, numbers written as plain decimals, only
text, numbers, true/false and null as values, and no text with a character that cannot be
printed safely (`compiler/texts.py`: control characters, bidi overrides, lone surrogates).
Each refusal is a diagnostic at its place.

PyYAML's composer gives a node tree with marks; we turn it into plain Python data and a table
from each value's path (as jsonschema reports it) to its position in the file.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml
from kingdom.compiler.errors import Diagnostic
from kingdom.compiler.files import NotRegular, TooLarge, read_bytes
from kingdom.compiler.texts import UNSAFE, unsafe_character

Path_ = tuple  # a path into the data: keys and list indexes

MAX_BYTES = 256 * 1024  # the largest built-in card is under 3 KB
MAX_DEPTH = 20  # lists and mappings inside each other; the deepest file we ship has 7
MAX_NUMBER_LENGTH = 18  # characters of a number: more is a mistake (and slow to convert)
INT_TAG, FLOAT_TAG = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
# The numbers YAML 1.2 and 1.1 read alike; 010 (octal 8), 0x10, 1_000 and 1:30 (sexagesimal
# 90) are numbers only in YAML 1.1, which PyYAML follows, so they are refused.
PLAIN_NUMBER = {
    INT_TAG: re.compile(r"[-+]?(?:0|[1-9][0-9]*)"),
    FLOAT_TAG: re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
                          r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"),
}
PLAIN_TYPES = (str, int, float, bool, type(None))


@dataclass
class Located:
    """A loaded YAML document with the positions of its values."""

    file: str
    data: Any
    text: str
    positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    styles: dict[Path_, str | None] = field(default_factory=dict)

    def where(self, path: Path_, key: bool = False) -> tuple[int, int]:
        """The (line, column) of the value at `path`, or of its nearest located parent."""
        table = self.key_positions if key else self.positions
        path = tuple(path)
        while path:
            if path in table:
                return table[path]
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return self.positions.get((), (1, 1))

    def text_position(self, path: Path_, line: int, column: int) -> tuple[int, int]:
        """Map a position inside the string at `path` (1-based) to a position in the file."""
        start_line, start_col = self.where(path)
        value = _get(self.data, path)
        if not isinstance(value, str):
            return start_line, start_col
        wanted = value.splitlines()[line - 1] if value.splitlines() else ""
        file_lines = self.text.splitlines()
        style = self.styles.get(tuple(path))
        if line == 1 and style not in ("|", ">"):
            offset = 1 if style in ("'", '"') else 0
            return start_line, start_col + offset + column - 1
        for n in range(start_line - 1, min(len(file_lines), start_line + 200)):
            found = file_lines[n].find(wanted.strip()) if wanted.strip() else -1
            if found >= 0 and n >= start_line - (0 if style in ("|", ">") else 1):
                indent = len(wanted) - len(wanted.lstrip())
                return n + 1, found + 1 + column - 1 - indent
        return start_line, start_col


def _get(data: Any, path: Path_) -> Any:
    for key in path:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def load_yaml(file: str, text: str | None = None, limit: int = MAX_BYTES
              ) -> tuple[Located | None, list[Diagnostic]]:
    """Parse one YAML file (read from `file` unless `text` is given) within the limits above.

    Returns the document, or None and the diagnostics that refused it (K100, K105-K112).
    """
    if text is None:
        text = read_text(file, limit)
        if isinstance(text, Diagnostic):
            return None, [text]
    elif (size := len(text.encode("utf-8"))) > limit:
        return None, [_too_large(file, size, limit)]
    try:
        node = _Composer(file, text).get_single_node()
    except _Refused as exc:
        return None, [exc.diagnostic]
    except yaml.MarkedYAMLError as exc:
        return None, [_yaml_error(file, exc)]
    except yaml.reader.ReaderError as exc:
        line, col = _line_col(text, exc.position)
        return None, [Diagnostic("K100", f"invalid YAML: character U+{exc.character:04X} is not "
                                 "allowed in a YAML file", file, line, col,
                                 "remove it, or write it as an escape in a double-quoted string")]
    except yaml.YAMLError as exc:
        return None, [Diagnostic("K100", f"invalid YAML: {exc}", file)]
    doc = Located(file, None, text)
    if node is None:
        return doc, []
    converter = _Converter(doc)
    doc.data = converter.value(node, ())
    if converter.diagnostics:
        return None, converter.diagnostics
    return doc, []


def read_text(file: str | Path, limit: int = MAX_BYTES) -> str | Diagnostic:
    """The UTF-8 text of `file` (a byte-order mark is allowed), or why it cannot be read: it is
    missing, no regular file (a named pipe, a device), larger than `limit` bytes (K106), or
    not UTF-8 text (K105)."""
    try:
        data = read_bytes(file, limit)
    except TooLarge as exc:
        return _too_large(str(file), exc.size, limit)
    except NotRegular as exc:
        return Diagnostic("K106", f"cannot read the file: it is {exc}", str(file),
                          hint="only regular files are read")
    except OSError as exc:
        return Diagnostic("K106", f"cannot read the file: {exc.strerror or exc}", str(file))
    return decode_utf8(str(file), data)


def decode_utf8(file: str, data: bytes) -> str | Diagnostic:
    """`data` as UTF-8 text, or a K105 diagnostic at its first byte that is not."""
    hint = "save the file as UTF-8 text"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return Diagnostic("K105", "not UTF-8 text: the file is UTF-16 (it starts with a UTF-16 "
                          "byte-order mark)", file, 1, 1, hint)
    bad = data.find(b"\0")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = exc.start if bad < 0 else min(bad, exc.start)
    else:
        if bad < 0:
            return text
    line = data.count(b"\n", 0, bad) + 1
    line_start = data.rfind(b"\n", 0, bad) + 1
    column = len(data[line_start:bad].decode("utf-8", errors="replace")) + 1
    what = "a NUL byte (a binary file?)" if data[bad] == 0 else f"byte 0x{data[bad]:02x}"
    return Diagnostic("K105", f"not UTF-8 text: {what} at line {line}, column {column}",
                      file, line, column, hint + " (Latin-1, UTF-16 and binary files are not read)")


def _too_large(file: str, size: int, limit: int) -> Diagnostic:
    return Diagnostic("K106", f"the file is too large ({size:,} bytes); the limit is "
                      f"{limit // 1024} KB", file, 1, 1, "a card or setting file is a few KB; "
                      "is this the right file?")


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _mark(mark: yaml.Mark | None) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1) if mark else (1, 1)


def _yaml_error(file: str, exc: yaml.MarkedYAMLError) -> Diagnostic:
    problem = exc.problem or str(exc)
    context = f" ({exc.context})" if exc.context else ""
    hint = ("a line with a second ': ' (two heads: 'if you did: choose one: ...') is one "
            "statement only when quoted; or nest the second head under the first"
            if "mapping values are not allowed" in problem else "")
    return Diagnostic("K100", f"invalid YAML: {problem}{context}", file,
                      *_mark(exc.problem_mark or exc.context_mark), hint)


class _Refused(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class _Composer(yaml.SafeLoader):
    """PyYAML's safe loader, refusing aliases and deep nesting as it meets them: its parser
    works event by event, but its composer recurses once per level and shares aliased nodes,
    which our conversion would expand (an alias bomb) or follow forever (`&a [*a]`)."""

    def __init__(self, file: str, text: str) -> None:
        super().__init__(text)
        self.file = file
        self.depth = 0

    def compose_node(self, parent: Any, index: Any) -> yaml.Node:
        event = self.peek_event()
        at = _mark(event.start_mark)
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(Diagnostic("K108", f"YAML alias '*{event.anchor}' is not allowed",
                                      self.file, *at, "write the value out in full"))
        if not isinstance(event, yaml.CollectionStartEvent):
            return super().compose_node(parent, index)
        if self.depth >= MAX_DEPTH:
            raise _Refused(Diagnostic("K107", f"nested too deeply (more than {MAX_DEPTH} lists "
                                      "or mappings inside each other)", self.file, *at))
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _Converter:
    """Node tree -> plain data and positions, collecting a diagnostic for each refused value."""

    def __init__(self, doc: Located) -> None:
        self.doc = doc
        self.diagnostics: list[Diagnostic] = []
        self.constructor = yaml.SafeLoader("")

    def error(self, code: str, message: str, node: yaml.Node, hint: str = "") -> None:
        self.diagnostics.append(Diagnostic(code, message, self.doc.file,
                                           *_mark(node.start_mark), hint))

    def value(self, node: yaml.Node, path: Path_) -> Any:
        self.doc.positions[path] = _mark(node.start_mark)
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.value(item, (*path, i)) for i, item in enumerate(node.value)]
        self.doc.styles[path] = node.style
        return self.scalar(node)

    def mapping(self, node: yaml.MappingNode, path: Path_) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.error("K110", "a key must be text or a number, not a list or mapping",
                           key_node)
                continue
            key = self.scalar(key_node)
            child = (*path, key)
            if child in self.doc.key_positions:
                line, _ = self.doc.key_positions[child]
                self.error("K109", f"duplicate key '{key}' (first given on line {line})",
                           key_node, "give each key once: YAML would keep only the last")
                continue
            self.doc.key_positions[child] = _mark(key_node.start_mark)
            self.doc.styles[(*path, key, "<key>")] = key_node.style
            result[key] = self.value(value_node, child)
        return result

    def scalar(self, node: yaml.ScalarNode) -> Any:
        pattern = PLAIN_NUMBER.get(node.tag)
        if pattern is not None and len(node.value) > MAX_NUMBER_LENGTH:
            self.error("K112", f"number too long ({len(node.value):,} characters; at most "
                       f"{MAX_NUMBER_LENGTH})", node)
            return None
        if pattern is not None and not pattern.fullmatch(node.value):
            self.error("K111", _yaml11_number(node.value), node,
                       "write a plain decimal number (10, 90), or quote it to make it text")
            return None
        try:
            value = self.constructor.construct_object(node, deep=True)
        except Exception as exc:  # a bad explicit tag (!!timestamp x): PyYAML raises anything
            self.error("K100", f"invalid YAML value: {exc}", node)
            return None
        if not isinstance(value, PLAIN_TYPES):
            self.error("K110", f"{_kind(value)} is not allowed here", node,
                       "values are text, numbers, true/false or null; quote it to make it text")
            return None
        unsafe = unsafe_character(value) if isinstance(value, str) else ""
        if unsafe:
            self.diagnostics.append(Diagnostic(
                "K116", f"the text holds {unsafe}, which Kingdom does not print", self.doc.file,
                *self._character_at(node, UNSAFE.search(value).group()),
                "remove it (newlines and tabs are kept where a text may have lines)"))
            return None
        return value

    def _character_at(self, node: yaml.ScalarNode, char: str) -> tuple[int, int]:
        """Where `char` of the scalar's value is written: itself, or an escape (\\x1b, \\e,
        \\u202e); the scalar's start if neither is found."""
        start, end = node.start_mark.index, node.end_mark.index
        source = self.doc.text[start:end]
        code = ord(char)
        escapes = [f"\\x{code:02x}", f"\\u{code:04x}", f"\\U{code:08x}", *["\\e"] * (code == 0x1B)]
        found = source.find(char)
        if found < 0:
            match = re.search("|".join(map(re.escape, escapes)), source, re.IGNORECASE)
            found = match.start() if match else 0
        return _line_col(self.doc.text, start + found)


def _yaml11_number(text: str) -> str:
    """Why a number is refused: "'010' is a number only in YAML 1.1, which reads it as 8 (octal)"."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        value = None
    if not isinstance(value, int | float) or isinstance(value, bool):
        return f"'{text}' is not a number"
    digits = text.lstrip("+-").lower()
    base = ("base 60, minutes:seconds" if ":" in digits else "hexadecimal" if "0x" in digits
            else "binary" if "0b" in digits else "octal" if digits[:1] == "0" and digits[1:2].isdigit()
            else "digits grouped with _" if "_" in digits else "")
    return (f"'{text}' is a number only in YAML 1.1, which reads it as {value}"
            + (f" ({base})" if base else ""))


def _kind(value: Any) -> str:
    if isinstance(value, date):
        return f"a date ({value})"
    if isinstance(value, bytes):
        return "binary data (!!binary)"
    return f"a YAML {type(value).__name__}"
