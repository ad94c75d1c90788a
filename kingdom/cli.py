"""The `kingdom` command: check, list, show, schema, test, demo, simulate, render."""

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
from compiler.expansions import Manifest, discover, manifests
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
    for manifest in (m for folder in folders[1:] for m in manifests(folder)):
        if isinstance(manifest, Manifest):
            print(f"  expansion {manifest.name} {manifest.version} (dsl {manifest.dsl}): {manifest.folder}")
    return 0


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
        table.add_row(card.name, card.set, "-" if card.kind == "ally" else f"${card.cost}",
                      " - ".join(card.types))
    console.print(table)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    library = _library(args.cards)
    name = library.resolve(args.name)
    if name is None and args.name in library.split_piles:  # a split pile: its members, top first
        members = library.split_piles[args.name]
        print(f"{args.name}  (split pile, top first: only its top card can be bought or gained)")
        for member in members:
            card = library[member]
            print(f"  {card.name}  (${card.cost})  {' - '.join(card.types)}")
        return 0
    if name is None:
        hint = library.suggest(args.name)
        print(f"unknown card '{args.name}'" + (f"; did you mean '{hint}'?" if hint else ""),
              file=sys.stderr)
        return 1
    card = library[name]
    cost = f"${card.cost}" + ("+" if card.overpay else "")
    if card.kind == "ally":
        cost = "no cost"
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
    turns = turn_summaries(game.log)
    for line in turns[: args.lines]:
        console.print("  " + line, highlight=False)
    if len(turns) > args.lines:
        console.print(f"  ... ({len(turns) - args.lines} more turns)")
    for player in game.players:
        console.print(f"{player.name}: {game.score(player)} VP in {player.turns_taken} turns")
    console.print("Winner: " + ", ".join(p.name for p in game.winners()))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play many seeded bot games and report win rates, game length and per-card figures."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from kingdom.simulate import Setup, random_kingdom, simulate
    from kingdom.strategy import resolve_bot

    library = _library(args.cards)
    try:
        bots = [resolve_bot(spec.strip(), library) for spec in args.bots.split(",") if spec.strip()]
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    if not bots:
        print("--bots needs at least one bot", file=sys.stderr)
        return 2
    if args.kingdom.strip().lower() == "random":
        kingdom = random_kingdom(library, tuple(args.sets.split(",")))
        kingdom_text = f"random ({args.sets})"
    else:
        kingdom = []
        for name in (n.strip() for n in args.kingdom.split(",") if n.strip()):
            resolved = library.resolve(name) or (name if name in library.split_piles else None)
            if resolved is None:
                hint = library.suggest(name)
                print(f"unknown card '{name}'" + (f"; did you mean '{hint}'?" if hint else ""),
                      file=sys.stderr)
                return 2
            kingdom.append(resolved)
        kingdom_text = ", ".join(kingdom) or "(none)"
    players = args.players or max(2, len(bots))
    setup = Setup(library, kingdom, bots, players=players, max_turns=args.max_turns,
                  check_invariants=args.check_invariants)
    start = time.perf_counter()
    err = Console(stderr=True)
    if args.json or args.no_progress:
        results = simulate(setup, args.games, args.seed, args.jobs)
    else:
        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=err, transient=True) as bar:
            task = bar.add_task("games", total=args.games)
            results = simulate(setup, args.games, args.seed, args.jobs,
                               progress=lambda n: bar.advance(task, n))
    elapsed = time.perf_counter() - start
    if args.json:
        data = results.to_json(players)
        data.update(kingdom=kingdom_text, seed=args.seed, players=players, jobs=args.jobs,
                    seconds=elapsed)
        print(json.dumps(data, indent=2))
    else:
        print_results(results, players, kingdom_text, args, elapsed)
    if args.plot:
        from kingdom.plot import plot_results

        plot_results(results, players, Path(args.plot))
        err.print(f"plot written to {args.plot}")
    for line in results.violations[:20]:
        print("invariant violated: " + line, file=sys.stderr)
    for failure in results.failures[:20]:
        print(f"error: {failure}", file=sys.stderr)
    if len(results.failures) > 20:
        print(f"... and {len(results.failures) - 20} more failed games", file=sys.stderr)
    return 1 if results.violations or results.failures else 0


def _unfinished_note(results, max_turns: int) -> str:
    """Which games the turn limit stopped (by seed), for the line on game length."""
    if not results.unfinished:
        return ""
    seeds = ", ".join(str(seed) for _index, seed in results.unfinished_games[:5])
    more = ", ..." if results.unfinished > 5 else ""
    return (f"; {results.unfinished} game(s) hit the limit of {max_turns} turns per player "
            f"(seeds {seeds}{more})")


