"""`kingdom rate CARD... | --set SET | --cards PATH`: the balance table (kingdom/rate.py)."""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict
from pathlib import Path

from rich.table import Table

from kingdom.cli import arguments
from kingdom.cli.arguments import UsageError
from kingdom.lab.cluster import ClusterError, ClusterRunner
from kingdom.lab.rate import Rating, official_cards, place, rate_cards, reference_table
from kingdom.lab.simulate import LocalRunner
from kingdom.runtime.library import Library


def add_rate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rate", help="rate cards: big-money+CARD against Big Money, placed "
                       "among the official cards")
    p.add_argument("names", nargs="*", metavar="CARD", help="cards to rate, in any case")
    p.add_argument("--set", help="rate every Kingdom card of this set")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path,
                   help="a folder of extra card files, or one card file (repeatable); with no "
                   "CARD and no --set, its Kingdom cards are rated")
    p.add_argument("--games", type=arguments.whole_number(1, arguments.MAX_GAMES), default=2000,
                   help="games per card (default: 2000)")
    p.add_argument("--seed", type=arguments.whole_number(0), default=1, help="base seed")
    p.add_argument("--jobs", type=arguments.whole_number(1, arguments.MAX_JOBS), default=1,
                   help="worker processes (same results for any number)")
    p.add_argument("--among", default="base", help="the sets of official cards a card is placed "
                   "among (default: base)")
    p.add_argument("--cluster", metavar="ADDRESS", help="play the games on a Dask cluster (its "
                   "scheduler's address, e.g. tcp://host:8786): the same numbers as here")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.set_defaults(func=cmd_rate)


def cmd_rate(args: argparse.Namespace) -> int:
    """Rate the cards asked for and place each among the official cards."""
    from kingdom.cli.main import _Console, _library, console

    library = _library(args.cards)
    names = cards_to_rate(library, args)
    sets = arguments.kingdom_sets(library, args.among)
    if not official_cards(library, sets):
        raise UsageError(f"--among {args.among}: no built-in Kingdom cards there")
    err = _Console(stderr=True)
    runner = (LocalRunner(args.jobs) if args.cluster is None else
              ClusterRunner(args.cluster, tuple(str(Path(c).resolve()) for c in args.cards)))
    start = time.perf_counter()
    with err.status("rating...") as status:
        def done(name: str) -> None:
            status.update(f"rated {name}")
        try:
            table = reference_table(library, sets, args.games, args.seed, runner, done)
            by_name = {r.card: r for r in table}
            ratings = rate_cards(library, [n for n in names if n not in by_name], args.games,
                                 args.seed, runner, done)
        except ClusterError as exc:
            raise UsageError(f"--cluster: {exc}") from None
        ratings = sorted([*ratings, *(by_name[n] for n in names if n in by_name)],
                         key=lambda r: (-r.win_rate, r.card))
    elapsed = time.perf_counter() - start
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "among": list(sets),
                          "seconds": elapsed, "cards": [rating_record(r, table) for r in ratings]},
                         indent=2))
    else:
        console.print(rating_table(ratings, table, args, sets))
        where = f"on {args.cluster}" if args.cluster else f"over {args.jobs} job(s)"
        console.print(f"({elapsed:.1f} s {where})")
    return 0


def cards_to_rate(library: Library, args: argparse.Namespace) -> list[str]:
    """The Kingdom cards named, of `--set`, or (neither given) of the `--cards` folders."""
    if args.names and args.set:
        raise UsageError("give cards or --set, not both")
    if args.names:
        names = [arguments.card_or_pile(library, n) for n in args.names]
    elif args.set:
        wanted = arguments.card_set(args.set, {c.set for c in library})
        names = [c.name for c in library if c.set == wanted]
    elif args.cards:
        folders = [str(Path(p).resolve()) for p in args.cards]
        names = [c.name for c in library
                 if any(str(Path(c.source).resolve()).startswith(f) for f in folders)]
    else:
        raise UsageError("name the cards to rate: CARD..., --set SET or --cards PATH")
    names = list(dict.fromkeys(n for n in names if library[n].kind == "kingdom"
                               if n in library.cards))
    if not names:
        raise UsageError("no Kingdom cards to rate (a split pile, basic card or Ally is not "
                         "rated)")
    return names


def rating_record(rating: Rating, table: list[Rating]) -> dict:
    rank, of, percentile = place(rating, table)
    low, high = rating.interval
    return {**asdict(rating), "win_rate": rating.win_rate, "win_ci95": [low, high],
            "rank_among_official": rank, "official_cards": of, "percentile": percentile}


def _percent(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "-"


def rating_table(ratings: list[Rating], table: list[Rating], args: argparse.Namespace,
                 sets: tuple[str, ...]) -> Table:
    out = Table(title=f"big-money+CARD against Big Money, {args.games} games each, seed "
                f"{args.seed}; placed among the official cards of {', '.join(sets)}")
    for column in ("Card", "Cost", "Copies", "Wins (95% CI)", "Ties", "Losses", "Among official"):
        out.add_column(column, justify="left" if column == "Card" else "right")
    for rating in ratings:
        rank, of, percentile = place(rating, table)
        low, high = rating.interval
        out.add_row(arguments.printable(rating.card), f"${rating.cost}",
                    rating.bot.rpartition("*")[2],
                    f"{100 * rating.win_rate:.1f}% [{100 * low:.1f}-{100 * high:.1f}]",
                    _percent(rating.ties, rating.games), _percent(rating.losses, rating.games),
                    f"#{rank} of {of}, percentile {percentile:.0f}")
    return out
