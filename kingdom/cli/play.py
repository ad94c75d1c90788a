"""`kingdom play`: a person against 1 to 5 bots in the terminal (kingdom/table/play.py), the game
saved after every answer and resumed with --resume; --plain for a screen reader."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from kingdom.cli import arguments, common
from kingdom.cli.arguments import UsageError
from kingdom.compiler.texts import printable
from kingdom.runtime.library import Library
from kingdom.runtime.setup import RANDOM

SEED = arguments.whole_number(0, arguments.MAX_SEED)
SEAT = arguments.whole_number(1, arguments.MAX_PLAYERS)
# The settings of a save file that are arguments judged from their text: each is checked by
# its argument's own type (the Kingdom and the bots are checked against the cards in `run`).
SAVED_ARGUMENTS = {"seed": SEED, "seat": SEAT, "cards": arguments.card_path}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play a game against bots in the terminal (saved as you go)")
    p.add_argument("--kingdom", metavar="CARDS",
                   help="comma-separated Kingdom cards, or 'random' (the default)")
    p.add_argument("--bots", help="1 to 5 comma-separated bots, as simulate takes them "
                   "(default: big-money)")
    p.add_argument("--seed", type=SEED, help="the game's seed (default: a new one; it is saved)")
    p.add_argument("--seat", type=SEAT, help="your seat, 1 goes first (default: 1)")
    p.add_argument("--save", type=arguments.output_file,
                   help="the save file, rewritten after every answer (default: kingdom-play.json, "
                   "or the file given to --resume)")
    p.add_argument("--resume", metavar="FILE", type=arguments.existing_file,
                   help="continue the game saved in FILE")
    p.add_argument("--plain", action="store_true", help="screen-reader mode: one event a line, "
                   "no colour, money in words (the default when the output is not a terminal)")
    p.add_argument("--pause", action="store_true", help="wait for Enter after each bot's turn")
    p.add_argument("--cards", action="append", default=[], type=arguments.card_path, metavar="PATH",
                   help=common.CARDS_HELP)
    common.add_setup_options(p, "the game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A person against bots in the terminal (kingdom/table/play.py), saved after every answer.
    A save file's setup is checked by the same functions as the arguments of a new game."""
    from kingdom.table import play, save

    where = ""
    if args.resume is not None:
        if (args.kingdom is not None or args.bots is not None or args.cards or args.seat
                or args.ally or args.bane or args.ferryman or args.colonies):
            raise UsageError("--resume continues the saved game: its Kingdom, bots, cards, seat "
                             "and setup come from the file (give only --save, --plain, --pause)")
        try:
            record = save.Record.load(Path(args.resume))
        except save.SaveError as exc:
            raise UsageError(str(exc)) from None
        where = f"{args.resume}: the save's "
        _check_saved(record, where)
        library = common.load(record.cards)
    else:
        library = common.load(args.cards)
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
        record = save.Record(_play_kingdom(library, args.kingdom or "random", seed),
                             common.bot_specs(args.bots or "big-money"), seed, args.seat or 1,
                             [str(Path(c).resolve()) for c in args.cards], args.ally or "random",
                             args.bane or "", args.ferryman or "", args.colonies)
    try:
        record.kingdom = arguments.kingdom_list(library, record.kingdom, common.ALLY_CHOSEN)
        if not record.kingdom:
            raise UsageError("--kingdom needs at least one card, or 'random'")
        bots = _bots(library, record.bots, record.seat)
        _check_setup(library, record)
        save_path = save.target(Path(args.save or args.resume or save.DEFAULT_SAVE))
    except (UsageError, save.SaveError) as exc:
        raise UsageError(f"{where}{exc}") from None
    plain = common.plain(args)
    try:
        table = play.Table(library, record, bots, plain)
    except save.SaveError as exc:
        raise UsageError(f"{args.resume}: {exc}") from None
    def write(text: str, _style: str | None) -> None:
        print(printable(text, lines=True), flush=True)

    terminal = play.Terminal(table, save_path, input, write, args.pause)
    if plain or args.pause or not sys.stdin.isatty():  # (the board needs a terminal to read)
        return terminal.run()
    from kingdom.table.board import play_on_board

    return play_on_board(terminal)


def _check_saved(record, where: str) -> None:
    """A save's numbers and card folders, checked by the argparse types of their arguments
    (SAVED_ARGUMENTS); UsageError naming the setting."""
    for key, check in SAVED_ARGUMENTS.items():
        value = getattr(record, key)
        try:
            for item in value if isinstance(value, list) else [value]:
                check(str(item))
        except argparse.ArgumentTypeError as exc:
            raise UsageError(f"{where}--{key}: {exc}") from None


def _check_setup(library: Library, record) -> None:
    """The record's --ally, --bane and --ferryman checked as simulate checks them, and written
    as the cards name themselves ("moat" is Moat)."""
    ally, picked = common.setup_choices(library, record.ally, record.setup_choices())
    record.ally = {RANDOM: "random", None: "none"}.get(ally, ally)
    for key, pile in picked:
        setattr(record, key, pile)


def _bots(library: Library, specs: list[str], seat: int) -> list:
    """The bots: 1 to 5 (a seat is the person's), resolved; `seat` (from 1) one of the game's."""
    if len(specs) > arguments.MAX_PLAYERS - 1:
        raise UsageError(f"--bots: {len(specs)} bots, but a game has at most "
                         f"{arguments.MAX_PLAYERS} players: give 1 to {arguments.MAX_PLAYERS - 1} bots")
    if seat > len(specs) + 1:
        raise UsageError(f"--seat: {seat}, but the game has {len(specs) + 1} seats")
    return common.bots(library, specs)


def _play_kingdom(library: Library, text: str, seed: int) -> list[str]:
    if text.strip().lower() == "random":
        from kingdom.lab.simulate import random_kingdom

        return random_kingdom(library)(seed)
    return text.split(",")
