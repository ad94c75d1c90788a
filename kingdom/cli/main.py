"""The `kingdom` command: check, list, show, schema, test, demo, simulate, rate, render."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kingdom.cli import arguments
from kingdom.cli.arguments import UsageError, printable
from kingdom.cli.rate import add_rate
from kingdom.compiler.build import broken_cards, compile_folders
from kingdom.compiler.errors import CompileError
from kingdom.compiler.expansions import Manifest, discover, manifests
from kingdom.compiler.schema import card_schema
from kingdom.runtime.library import Library


class _Console(Console):
    """rich's Console, leaving a closed pipe to `main` (rich's own handling exits with 1)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


console = _Console()

# Exit statuses (README, Commands).
OK, FAILED, USAGE = 0, 1, 2  # a check, test or invariant failed; bad usage or input
INTERNAL = 70  # a bug in Kingdom (sysexits' EX_SOFTWARE)
INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), as a shell reports it
BROKEN_PIPE = 141  # the reader of our output went away (128 + SIGPIPE), as `seq 9999 | head -1`


def _library(extra: list[str]) -> Library:
    library, _ = compile_folders(discover(extra))  # + KINGDOM_PATH and installed expansions
    return library


def _library_despite_errors(extra: list[str]) -> tuple[Library, dict[str, str]]:
    """The cards that compiled, for a command that needs only some (`show X`, `list`): the
    others' errors are printed as warnings on stderr (`check` is the command that fails on
    them). Also the broken cards' names (lower case) and files."""
    library, diagnostics = compile_folders(discover(extra), strict=False)
    _warn_broken(diagnostics)
    return library, broken_cards(diagnostics)


def _warn_broken(diagnostics: list) -> None:
    """The errors of card files a command went on without, as warnings on stderr."""
    if diagnostics:
        files = len({d.file for d in diagnostics})
        print(CompileError(diagnostics).report("warning"), file=sys.stderr)
        print(f"warning: {files} card file(s) did not compile and were left out "
              "(`kingdom check` fails on them)\n", file=sys.stderr)


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
    library, _ = _library_despite_errors(args.cards)
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


def cmd_show(args: argparse.Namespace) -> int:
    library, broken = _library_despite_errors(args.cards)
    if arguments.find_card(library, args.name) is None and args.name.lower() in broken:
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


def cmd_schema(args: argparse.Namespace) -> int:
    print(json.dumps(card_schema(), indent=2))
    return 0


def cmd_test(args: argparse.Namespace) -> int:
    from kingdom.scenarios.runner import card_problems, run_file

    files: list[Path] = []
    for path in map(Path, args.paths):
        files.extend(sorted(path.rglob("*.yaml")) if path.is_dir() else [path])
    passed = failed = 0
    for file in files:
        try:
            outcomes = run_file(file, [Path(c) for c in args.cards])
        except (OSError, UnicodeDecodeError) as exc:
            failed += 1
            print(printable(f"FAIL  {file}: cannot read the file: {exc}"))
            continue
        for outcome in outcomes:
            if outcome.passed:
                passed += 1
                if not args.quiet:
                    print(printable(f"pass  {file}: {outcome.name}"))
            else:
                failed += 1
                print(printable(f"FAIL  {file}: {outcome.name}: {outcome.message}", lines=True))
    _warn_broken(card_problems())
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


ALLY_CHOSEN = "the game's Ally is picked at random when a Liaison is in the Kingdom"


