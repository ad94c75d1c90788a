"""Strategy files: loading, errors with positions, and the bots' decisions."""

from __future__ import annotations

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.compiler.errors import CompileError
from kingdom.runtime.setup import standard_game

from kingdom.lab.bots import DefaultAgent, RandomAgent, plus_actions, would_lose_by_gaining
from kingdom.lab.roster import resolve_bot
from kingdom.lab.strategy import builtin_strategies, load_strategy, parse_comparison


@pytest.fixture(scope="module")
def library():
    # the Base cards only, so that work in progress on other sets does not matter here
    library, _ = compile_folders([BUILTIN_CARDS / "base"])
    return library


def test_builtin_strategies_load(library):
    names = builtin_strategies()
    assert {"big-money", "smithy-big-money", "witch-big-money"} <= set(names)
    for path in names.values():
        strategy = load_strategy(path, library)
        assert strategy.buy


def test_comparisons():
    assert parse_comparison(0)(0) and not parse_comparison(0)(1)
    assert parse_comparison("4-5")(4) and parse_comparison("4-5")(5) and not parse_comparison("4-5")(6)
    assert parse_comparison("<2")(1) and not parse_comparison("<2")(2)
    assert parse_comparison(">=8")(8) and not parse_comparison(">=8")(7)
    assert parse_comparison("lots") is None and parse_comparison(True) is None


def errors(library, tmp_path, text):
    file = tmp_path / "bot.yaml"
    file.write_text(text)
    with pytest.raises(CompileError) as info:
        load_strategy(file, library)
    return [(d.code, d.line, d.column, d.message) for d in info.value.diagnostics], info.value


def test_errors_have_positions(library, tmp_path):
    found, exc = errors(library, tmp_path, "name: Bad\nbuy:\n  - Provnce\n  - card: Smithy\n"
                        "    when: {coins: lots, ownd: {Smithy: 0}}\nplay: Smithy\n")
    codes = {(code, line, col) for code, line, col, _ in found}
    assert ("K300", 3, 5) in codes  # unknown card, with a did-you-mean
    assert ("K104", 5, 19) in codes  # coins: lots
    assert ("K102", 5, 25) in codes  # ownd
    assert ("K104", 6, 7) in codes  # play must be a list
    report = exc.report()
    assert "bot.yaml:3:5: error[K300]: unknown card 'Provnce'" in report
    assert "did you mean 'Province'?" in report


def test_yaml_and_missing_key_errors(library, tmp_path):
    found, _ = errors(library, tmp_path, "name: [unclosed\n")
    assert found[0][0] == "K100"
    found, _ = errors(library, tmp_path, "name: x\nbyu: [Gold]\n")
    assert {code for code, *_ in found} == {"K102", "K103"}


def test_smithy_big_money_buys_one_smithy(library):
    bot = resolve_bot("smithy-big-money", library)
    game = standard_game(library, ["Smithy"], [bot.agent(), bot.agent()], seed=3)
    game.run()
    for player in game.players:
        assert sum(1 for c in player.owned() if c.d.name == "Smithy") <= 1
    assert sum(1 for c in game.played_this_turn if c.d.name == "Smithy") <= 1


def test_suicide_check(library):
    bot = resolve_bot("big-money", library)
    game = standard_game(library, [], [bot.agent(), bot.agent()], seed=1)
    me, other = game.players
    province = game.piles["Province"]
    while len(province) > 1:
        other.discard.append(province.cards.pop())
    me.turns_taken, other.turns_taken = 5, 4
    # 3 + 6 < 3 + 42: buying the last Province would lose
    assert would_lose_by_gaining(game, me, "Province")
    game.coins = 8
    assert bot.agent().choose_buy(game, me, ["Province", "Gold", "Silver"]) == "Gold"
    # a tie in points with more turns taken also loses; with equal turns it is a shared win
    for _ in range(6):
        other.discard.pop()
    me.discard.extend(game.new_card(library["Province"]) for _ in range(1))
    assert would_lose_by_gaining(game, me, "Province") is False  # 3+12 > 3+6
    me.discard.pop()
    assert would_lose_by_gaining(game, me, "Province")  # 9 == 9, more turns
    me.turns_taken = 4
    assert not would_lose_by_gaining(game, me, "Province")


def test_default_agent_reads_plus_actions_from_the_tree(library):
    assert plus_actions(library["Village"]) == 2
    assert plus_actions(library["Festival"]) == 2
    assert plus_actions(library["Smithy"]) == 0
    assert plus_actions(library["Copper"]) == 0


def test_generic_and_random_bots_finish_games(library):
    kingdom = ["Village", "Smithy", "Militia", "Moat", "Witch", "Throne Room", "Remodel",
               "Cellar", "Chapel", "Library"]
    for seed in range(5):
        game = standard_game(library, kingdom, [DefaultAgent(), RandomAgent(seed)], seed=seed)
        game.run()
        assert game.game_over


def test_default_agent_gains_offered_cards_but_not_curses(library):
    from kingdom.runtime.decisions import CARDS, GAIN, Decision
    from kingdom.runtime.setup import standard_game

    from kingdom.lab.bots import DefaultAgent

    game = standard_game(library, ["Smithy"], [DefaultAgent(), DefaultAgent()], seed=1)
    cards = [game.new_card(library[n]) for n in ("Gold", "Curse", "Silver")]
    decision = Decision(CARDS, game.players[0], "Gain any number", cards, 0, 3, game=game,
                        topic=GAIN)
    assert [c.d.name for c in DefaultAgent().decide(decision)] == ["Gold", "Silver"]
