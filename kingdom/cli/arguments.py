"""Checks on the `kingdom` command's arguments, made before any work starts.

Two kinds of check: argparse `type=` functions for what can be judged from the text alone
(numbers in range, paths that exist, output files that can be written), and checks against the
loaded cards (Kingdom piles, an Ally, a set). Both end in exit status 2 with a message saying
what would be accepted; nothing here runs a game or writes a file.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from kingdom.compiler.expansions import MAX_ENTRIES, folder_cards, too_many_entries
from kingdom.compiler.files import not_regular
from kingdom.runtime.library import Library, closest, find_card

YAML_SUFFIXES = (".yaml", ".yml")
PLOT_SUFFIXES = (".png", ".pdf", ".svg")
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # the rules' player counts (runtime.game.Game refuses others)
MAX_JOBS = 64
MAX_GAMES = 100_000_000
MAX_KINGDOM = 10  # the rules' Kingdom: 10 piles (a Bane or Ferryman's pile is added to them)
MAX_TURNS = 10_000  # turns per player: far past any game's end (a game's steps are bounded too)
MAX_SEED = 10**18 - 1  # a game's seed for `play`: 18 digits, as a save file holds numbers


class UsageError(Exception):
    """Bad input found once the cards are loaded: printed as `kingdom CMD: error: ...`, exit 2."""


# ------------------------------------------------------------------------------ argparse types
def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer from `low` to `high` (no upper bound when None)."""
    wanted = f"a whole number from {low} to {high:,}" if high is not None else \
        f"a whole number of {low} or more"

    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {wanted}, not '{text}'") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {wanted}, not {value}")
        return value

    check.__name__ = wanted  # what argparse would name the type
    return check


