"""`kingdom rate CARD... | --set SET | --cards PATH`: the balance table (kingdom/lab/rate.py):
each card's big-money+CARD bot against Big Money, placed among the official cards."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path

from kingdom.cli import arguments, common
from kingdom.cli.arguments import UsageError
from kingdom.cli.common import FAILED, PipeConsole, console
from kingdom.compiler.texts import printable
from kingdom.lab.cluster import TASK_TIMEOUT, ClusterError, ClusterRunner
from kingdom.lab.rate import official_cards, rate_cards, reference_table
from kingdom.lab.reports import rating_decisions_table, rating_record, rating_table
from kingdom.lab.simulate import LocalRunner
from kingdom.runtime.library import Library


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rate", help="rate cards: big-money+CARD against Big Money, placed "
                       "among the official cards")
    p.add_argument("names", nargs="*", metavar="CARD", help="cards to rate, in any case")
    p.add_argument("--set", help="rate every Kingdom card of this set")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, metavar="PATH",
                   help="a folder of extra card files, or one card file (repeatable); with no "
                   "CARD and no --set, its Kingdom cards are rated")
    p.add_argument("--games", type=arguments.whole_number(1, arguments.MAX_GAMES), default=2000,
                   help="games per card (default: 2000)")
    p.add_argument("--seed", type=arguments.whole_number(0), default=1, help="base seed (default: 1)")
    p.add_argument("--jobs", type=arguments.whole_number(1, arguments.MAX_JOBS), default=1,
                   help="worker processes (same results for any number; default: 1)")
    p.add_argument("--among", default="base", help="the sets of official cards a card is placed "
                   "among (default: base)")
    p.add_argument("--cluster", metavar="ADDRESS", help="play the games on a Dask cluster (its "
                   "scheduler's address, e.g. tcp://host:8786): the same numbers as here")
    p.add_argument("--task-timeout", metavar="SECONDS", type=arguments.seconds, default=TASK_TIMEOUT,
                   help="with --cluster: how long to wait for any range of games to come back "
                   "before playing the silent ranges again elsewhere, then giving up (default: 300)")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress line on standard error (as simulate's --no-progress)")
    p.add_argument("--decisions", action="store_true", help="how often each card's bot was "
                   "offered each optional ability, and how often it took it")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Rate the cards asked for and place each among the official cards."""
    library = common.load(args.cards)
    names = cards_to_rate(library, args)
    sets = arguments.kingdom_sets(library, args.among)
    if not official_cards(library, sets):
        raise UsageError(f"--among {args.among}: no built-in Kingdom cards there")
    err = PipeConsole(stderr=True)
    runner = (LocalRunner(args.jobs) if args.cluster is None else
              ClusterRunner(args.cluster, tuple(str(Path(c).resolve()) for c in args.cards),
                            args.task_timeout))
    start = time.perf_counter()
    with err.status("rating...") if not args.no_progress else contextlib.nullcontext() as status:
        def done(name: str) -> None:
            if status is not None:
                status.update(f"rated {name}")
        try:
            table = reference_table(library, sets, args.games, args.seed, runner, done)
            by_name = {} if args.decisions else {r.card: r for r in table}  # (not counted)
            ratings = rate_cards(library, [n for n in names if n not in by_name], args.games,
                                 args.seed, runner, done, args.decisions)
        except ClusterError as exc:
            raise UsageError(f"--cluster: {exc}") from None
        ratings = sorted([*ratings, *(by_name[n] for n in names if n in by_name)],
                         key=lambda r: (-r.win_rate, r.card))
    elapsed = time.perf_counter() - start
    unplayable = [r for r in ratings if r.games == 0]
    for rating in unplayable:  # (a 0% from no games is no rating)
        print(printable(f"kingdom rate: {rating.card}: none of its {rating.failed} games could "
                        f"be played, so it has no rating; the first: {rating.failure}"),
              file=sys.stderr)
    ratings = [r for r in ratings if r.games]
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "among": list(sets),
                          "seconds": elapsed, "cards": [rating_record(r, table) for r in ratings]},
                         indent=2))
    else:
        console.print(rating_table(ratings, table, args.games, args.seed, sets))
        if args.decisions:
            console.print(rating_decisions_table(ratings))
        console.print(f"({elapsed:.1f} s {common.where(args)})")
    for rating in ratings:
        if rating.failed:
            print(printable(f"kingdom rate: {rating.card}: {rating.failed} game(s) left out of "
                            f"its rating; the first: {rating.failure}"), file=sys.stderr)
    return FAILED if unplayable else 0


def cards_to_rate(library: Library, args: argparse.Namespace) -> list[str]:
    """The Kingdom cards named, of `--set`, or (neither given) of the `--cards` folders."""
    if args.names and args.set:
        raise UsageError("give cards or --set, not both")
    if args.names:
        names = [arguments.card_or_pile(library, n) for n in args.names]
        for name in names:
            if name in library.split_piles:  # (its bot could buy only the top card)
                members = ", ".join(library.split_piles[name])
                raise UsageError(f"'{name}' is a split pile, which is not rated; its cards are "
                                 f"{members}")
    elif args.set:
        wanted = arguments.card_set(args.set, {c.set for c in library})
        names = [c.name for c in library if c.set == wanted]
    elif args.cards:
        folders = [Path(p).resolve() for p in args.cards]
        names = [c.name for c in library
                 if any(Path(c.source).resolve().is_relative_to(f) for f in folders)]
    else:
        raise UsageError("name the cards to rate: CARD..., --set SET or --cards PATH")
    names = list(dict.fromkeys(n for n in names if n in library.cards
                               and library[n].kind == "kingdom"))
    if not names:
        raise UsageError("no Kingdom cards to rate (a split pile, basic card or Ally is not "
                         "rated)")
    return names
