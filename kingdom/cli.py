"""The `kingdom` command: check, list, show, schema, test, demo."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from compiler.build import compile_folders
from compiler.errors import CompileError
from compiler.expansions import discover
from compiler.schema import card_schema
from runtime.library import Library

console = Console()


def _library(extra: list[str]) -> Library:
    library, _ = compile_folders(discover(extra))  # + KINGDOM_PATH and installed expansions
    return library


def cmd_check(args: argparse.Namespace) -> int:
    folders = discover(args.paths)
    start = time.perf_counter()
    library, diagnostics = compile_folders(folders, strict=False)
    elapsed = time.perf_counter() - start
    if diagnostics:
        print(CompileError(diagnostics).report(), file=sys.stderr)
        print(f"\n{len(diagnostics)} error(s); {len(library)} card(s) compiled", file=sys.stderr)
        return 1
    print(f"ok: {len(library)} cards compiled in {elapsed * 1000:.0f} ms")
    return 0


def card_record(card) -> dict:
    cost = {"coins": card.cost}
    if card.overpay:
        cost["overpay"] = True
    if card.special_cost:
        cost["special"] = True
    return {"name": card.name, "set": card.set, "kind": card.kind, "cost": cost,
            "types": list(card.types), "text": card.text}


def cmd_list(args: argparse.Namespace) -> int:
    library = _library(args.cards)
    cards = [c for c in library if args.set is None or c.set == args.set]
    if args.json:
        print(json.dumps([card_record(c) for c in cards], indent=2))
        return 0
    table = Table(title=f"{len(cards)} cards")
    for column in ("Name", "Set", "Cost", "Types"):
        table.add_column(column)
    for card in sorted(cards, key=lambda c: (c.set, c.name)):
        table.add_row(card.name, card.set, f"${card.cost}", " - ".join(card.types))
    console.print(table)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    library = _library(args.cards)
    name = library.resolve(args.name)
    if name is None:
        hint = library.suggest(args.name)
        print(f"unknown card '{args.name}'" + (f"; did you mean '{hint}'?" if hint else ""),
              file=sys.stderr)
        return 1
    card = library[name]
    cost = f"${card.cost}" + ("+" if card.overpay else "")
    print(f"{card.name}  ({cost})  {' - '.join(card.types)}  [{card.set}]")
    print(card.text)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    print(json.dumps(card_schema(), indent=2))
    return 0


def cmd_test(args: argparse.Namespace) -> int:
    from kingdom.scenarios import run_file

    files: list[Path] = []
    for path in map(Path, args.paths):
        files.extend(sorted(path.rglob("*.yaml")) if path.is_dir() else [path])
    passed = failed = 0
    for file in files:
        for outcome in run_file(file):
            if outcome.passed:
                passed += 1
                if not args.quiet:
                    print(f"pass  {file}: {outcome.name}")
            else:
                failed += 1
                print(f"FAIL  {file}: {outcome.name}: {outcome.message}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_demo(args: argparse.Namespace) -> int:
    """The main job: compile every card, summarise, and play a sample game."""
    from kingdom.bots import BigMoney, DefaultAgent
    from runtime.setup import standard_game

    start = time.perf_counter()
    library = _library([])
    elapsed = time.perf_counter() - start
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
    kingdom = args.kingdom.split(",")
    game = standard_game(library, kingdom, [BigMoney(), DefaultAgent()], seed=args.seed)
    game.log = []
    game.run()
    console.print(f"\n[bold]Sample game[/bold] (seed {args.seed}): Big Money vs the default "
                  f"bot, Kingdom: {', '.join(kingdom)}")
    for line in game.log[: args.lines]:
        console.print("  " + line)
    if len(game.log) > args.lines:
        console.print(f"  ... ({len(game.log) - args.lines} more log lines)")
    for player in game.players:
        console.print(f"{player.name}: {game.score(player)} VP in {player.turns_taken} turns")
    console.print("Winner: " + ", ".join(p.name for p in game.winners()))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kingdom", description="Dominion cards as data.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("check", help="compile the built-in cards and the given folders")
    p.add_argument("paths", nargs="*")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("list", help="list the loaded cards")
    p.add_argument("--set")
    p.add_argument("--json", action="store_true")
    p.add_argument("--cards", action="append", default=[])
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("show", help="show one card")
    p.add_argument("name")
    p.add_argument("--cards", action="append", default=[])
    p.set_defaults(func=cmd_show)
    p = sub.add_parser("schema", help="print the card JSON Schema")
    p.set_defaults(func=cmd_schema)
    p = sub.add_parser("test", help="run scenario files")
    p.add_argument("paths", nargs="+")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_test)
    p = sub.add_parser("demo", help="compile everything and play a sample game")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--kingdom", default="Village,Smithy,Militia,Market,Moat,Witch,Cellar,"
                   "Workshop,Remodel,Laboratory")
    p.add_argument("--lines", type=int, default=40)
    p.set_defaults(func=cmd_demo)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except CompileError as exc:
        print(exc.report(), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
