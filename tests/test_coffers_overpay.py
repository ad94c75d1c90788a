"""Bots spend Coffers and overpay: the Buy phase's NUMBER decisions (SPEND_COFFERS, OVERPAY),
asked only when they can matter, and answered by the generic bot, strategy files and the random
bot."""

from __future__ import annotations

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.compiler.errors import CompileError
from kingdom.runtime import decisions
from kingdom.runtime.decisions import NUMBER, OVERPAY, SPEND_COFFERS
from kingdom.runtime.setup import standard_game

from kingdom.lab.bots import DefaultAgent, RandomAgent, coffers_to_reach, overpay_use
from kingdom.lab.roster import resolve_bot
from kingdom.lab.simulate import Setup, simulate
from kingdom.lab.strategy import load_strategy


@pytest.fixture(scope="module")
def library():
    library, _ = compile_folders([BUILTIN_CARDS / "base", BUILTIN_CARDS / "cornucopia-guilds"],
                                 strict=False)
    return library


def strategy(library, tmp_path, text, name="bot.yaml"):
    file = tmp_path / name
    file.write_text(text)
    return load_strategy(file, library)


BAKER = """name: Baker Big Money
buy:
  - Province
  - Gold
  - card: Baker
    when: {owned: {Baker: "<2"}}
  - Silver
play: [Baker]
"""

CANDLESTICK = """name: Candlestick Maker Big Money
buy:
  - Province
  - Gold
  - card: Candlestick Maker
    when: {owned: {Candlestick Maker: "<2"}}
  - Silver
play: [Candlestick Maker]
coffers: spend-to-reach [8, 6]
"""


class Spent:
    """Counts the Coffers an agent spends and the coins it overpays."""

    def __init__(self, agent):
        self.coffers = self.overpaid = 0
        spend, overpay = agent.spend_coffers, agent.overpay

        def counted_spend(decision):
            n = spend(decision)
            self.coffers += n
            return n

        def counted_overpay(decision):
            n = overpay(decision)
            self.overpaid += n
            return n

        agent.spend_coffers, agent.overpay = counted_spend, counted_overpay


def play(library, kingdom, agents, games, seed=1):
    for i in range(games):
        game = standard_game(library, kingdom, agents if i % 2 == 0 else agents[::-1],
                             seed=seed + i)
        game.run()
        assert game.game_over


@pytest.mark.parametrize("text", [BAKER + "coffers: spend-to-reach [8, 6]\n", BAKER, CANDLESTICK])
def test_coffers_strategies_spend_coffers(library, tmp_path, text):
    bot = strategy(library, tmp_path, text).agent()
    spent = Spent(bot)
    play(library, ["Baker", "Candlestick Maker", "Smithy"], [bot, resolve_bot("big-money", library)
                                                             .agent()], 40)
    assert spent.coffers > 40  # several a game


def test_spending_coffers_beats_hoarding_them(library, tmp_path):
    spender = strategy(library, tmp_path, BAKER + "coffers: spend-to-reach [8, 6]\n")
    hoarder = strategy(library, tmp_path, BAKER.replace("Baker Big Money", "Hoarder")
                       + "coffers: never\n", "hoarder.yaml")
    results = simulate(Setup(library, ["Baker"], [spender, hoarder]), games=300, seed=1)
    assert results.bots[0].wins > 3 * results.bots[0].losses


def test_default_agent_spends_coffers(library):
    agents = [DefaultAgent(), DefaultAgent()]
    spent = [Spent(a) for a in agents]
    play(library, ["Baker", "Candlestick Maker", "Plaza", "Butcher", "Village"], agents, 20)
    assert sum(s.coffers for s in spent) > 0


def test_coffers_to_reach():
    assert coffers_to_reach(6, 2, (8, 6)) == 2  # Province
    assert coffers_to_reach(5, 1, (8, 6)) == 1  # Gold
    assert coffers_to_reach(7, 3, (8, 6)) == 1
    assert coffers_to_reach(5, 4, (8, 6)) == 3  # the highest in reach
    assert coffers_to_reach(3, 1, (8, 6)) == 0  # nothing in reach: keep them
    assert coffers_to_reach(9, 3, (8, 6)) == 0


def test_overpay_use_read_from_the_card(library):
    assert overpay_use(library["Farrier"]) == "draw"
    assert overpay_use(library["Stonemason"]) == "exact_cost"
    assert overpay_use(library["Herald"]) is None and overpay_use(library["Smithy"]) is None


