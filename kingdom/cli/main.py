"""The `kingdom` command: the parser, built from one module per command, and every way out of
a command turned into an exit status (README, Commands), never a traceback.

Each command module has `add_parser(sub)`, which adds its subcommand and options and sets `func`
to its `run(args) -> int`. Adding a command is one new module and one line in COMMANDS (whose
order is that of `kingdom --help`); nothing here knows what a command does.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys

from kingdom.cli import (
    check,
    completion,
    demo,
    lsp,
    phrases,
    play,
    rate,
    render,
    schema,
    show,
    simulate,
    studio,
    test,
)
from kingdom.cli import kingdom as randomizer
from kingdom.cli import list as list_cards
from kingdom.cli.arguments import UsageError
from kingdom.cli.common import BROKEN_PIPE, INTERNAL, INTERRUPTED, USAGE
from kingdom.compiler.errors import CompileError
from kingdom.compiler.texts import printable

COMMANDS = (check, list_cards, show, schema, test, demo, simulate, rate, render, randomizer, play,
            phrases, completion, lsp, studio)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kingdom", description="Dominion cards as data: compile, show, test, play and print them.",
        epilog="Exit status: 0 ok, 1 a check or test failed, 2 bad usage or input, "
               f"{INTERNAL} an internal error (please report it).")
    parser.add_argument("--version", action="version", version=version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


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
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # told with the usage of the command they were given to, not the top level's
        command = _command_parser(parser, args.command) if args.command else parser
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
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


def _command_parser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def broken_pipe() -> int:
    """The reader of standard output went away (`kingdom list | head -1`): stop quietly. Standard
    output is pointed at /dev/null so that Python's last flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
