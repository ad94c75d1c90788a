"""The `kingdom` command: the parser, built from one module per command, and every way out of
a command turned into an exit status (README, Commands), never a traceback.

Each command module has `add_parser(sub)`, which adds its subcommand and options and sets `func`
to its `run(args) -> int`. Adding a command is one new module and one line in COMMANDS (whose
order is that of `kingdom --help`); nothing here knows what a command does.
"""

from __future__ import annotations

import argparse
import errno
import importlib.metadata
import os
import sys
import textwrap

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
from kingdom.cli.common import BROKEN_PIPE, CANNOT_WRITE, INTERNAL, INTERRUPTED, USAGE
from kingdom.cli.parser import EXIT_STATUSES, Parser, describe_commands
from kingdom.compiler.errors import CompileError
from kingdom.compiler.texts import printable

WRITE_FAILURES = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}  # output that cannot be written
ENVIRONMENT = """Environment:
  KINGDOM_PATH      card folders every command loads (separated by ':', ';' on Windows)
  KINGDOM_RULES     the rules folder `render` reads rulings from
  KINGDOM_NO_CACHE  compile every card afresh (the cache is in $XDG_CACHE_HOME/kingdom)
  KINGDOM_DEBUG     show the traceback of an internal error
  NO_COLOR          no colour in tables and games"""

COMMANDS = (check, list_cards, show, schema, test, demo, simulate, rate, render, randomizer, play,
            phrases, completion, lsp, studio)


def build_parser() -> Parser:
    parser = Parser(
        prog="kingdom", description="Dominion cards as data: compile, show, test, play and print them.",
        epilog=ENVIRONMENT + "\n\n" + textwrap.fill(EXIT_STATUSES.format(internal=INTERNAL), 78),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    describe_commands(parser, INTERNAL)
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
        status = run(argv)
        sys.stdout.flush()  # (here, so that a full disk is said, not lost at exit)
        return status
    except BrokenPipeError:
        return broken_pipe()
    except OSError as exc:
        if exc.errno not in WRITE_FAILURES:
            return internal_error(exc)
        quiet_stdout()
        print(printable(f"kingdom: cannot write the output: {exc.strerror or exc}"), file=sys.stderr)
        return CANNOT_WRITE
    except KeyboardInterrupt:
        print("kingdom: interrupted", file=sys.stderr)
        return INTERRUPTED
    except Exception as exc:
        return internal_error(exc)


def internal_error(exc: Exception) -> int:
    """A bug of Kingdom's: one line to report (the traceback with KINGDOM_DEBUG set)."""
    if os.environ.get("KINGDOM_DEBUG"):
        raise exc
    print(printable(f"kingdom: internal error: {type(exc).__name__}: {exc}; please report "
                    "it (KINGDOM_DEBUG=1 shows the traceback)"), file=sys.stderr)
    return INTERNAL


def run(argv: list[str] | None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # told with the usage of the command they were given to, not the top level's
        command = _command_parser(parser, args.command) if args.command else parser
        command.unrecognized(unknown)
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


def _command_parser(parser: argparse.ArgumentParser, name: str) -> Parser:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def broken_pipe() -> int:
    """The reader of standard output went away (`kingdom list | head -1`): stop quietly. Standard
    output is pointed at /dev/null so that Python's last flush cannot fail again."""
    quiet_stdout()
    return BROKEN_PIPE


def quiet_stdout() -> None:
    """Point standard output at /dev/null, so that Python's last flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
