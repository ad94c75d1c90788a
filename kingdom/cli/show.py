"""`kingdom show CARD`: one card (or split pile) in words, found in any case. A card that did
not compile is named as such, with its errors above, rather than as unknown."""

from __future__ import annotations

import argparse
import sys

from kingdom.cli import arguments, common
from kingdom.cli.common import FAILED
from kingdom.compiler.texts import printable
from kingdom.runtime.library import find_card


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("show", help="show one card")
    p.add_argument("name", metavar="CARD", help="a card or split pile, in any case")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, metavar="PATH",
                   help=common.CARDS_HELP)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    library, broken = common.load_despite_errors(args.cards)
    if find_card(library, args.name) is None and args.name.lower() in broken:
        print(f"kingdom show: {printable(args.name)} did not compile: its errors are above "
              f"({broken[args.name.lower()]})", file=sys.stderr)
        return FAILED
    name = arguments.card_or_pile(library, args.name)
    if name in library.split_piles:  # a split pile: its members, top first
        print(f"{printable(name)}  (split pile, top first: only its top card can be bought or gained)")
        for member in library.split_piles[name]:
            card = library[member]
            print(printable(f"  {card.name}  (${card.cost})  {' - '.join(card.types)}"))
        return 0
    card = library[name]
    cost = f"${card.cost}" + ("+" if card.overpay else "")
    if card.kind == "ally":
        cost = "no cost"
    print(printable(f"{card.name}  ({cost})  {' - '.join(card.types)}  [{card.set}]"))
    print(printable(card.text, lines=True))
    return 0
