"""A token kind is one declaration: a kind Dominion does not have, Embers, declared here through
the same API as Coffers (runtime/tokens), with no other edit to Kingdom, is given and spent by
cards, offered and spent in its phase, answered by the bots, narrated, set and expected by
scenarios and shown by the step-wise view and `kingdom play`; taken away again, it leaves no
trace (the grammar and its parser, the scenario format)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.compiler.grammar import grammar_text
from kingdom.compiler.parser import DSLSyntaxError, parse
from kingdom.runtime.player import Player
from kingdom.runtime.setup import standard_game
from kingdom.runtime.stepwise import Session
from kingdom.runtime.tokens import BY_KEY, Spending, TokenKind, register, unregister

from kingdom.lab.bots import DefaultAgent, RandomAgent, card_value
from kingdom.lab.strategy import load_strategy
from kingdom.print.notes import setup_notes
from kingdom.print.selection import select_kingdom
from kingdom.scenarios.check import scenario_schema
from kingdom.scenarios.runner import run_scenario
from kingdom.table.narrate import Narrator
from kingdom.table.play import status


def ember_kind() -> TokenKind:
    """Embers: "+N Embers"; any number spent in the Action or Buy phase for +$1 each, offered
    before each buy; cards may spend them ("spend an Ember")."""
    return TokenKind(
        "embers", "Ember", "Embers",
        spend=Spending(("action", "buy"), "$"),
        by_cards=True,
        value=1.0,
        mat=lambda start: "Give each player an Ember mat. Each Ember can be spent during your "
                          "turn for +$1." + (f" Each player starts with {start}." if start else ""),
    )


@contextmanager
def declared(kind: TokenKind) -> Iterator[TokenKind]:
    """`kind` declared for the block, taken away after it (what it derived is dropped too)."""
    register(kind)
    try:
        yield kind
    finally:
        unregister(kind)


CARDS = {
    "ember-forge.yaml": "dsl: 1\nname: Ember Forge\ncost: 3\ntypes: [Action]\n"
                        "play: +1 card; +2 embers\n",
    "ember-altar.yaml": "dsl: 1\nname: Ember Altar\ncost: 4\ntypes: [Action]\n"
                        "play: +1 action; you may spend an ember for +2 cards\n",
    "ember-hoard.yaml": "dsl: 1\nname: Ember Hoard\ncost: 5\ntypes: [Treasure]\n"
                        "play: +$1 per ember you have\n",
}


@pytest.fixture(scope="module")
def ember() -> Iterator[TokenKind]:
    """Embers for this module's tests; the compile cache off meanwhile, so that nothing of a
    grammar with Embers (Lark's tables, cards parsed with it) is kept in the user's cache."""
    with pytest.MonkeyPatch.context() as patch, declared(ember_kind()) as kind:
        patch.setenv("KINGDOM_NO_CACHE", "1")
        yield kind


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("embers")
    for name, text in CARDS.items():
        (folder / name).write_text(text)
    return folder


@pytest.fixture(scope="module")
def library(ember, folder):
    library, problems = compile_folders([BUILTIN_CARDS / "base", folder], strict=False)
    assert not problems, [d.message for d in problems]
    return library


def test_taking_a_kind_away_leaves_nothing_of_it(monkeypatch):
    """(First: before the module's Embers are declared, it ends with the usual grammar.)"""
    before = (grammar_text(), scenario_schema())
    cinder = TokenKind("cinders", "Cinder", "Cinders", value=0.1)
    with monkeypatch.context() as patch, declared(cinder):
        patch.setenv("KINGDOM_NO_CACHE", "1")
        assert "cinders|cinder" in grammar_text() and "cinders" in BY_KEY
        assert "cinders" in scenario_schema()["$defs"]["setupPlayer"]["properties"]
        parse("+2 cinders")
    assert (grammar_text(), scenario_schema()) == before and "cinders" not in BY_KEY
    with pytest.raises(DSLSyntaxError):
        parse("+2 cinders")
    with pytest.raises(ValueError, match="clashes"):
        register(TokenKind("coffers", "Coin", "Coins"))


class Asked(DefaultAgent):
    """The generic bot, keeping each decision's topic and the phase it was asked in."""

    def __init__(self) -> None:
        self.asked: list[tuple[str | None, str]] = []

    def decide(self, decision):
        self.asked.append((decision.topic, decision.game.phase))
        return super().decide(decision)


def game_with(library, agent, hand: list[str], embers: int):
    game = standard_game(library, ["Ember Forge", "Ember Altar", "Ember Hoard", "Village"],
                         [agent, DefaultAgent()], seed=3)
    player = game.players[0]
    player.hand = game.new_cards([library[name] for name in hand])
    player.deck = game.new_cards([library["Estate"]] * 10)
    player.embers = embers
    return game, player


def test_cards_give_spend_and_count_it_as_written(ember, library):
    texts = {name: library[name].text for name in ("Ember Forge", "Ember Altar", "Ember Hoard")}
    assert texts == {"Ember Forge": "+1 Card. +2 Embers.",
                     "Ember Altar": "+1 Action. You may spend an Ember for +2 Cards.",
                     "Ember Hoard": "+$1 per Ember you have."}, texts
    assert card_value(library["Ember Forge"]) == pytest.approx(1.2 + 2 * ember.value)


def test_a_player_keeps_a_count_of_a_kind_declared_after_player_was_imported(ember):
    assert Player(0).embers == 0


def test_the_buy_phase_offers_it_and_the_generic_bot_spends_to_reach_a_price(ember, library):
    agent = Asked()
    game, player = game_with(library, agent, ["Ember Forge", "Copper", "Copper", "Copper"], 1)
    narrator = Narrator().attach(game)
    game.take_turn()  # $3 and 3 Embers: the bot spends 3 to reach Gold's $6
    assert (ember.topic, "buy") in agent.asked and player.embers == 0
    assert [c.d.name for c in player.discard if c.d.name == "Gold"] == ["Gold"]
    said = [line.text for line in narrator.lines]
    assert "p1 gains 2 Embers, and now has 3 Embers." in said
    assert "p1 spends 3 Embers for 3 coins, and now has 0 Embers." in said


def test_no_offer_to_a_player_without_any(ember, library):
    agent = Asked()
    game, _player = game_with(library, agent, ["Copper"] * 5, 0)
    game.take_turn()
    assert ember.topic not in [topic for topic, _phase in agent.asked]


def test_the_bots_answer_its_decision(ember, library, tmp_path):
    file = tmp_path / "bot.yaml"
    for rule, spent in (("never", 0), ("all", 2), ("spend-to-reach [8]", 0), ("auto", 1)):
        file.write_text(f"name: Picky\nbuy: [Gold, Silver]\nembers: {rule}\n")
        agent = load_strategy(file, library).agent()
        game, player = game_with(library, agent, ["Copper"] * 5, 2)  # $5: 1 Ember reaches $6
        game.take_turn()
        assert player.embers == 2 - spent, rule
    game, player = game_with(library, RandomAgent(1), ["Copper"] * 5, 2)
    game.take_turn()
    assert 0 <= player.embers <= 2


def test_a_card_spends_one_when_what_it_buys_is_worth_more(ember, library):
    agent = DefaultAgent()
    game, player = game_with(library, agent, ["Ember Altar"], 1)
    player.deck = game.new_cards([library["Gold"]] * 10)
    game.take_turn()  # "you may spend an Ember for +2 Cards": two Golds beat an Ember's $1
    assert player.embers == 0
    game, player = game_with(library, agent, ["Ember Altar"], 1)
    game.take_turn()  # ... but not to draw two Estates
    assert player.embers == 1


def test_a_scenario_sets_spends_and_expects_it(ember, folder):
    spec = {
        "name": "Embers",
        "expansions": ["."],
        "kingdom": ["Ember Forge", "Ember Hoard"],
        "setup": {"p1": {"hand": ["Ember Forge", "Ember Hoard"], "deck": ["Copper"], "embers": 3}},
        "steps": [{"play": "Ember Forge"}, {"embers": 9, "error": "has 5"}, {"embers": 2},
                  {"play": "Ember Hoard"}, {"end_turn": True}, {"embers": 1, "error": "has 0"}],
        "expect": {"p1": {"embers": 3}, "p2": {"embers": 0}},
    }
    outcome = run_scenario(spec, folder / "embers.yaml")
    assert outcome.passed, outcome.message
    spec["steps"][-1] = {"end_turn": True}
    spec["expect"] = {"p1": {"embers": 4}}
    outcome = run_scenario(spec, folder / "embers.yaml")
    assert not outcome.passed and "p1.embers: expected 4, got 3" in outcome.message


def test_the_step_wise_view_and_kingdom_play_show_it(ember, library):
    session = Session()
    game = standard_game(library, ["Ember Forge"], [session.seat(), DefaultAgent()], seed=5)
    player = game.players[0]
    player.hand = game.new_cards([library["Copper"]] * 5)
    player.embers = 2
    try:
        session.start(game)
        assert session.pending().kind == "treasures"
        session.answer(["Copper"] * 5)
        asked = session.pending()
        assert (asked.kind, asked.topic, asked.options) == ("number", "spend_embers", (0, 1, 2))
        assert asked.prompt == "Spend Embers? (you have 2, and $5)"
        assert ("embers", 2) in asked.view.players[0].tokens and asked.view.players[0].embers == 2
        assert "You have 2 Embers." in status(asked, plain=True)[0]
        session.answer(1)
        assert session.view("p1").players[0].embers == 1 and session.view("p1").coins == 6
    finally:
        session.close()


def test_the_rule_sheet_sets_out_its_mat(ember, library):
    selection = select_kingdom(library, ["Ember Forge", "Village"], None)
    notes = [n for n in setup_notes(library, selection) if n.title == "Embers"]
    assert len(notes) == 1 and notes[0].text.startswith("Give each player an Ember mat")
    assert notes[0].cards == ["Ember Forge"]