def print_results(results, players: int, kingdom_text: str, args: argparse.Namespace,
                  elapsed: float) -> None:
    from kingdom.simulate import FAILURES, wilson

    def pct(k: int, n: int) -> str:
        low, high = wilson(k, n)
        return f"{100 * k / n:5.1f}% [{100 * low:.1f}-{100 * high:.1f}]" if n else "-"

    table = Table(title=f"{results.games} games, {players} players, Kingdom: {kingdom_text}, "
                  f"seed {args.seed}")
    for column in ("Bot", "Wins (95% CI)", "Losses (95% CI)", "Ties (95% CI)", "Avg score"):
        table.add_column(column, justify="left" if column == "Bot" else "right")
    for bot in results.bots:
        table.add_row(bot.name, pct(bot.wins, bot.games), pct(bot.losses, bot.games),
                      pct(bot.ties, bot.games),
                      f"{bot.score_total / bot.games:.1f}" if bot.games else "-")
    console.print(table)
    if results.failures:
        console.print("Not in the figures: " + ", ".join(
            f"{results.count(kind)} game(s) {kind}" for kind in FAILURES if results.count(kind))
            + " (listed on stderr)")
    console.print(f"Turns per player: average {results.mean_turns(players):.2f}, median "
                  f"{results.median_turns(players):g}"
                  + _unfinished_note(results, args.max_turns)
                  + f"  ({results.games / elapsed:,.0f} games/s over {args.jobs} job(s))")
    if results.games:
        console.print("Sole wins by seat: " + ", ".join(
            f"seat {seat + 1} {100 * results.seat_wins[seat] / results.games:.1f}%"
            for seat in range(players)))
    cards = Table(title="Per card (per game; win rate of games that ended with the card owned)")
    cards.add_column("Bot")
    cards.add_column("Card")
    for column in ("Bought", "Played", "Owned in", "Win rate when owned (ties half)"):
        cards.add_column(column, justify="right")
    for bot in results.bots:
        names = sorted(set(bot.bought) | set(bot.played))
        for name in names:
            owned = bot.owned_games[name]
            cards.add_row(bot.name, name, f"{bot.bought[name] / bot.games:.2f}",
                          f"{bot.played[name] / bot.games:.2f}",
                          f"{100 * owned / bot.games:.0f}%",
                          f"{100 * bot.owned_wins[name] / 2 / owned:.1f}%" if owned else "-")
    console.print(cards)


def cmd_render(args: argparse.Namespace) -> int:
    """A printable rule summary (HTML, Markdown or PDF) of a set or a Kingdom."""
    from kingdom import render

    if (args.set is None) == (args.kingdom is None):
        print("render: give either --set SET or --kingdom 'Card,Card,...'", file=sys.stderr)
        return 2
    library = _library(args.cards)
    try:
        if args.set is not None:
            selection = render.select_set(library, args.set)
        else:
            selection = render.select_kingdom(library, args.kingdom.split(","), args.ally)
        summary = render.build_summary(library, selection, plain=args.plain, paper=args.paper,
                                       rulings=render.load_rulings(args.rules),
                                       accessibility=render.load_accessibility(args.rules))
        data = render.render(summary, args.format)
    except render.RenderError as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 1
    if args.output in (None, "-"):
        if args.format == "pdf" and sys.stdout.isatty():
            print("render: a PDF needs --output FILE", file=sys.stderr)
            return 2
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        Path(args.output).write_bytes(data)
        count = len(summary.cards)
        print(f"wrote {args.output} ({count} card{'' if count == 1 else 's'}, {args.format})",
              file=sys.stderr)
    return 0


def turn_summaries(log: list[str]) -> list[str]:
    """One line per turn from a game log: "turn 3 p1: plays Copper x4; buys Silver for $4"."""
    out: list[str] = []
    head, events = "", []

    def flush() -> None:
        if head:
            runs: list[list] = []
            for event in events:
                if runs and runs[-1][0] == event:
                    runs[-1][1] += 1
                else:
                    runs.append([event, 1])
            text = "; ".join(e if n == 1 else f"{e} x{n}" for e, n in runs)
            out.append(f"{head}: {text or 'nothing'}")

    for line in log:
        if line.startswith("-- turn "):
            flush()
            head, events = line[3:].replace(":", ""), []
        else:
            player, _, event = line.partition(" ")
            if events and events[-1].startswith(f"buys {event[6:]} for") and event.startswith("gains"):
                continue  # a bought card is gained: said once
            events.append(event if head.endswith(player) else line)
    flush()
    return out


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
    p.add_argument("--lines", type=int, default=60, help="turns to print")
    p.set_defaults(func=cmd_demo)
    p = sub.add_parser("simulate", help="play many bot games and report the figures")
    p.add_argument("--kingdom", default="", help="comma-separated Kingdom cards, or 'random'")
    p.add_argument("--sets", default="base", help="sets a random Kingdom is drawn from")
    p.add_argument("--bots", default="big-money,big-money",
                   help="comma-separated strategies (kingdom/strategies), files, 'default', 'random'")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--players", type=int, default=0, help="players per game (default: number of bots)")
    p.add_argument("--max-turns", type=int, default=500,
                   help="stop a game when each player has had this many turns")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--check-invariants", action="store_true",
                   help="check between moves that no card is created, lost or in two places")
    p.add_argument("--cards", action="append", default=[])
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw the win rate as games accumulate and the game lengths")
    p.set_defaults(func=cmd_simulate)
    p = sub.add_parser("render", help="write a printable rule summary (HTML, Markdown, PDF)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--set", help="every card of one set (set id or card folder name)")
    what.add_argument("--kingdom", help="comma-separated Kingdom cards (and split piles)")
    p.add_argument("--ally", help="the game's Ally, with --kingdom")
    p.add_argument("--format", choices=("html", "md", "pdf"), default="html")
    p.add_argument("--output", "-o", help="file to write (default: standard output)")
    p.add_argument("--plain", action="store_true",
                   help="accessible layout: everything in words, no colour or icons")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    p.add_argument("--rules", help="rules folder with Card-by-Card Clarifications "
                   "(default: $KINGDOM_RULES or ../shared/rules)")
    p.add_argument("--cards", action="append", default=[], help="extra card folders")
    p.set_defaults(func=cmd_render)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except CompileError as exc:
        print(exc.report(), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
