"""`kingdom check [PATH...]`: compile the built-in cards and the given folders, and fail on any
error (the command the other commands point to when they leave a broken card out)."""

from __future__ import annotations

import argparse
import json
import sys
import time

from kingdom.cli import arguments
from kingdom.compiler.build import compile_folders
from kingdom.compiler.errors import CompileError, Diagnostic
from kingdom.compiler.expansions import Manifest, discover, manifests
from kingdom.compiler.printed import side_by_side
from kingdom.compiler.render import render_card


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="compile the built-in cards and the given folders")
    p.add_argument("paths", nargs="*", type=arguments.card_path, metavar="PATH",
                   help="card folders or card files to compile with the built-in cards")
    p.add_argument("--json", action="store_true",
                   help="print the cards compiled and every diagnostic (file, line, column, code, "
                   "severity, message, hint) as JSON on stdout, for editors and CI")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    folders = discover(args.paths)
    start = time.perf_counter()
    library, diagnostics = compile_folders(folders, strict=False)
    elapsed = time.perf_counter() - start
    if args.json:
        print(json.dumps({"cards": len(library), "errors": len(diagnostics),
                          "diagnostics": [_as_json(d) for d in diagnostics]},
                         indent=2, ensure_ascii=False))
        return 1 if diagnostics else 0
    if diagnostics:
        print(CompileError(diagnostics).report(), file=sys.stderr)
        print(f"\n{len(diagnostics)} error(s); {len(library)} card(s) compiled", file=sys.stderr)
        return 1
    for warning in printed_text_warnings(library):
        print(warning, file=sys.stderr)
    print(f"ok: {len(library)} cards compiled in {elapsed * 1000:.0f} ms")
    for manifest in (m for folder in folders[1:] for m in manifests(folder)):
        if isinstance(manifest, Manifest):
            print(f"  expansion {manifest.name} {manifest.version} (dsl {manifest.dsl}): {manifest.folder}")
    return 0


def printed_text_warnings(library) -> list[str]:
    """A warning for each card written as its printed text (`text:`) whose tree renders other
    words: both texts side by side (the card still compiles; its tree is what it does)."""
    out = []
    for card in library:
        tree = card.tree
        given = tree.data.get("text") if tree is not None else None
        if given is None:
            continue
        rendered = render_card(card, tree)
        if rendered != given.strip("\n"):
            line, col = tree.doc.where(("text",))
            out.append(f"{tree.doc.file}:{line}:{col}: warning[K130]: the printed text reads as "
                       "a tree that renders other words; the card does what the right-hand "
                       f"text says\n{side_by_side(given.strip(chr(10)), rendered)}")
    return out


def _as_json(diagnostic: Diagnostic) -> dict:
    """One diagnostic as editors read them (the keys of LSP's and of most linters' JSON)."""
    return {"file": diagnostic.file, "line": diagnostic.line, "column": diagnostic.column,
            "code": diagnostic.code, "severity": "error", "message": diagnostic.message,
            "hint": diagnostic.hint, "suggestion": diagnostic.suggestion}
