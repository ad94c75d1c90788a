"""`kingdom play`: a person against 1 to 5 bots in the terminal (kingdom/table/play.py), the game
saved after every answer and resumed with --resume; --plain for a screen reader."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from rich.text import Text

from kingdom.cli import arguments, common
from kingdom.cli.arguments import UsageError
from kingdom.cli.common import console
from kingdom.compiler.texts import printable
from kingdom.runtime.library import Library


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play a game against bots in the terminal (saved as you go)")
    p.add_argument("--kingdom", help="comma-separated Kingdom cards, or 'random' (the default)")
    p.add_argument("--bots", help="1 to 5 comma-separated bots, as simulate takes them "
                   "(default: big-money)")
    p.add_argument("--seed", type=arguments.whole_number(0), help="the game's seed (default: "
                   "a new one; it is saved)")
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
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path,
                   help=common.CARDS_HELP)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A person against bots in the terminal (kingdom/table/play.py), saved after every answer."""
    from kingdom.table import play

    if args.resume is not None:
        if args.kingdom is not None or args.bots is not None or args.cards or args.seat:
            raise UsageError("--resume continues the saved game: its Kingdom, bots, cards and "
                             "seat come from the file (give only --save, --plain, --pause)")
        try:
            record = play.Record.load(Path(args.resume))
        except play.SaveError as exc:
            raise UsageError(str(exc)) from None
        missing = [path for path in record.cards if not Path(path).exists()]
        if missing:
            raise UsageError(f"{args.resume}: the game's cards are no longer at {missing[0]}")
        library = common.load(record.cards)
    else:
        library = common.load(args.cards)
        specs = common.bot_specs(args.bots or "big-money")
        if len(specs) > arguments.MAX_PLAYERS - 1:
            raise UsageError(f"--bots: {len(specs)} bots, but a game has at most "
                             f"{arguments.MAX_PLAYERS} players: give 1 to 5 bots")
        if args.seat is not None and args.seat > len(specs) + 1:
            raise UsageError(f"--seat: {args.seat}, but the game has {len(specs) + 1} seats")
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
        record = play.Record(_play_kingdom(library, args.kingdom or "random", seed), specs, seed,
                             (args.seat or 1) - 1, [str(Path(c).resolve()) for c in args.cards])
    bots = common.bots(library, record.bots)
    save_path = Path(args.save or args.resume or play.DEFAULT_SAVE)
    plain = common.plain(args)
    try:
        table = play.Table(library, record, bots, plain, on_answer=lambda r: r.save(save_path))
    except play.SaveError as exc:
        raise UsageError(f"{args.resume}: {exc}") from None
    record.save(save_path)
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
    piles = arguments.kingdom_piles(library, text, common.ALLY_CHOSEN)
    if not piles:
        raise UsageError("--kingdom needs at least one card, or 'random'")
    return piles

