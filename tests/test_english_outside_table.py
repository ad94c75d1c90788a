"""English written outside the phrase table: an `ast` scan of the renderers (every `render*`
method and function of the compiler, and the helpers that say a step of "they") for string
constants holding a word, against a ratchet that may only go down (to 0, when every word a
renderer writes comes from one table that the grammar reads too: compiler/lexicon.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPILER = ROOT / "compiler"
# Modules that are the table (their words are the declaration), or not renderers at all.
TABLES = {"lexicon.py"}
RENDERERS = re.compile(r"render\w*|_they_\w+|third_person|their|they_do|said_of_them")
WORD = re.compile(r"[A-Za-z]{2,}")
# String constants with a word in the renderers: may only go down.
ENGLISH_OUTSIDE_TABLE = 643


def english_literals() -> list[str]:
    """`file:line: 'text'` for each string constant (or f-string part) holding a word inside a
    renderer; docstrings are not counted."""
    found = []
    for file in sorted(COMPILER.rglob("*.py")):
        if file.name in TABLES:
            continue
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if not RENDERERS.fullmatch(function.name):
                continue
            docstring = ast.get_docstring(function, clean=False)
            for node in ast.walk(function):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                        and node.value != docstring and WORD.search(node.value):
                    found.append(f"{file.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    return found


def test_english_outside_the_table_only_goes_down():
    found = english_literals()
    assert len(found) <= ENGLISH_OUTSIDE_TABLE, (
        f"{len(found)} English string constants in renderers (was {ENGLISH_OUTSIDE_TABLE}): "
        "take words from compiler/lexicon.py instead\n" + "\n".join(found))


def test_the_scan_finds_english_in_a_renderer(tmp_path):
    """(The scan itself: a word in a render method counts; a docstring does not.)"""
    source = 'def render(self):\n    """Says it."""\n    return "gain a " + x + "$"\n'
    tree = ast.parse(source)
    function = tree.body[0]
    strings = [n.value for n in ast.walk(function) if isinstance(n, ast.Constant)
               and isinstance(n.value, str) and n.value != ast.get_docstring(function, clean=False)
               and WORD.search(n.value)]
    assert strings == ["gain a "]
