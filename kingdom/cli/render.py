"""`kingdom render --set SET | --kingdom CARDS`: a printable rule summary, Kingdom sheet, proxies
or dividers (HTML, Markdown, PDF; kingdom/print/render.py does the work).

Also the options and the deal that `kingdom kingdom` (kingdom.py) shares: it renders through
`run` when asked for a file, so the shared pieces live here, the lower of the two.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from kingdom.cli import arguments, common
from kingdom.cli.arguments import UsageError
from kingdom.cli.common import FAILED
from kingdom.compiler.texts import printable
from kingdom.runtime.library import Library

SEEDS = 100_000  # a drawn seed is below this: short to type


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="print a set, a Kingdom or picked cards: a rule summary, "
                       "Kingdom sheet, proxies or dividers (HTML, Markdown, PDF)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--set", help="every card of a set (set id or card folder name), or of "
                      "several: base,intrigue")
    what.add_argument("--kingdom", metavar="CARDS",
                      help="comma-separated Kingdom cards (and split piles), or 'random'")
    what.add_argument("--pick", metavar="CARDS", help="just these cards or split piles, of any "
                      "kind (basic cards, Allies): proxies or dividers of your choosing")
    add_render_options(p)
    add_deal_options(p)
    p.set_defaults(func=run)


def add_deal_options(p: argparse.ArgumentParser) -> None:
    """The randomizer's options (`kingdom kingdom`, `render --kingdom random`)."""
    p.add_argument("--sets", default="base", help="comma-separated sets to deal from (default: base)")
    p.add_argument("--seed", type=arguments.whole_number(0),
                   help="seeds the deal and every setup choice (default: a fresh seed, printed)")
    p.add_argument("--require", default="", metavar="CARDS",
                   help="comma-separated cards or split piles to include")
    p.add_argument("--exclude", default="", metavar="CARDS",
                   help="comma-separated cards or split piles to leave out")
    p.add_argument("--spread", action="store_true", help="at least 2 piles at $3 or less, $4, $5+")
    p.add_argument("--plus-buy", action="store_true", help="at least one pile giving +Buy")
    p.add_argument("--village", action="store_true", help="at least one pile giving +2 Actions")


def add_render_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ally", help="the game's Ally (default: drawn when a Liaison needs one)")
    p.add_argument("--players", type=arguments.whole_number(arguments.MIN_PLAYERS,
                                                            arguments.MAX_PLAYERS),
                   default=2, help="players: pile sizes in the setup (2 to 6, default 2)")
    p.add_argument("--layout", choices=("summary", "sheet", "proxies", "dividers"),
                   help="sheet: a Kingdom on one page (the default for --kingdom); summary: a card "
                   "per box (the default for --set); proxies: 63x88 mm cards to cut; dividers")
    p.add_argument("--backs", action="store_true", help="proxies: a page of card backs per page")
    p.add_argument("--tabs", choices=("alternate", "left", "right", "centre"), default="alternate",
                   help="dividers: where the tab sits (default: alternate, left then right)")
    p.add_argument("--sleeved", action="store_true",
                   help="dividers: sized for sleeved cards (94 x 62 mm; default 91 x 59 mm)")
    p.add_argument("--format", choices=("html", "md", "pdf"),
                   help="default: the --output file's extension, else html")
    p.add_argument("--output", "-o", type=arguments.output_file, metavar="FILE",
                   help="file to write (default: standard output)")
    p.add_argument("--plain", action="store_true",
                   help="accessible layout: everything in words, no colour or icons")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="page size (default: a4)")
    p.add_argument("--rules", type=arguments.rules_folder,
                   help="rules folder with Card-by-Card Clarifications "
                   "(default: $KINGDOM_RULES or ../shared/rules)")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, metavar="PATH",
                   help=common.CARDS_HELP)


def seed(args: argparse.Namespace) -> int:
    """--seed, or a fresh one drawn once per run when none was given: `seed_note` tells it."""
    if args.seed is None:
        args.seed, args.seed_drawn = random.SystemRandom().randrange(1, SEEDS), True
    return args.seed