def cmd_demo(args: argparse.Namespace) -> int:
    """The main job: compile every card, summarise, and play a sample game."""
    from kingdom.lab.bots import BigMoney, DefaultAgent
    from kingdom.runtime.setup import standard_game
    from kingdom.table.narrate import narrate

    start = time.perf_counter()
    library = _library([])
    elapsed = time.perf_counter() - start
    kingdom = arguments.kingdom_piles(library, args.kingdom, ALLY_CHOSEN)
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


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play many seeded bot games and report win rates, game length and per-card figures."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from kingdom.lab.simulate import build_setup, with_without

    library = _library(args.cards)
    bots = _bots(library, bot_specs(args.bots))
    if args.log and args.json:
        raise UsageError("--log narrates games as text; it does not go with --json")
    players = args.players or max(arguments.MIN_PLAYERS, len(bots))
    if players > arguments.MAX_PLAYERS:
        raise UsageError(f"{len(bots)} bots but a game has {arguments.MIN_PLAYERS} to "
                         f"{arguments.MAX_PLAYERS} players; give --players (the bots take the "
                         "seats in turn) or fewer bots")
    spec, kingdom_text = _run_spec(args, library, players)
    setup = build_setup(spec, library)
    if args.round_robin:
        return _round_robin(setup, args)
    start = time.perf_counter()
    err = _Console(stderr=True)
    if args.json or args.no_progress:
        results = _play(setup, spec, args)
    else:
        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=err, transient=True) as bar:
            task = bar.add_task("games", total=args.games)
            results = _play(setup, spec, args, progress=lambda n: bar.advance(task, n))
    elapsed = time.perf_counter() - start
    if args.log:
        _narrate_simulated(setup, args)
    choices = _setup_choices(spec)
    if args.json:
        data = results.to_json(players)
        data.update(kingdom=kingdom_text, seed=args.seed, players=players, jobs=args.jobs,
                    seconds=elapsed, setup=choices)
        data["with_without"] = [row.to_json() for row in with_without(results)]
        print(json.dumps(data, indent=2))
    else:
        print_results(results, players, kingdom_text, args, elapsed)
        console.print(_setup_line(choices, results.setups_drawn(), results.games))
        console.print(with_without_table(results))
    _write_reports(results, players, args, f"Kingdom: {kingdom_text} | bots: "
                   f"{', '.join(b.name for b in bots)} | {results.games} games, seed {args.seed}")
    for line in results.violations[:20]:
        print("invariant violated: " + line, file=sys.stderr)
    for failure in results.failures[:20]:
        print(printable(f"error: {failure}"), file=sys.stderr)
    if len(results.failures) > 20:
        print(f"... and {len(results.failures) - 20} more failed games", file=sys.stderr)
    return FAILED if results.violations or results.failures else 0


def _run_spec(args: argparse.Namespace, library: Library, players: int):
    """The run `simulate` is asked for, as data (kingdom/simulate.py RunSpec), and its Kingdom
    in words. Setup choices are checked here: --ally an Ally, --bane and --ferryman Kingdom cards."""
    from kingdom.lab.simulate import RunSpec
    from kingdom.runtime.setup import RANDOM

    sets: tuple[str, ...] = ()
    kingdom: list[str] = []
    if args.kingdom.strip().lower() == "random":
        sets = arguments.kingdom_sets(library, args.sets or "base")
        kingdom_text = f"random ({','.join(sets)})"
    elif args.sets is not None:
        raise UsageError("--sets goes with --kingdom random")
    else:
        kingdom = arguments.kingdom_piles(library, args.kingdom, ALLY_CHOSEN)
        kingdom_text = ", ".join(kingdom) or "(none)"
    ally = {None: RANDOM, "random": RANDOM, "none": None}.get(
        (args.ally or "").lower() or None, args.ally)
    if ally not in (RANDOM, None):
        ally = arguments.ally(library, ally)
    choices = []
    for key in ("bane", "ferryman"):
        name = getattr(args, key)
        if name is not None:
            piles = arguments.kingdom_piles(library, name, "give it with --ally")
            if len(piles) != 1 or piles[0] in library.split_piles:
                raise UsageError(f"--{key}: give one Kingdom card, not '{name}'")
            choices.append((key, piles[0]))
    files = [str(Path(b).resolve()) if Path(b).is_file() else b for b in bot_specs(args.bots)]
    spec = RunSpec(tuple(files), tuple(kingdom), sets,
                   tuple(str(Path(c).resolve()) for c in args.cards), players, args.max_turns,
                   args.check_invariants, args.colonies, ally, tuple(choices),
                   detail=bool(args.plot or args.csv))
    return spec, kingdom_text


