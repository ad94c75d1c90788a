"""`kingdom check [PATH...]`: compile the built-in cards and the given folders, and fail on any
error (the command the other commands point to when they leave a broken card out)."""

from __future__ import annotations

import argparse
import sys
import time

from kingdom.cli import arguments
from kingdom.compiler.build import compile_folders
from kingdom.compiler.errors import CompileError
from kingdom.compiler.expansions import Manifest, discover, manifests


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="compile the built-in cards and the given folders")
    p.add_argument("paths", nargs="*", type=arguments.card_path, metavar="PATH",
                   help="card folders or card files to compile with the built-in cards")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    folders = discover(args.paths)
    start = time.perf_counter()
    library, diagnostics = compile_folders(folders, strict=False)
    elapsed = time.perf_counter() - start
    if diagnostics:
        print(CompileError(diagnostics).report(), file=sys.stderr)
        print(f"\n{len(diagnostics)} error(s); {len(library)} card(s) compiled", file=sys.stderr)
        return 1
    print(f"ok: {len(library)} cards compiled in {elapsed * 1000:.0f} ms")
    for manifest in (m for folder in folders[1:] for m in manifests(folder)):
        if isinstance(manifest, Manifest):
            print(f"  expansion {manifest.name} {manifest.version} (dsl {manifest.dsl}): {manifest.folder}")
    return 0
