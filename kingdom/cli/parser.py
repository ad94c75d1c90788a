"""The `kingdom` command's argument parser: argparse's, with what users of today's command lines
expect of it. A mistyped command, option or choice says what was probably meant (`simulte`: did
you mean 'simulate'?); every command's --help starts with what it does and ends with the exit
statuses; a usage error points to the command's --help.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import NoReturn

from kingdom.runtime.library import closest

EXIT_STATUSES = "Exit status: 0 ok, 1 a check or test failed, 2 bad usage or input, {internal} an " \
    "internal error (please report it)."


def did_you_mean(given: str, known: Iterable[str]) -> str:
    """'; did you mean 'X'?' for the known word closest to `given` (in any case), else ''."""
    close = closest(given, known)
    return f"; did you mean '{close}'?" if close else ""


class Parser(argparse.ArgumentParser):
    """argparse.ArgumentParser whose errors suggest the closest choice or option and end with
    where the help is. The subcommands' parsers are of this class too (argparse makes them of
    their parent's)."""

    def _check_value(self, action: argparse.Action, value) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as exc:
            hint = did_you_mean(str(value), map(str, action.choices or ())) if isinstance(value, str) else ""
            raise argparse.ArgumentError(action, f"{exc.message}{hint}") from None

    def unrecognized(self, arguments: list[str]) -> NoReturn:
        """The error for arguments no option of this parser takes, naming the closest option."""
        options = [o for a in self._actions for o in a.option_strings]
        hints = [did_you_mean(a.split("=")[0], options) for a in arguments if a.startswith("-")]
        self.error(f"unrecognized arguments: {' '.join(arguments)}{next((h for h in hints if h), '')}")

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n(`{self.prog} --help` says more)\n")


def describe_commands(parser: argparse.ArgumentParser, internal: int) -> None:
    """Give each subcommand's --help a description (its one-line help, as a sentence) and the
    exit statuses, as `kingdom --help` has them."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for action in sub._choices_actions:
        command = sub.choices[action.dest]
        if command.description is None and action.help:
            command.description = action.help[0].upper() + action.help[1:] + "."
        if command.epilog is None:
            command.epilog = EXIT_STATUSES.format(internal=internal)