def _play(setup, spec, args: argparse.Namespace, progress=None):
    """The games of `simulate`: here (over --jobs processes) or on the --cluster."""
    from kingdom.lab.simulate import ClusterError, simulate, simulate_on_cluster

    if args.cluster is None:
        return simulate(setup, args.games, args.seed, args.jobs, progress=progress)
    try:
        return simulate_on_cluster(args.cluster, spec, args.games, args.seed, progress)
    except ClusterError as exc:
        raise UsageError(f"--cluster: {exc}") from None


def _setup_choices(spec) -> dict:
    """Every setup choice of the run, as given (a pile or Ally drawn per game: "random")."""
    from kingdom.runtime.setup import RANDOM

    chosen = dict(spec.choices)
    return {"colonies": spec.colonies,
            "ally": "none" if spec.ally is None else "random" if spec.ally == RANDOM else spec.ally,
            "bane": chosen.get("bane", "random"), "ferryman": chosen.get("ferryman", "random"),
            "sets": list(spec.sets) or None}


def _setup_line(choices: dict, drawn: dict, games: int) -> str:
    """The setup choices in words, with how often each drawn one came up."""
    def said(what: str, given: str) -> str:
        counts = drawn.get(what.capitalize() if what != "bane" else "Bane", {})
        tally = ", ".join(f"{name} {100 * n / games:.0f}%" for name, n in
                          sorted(counts.items(), key=lambda kv: -kv[1])[:4]) if games else ""
        return f"{what.capitalize()} {given}" + (f" (drawn: {tally})" if tally else "")

    return ("Setup: Colonies " + ("yes" if choices["colonies"] else "no") + "; "
            + "; ".join(said(what, choices[what]) for what in ("ally", "bane", "ferryman")))


def _write_reports(results, players: int, args: argparse.Namespace, title: str) -> None:
    """--plot and --csv, once the figures are printed."""
    err = _Console(stderr=True)
    if args.csv:
        from kingdom.lab.simulate import write_csv

        try:
            with open(args.csv, "w", encoding="utf-8", newline="") as stream:
                write_csv(results, stream)
        except OSError as exc:
            raise UsageError(f"cannot write {args.csv}: {exc.strerror or exc}") from None
        err.print(f"{len(results.rows)} rows written to {args.csv}")
    if args.plot:
        from kingdom.lab.plot import plot_results

        try:
            plot_results(results, players, Path(args.plot), title)
        except OSError as exc:  # (the folder was checked before the run; it went away since)
            raise UsageError(f"cannot write {args.plot}: {exc.strerror or exc}") from None
        err.print(f"plot written to {args.plot}")


def _percent_ci(k: int, n: int) -> str:
    """k/n as a percentage with its 95% interval; "-" for no games (never a 100% of nothing)."""
    from kingdom.lab.simulate import wilson

    if not n:
        return "-"
    low, high = wilson(k, n)
    return f"{100 * k / n:.1f}% [{100 * low:.1f}-{100 * high:.1f}]"


def with_without_table(results) -> Table:
    """Per card: the sole-win rate of the players who bought it against those who did not."""
    from kingdom.lab.simulate import with_without

    table = Table(title="With and without (sole wins of the players who bought the card, and of "
                  "those who did not)")
    for column in ("Card", "Bought by", "Wins with (95% CI)", "Not bought by",
                   "Wins without (95% CI)"):
        table.add_column(column, justify="left" if column == "Card" else "right")
    for row in with_without(results):
        table.add_row(printable(row.card), str(row.games_with),
                      _percent_ci(row.wins_with, row.games_with), str(row.games_without),
                      _percent_ci(row.wins_without, row.games_without))
    return table


