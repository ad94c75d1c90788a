"""Every Kingdom card of each set in whole games between generic bots: the games end by the
rules, with no card created or lost (checked before every turn decision)."""

from __future__ import annotations

import pytest
from kingdom.compiler.build import builtin_library
from kingdom.runtime.setup import standard_game

from kingdom.lab.bots import DefaultAgent
from kingdom.lab.invariants import InvariantChecker

LIBRARY = builtin_library()
SETS = ["base", "base-1e", "intrigue", "intrigue-1e", "cornucopia-guilds"]


def kingdoms_of(set_name: str) -> list[list[str]]:
    """The set's Kingdom cards in groups of ten (topped up from Base), so each card is used."""
    cards = sorted(c.name for c in LIBRARY.in_set(set_name) if c.kind == "kingdom")
    filler = sorted(c.name for c in LIBRARY.in_set("base") if c.kind == "kingdom")
    groups = [cards[i : i + 10] for i in range(0, len(cards), 10)]
    return [g + [f for f in filler if f not in g][: 10 - len(g)] for g in groups]


CASES = [(s, i, k) for s in SETS for i, k in enumerate(kingdoms_of(s))]


@pytest.mark.parametrize(("set_name", "index", "kingdom"), CASES,
                         ids=[f"{s}-{i}" for s, i, _ in CASES])
@pytest.mark.parametrize("players", [2, 3])
def test_kingdom_plays_to_its_end(set_name: str, index: int, kingdom: list[str],
                                  players: int) -> None:
    checker = InvariantChecker()
    agents = checker.wrap([DefaultAgent() for _ in range(players)])
    game = standard_game(LIBRARY, kingdom, agents, seed=index + 10 * players)
    checker.attach(game)
    game.run(max_turns=600)
    assert game.is_over() and game.turn_number < 600, "ended by the rules, not the turn bound"
    checker.check(game, "at the end")
    assert not checker.violations
