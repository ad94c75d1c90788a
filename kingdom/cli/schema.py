"""`kingdom schema`: the JSON Schema of a card file, for editors and other tools."""

from __future__ import annotations

import argparse
import json

from kingdom.compiler.schema import card_schema


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("schema", help="print the card JSON Schema")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print(json.dumps(card_schema(), indent=2))
    return 0