def _round_robin(setup, args: argparse.Namespace) -> int:
    """`simulate --round-robin`: every pair of bots, the matrix of the row bot's win rates."""
    from kingdom.lab.simulate import round_robin, wilson

    if len(setup.bots) < 2:
        raise UsageError("--round-robin needs at least two bots")
    pairs = round_robin(setup, args.games, args.seed, args.jobs)
    names = [b.name for b in setup.bots]

    def cell(row: int, column: int) -> tuple[int, int, int]:  # (wins, ties, games) of row
        results = pairs[(min(row, column), max(row, column))]
        stats = results.bots[0 if row < column else 1]
        return stats.wins, stats.ties, stats.games
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "bots": names, "pairs": [
            {"bot": names[r], "against": names[c], "wins": w, "ties": t, "games": n,
             "win_ci95": wilson(w, n)}
            for r in range(len(names)) for c in range(len(names)) if r != c
            for w, t, n in [cell(r, c)]]}, indent=2))
        return 0
    table = Table(title=f"Round robin: wins of the row's bot against the column's, "
                  f"{args.games} games a pair (95% CI), seed {args.seed}")
    table.add_column("Bot")
    for name in names:
        table.add_column(printable(name), justify="right")
    for r, name in enumerate(names):
        row = []
        for c in range(len(names)):
            wins, _ties, games = cell(r, c) if r != c else (0, 0, 0)
            row.append("-" if r == c else _percent_ci(wins, games))
        table.add_row(printable(name), *row)
    console.print(table)
    return 0


def _unfinished_note(results, max_turns: int) -> str:
    """Which games the turn limit stopped (by seed), for the line on game length."""
    if not results.unfinished:
        return ""
    seeds = ", ".join(str(seed) for _index, seed in results.unfinished_games[:5])
    more = ", ..." if results.unfinished > 5 else ""
    return (f"; {results.unfinished} game(s) hit the limit of {max_turns} turns per player "
            f"(seeds {seeds}{more})")


def bot_specs(text: str) -> list[str]:
    return [spec.strip() for spec in text.split(",") if spec.strip()]


def _bots(library: Library, specs: list[str]) -> list:
    return arguments.bots(library, specs)


def _plain(args: argparse.Namespace) -> bool:
    """Screen-reader output: asked for, or the output is not a terminal."""
    return args.plain or not sys.stdout.isatty()


def _narrate_simulated(setup, args: argparse.Namespace) -> None:
    """`simulate --log`: the first game (or every game) played again with the narrator."""
    from kingdom.table.narrate import narrate_simulated

    for index in range(args.games if args.log == "all" else 1):
        print(f"Game {index + 1} (seed {args.seed}):")
        for line in narrate_simulated(setup, args.seed, index, _plain(args)).lines:
            print(printable(line.text))
        print()


def cmd_play(args: argparse.Namespace) -> int:
    """A person against bots in the terminal (kingdom/play.py), saved after every answer. A
    save file's setup is checked by the same functions as the arguments of a new game."""
    from kingdom.table import play, save

    where = ""
    if args.resume is not None:
        if args.kingdom is not None or args.bots is not None or args.cards or args.seat:
            raise UsageError("--resume continues the saved game: its Kingdom, bots, cards and "
                             "seat come from the file (give only --save, --plain, --pause)")
        try:
            record = save.Record.load(Path(args.resume))
        except save.SaveError as exc:
            raise UsageError(str(exc)) from None
        library, where = _library(record.cards), f"{args.resume}: the save's "
    else:
        library = _library(args.cards)
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
        record = save.Record(_play_kingdom(library, args.kingdom or "random", seed),
                             bot_specs(args.bots or "big-money"), seed, args.seat or 1,
                             [str(Path(c).resolve()) for c in args.cards])
    try:
        record.kingdom = arguments.kingdom_list(library, record.kingdom, ALLY_CHOSEN)
        if not record.kingdom:
            raise UsageError("--kingdom needs at least one card, or 'random'")
        bots = arguments.play_bots(library, record.bots, record.seat)
        save_path = save.target(Path(args.save or args.resume or save.DEFAULT_SAVE))
    except (UsageError, save.SaveError) as exc:
        raise UsageError(f"{where}{exc}") from None
    plain = _plain(args)
    try:
        table = play.Table(library, record, bots, plain)
    except save.SaveError as exc:
        raise UsageError(f"{args.resume}: {exc}") from None
    if plain:
        def write(text: str, _style: str | None) -> None:
            print(printable(text, lines=True), flush=True)
    else:
        def write(text: str, style: str | None) -> None:
            console.print(Text(printable(text, lines=True), style=style or ""), highlight=False)
    return play.Terminal(table, save_path, input, write, args.pause).run()


