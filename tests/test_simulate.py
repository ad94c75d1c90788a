"""Simulation: the published Big Money figures, job-independence, and invariants under fuzzing.

Published figures (2 players, seats alternating): a Big Money mirror lasts 17.7-17.8 turns per
player on average; Smithy Big Money against Big Money wins 60.0%, loses 12.5% and ties 27.5%.
Each comparison allows the 95% confidence interval of our own sample.
"""

from __future__ import annotations

import json
import math

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders

from kingdom.cli.main import main
from kingdom.lab.results import wilson
from kingdom.lab.roster import resolve_bot
from kingdom.lab.simulate import Setup, random_kingdom, simulate


@pytest.fixture(scope="module")
def library():
    # the Base cards only: these figures do not depend on the other sets
    library, _ = compile_folders([BUILTIN_CARDS / "base"])
    return library


def test_big_money_mirror_game_length(library):
    bot = resolve_bot("big-money", library)
    results = simulate(Setup(library, ["Smithy"], [bot, bot]), games=8000, seed=1)
    mean = results.mean_turns(2)
    half = 1.96 * results.stdev_turns(2) / math.sqrt(results.games)
    assert 17.7 - half <= mean <= 17.8 + half, (mean, half)
    assert results.unfinished == 0


def test_smithy_big_money_against_big_money(library):
    smithy, big_money = resolve_bot("smithy-big-money", library), resolve_bot("big-money", library)
    results = simulate(Setup(library, ["Smithy"], [smithy, big_money]), games=5000, seed=1)
    stats = results.bots[0]
    n = stats.games
    for count, published in ((stats.wins, 0.600), (stats.losses, 0.125), (stats.ties, 0.275)):
        low, high = wilson(count, n)
        assert low <= published <= high, (count / n, published, (low, high))
    assert results.bots[1].wins == stats.losses and results.bots[1].ties == stats.ties


def test_jobs_do_not_change_results(library):
    bots = [resolve_bot("smithy-big-money", library), resolve_bot("random", library)]
    setup = Setup(library, random_kingdom(library), bots)
    one = simulate(setup, games=600, seed=5, jobs=1)
    two = simulate(setup, games=600, seed=5, jobs=2)
    assert one.to_json(2) == two.to_json(2)
    assert one.to_json(2) != simulate(setup, games=600, seed=6).to_json(2)


def test_invariants_hold_on_random_kingdoms(library):
    bots = [resolve_bot("random", library), resolve_bot("default", library)]
    setup = Setup(library, random_kingdom(library), bots, check_invariants=True)
    results = simulate(setup, games=60, seed=3)
    assert results.violations == []
    assert results.unfinished == 0


def test_invariant_checker_catches_a_lost_card(library):
    from kingdom.runtime.setup import standard_game

    from kingdom.lab.invariants import InvariantChecker, InvariantViolation

    bot = resolve_bot("big-money", library)
    game = standard_game(library, ["Smithy"], [bot.agent(), bot.agent()], seed=1)
    checker = InvariantChecker()
    checker.attach(game)
    game.players[0].hand.pop()
    with pytest.raises(InvariantViolation, match="lost"):
        checker.check(game, "test")
    game.players[0].hand.append(game.piles["Gold"].cards[-1])
    with pytest.raises(InvariantViolation, match="both in"):
        checker.check(game, "test")


def test_cli_json(capsys):
    code = main(["simulate", "--kingdom", "Smithy", "--bots", "big-money,smithy-big-money",
                 "--games", "40", "--seed", "2", "--json", "--check-invariants"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 40 and [b["name"] for b in data["bots"]] == ["Big Money", "Smithy Big Money"]
    assert data["bots"][1]["cards"]["Smithy"]["bought_per_game"] == 1.0
