"""`kingdom simulate`: many seeded bot games (kingdom/lab), here over --jobs processes or on a
Dask --cluster, reported as tables (kingdom/lab/reports.py) or JSON, with --plot, --csv and
--log; --round-robin plays every pair of bots.

This module turns the options into a run (checking them against the loaded cards first), and
prints; the games and the figures are the lab's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from rich.table import Table

from kingdom.cli import arguments, common
from kingdom.cli.arguments import UsageError
from kingdom.cli.common import FAILED, PipeConsole, console
from kingdom.compiler.texts import printable
from kingdom.lab import reports
from kingdom.lab.cluster import TASK_TIMEOUT, ClusterError, RunSpec, build_setup, simulate_on_cluster
from kingdom.lab.results import with_without, write_csv
from kingdom.lab.simulate import Setup, round_robin, simulate
from kingdom.runtime.library import Library


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="play many bot games and report the figures")
    p.add_argument("--kingdom", metavar="CARDS", default="",
                   help="comma-separated Kingdom cards, or 'random' (default: none, the basic "
                   "cards alone)")
    p.add_argument("--sets", help="with --kingdom random: the sets it is drawn from (default: base)")
    p.add_argument("--bots", default="big-money,big-money",
                   help="comma-separated strategies (kingdom/strategies), files, 'default', "
                   "'random', big-money+CARD[*K], big-money-ultimate+CARD[*K]")
    p.add_argument("--games", type=arguments.whole_number(1, arguments.MAX_GAMES), default=1000,
                   help="games to play (default: 1000)")
    p.add_argument("--seed", type=arguments.whole_number(0), default=1,
                   help="base seed: game i is seeded from it and i (default: 1)")
    p.add_argument("--jobs", type=arguments.whole_number(1, arguments.MAX_JOBS), default=1,
                   help="worker processes (same results for any number; default: 1)")
    p.add_argument("--players", type=arguments.whole_number(arguments.MIN_PLAYERS,
                                                            arguments.MAX_PLAYERS),
                   help="players per game (default: number of bots)")
    p.add_argument("--max-turns", type=arguments.whole_number(1, arguments.MAX_TURNS),
                   default=500, help="stop a game when each player has had this many turns "
                   "(counted as unfinished; default: 500, at most 10,000)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--check-invariants", action="store_true",
                   help="check between moves that no card is created, lost or in two places")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, metavar="PATH",
                   help=common.CARDS_HELP)
    p.add_argument("--plot", metavar="FILE.png", type=arguments.plot_file,
                   help="draw the win rate as games accumulate and the game lengths")
    p.add_argument("--csv", metavar="FILE", type=arguments.output_file,
                   help="one row per game and player: seed, seat, bot, score, turns, result, buys")
    common.add_setup_options(p)
    p.add_argument("--cluster", metavar="ADDRESS", help="play the games on a Dask cluster, "
                   "e.g. tcp://127.0.0.1:8786 (pip install 'kingdom[cluster]')")
    p.add_argument("--task-timeout", metavar="SECONDS", type=arguments.seconds, default=TASK_TIMEOUT,
                   help="with --cluster: how long to wait for any range of games to come back "
                   "before playing the silent ranges again elsewhere, then giving up (default: 300)")
    p.add_argument("--log", nargs="?", const="first", choices=("first", "all"),
                   help="narrate the first game (or 'all' of them) before the figures")
    p.add_argument("--plain", action="store_true", help="with --log: money in words (the "
                   "default when the output is not a terminal)")
    p.add_argument("--round-robin", action="store_true", help="every pair of the bots, --games "
                   "each: the matrix of win rates")
    p.add_argument("--decisions", action="store_true", help="how often each bot was offered each "
                   "optional ability of each card, and how often it took it")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play many seeded bot games and report win rates, game length and per-card figures."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    library = common.load(args.cards)
    bots = common.bots(library, common.bot_specs(args.bots))
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
    err = PipeConsole(stderr=True)
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
    choices = reports.setup_choices(spec)
    if args.json:
        data = results.to_json(players)
        data.update(kingdom=kingdom_text, seed=args.seed, players=players, jobs=args.jobs,
                    seconds=elapsed, setup=choices)
        data["with_without"] = [row.to_json() for row in with_without(results)]
        print(json.dumps(data, indent=2))
    else:
        show = _said if args.plain else console.print
        for part in reports.results_report(results, players, kingdom_text, args.seed,
                                           args.max_turns, elapsed, common.where(args)):
            show(part)
        show(reports.setup_line(choices, results.setups_drawn(), results.games))
        show(reports.with_without_table(results))
        if args.decisions:
            show(reports.decisions_table(results.bots))
    _write_reports(results, players, args, f"Kingdom: {kingdom_text} | bots: "
                   f"{', '.join(b.name for b in bots)} | {results.games} games, seed {args.seed}")
    for line in results.violations[:20]:
        print("invariant violated: " + line, file=sys.stderr)
    for failure in results.failures[:20]:
        print(printable(f"error: {failure}"), file=sys.stderr)
    if len(results.failures) > 20:
        print(f"... and {len(results.failures) - 20} more failed games", file=sys.stderr)
    return FAILED if results.violations or results.failures else 0


def _run_spec(args: argparse.Namespace, library: Library, players: int) -> tuple[RunSpec, str]:
    """The run `simulate` is asked for, as data (kingdom/lab/cluster.py RunSpec), and its Kingdom
    in words. Setup choices are checked here: --ally an Ally, --bane and --ferryman Kingdom cards."""
    sets: tuple[str, ...] = ()
    kingdom: list[str] = []
    if args.kingdom.strip().lower() == "random":
        sets = arguments.kingdom_sets(library, args.sets or "base")
        kingdom_text = f"random ({','.join(sets)})"
    elif args.sets is not None:
        raise UsageError("--sets goes with --kingdom random")
    else:
        kingdom = arguments.kingdom_piles(library, args.kingdom, common.ALLY_CHOSEN)
        kingdom_text = ", ".join(kingdom) or "(none)"
    ally, choices = common.setup_choices(library, args.ally,
                                         {"bane": args.bane, "ferryman": args.ferryman})
    files = [str(Path(b).resolve()) if Path(b).is_file() else b for b in common.bot_specs(args.bots)]
    spec = RunSpec(tuple(files), tuple(kingdom), sets,
                   tuple(str(Path(c).resolve()) for c in args.cards), players, args.max_turns,
                   args.check_invariants, args.colonies, ally, tuple(choices),
                   detail=bool(args.plot or args.csv), decisions=args.decisions)
    return spec, kingdom_text


def _play(setup: Setup, spec: RunSpec, args: argparse.Namespace, progress=None):
    """The games of `simulate`: here (over --jobs processes) or on the --cluster."""
    if args.cluster is None:
        return simulate(setup, args.games, args.seed, args.jobs, progress=progress)
    try:
        return simulate_on_cluster(args.cluster, spec, args.games, args.seed, progress,
                                   task_timeout=args.task_timeout)
    except ClusterError as exc:
        raise UsageError(f"--cluster: {exc}") from None


def _round_robin(setup: Setup, args: argparse.Namespace) -> int:
    """`simulate --round-robin`: every pair of bots, the matrix of the row bot's win rates."""
    if len(setup.bots) < 2:
        raise UsageError("--round-robin needs at least two bots")
    pairs = round_robin(setup, args.games, args.seed, args.jobs)
    names = [b.name for b in setup.bots]
    if args.json:
        print(json.dumps(reports.round_robin_json(pairs, names, args.games, args.seed), indent=2))
        return 0
    console.print(reports.round_robin_table(pairs, names, args.games, args.seed))
    return 0


def _write_reports(results, players: int, args: argparse.Namespace, title: str) -> None:
    """--plot and --csv, once the figures are printed."""
    err = PipeConsole(stderr=True)
    if args.csv:
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


def _said(part: Any) -> None:
    """`--plain`: a line or a table in words, row by row (kingdom/table/spoken.py)."""
    from kingdom.table.spoken import table_lines, words

    for line in table_lines(part) if isinstance(part, Table) else [words(str(part))]:
        print(printable(line))


def _narrate_simulated(setup: Setup, args: argparse.Namespace) -> None:
    """`simulate --log`: the first game (or every game) played again with the narrator."""
    from kingdom.table.narrate import narrate_simulated

    for index in range(args.games if args.log == "all" else 1):
        print(f"Game {index + 1} (seed {args.seed}):")
        for line in narrate_simulated(setup, args.seed, index, common.plain(args)).lines:
            print(printable(line.text))
        print()