def _play_kingdom(library: Library, text: str, seed: int) -> list[str]:
    if text.strip().lower() == "random":
        from kingdom.lab.simulate import random_kingdom

        return random_kingdom(library)(seed)
    return text.split(",")


def print_results(results, players: int, kingdom_text: str, args: argparse.Namespace,
                  elapsed: float) -> None:
    from kingdom.lab.simulate import FAILURES, wilson

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
                  + f"  ({results.games / elapsed:,.0f} games/s "
                  + (f"on {args.cluster})" if args.cluster else f"over {args.jobs} job(s))"))
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


def _deal(args: argparse.Namespace, library: Library) -> list[str]:
    """A random Kingdom from the randomizer options (UsageError on bad input)."""
    from kingdom.print.randomizer import Constraints, RandomizerError, deal

    def names(text: str) -> tuple[str, ...]:
        return tuple(n.strip() for n in text.split(",") if n.strip())

    wanted = Constraints(names(args.require), names(args.exclude), args.spread, args.plus_buy,
                         args.village)
    try:
        return deal(library, list(names(args.sets)), args.seed, wanted)
    except RandomizerError as exc:
        raise UsageError(str(exc)) from None


def cmd_kingdom(args: argparse.Namespace) -> int:
    """A random Kingdom, seeded, with its setup resolved: printed, or rendered with --output."""
    from kingdom.print import render

    library = _library(args.cards)
    piles = _deal(args, library)
    if args.output or args.format:
        args.kingdom, args.set = ",".join(piles), None
        return cmd_render(args)
    chosen_ally = None if args.ally is None else arguments.ally(library, args.ally)
    try:
        selection = render.select_kingdom(library, piles, chosen_ally, args.players, args.seed)
    except render.RenderError as exc:
        raise UsageError(str(exc)) from None
    print(render.brief(library, selection))
    return 0


def _selection(args: argparse.Namespace, library: Library):
    """The set or Kingdom `render` is asked for (UsageError when it names nothing loaded)."""
    from kingdom.print import render

    try:
        if args.set is not None:
            return render.select_set(library, args.set)
        if args.kingdom.strip().lower() == "random":
            piles = _deal(args, library)
        else:
            piles = arguments.kingdom_piles(library, args.kingdom, "give it with --ally")
        if not piles:
            raise UsageError("--kingdom needs at least one card")
        chosen_ally = None if args.ally is None else arguments.ally(library, args.ally)
        return render.select_kingdom(library, piles, chosen_ally, args.players, args.seed)
    except render.RenderError as exc:
        raise UsageError(str(exc)) from None


