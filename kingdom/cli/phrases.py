"""`kingdom phrases [WORD] [--markdown]`: the card DSL's phrase reference (compiler/phrases),
or the phrases holding a word; `--markdown` writes docs/dsl.md (`make docs`)."""

from __future__ import annotations

import argparse
import sys


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("phrases", help="the DSL's phrases, or those containing WORD")
    p.add_argument("word", nargs="?", metavar="WORD", help="a word the phrases must contain")
    p.add_argument("--markdown", action="store_true", help="the whole reference (docs/dsl.md)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The DSL's phrase reference, or its phrases holding a word."""
    from kingdom.compiler.phrases.listing import matching, phrases, text_listing
    from kingdom.compiler.phrases.markdown import markdown

    if args.markdown:
        print(markdown(), end="")
        return 0
    selected = matching(args.word) if args.word else list(phrases().values())
    if not selected:
        print(f"no phrase, meaning or example has a word starting with '{args.word}' (try a shorter "
              "word, or `kingdom phrases` for them all)", file=sys.stderr)
        return 1
    print(text_listing(selected), end="")
    return 0
