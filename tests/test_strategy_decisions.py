"""A strategy file's `decisions:` overrides the generic bot's answers by topic: never, always,
or the cards to pick first; a topic that does not exist is a located error."""

from __future__ import annotations

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.compiler.errors import CompileError

from kingdom.lab.strategy import load_strategy
from kingdom.scenarios.runner import build_game
from kingdom.table import moves


@pytest.fixture(scope="module")
def library():
    library, _ = compile_folders([BUILTIN_CARDS / "base"])
    return library


def bot(library, decisions: str):
    text = f"name: Test\nbuy: [Province]\ndecisions: {decisions}\n"
    return load_strategy("test.yaml", library, text).agent()


def game_with(library, agents: dict, setup: dict, kingdom=()):
    game = build_game({"kingdom": list(kingdom), "setup": setup}, library)
    for name, agent in agents.items():
        game.players[int(name[1:]) - 1].agent = agent
    return game


def test_a_listed_discard_picks_only_those_cards(library):
    setup = {"p1": {"hand": ["Cellar", "Copper", "Copper", "Estate", "Gold"],
                    "deck": ["Silver"] * 4}}
    game = game_with(library, {"p1": bot(library, "{discard: [Copper]}")}, setup)
    moves.play(game, "Cellar")  # the generic bot would discard the Estate
    assert sorted(c.d.name for c in game.players[0].discard) == ["Copper", "Copper"]


def test_never_declines_and_the_rest_stays_generic(library):
    setup = {"p1": {"hand": ["Cellar", "Estate", "Gold"], "deck": ["Silver"] * 4}}
    game = game_with(library, {"p1": bot(library, "{discard: never}")}, setup)
    moves.play(game, "Cellar")
    assert game.players[0].discard == []
    setup = {"p1": {"hand": ["Militia"]}, "p2": {"hand": ["Moat", "Copper", "Copper",
                                                          "Copper", "Copper"]}}
    game = game_with(library, {"p2": bot(library, "{react: never}")}, setup, ["Moat"])
    moves.play(game, "Militia")
    assert len(game.players[1].hand) == 3  # not revealed; the generic bot chose the discards
    assert "Moat" in [c.d.name for c in game.players[1].hand]


def test_an_unknown_topic_is_a_located_error(library):
    with pytest.raises(CompileError) as error:
        load_strategy("test.yaml", library, "name: T\nbuy: [Province]\ndecisions: {dicard: never}\n")
    report = error.value.report()
    assert "unknown key 'dicard'" in report and "discard" in report and "test.yaml:3" in report
