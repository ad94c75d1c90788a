"""`kingdom list [--set SET] [--json]`: the loaded cards, as a table or as JSON records. Cards
that do not compile are left out with a warning (`kingdom check` fails on them)."""

from __future__ import annotations

import argparse
import json

from rich.table import Table
from rich.text import Text

from kingdom.cli import arguments, common
from kingdom.cli.common import console
from kingdom.compiler.texts import printable


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("list", help="list the loaded cards")
    p.add_argument("--set", help="only the cards of this set (a set id such as base)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, metavar="PATH",
                   help=common.CARDS_HELP)
    p.set_defaults(func=run)


def card_record(card) -> dict:
    cost = {"coins": card.cost}
    if card.overpay:
        cost["overpay"] = True
    if card.special_cost:
        cost["special"] = True
    if card.kind == "ally":
        cost = None  # an Ally has no cost (as in the reference data)
    return {"name": card.name, "set": card.set, "kind": card.kind, "cost": cost,
            "types": list(card.types), "text": card.text}


def run(args: argparse.Namespace) -> int:
    library, _ = common.load_despite_errors(args.cards)
    chosen = None if args.set is None else arguments.card_set(args.set, (c.set for c in library))
    cards = [c for c in library if chosen is None or c.set == chosen]
    if args.json:
        print(json.dumps([card_record(c) for c in cards], indent=2))
        return 0
    table = Table(title=f"{len(cards)} cards")
    for column in ("Name", "Set", "Cost", "Types"):
        table.add_column(column)
    for card in sorted(cards, key=lambda c: (c.set, c.name)):
        table.add_row(Text(printable(card.name)), Text(printable(card.set)),
                      "-" if card.kind == "ally" else f"${card.cost}",
                      Text(printable(" - ".join(card.types))))
    console.print(table)
    return 0
