"""`kingdom demo` (and `make run`): compile every card, summarise them by set, and narrate a
sample game: the quickest look at what the project does."""

from __future__ import annotations

import argparse
import time

from rich.table import Table
from rich.text import Text

from kingdom.cli import arguments, common
from kingdom.cli.common import console
from kingdom.compiler.texts import printable


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="compile everything and play a sample game")
    p.add_argument("--seed", type=arguments.whole_number(0), default=1,
                   help="the game's seed (default: 1)")
    p.add_argument("--kingdom", metavar="CARDS", default="Village,Smithy,Militia,Market,Moat,Witch,"
                   "Cellar,Workshop,Remodel,Laboratory", help="comma-separated Kingdom cards "
                   "(default: Village, Smithy, Militia, Market, Moat, Witch, Cellar, Workshop, "
                   "Remodel, Laboratory)")
    p.add_argument("--lines", type=arguments.whole_number(0), default=60,
                   help="turns to print (default: 60)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The main job: compile every card, summarise, and play a sample game."""
    from kingdom.lab.bots import BigMoney, DefaultAgent
    from kingdom.runtime.setup import standard_game
    from kingdom.table.narrate import narrate

    start = time.perf_counter()
    library = common.load([])
    elapsed = time.perf_counter() - start
    kingdom = arguments.kingdom_piles(library, args.kingdom, common.ALLY_CHOSEN)
    table = Table(title=f"{len(library)} cards compiled from YAML in {elapsed * 1000:.0f} ms")
    table.add_column("Set")
    table.add_column("Cards", justify="right")
    table.add_column("Kinds")
    sets: dict[str, list] = {}
    for card in library:
        sets.setdefault(card.set, []).append(card)
    for set_name, cards in sorted(sets.items()):
        kinds = sorted({c.kind for c in cards})
        table.add_row(set_name, str(len(cards)), ", ".join(kinds))
    console.print(table)
    game = standard_game(library, kingdom, [BigMoney(), DefaultAgent()], seed=args.seed)
    turns = narrate(game, plain=False).turn_summaries()
    console.print(f"\n[bold]Sample game[/bold] (seed {args.seed}): Big Money vs the default "
                  f"bot, Kingdom: {', '.join(kingdom)}")
    for line in turns[: args.lines]:
        console.print(Text("  " + printable(line)), highlight=False)
    if len(turns) > args.lines:
        console.print(f"  ... ({len(turns) - args.lines} more turns)")
    for player in game.players:
        console.print(f"{player.name}: {game.score(player)} VP in {player.turns_taken} turns")
    console.print("Winner: " + ", ".join(p.name for p in game.winners()))
    return 0