def cmd_render(args: argparse.Namespace) -> int:
    """A printable rule summary (HTML, Markdown or PDF) of a set or a Kingdom."""
    from kingdom.print import render

    if (args.set is None) == (args.kingdom is None):
        raise UsageError("give either --set SET or --kingdom 'Card,Card,...'")
    if args.ally is not None and args.kingdom is None:
        raise UsageError("--ally goes with --kingdom")
    library = _library(args.cards)
    fmt = render.output_format(args.output, args.format)
    layout = args.layout or ("sheet" if args.kingdom and not args.plain else "summary")
    selection = _selection(args, library)
    try:
        summary = render.build_summary(library, selection, plain=args.plain, paper=args.paper,
                                       rulings=render.load_rulings(args.rules),
                                       accessibility=render.load_accessibility(args.rules),
                                       layout=layout, backs=args.backs)
        data = render.render(summary, fmt)
    except render.RenderError as exc:
        print(f"kingdom render: {exc}", file=sys.stderr)
        return FAILED
    if args.output in (None, "-"):
        if fmt == "pdf" and sys.stdout.isatty():
            raise UsageError("a PDF needs --output FILE")
        sys.stdout.buffer.write(data if fmt == "pdf" else printable(data.decode(), True).encode())
        sys.stdout.flush()
    else:
        try:
            Path(args.output).write_bytes(data)
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
        count = len(summary.cards)
        print(f"wrote {args.output} ({count} card{'' if count == 1 else 's'}, {fmt}, {layout})",
              file=sys.stderr)
    return 0


def cmd_phrases(args: argparse.Namespace) -> int:
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kingdom", description="Dominion cards as data: compile, show, test, play and print them.",
        epilog="Exit status: 0 ok, 1 a check or test failed, 2 bad usage or input, "
               f"{INTERNAL} an internal error (please report it).")
    parser.add_argument("--version", action="version", version=version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    cards_help = "a folder of extra card files, or one card file (repeatable)"
    p = sub.add_parser("check", help="compile the built-in cards and the given folders")
    p.add_argument("paths", nargs="*", type=arguments.card_path, metavar="PATH",
                   help="card folders or card files to compile with the built-in cards")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("list", help="list the loaded cards")
    p.add_argument("--set", help="only the cards of this set (a set id such as base)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, help=cards_help)
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("show", help="show one card")
    p.add_argument("name", metavar="CARD", help="a card or split pile, in any case")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, help=cards_help)
    p.set_defaults(func=cmd_show)
    p = sub.add_parser("schema", help="print the card JSON Schema")
    p.set_defaults(func=cmd_schema)
    p = sub.add_parser("test", help="run scenario files")
    p.add_argument("paths", nargs="+", type=arguments.scenario_path, metavar="PATH",
                   help="scenario files, or folders searched for *.yaml")
    p.add_argument("-q", "--quiet", action="store_true", help="print only failures and the total")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, help=cards_help)
    p.set_defaults(func=cmd_test)
    p = sub.add_parser("demo", help="compile everything and play a sample game")
    p.add_argument("--seed", type=arguments.whole_number(0), default=1, help="the game's seed")
    p.add_argument("--kingdom", default="Village,Smithy,Militia,Market,Moat,Witch,Cellar,"
                   "Workshop,Remodel,Laboratory", help="comma-separated Kingdom cards")
    p.add_argument("--lines", type=arguments.whole_number(0), default=60, help="turns to print")
    p.set_defaults(func=cmd_demo)
    add_simulate(sub)
    add_rate(sub)
    add_render(sub, cards_help)
    add_play(sub, cards_help)
    p = sub.add_parser("phrases", help="the DSL's phrases, or those containing WORD")
    p.add_argument("word", nargs="?", metavar="WORD", help="a word the phrases must contain")
    p.add_argument("--markdown", action="store_true", help="the whole reference (docs/dsl.md)")
    p.set_defaults(func=cmd_phrases)
    return parser


def add_play(sub: argparse._SubParsersAction, cards_help: str) -> None:
    p = sub.add_parser("play", help="play a game against bots in the terminal (saved as you go)")
    p.add_argument("--kingdom", help="comma-separated Kingdom cards, or 'random' (the default)")
    p.add_argument("--bots", help="1 to 5 comma-separated bots, as simulate takes them "
                   "(default: big-money)")
    p.add_argument("--seed", type=arguments.whole_number(0, arguments.MAX_SEED),
                   help="the game's seed (default: a new one; it is saved)")
    p.add_argument("--seat", type=arguments.whole_number(1, arguments.MAX_PLAYERS),
                   help="your seat, 1 goes first (default: 1)")
    p.add_argument("--save", type=arguments.output_file,
                   help="the save file, rewritten after every answer (default: kingdom-play.json, "
                   "or the file given to --resume)")
    p.add_argument("--resume", metavar="FILE", type=arguments.existing_file,
                   help="continue the game saved in FILE")
    p.add_argument("--plain", action="store_true", help="screen-reader mode: one event a line, "
                   "no colour, money in words (the default when the output is not a terminal)")
    p.add_argument("--pause", action="store_true", help="wait for Enter after each bot's turn")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, help=cards_help)
    p.set_defaults(func=cmd_play)


