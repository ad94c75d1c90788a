"""Property: a card that compiles can be played in any game without crashing it.

Card effects are composed at random from phrases: every statement of the built-in cards with its
numbers, card names and types varied, inside the structures of the DSL (may, if, choose, each
player, repeat, next turn, a trigger). Each card file is compiled as `kingdom check` does; a
compile error is fine (skipped). Each card that compiles is put twice into every starting deck
and into the Kingdom, and played in short games of the generic bot against the random one with
the invariant checker: any exception, a broken invariant or a turn that does not end fails.

Quick and seeded by default (a few seconds in `make test`); KINGDOM_FUZZ=1 runs 5,000 examples,
about 10,000 cards (KINGDOM_FUZZ=N: N examples), not derandomized, and prints what it covered:
cards generated, compiled, games played (the full run takes about 20 minutes of one core).
"""

from __future__ import annotations

import os
import re
import signal
import tempfile
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml
from bot_games import play_checked
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders

FUZZ = os.environ.get("KINGDOM_FUZZ", "")
EXAMPLES = (5000 if FUZZ in ("1", "yes") else int(FUZZ)) if FUZZ else 10
GAMES = 2  # per example: each seat once
TURNS = 12  # turns of a game, all players together
SECONDS = 20  # a game running longer hangs

NUMBERS = [0, 1, 1, 2, 2, 3, 4, 5, 7, 100, 999999999]
CARDS = ["Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse", "Village",
         "Smithy", "Cellar", "Throne Room", "Militia", "Moat", "Coronet", "Odysseys"]
TYPES = ["Action", "Treasure", "Victory", "Attack", "Reaction", "Duration", "Curse", "Reward",
         "Liaison", "Bane"]
KINGDOM = ["Village", "Smithy", "Militia", "Moat", "Cellar", "Throne Room"]
CARD_TYPES = [["Action"], ["Treasure"], ["Action", "Attack"], ["Action", "Duration"],
              ["Action", "Treasure"], ["Action", "Reaction"], ["Victory"], ["Treasure", "Victory"]]

# Structures around generated steps: {0}, {1}, {2} are steps; {n} a number; {card} a card name.
STRUCTURES = [
    "{0}", "{0}", "{0}", "{0}; {1}", "{0}; {1}; {2}",
    "you may {0}", "you may {0} to {1}", "if you did: {0}", "if it is an Action card: {0}",
    "if you have {n} or more cards in hand: {0}", "choose one: {0} | {1}",
    "choose two: {0} | {1} | {2}", "you choose one: {0} | {1}", "each other player: {0}",
    "each player: {0}", "the player to your left: {0}", "repeat {n}: {0}", "twice: {0}",
    "for each card in your hand: {0}", "at the start of your next turn: {0}",
    "this turn, when you gain a card: {0}", "{0} unless you {1}", "{0}, then {1}",
    "{0} and {1}",
]
TRIGGERS = [
    "when you gain this: {0}", "when you trash this: {0}", "when you discard this from play: {0}",
    "at the start of your turn: {0}", "at the end of your turn: {0}",
    "when another player plays an Attack, you may reveal this from your hand: {0}",
    "in games using this, when you gain a card: {0}", "setup: {0}", "when scoring: {0}",
]
EXTRA_STEPS = [  # phrases the built-in cards leave out
    "reveal the top {n} cards of your deck", "discard the revealed cards",
    "you may trash one of the revealed cards", "put the revealed cards into your hand",
    "look at the top {n} cards of your deck", "+${n}", "+{n} cards", "+{n} actions",
    "gain {n} {card}s", "trash {n} cards from your hand", "discard {n} cards",
    "add an extra kingdom card pile costing $2 or $3 to the supply, its cards are Banes",
    "play a Treasure from your hand twice", "put a card from your hand onto your deck",
    "rotate the {card}", "set aside a card from your hand", "return it to its pile",
]


def builtin_steps() -> list[str]:
    """Every statement of the built-in cards (a line of a block, or a part between ';')."""
    steps: set[str] = set()

    def collect(value) -> None:
        if isinstance(value, str):
            steps.update(p.strip() for line in value.splitlines() for p in line.split(";") if p.strip())
        elif isinstance(value, list):
            for item in value:
                collect(item)
        elif isinstance(value, dict):
            for head, body in value.items():
                if isinstance(body, str):
                    steps.add(f"{head}: {body}")
                collect(body)

    for file in sorted(BUILTIN_CARDS.rglob("*.yaml")):
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        for key in ("play", "triggers"):
            collect(data.get(key))
    return sorted(s.rstrip(":") for s in steps if not s.endswith("|"))


