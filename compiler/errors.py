"""Author-facing diagnostics: `file:line:col: error[CODE]: message`, the line and a caret."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# Error codes, one per kind of mistake a card author can make.
CODES = {
    "K100": "the file is not valid YAML",
    "K101": "the file does not match the card schema",
    "K102": "unknown key",
    "K103": "missing required key",
    "K104": "a value has the wrong type",
    "K200": "DSL syntax error",
    "K201": "unknown primitive or keyword",
    "K300": "unknown card, type or pile name",
    "K301": "a reference that nothing bound",
    "K302": "a construct in the wrong place",
    # compile-time checks that keep a compiled card playable (compiler/checks.py)
    "K303": "a choice offers the same option twice",
    "K304": "a vp formula divides by zero ('per 0')",
    "K305": "a split pile's member is not a loaded card",
    "K306": "a split pile lists a split pile (itself or another) as a member",
    "K307": "a split pile has no members",
    "K308": "a pile over the size limit (pile_size, or copies times members)",
    "K309": "a repeat over the limit on repeated steps",
    "K310": "a setup rule outside a setup ability",
    "K311": "a bonus over the limit ('+N Coffers')",
    "K400": "two cards share a name",
    "K401": "written for a newer DSL version",
    "K402": "an expansion folder or manifest is not valid",
}


@dataclass
class Diagnostic:
    code: str
    message: str
    file: str
    line: int = 1
    column: int = 1
    hint: str = ""

    def format(self, source_lines: list[str] | None = None) -> str:
        head = f"{self.file}:{self.line}:{self.column}: error[{self.code}]: {self.message}"
        parts = [head]
        if source_lines is not None and 1 <= self.line <= len(source_lines):
            text = source_lines[self.line - 1].rstrip("\n")
            gutter = f"{self.line:>4} | "
            parts.append(gutter + text)
            parts.append(" " * (len(gutter) + max(self.column - 1, 0)) + "^")
        if self.hint:
            parts.append(f"     = help: {self.hint}")
        return "\n".join(parts)


class CompileError(Exception):
    """Raised with every diagnostic of a load, so an author sees all faults at once."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"{len(diagnostics)} error(s)")
        self.diagnostics = diagnostics

    def report(self) -> str:
        cache: dict[str, list[str] | None] = {}
        out = []
        for d in self.diagnostics:
            if d.file not in cache:
                try:
                    cache[d.file] = Path(d.file).read_text(encoding="utf-8").splitlines()
                except OSError:
                    cache[d.file] = None
            out.append(d.format(cache[d.file]))
        return "\n\n".join(out)