def add_simulate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="play many bot games and report the figures")
    p.add_argument("--kingdom", default="", help="comma-separated Kingdom cards, or 'random'")
    p.add_argument("--sets", help="with --kingdom random: the sets it is drawn from (default: base)")
    p.add_argument("--bots", default="big-money,big-money",
                   help="comma-separated strategies (kingdom/strategies), files, 'default', "
                   "'random', big-money+CARD[*K], big-money-ultimate+CARD[*K]")
    p.add_argument("--games", type=arguments.whole_number(1, arguments.MAX_GAMES), default=1000,
                   help="games to play (default: 1000)")
    p.add_argument("--seed", type=arguments.whole_number(0), default=1,
                   help="base seed: game i is seeded from it and i")
    p.add_argument("--jobs", type=arguments.whole_number(1, arguments.MAX_JOBS), default=1,
                   help="worker processes (same results for any number)")
    p.add_argument("--players", type=arguments.whole_number(arguments.MIN_PLAYERS,
                                                            arguments.MAX_PLAYERS),
                   help="players per game (default: number of bots)")
    p.add_argument("--max-turns", type=arguments.whole_number(1), default=500,
                   help="stop a game when each player has had this many turns (counted as unfinished)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--check-invariants", action="store_true",
                   help="check between moves that no card is created, lost or in two places")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path,
                   help="a folder of extra card files, or one card file (repeatable)")
    p.add_argument("--plot", metavar="FILE.png", type=arguments.plot_file,
                   help="draw the win rate as games accumulate and the game lengths")
    p.add_argument("--csv", metavar="FILE", type=arguments.output_file,
                   help="one row per game and player: seed, seat, bot, score, turns, result, buys")
    p.add_argument("--ally", help="the Ally of every game, or none (default: drawn when a "
                   "Liaison is in the game)")
    p.add_argument("--bane", help="the Bane pile, when Young Witch is in (default: drawn)")
    p.add_argument("--ferryman", help="Ferryman's pile, when Ferryman is in (default: drawn)")
    p.add_argument("--colonies", action=argparse.BooleanOptionalAction, default=False,
                   help="Platinum and Colony in the Supply (default: no)")
    p.add_argument("--cluster", metavar="ADDRESS", help="play the games on a Dask cluster, "
                   "e.g. tcp://127.0.0.1:8786 (pip install 'kingdom[cluster]')")
    p.add_argument("--log", nargs="?", const="first", choices=("first", "all"),
                   help="narrate the first game (or 'all' of them) before the figures")
    p.add_argument("--plain", action="store_true", help="with --log: money in words (the "
                   "default when the output is not a terminal)")
    p.add_argument("--round-robin", action="store_true", help="every pair of the bots, --games "
                   "each: the matrix of win rates")
    p.set_defaults(func=cmd_simulate)


def add_render(sub: argparse._SubParsersAction, cards_help: str) -> None:
    p = sub.add_parser("render", help="write a printable rule summary (HTML, Markdown, PDF)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--set", help="every card of one set (set id or card folder name)")
    what.add_argument("--kingdom", help="comma-separated Kingdom cards (and split piles), or 'random'")
    _add_render_options(p, cards_help)
    _add_deal_options(p)
    p.set_defaults(func=cmd_render)
    p = sub.add_parser("kingdom", help="deal a random Kingdom and resolve its setup (seeded)")
    _add_deal_options(p)
    _add_render_options(p, cards_help)
    p.set_defaults(func=cmd_kingdom, set=None)


