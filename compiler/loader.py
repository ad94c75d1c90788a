"""Load YAML safely, keeping the line and column of every value.

PyYAML's composer gives a node tree with marks; we turn it into plain Python data and a table
from each value's path (as jsonschema reports it) to its position in the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from compiler.errors import Diagnostic

Path_ = tuple  # a path into the data: keys and list indexes


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


def load_yaml(file: str, text: str | None = None) -> tuple[Located | None, list[Diagnostic]]:
    """Parse one YAML file safely. Returns the document or a K100 diagnostic."""
    if text is None:
        text = Path(file).read_text(encoding="utf-8")
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or str(exc)
        context = f" ({exc.context})" if exc.context else ""
        return None, [Diagnostic("K100", f"invalid YAML: {problem}{context}", file, line, col)]
    except yaml.YAMLError as exc:
        return None, [Diagnostic("K100", f"invalid YAML: {exc}", file)]
    doc = Located(file, None, text)
    if node is None:
        doc.data = None
        return doc, []
    try:
        doc.data = _convert(node, (), doc)
    except yaml.YAMLError as exc:
        return None, [Diagnostic("K100", f"invalid YAML: {exc}", file)]
    return doc, []


def _convert(node: yaml.Node, path: Path_, doc: Located) -> Any:
    doc.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = yaml.SafeLoader(" ").construct_object(key_node, deep=True)
            key = key if isinstance(key, str | int | float | bool) or key is None else str(key)
            child = (*path, key)
            doc.key_positions[child] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if isinstance(key_node, yaml.ScalarNode):
                doc.styles[(*path, key, "<key>")] = key_node.style
            result[key] = _convert(value_node, child, doc)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, (*path, i), doc) for i, item in enumerate(node.value)]
    doc.styles[path] = node.style
    loader = yaml.SafeLoader("")
    return loader.construct_object(node, deep=True)
