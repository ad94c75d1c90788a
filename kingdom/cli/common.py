"""What the commands share: the console, the exit statuses, loading the cards and the bots of
`--bots`.

Here rather than in main.py, which imports every command: a command that imported main for
these would import itself in a circle. Kept small, and free of any one command's work.
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console, ConsoleDimensions

from kingdom.cli.arguments import UsageError
from kingdom.compiler.build import broken_cards, load_library
from kingdom.compiler.errors import CompileError
from kingdom.runtime.library import Library


class PipeConsole(Console):
    """rich's Console, leaving a closed pipe to `main` (rich's own handling exits with 1), and
    writing full lines to a file or pipe: rich would crop them to the terminal's width, or 80."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError

    def _size(self) -> ConsoleDimensions:
        size = Console.size.fget(self)
        if self._width is None and not self.is_terminal and "COLUMNS" not in self._environ:
            return ConsoleDimensions(UNCROPPED, size.height)
        return size

    size = property(_size, Console.size.fset)


UNCROPPED = 100_000  # the width of a file or pipe: wide enough for any line of ours
console = PipeConsole()

# Exit statuses (README, Commands).
OK, FAILED, USAGE = 0, 1, 2  # a check, test or invariant failed; bad usage or input
INTERNAL = 70  # a bug in Kingdom (sysexits' EX_SOFTWARE)
CANNOT_WRITE = 74  # the output cannot be written: a full disk (sysexits' EX_IOERR)
INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), as a shell reports it
BROKEN_PIPE = 141  # the reader of our output went away (128 + SIGPIPE), as `seq 9999 | head -1`

CARDS_HELP = "a folder of extra card files, or one card file (repeatable)"
ALLY_CHOSEN = "the game's Ally is picked at random when a Liaison is in the Kingdom"


def load(extra: list[str]) -> Library:
    """The built-in cards and those of `extra`, KINGDOM_PATH and installed expansions: all of
    them compiled, or a CompileError."""
    library, _ = load_library(extra)
    return library


def load_despite_errors(extra: list[str]) -> tuple[Library, dict[str, str]]:
    """The cards that compiled, for a command that needs only some (`show X`, `list`): the
    others' errors are printed as warnings on stderr (`check` is the command that fails on
    them). Also the broken cards' names (lower case) and files."""
    library, diagnostics = load_library(extra, strict=False)
    warn_broken(diagnostics)
    return library, broken_cards(diagnostics)


def warn_broken(diagnostics: list) -> None:
    """The errors of card files a command went on without, as warnings on stderr."""
    if diagnostics:
        files = len({d.file for d in diagnostics})
        print(CompileError(diagnostics).report("warning"), file=sys.stderr)
        print(f"warning: {files} card file(s) did not compile and were left out "
              "(`kingdom check` fails on them)\n", file=sys.stderr)


def bot_specs(text: str) -> list[str]:
    return [spec.strip() for spec in text.split(",") if spec.strip()]


def bots(library: Library, specs: list[str]) -> list:
    """The bots `--bots` names (strategies, files, 'default', 'random'), or a UsageError."""
    from kingdom.lab import roster

    try:
        bots = [roster.resolve_bot(spec, library) for spec in specs]
    except (ValueError, OSError) as exc:
        raise UsageError(f"--bots: {exc}") from None
    if not bots:
        raise UsageError("--bots needs at least one bot, e.g. --bots big-money,default")
    return bots


def where(args: argparse.Namespace) -> str:
    """Where a run's games were played, in words: on the --cluster, or over --jobs processes."""
    return f"on {args.cluster}" if args.cluster else f"over {args.jobs} job(s)"


def plain(args: argparse.Namespace) -> bool:
    """Screen-reader output: asked for, or the output is not a terminal."""
    return args.plain or not sys.stdout.isatty()


def add_setup_options(p: argparse.ArgumentParser, games: str = "every game") -> None:
    """--ally, --bane, --ferryman, --colonies: the setup choices `simulate` and `play` share."""
    p.add_argument("--ally", help=f"the Ally of {games}, or none (default: drawn when a "
                   "Liaison is in the game)")
    p.add_argument("--bane", help="the Bane pile, when Young Witch is in (default: drawn)")
    p.add_argument("--ferryman", help="Ferryman's pile, when Ferryman is in (default: drawn)")
    p.add_argument("--colonies", action=argparse.BooleanOptionalAction, default=False,
                   help="Platinum and Colony in the Supply (default: no)")


def setup_choices(library: Library, ally_text: str | None, picks: dict[str, str | None]
                  ) -> tuple[str | None, list[tuple[str, str]]]:
    """The Ally (RANDOM, None or its name) and the setup piles picked (("bane", "Moat")) of
    --ally, --bane and --ferryman, checked: an Ally, and one Kingdom card each; UsageError."""
    from kingdom.cli import arguments
    from kingdom.runtime.setup import RANDOM

    ally = {None: RANDOM, "random": RANDOM, "none": None}.get(
        (ally_text or "").lower() or None, ally_text)
    if ally not in (RANDOM, None):
        ally = arguments.ally(library, ally)
    choices = []
    for key, name in picks.items():
        if name:
            piles = arguments.kingdom_piles(library, name, "give it with --ally")
            if len(piles) != 1 or piles[0] in library.split_piles:
                raise UsageError(f"--{key}: give one Kingdom card, not '{name}'")
            choices.append((key, piles[0]))
    return ally, choices
