"""Villagers in a whole turn: the Action phase offers spending them (topic "spend_villagers") only
when no Action is left and an Action card waits in hand; the generic bot spends one then, and
the narrator says each one spent."""

from __future__ import annotations

from pathlib import Path

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.runtime.setup import standard_game
from kingdom.runtime.stepwise import Session
from kingdom.runtime.tokens import VILLAGERS

from kingdom.lab.bots import DefaultAgent
from kingdom.lab.strategy import load_strategy
from kingdom.print import render
from kingdom.print.selection import select_kingdom
from kingdom.table.narrate import Narrator

SPEND_VILLAGERS = VILLAGERS.topic
DSL_CARDS = Path(__file__).parent / "dsl-cards"


@pytest.fixture(scope="module")
def library():
    library, _ = compile_folders([BUILTIN_CARDS / "base", DSL_CARDS], strict=False)
    return library


class Asked(DefaultAgent):
    """The generic bot, keeping the topics of the decisions it is asked."""

    def __init__(self) -> None:
        super().__init__()
        self.topics: list[str | None] = []

    def decide(self, decision):
        self.topics.append(decision.topic)
        return super().decide(decision)


def one_turn(library, hand: list[str], villagers: int):
    """The first player's turn with `hand` (a deck of Coppers to draw) and `villagers`."""
    agent = Asked()
    game = standard_game(library, ["Village", "Smithy", "Lane Drovers"], [agent, DefaultAgent()],
                         seed=5)
    player = game.players[0]
    player.hand = game.new_cards([library[name] for name in hand])
    player.deck = game.new_cards([library["Copper"]] * 10)
    player.villagers = villagers
    narrator = Narrator().attach(game)
    game.take_turn()
    return agent, player, narrator


def played(narrator: Narrator) -> list[str]:
    """The Action cards the narrator saw played, in order."""
    return [line.phrase.removeprefix("plays ").rstrip(".") for line in narrator.lines
            if line.kind == "play" and line.phrase in ("plays Smithy.", "plays Village.")]


def test_out_of_actions_the_bot_spends_one_villager_to_play_on(library):
    agent, player, narrator = one_turn(library, ["Smithy", "Smithy"], 2)
    assert played(narrator) == ["Smithy", "Smithy"]
    assert player.villagers == 1
    assert agent.topics.count(SPEND_VILLAGERS) == 1  # not again: no Action card left to play
    said = [line.text for line in narrator.lines]
    assert any("spends 1 Villager for 1 Action, and now has 1 Villager." in text for text in said), said


def test_no_offer_while_actions_are_left(library):
    agent, player, narrator = one_turn(library, ["Village", "Smithy"], 2)
    assert played(narrator) == ["Village", "Smithy"]
    assert player.villagers == 2
    assert SPEND_VILLAGERS not in agent.topics


def test_no_offer_without_villagers(library):
    agent, _player, narrator = one_turn(library, ["Smithy", "Smithy"], 0)
    assert played(narrator) == ["Smithy"]
    assert SPEND_VILLAGERS not in agent.topics


def test_rule_summary_explains_villagers(library):
    selection = select_kingdom(library, ["Lane Drovers", "Village"], None)
    summary = render.build_summary(library, selection, plain=False, paper="a4", rulings={})
    notes = [note for note in summary.setup if note.title == "Villagers"]
    assert len(notes) == 1 and "+1 Action" in notes[0].text and "Lane Drovers" in notes[0].text


def test_session_asks_a_person_to_spend_villagers(library):
    """The step-wise Session hands the decision over as plain data, its topic named."""
    session = Session()
    game = standard_game(library, ["Village", "Smithy"], [session.seat(), DefaultAgent()], seed=5)
    player = game.players[0]
    player.hand = game.new_cards([library["Smithy"]] * 2)
    player.deck = game.new_cards([library["Copper"]] * 10)
    player.villagers = 1
    try:
        session.start(game)
        assert session.pending().kind == "play"
        session.answer("Smithy")
        asked = session.pending()
        assert (asked.kind, asked.topic, asked.options) == ("number", SPEND_VILLAGERS, (0, 1))
        assert asked.view.players[0].villagers == 1
        session.answer(1)
        assert session.pending().kind == "play"  # the Villager's Action plays the second Smithy
        session.answer("Smithy")
        assert session.view("p1").players[0].villagers == 0
    finally:
        session.close()


@pytest.mark.parametrize(("plays", "spent"), [("[Smithy, Village]", 1), ("[Smithy]", 0)])
def test_strategy_spends_a_villager_only_for_a_card_it_plays(library, tmp_path, plays, spent):
    file = tmp_path / "bot.yaml"
    file.write_text(f"name: Picky\nbuy: [Silver]\nplay: {plays}\nplay_others: false\n")
    agent = load_strategy(file, library).agent()
    game = standard_game(library, ["Village", "Smithy"], [agent, DefaultAgent()], seed=5)
    player = game.players[0]
    player.hand = game.new_cards([library["Smithy"], library["Village"]])
    player.deck = game.new_cards([library["Copper"]] * 10)
    player.villagers = 2  # Smithy takes the one Action: then Village waits
    game.take_turn()
    assert player.villagers == 2 - spent