STEPS = builtin_steps() + EXTRA_STEPS
NAME_WORD = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in sorted(
    {*CARDS, *TYPES, "Kingdom"} - {"Curse"}, key=len, reverse=True)) + r")\b")


@st.composite
def step(draw, depth: int = 0) -> str:
    """One statement: a phrase with its numbers and names varied, maybe inside a structure."""
    phrase = draw(st.sampled_from(STEPS))
    phrase = re.sub(r"\b\d+\b", lambda m: str(draw(st.sampled_from(NUMBERS))), phrase)
    phrase = NAME_WORD.sub(lambda m: draw(st.sampled_from(CARDS + TYPES)), phrase)
    phrase = phrase.replace("{n}", str(draw(st.sampled_from(NUMBERS))))
    phrase = phrase.replace("{card}", draw(st.sampled_from(CARDS)))
    if depth >= 2 or draw(st.booleans()):
        return phrase
    structure = draw(st.sampled_from(STRUCTURES))
    inner = [phrase, draw(step(depth + 1)), draw(step(depth + 1))]
    return structure.format(*inner, n=draw(st.sampled_from(NUMBERS)))


@st.composite
def card_file(draw, name: str) -> dict:
    types = draw(st.sampled_from(CARD_TYPES))
    card: dict = {"dsl": 1, "name": name, "cost": draw(st.integers(0, 6)), "types": types}
    if types != ["Victory"]:
        card["play"] = draw(st.lists(step(), min_size=1, max_size=3))
    if "Victory" in types:
        card["vp"] = draw(st.sampled_from([1, 2, "1 per 10 cards you have",
                                           f"1 per {draw(st.sampled_from(NUMBERS))} Action cards you have"]))
    if draw(st.integers(0, 3)) == 0:
        trigger = draw(st.sampled_from(TRIGGERS))
        card["triggers"] = [trigger.format(draw(step(1)))]
    if draw(st.integers(0, 7)) == 0:
        card["pile_size"] = draw(st.sampled_from([1, 5, 10, 1000000000]))
    return card


COVERED: Counter = Counter()


class Hang(Exception):
    pass


@contextmanager
def time_limit(seconds: int):
    """Raise Hang in the code under test once `seconds` have passed (a turn that never ends)."""
    def expire(signum, frame):
        raise Hang(f"a game ran over {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def compile_cards(cards: list[dict]):
    """The library of the built-in cards and `cards`, compiled as `kingdom check` does; None
    when compiling raised (a phrase's builder refusing its words: the loader's part to report
    as a diagnostic, counted here and left to its tests)."""
    with tempfile.TemporaryDirectory() as folder:
        for card in cards:
            path = Path(folder) / f"{card['name'].lower().replace(' ', '-')}.yaml"
            path.write_text(yaml.safe_dump(card, sort_keys=False), encoding="utf-8")
        try:
            library, _diagnostics = compile_folders([BUILTIN_CARDS, Path(folder)], strict=False)
        except Exception as exc:
            COVERED[f"compile raised {type(exc).__name__}"] += 1
            return None
    return library


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs a Unix timer for hangs")
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not FUZZ, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
          print_blob=bool(FUZZ))
@given(st.lists(st.sampled_from(["Fuzz Alpha", "Fuzz Beta", "Fuzz Gamma"]), min_size=1,
                max_size=3, unique=True).flatmap(
                    lambda names: st.tuples(*(card_file(n) for n in names))))
def test_a_card_that_compiles_plays(cards) -> None:
    COVERED["cards"] += len(cards)
    library = compile_cards(list(cards))
    if library is None:
        return
    played = [c["name"] for c in cards if c["name"] in library]
    COVERED["compiled"] += len(played)
    if not played:
        return
    for seed in range(GAMES):
        with time_limit(SECONDS):
            play_checked(library, [*played, *KINGDOM[: 10 - len(played)]], seed, TURNS,
                         deck=tuple(played) * 2)
        COVERED["games"] += 1


@pytest.fixture(scope="module", autouse=True)
def report_coverage():
    yield
    if FUZZ:
        print(f"\nproperty test: {dict(COVERED)}")