def seconds(text: str) -> float:
    """An argparse type: a number of seconds, above 0 and at most a day."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= 86_400:  # (nan and inf too)
        raise argparse.ArgumentTypeError(f"expected seconds, more than 0 and at most 86,400, "
                                         f"not '{text}'")
    return value


def card_path(text: str) -> str:
    """An argparse type: a folder holding card files, or one card file."""
    return _yaml_files(text, "card", _holds_cards)


def _holds_cards(folder: Path) -> bool:
    if too_many_entries(folder):  # (`--cards /` would compile every YAML file on the machine)
        raise argparse.ArgumentTypeError(f"'{folder}' holds more than {MAX_ENTRIES:,} files and "
                                         "folders: give the folder of the card files")
    files, problems = folder_cards(folder)
    return bool(files or problems)  # (a refused manifest is reported by the compile)


def scenario_path(text: str) -> str:
    """An argparse type: a scenario file, or a folder searched for them."""
    return _yaml_files(text, "scenario", lambda folder: next(folder.rglob("*.yaml"), None) is not None)


def _yaml_files(text: str, what: str, holds: Callable[[Path], bool]) -> str:
    """`text` if it names a `what` file (*.yaml) or a folder that `holds` some."""
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"no such file or folder: '{text}' (give a {what} file, "
                                         "*.yaml, or a folder of them)")
    if path.is_dir():
        if not holds(path):
            raise argparse.ArgumentTypeError(f"no {what} files (*.yaml) in the folder '{text}'")
    elif not path.is_file() or path.suffix not in YAML_SUFFIXES:
        raise argparse.ArgumentTypeError(f"'{text}' is not a {what} file (*.yaml) or a folder of them")
    return text


def existing_file(text: str) -> str:
    """An argparse type: a file that exists and can be read."""
    path = Path(text)
    if not path.is_file():
        what = "a folder" if path.is_dir() else "no such file"
        raise argparse.ArgumentTypeError(f"'{text}': {what}; give the file to read")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"cannot read '{text}': permission denied")
    return text


def output_file(text: str) -> str:
    """An argparse type: a file that can be written ('-' is standard output)."""
    if text == "-":
        return text
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"'{text}' is a folder; give a file name in it")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"no such folder '{folder}' to write '{text}' in; "
                                         "create it first")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write '{text}': permission denied")
    return text


def plot_file(text: str) -> str:
    """An argparse type: an image file to write, in a format the plot can be saved in."""
    output_file(text)
    if Path(text).suffix.lower() not in PLOT_SUFFIXES:
        raise argparse.ArgumentTypeError(f"'{text}': the plot is written as "
                                         f"{', '.join(PLOT_SUFFIXES)}; end the name with one")
    if importlib.util.find_spec("matplotlib") is None:
        raise argparse.ArgumentTypeError("--plot needs matplotlib: pip install 'kingdom[plot]'")
    return text


def rules_folder(text: str) -> str:
    """An argparse type: a folder of rules files (*.txt)."""
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"no such folder: '{text}' (give the folder of rules "
                                         "files, *.txt)")
    files = sorted(path.glob("*.txt"))
    if not files:
        raise argparse.ArgumentTypeError(f"no rules files (*.txt) in the folder '{text}'")
    for file in files:
        if not_regular(file):
            raise argparse.ArgumentTypeError(f"'{file}' is {not_regular(file)}; only regular "
                                             "files are read")
    return text


# ------------------------------------------------------------------------------ names
def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """'; did you mean 'X'?' for the choice closest to `word` in any case, or ''."""
    match = closest(word, choices)
    return f"; did you mean '{match}'?" if match else ""


def card_or_pile(library: Library, name: str) -> str:
    """`find_card`, or a UsageError with a did-you-mean."""
    found = find_card(library, name)
    if found is None:
        hint = did_you_mean(name, (*library.cards, *library.split_piles))
        raise UsageError(f"unknown card '{name}'{hint}")
    return found


def kingdom_piles(library: Library, text: str, ally_hint: str) -> list[str]:
    """The Kingdom piles of a comma-separated list: Kingdom cards and split piles, each once,
    at most MAX_KINGDOM. `ally_hint` says what to do instead when an Ally is named."""
    return kingdom_list(library, text.split(","), ally_hint)


def kingdom_list(library: Library, names: Iterable[str], ally_hint: str) -> list[str]:
    """`kingdom_piles` of names already apart (a save file's)."""
    piles: list[str] = []
    for name in (n.strip() for n in names):
        if not name:
            continue
        pile = find_card(library, name)
        if pile is None:
            hint = did_you_mean(name, (*library.names_of_kind("kingdom"), *library.split_piles))
            raise UsageError(f"--kingdom: unknown card '{name}' (a Kingdom card or split pile "
                             f"is wanted){hint}")
        problem = _not_a_kingdom_pile(library, pile, ally_hint)
        if problem:
            raise UsageError(f"--kingdom: {problem}")
        if pile in piles:
            raise UsageError(f"--kingdom: '{pile}' is named twice; each pile is in a game once")
        piles.append(pile)
    if len(piles) > MAX_KINGDOM:
        raise UsageError(f"--kingdom: {len(piles)} piles, but a Kingdom has at most {MAX_KINGDOM} "
                         "(the game adds a Bane or Ferryman's pile itself)")
    return piles


def _not_a_kingdom_pile(library: Library, pile: str, ally_hint: str) -> str:
    if pile in library.split_piles:
        return ""
    kind = library.cards[pile].kind
    if kind == "kingdom":
        return ""
    if kind == "ally":
        return f"'{pile}' is an Ally, not a Kingdom pile ({ally_hint})"
    if kind == "split-member":
        owner = next((p for p, members in library.split_piles.items() if pile in members), "?")
        return f"'{pile}' is one card of the split pile '{owner}', not a pile: name '{owner}'"
    if kind == "basic":
        return f"'{pile}' is a basic card, not a Kingdom pile (every game has the basic piles)"
    if kind == "reward":
        return f"'{pile}' is a Reward, not a Kingdom pile (the card using it sets its pile aside)"
    return f"'{pile}' is a {kind} card, not a Kingdom card or split pile"


def ally(library: Library, name: str) -> str:
    """The canonical name of an Ally written in any case, or a UsageError naming the Allies."""
    allies = library.names_of_kind("ally")
    found = find_card(library, name)
    if found in allies:
        return found
    what = "an unknown card" if found is None else f"a {library[found].kind} card"
    raise UsageError(f"--ally: '{name}' is {what}, not an Ally (Allies: "
                     f"{', '.join(allies) or 'none loaded'}){did_you_mean(name, allies)}")


def card_set(name: str, sets: Iterable[str], label: str = "sets") -> str:
    """A set id written in any case, or a UsageError listing the `sets` accepted."""
    known = sorted(set(sets))
    by_lower = {s.lower(): s for s in known}
    if name.lower() in by_lower:
        return by_lower[name.lower()]
    raise UsageError(f"unknown set '{name}' ({label}: {', '.join(known)}){did_you_mean(name, known)}")


def kingdom_sets(library: Library, text: str) -> tuple[str, ...]:
    """The sets a random Kingdom is drawn from: each one must have Kingdom cards."""
    with_kingdom = {c.set for c in library if c.kind == "kingdom"}
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise UsageError("--sets: give at least one set, e.g. --sets base")
    return tuple(card_set(n, with_kingdom, "sets with Kingdom cards") for n in names)