def seed_note(args: argparse.Namespace, selection=None) -> str:
    """How to have a drawn seed's game again, or '' when the seed was given or chose nothing (a
    Kingdom named card by card, whose setup draws no Bane, Ally, nor Platinum and Colony)."""
    if not getattr(args, "seed_drawn", False):
        return ""
    if getattr(args, "dealt", False):
        return f"seed {args.seed}: `--seed {args.seed}` deals this again"
    if selection is not None and selection.game is not None and selection.game.drawn:
        return f"seed {args.seed}: `--seed {args.seed}` sets this game up again"
    return ""


def deal(args: argparse.Namespace, library: Library) -> list[str]:
    """A random Kingdom from the randomizer options (UsageError on bad input)."""
    from kingdom.print.randomizer import Constraints, RandomizerError
    from kingdom.print.randomizer import deal as deal_kingdom

    def names(text: str) -> tuple[str, ...]:
        return tuple(n.strip() for n in text.split(",") if n.strip())

    wanted = Constraints(names(args.require), names(args.exclude), args.spread, args.plus_buy,
                         args.village)
    args.dealt = True  # (what the seed note says)
    try:
        return deal_kingdom(library, list(names(args.sets)), seed(args), wanted)
    except RandomizerError as exc:
        raise UsageError(str(exc)) from None


def _selection(args: argparse.Namespace, library: Library):
    """The set or Kingdom `render` is asked for (UsageError when it names nothing loaded)."""
    from kingdom.print.selection import RenderError, select_cards, select_kingdom, select_set

    try:
        if args.set is not None:
            return select_set(library, args.set)
        if args.pick is not None:
            return select_cards(library, args.pick)
        if args.kingdom.strip().lower() == "random":
            piles = deal(args, library)
        else:
            piles = arguments.kingdom_piles(library, args.kingdom, "give it with --ally")
        if not piles:
            raise UsageError("--kingdom needs at least one card")
        chosen_ally = None if args.ally is None else arguments.ally(library, args.ally)
        return select_kingdom(library, piles, chosen_ally, args.players, seed(args))
    except RenderError as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    """A printable rule summary (HTML, Markdown or PDF) of a set or a Kingdom."""
    from kingdom.print import render
    from kingdom.print.dividers import Layout
    from kingdom.print.rulings import load_accessibility, load_rulings
    from kingdom.print.selection import RenderError

    if [args.set, args.kingdom, args.pick].count(None) != 2:
        raise UsageError("give one of --set SET, --kingdom 'Card,Card,...' or --pick 'Card,Card,...'")
    if args.ally is not None and args.kingdom is None:
        raise UsageError("--ally goes with --kingdom")
    library = common.load(args.cards)
    layout = args.layout or ("sheet" if args.kingdom and not args.plain else "summary")
    fmt = render.output_format(args.output, args.format)
    if layout in ("proxies", "dividers"):  # PDF only: the default, and any other is a mistake
        if args.format not in (None, "pdf") or (args.output not in (None, "-") and fmt != "pdf"):
            raise UsageError(f"--layout {layout} is drawn to cut out: it is written as PDF only "
                             "(--format pdf, or an output file ending in .pdf)")
        fmt = "pdf"
    selection = _selection(args, library)
    if note := seed_note(args, selection):  # on stderr: the output is the same whatever the seed
        print(note, file=sys.stderr)
    try:
        summary = render.build_summary(library, selection, plain=args.plain, paper=args.paper,
                                       rulings=load_rulings(args.rules),
                                       accessibility=load_accessibility(args.rules),
                                       layout=layout, backs=args.backs, dividers=Layout(
                                           args.tabs, "sleeved" if args.sleeved else "unsleeved"))
        data = render.render(summary, fmt)
    except RenderError as exc:
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
        count, what = ((len(render.divider_piles(summary)), "divider") if layout == "dividers"
                       else (len(summary.cards), "card"))
        print(f"wrote {args.output} ({count} {what}{'' if count == 1 else 's'}, {fmt}, {layout})",
              file=sys.stderr)
    return 0