def version() -> str:
    from kingdom.compiler.card import DSL_VERSION

    try:
        number = importlib.metadata.version("kingdom")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree, not installed
        number = "(not installed)"
    return f"kingdom {number} (card DSL version {DSL_VERSION})"


def main(argv: list[str] | None = None) -> int:
    """Run one command; every way out is an exit status (README, Commands), never a traceback
    unless KINGDOM_DEBUG is set."""
    try:
        return run(argv)
    except BrokenPipeError:
        return broken_pipe()
    except KeyboardInterrupt:
        print("kingdom: interrupted", file=sys.stderr)
        return INTERRUPTED
    except Exception as exc:
        if os.environ.get("KINGDOM_DEBUG"):
            raise
        print(printable(f"kingdom: internal error: {type(exc).__name__}: {exc}; please report "
                        "it (KINGDOM_DEBUG=1 shows the traceback)"), file=sys.stderr)
        return INTERNAL


def run(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # `kingdom` alone: the help, as for any other usage mistake
        parser.print_help(sys.stderr)
        return USAGE
    try:
        return args.func(args)
    except UsageError as exc:
        print(printable(f"kingdom {args.command}: error: {exc}"), file=sys.stderr)
        return USAGE
    except CompileError as exc:  # cards that do not compile: `check` reports them itself
        print(exc.report(), file=sys.stderr)
        return USAGE


def broken_pipe() -> int:
    """The reader of standard output went away (`kingdom list | head -1`): stop quietly. Standard
    output is pointed at /dev/null so that Python's last flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return BROKEN_PIPE


def _add_deal_options(p: argparse.ArgumentParser) -> None:
    """The randomizer's options (`kingdom kingdom`, `render --kingdom random`)."""
    p.add_argument("--sets", default="base", help="comma-separated sets to deal from")
    p.add_argument("--seed", type=arguments.whole_number(0), default=0,
                   help="seeds the deal and every setup choice")
    p.add_argument("--require", default="", help="comma-separated cards or split piles to include")
    p.add_argument("--exclude", default="", help="comma-separated cards or split piles to leave out")
    p.add_argument("--spread", action="store_true", help="at least 2 piles at $3 or less, $4, $5+")
    p.add_argument("--plus-buy", action="store_true", help="at least one pile giving +Buy")
    p.add_argument("--village", action="store_true", help="at least one pile giving +2 Actions")


def _add_render_options(p: argparse.ArgumentParser, cards_help: str) -> None:
    p.add_argument("--ally", help="the game's Ally (default: drawn when a Liaison needs one)")
    p.add_argument("--players", type=arguments.whole_number(arguments.MIN_PLAYERS,
                                                            arguments.MAX_PLAYERS),
                   default=2, help="players: pile sizes in the setup (2 to 6, default 2)")
    p.add_argument("--layout", choices=("summary", "sheet", "proxies", "dividers"),
                   help="sheet: a Kingdom on one page (the default for --kingdom); summary: a card "
                   "per box (the default for --set); proxies: 63x88 mm cards to cut; dividers")
    p.add_argument("--backs", action="store_true", help="proxies: a page of card backs per page")
    p.add_argument("--format", choices=("html", "md", "pdf"),
                   help="default: the --output file's extension, else html")
    p.add_argument("--output", "-o", type=arguments.output_file,
                   help="file to write (default: standard output)")
    p.add_argument("--plain", action="store_true",
                   help="accessible layout: everything in words, no colour or icons")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="page size (default: a4)")
    p.add_argument("--rules", type=arguments.rules_folder,
                   help="rules folder with Card-by-Card Clarifications "
                   "(default: $KINGDOM_RULES or ../shared/rules)")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, help=cards_help)


if __name__ == "__main__":
    sys.exit(main())
