"""`kingdom lsp`: a Language Server Protocol server over stdio for card and scenario files
(kingdom/editor/lsp.py); an editor starts it, no arguments needed."""

from __future__ import annotations

import argparse
from pathlib import Path

from kingdom.cli import arguments, common


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("lsp", help="a language server over stdio, for editors (diagnostics, "
                       "completion, hover, quick fixes)")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, metavar="PATH",
                   help=common.CARDS_HELP + " (the expansion of each file opened is loaded too)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kingdom.editor.lsp import serve

    serve([Path(c) for c in args.cards])
    return 0