def turn_with_coins(library, kingdom, agent, coins):
    """A game whose first player has `coins` in Treasures in hand, and whose turn is played."""
    game = standard_game(library, kingdom, [agent, DefaultAgent()], seed=3)
    player = game.players[0]
    gold, copper = library["Gold"], library["Copper"]
    player.deck.extend(player.hand)
    player.hand = game.new_cards([gold] * (coins // 3) + [copper] * (coins % 3))
    game.log = []
    game.take_turn()
    return game, player


def test_strategy_overpays_for_farrier(library, tmp_path):
    bot = strategy(library, tmp_path, "name: Farrier\nbuy: [Farrier]\noverpay: all\n").agent()
    game, player = turn_with_coins(library, ["Farrier", "Stonemason", "Village"], bot, 6)
    assert any("buys Farrier for $6" in line for line in game.log), game.log
    assert len(player.hand) == 5 + 4  # +1 Card at the end of the turn per $1 overpaid


def test_generic_rule_overpays_for_stonemason_to_an_action_price(library, tmp_path):
    bot = strategy(library, tmp_path, "name: Stonemason\nbuy: [Stonemason]\n").agent()
    spent = Spent(bot)
    _game, player = turn_with_coins(library, ["Stonemason", "Village", "Smithy"], bot, 9)
    assert spent.overpaid == 4  # $7 left: Smithy costs 4 (no Action costs 5, 6 or 7)
    assert sorted(c.d.name for c in player.discard if c.d.is_action) == [
        "Smithy", "Smithy", "Stonemason"]


def test_never_overpay_and_no_spare_coins(library, tmp_path):
    bot = strategy(library, tmp_path, "name: S\nbuy: [Farrier]\noverpay: never\n").agent()
    spent = Spent(bot)
    turn_with_coins(library, ["Farrier"], bot, 6)
    assert spent.overpaid == 0


class Asked:
    """Records the topics of the NUMBER decisions an agent is asked."""

    def __init__(self, agent):
        self.agent = agent
        self.topics = []

    def decide(self, decision):
        if decision.kind == NUMBER:
            self.topics.append(decision.topic)
        return self.agent.decide(decision)

    def __getattr__(self, name):
        return getattr(self.agent, name)


def test_asked_only_when_it_can_matter(library, monkeypatch):
    made = []
    original = decisions.Decision.__init__

    def counting(self, kind, *args, **kwargs):
        made.append(kwargs.get("topic"))
        original(self, kind, *args, **kwargs)

    monkeypatch.setattr(decisions.Decision, "__init__", counting)
    big_money = resolve_bot("big-money", library)
    game = standard_game(library, ["Smithy"], [big_money.agent(), big_money.agent()], seed=1)
    game.run()
    assert not game._overpay and made == []  # no Coffers, no Overpay card: nothing is made

    # with Coffers but nothing left over for an Overpay card, only SPEND_COFFERS is asked
    agent = Asked(DefaultAgent())
    game = standard_game(library, ["Farrier"], [agent, DefaultAgent()], seed=1)
    game.players[0].coffers = 2
    game.take_turn()
    assert agent.topics and set(agent.topics) == {SPEND_COFFERS}


def test_random_agent_answers_uniformly(library):
    agents = [Asked(RandomAgent(1)), Asked(RandomAgent(2))]
    kingdom = ["Baker", "Candlestick Maker", "Farrier", "Stonemason", "Herald", "Infirmary",
               "Plaza", "Butcher", "Village", "Market"]
    for seed in range(5):
        game = standard_game(library, kingdom, agents, seed=seed)
        game.run(max_turns=200)
    topics = [t for a in agents for t in a.topics]
    assert SPEND_COFFERS in topics and OVERPAY in topics


def test_strategy_key_errors(library, tmp_path):
    with pytest.raises(CompileError) as info:
        strategy(library, tmp_path, "name: Bad\nbuy: [Silver]\ncoffers: spend-to-rech 8\n"
                 "overpay: some\n")
    found = {(d.code, d.line, d.column) for d in info.value.diagnostics}
    assert found == {("K104", 3, 10), ("K104", 4, 10)}
    ok = strategy(library, tmp_path, "name: Ok\nbuy: [Silver]\ncoffers: spend-to-reach 8, 6\n"
                  "overpay: auto\n")
    assert ok.coffers == (8, 6) and ok.overpay is None
