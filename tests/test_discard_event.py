"""Discarding as an event: what a Clean-up choice offers, and what a game without such
abilities pays (nothing: no listener, no decision)."""

from pathlib import Path

import pytest

from kingdom.scenarios import ScriptedAgent, build_game, library_for, run_step
from runtime.decisions import CARDS

CARDS_DIR = Path(__file__).parent / "dsl-cards"


def _offers(monkeypatch: pytest.MonkeyPatch, asked: list) -> None:
    """Record every CARDS decision's options (by name) and decline it."""

    def decide(self, decision):
        if decision.kind == CARDS:
            asked.append(sorted(c.d.name for c in decision.options))
            return []
        raise AssertionError(decision.prompt)

    monkeypatch.setattr(ScriptedAgent, "decide", decide)


def test_a_duration_staying_in_play_is_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    game = build_game({"kingdom": ["Ruse Plotter", "Wizards"], "setup": {"p1": {
        "hand": ["Ruse Plotter", "Conjurer"], "deck": ["Copper"] * 9}}}, library_for([CARDS_DIR]))
    run_step(game, {"play": "Ruse Plotter"})
    run_step(game, {"play": "Conjurer", "answers": ["Silver"]})
    asked: list = []
    _offers(monkeypatch, asked)
    run_step(game, {"end_turn": True})
    assert asked == [["Ruse Plotter"]]
    assert [c.d.name for c in game.players[0].in_play] == ["Conjurer"]


def test_the_start_of_clean_up_offers_only_cards_leaving_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = build_game({"kingdom": ["Better Loom", "Wizards"], "setup": {"p1": {
        "hand": ["Better Loom", "Conjurer"], "deck": ["Copper"] * 9, "actions": 2}}},
        library_for([CARDS_DIR]))
    run_step(game, {"play": "Better Loom"})
    run_step(game, {"play": "Conjurer", "answers": ["Silver"]})
    asked: list = []
    _offers(monkeypatch, asked)
    run_step(game, {"end_turn": True})
    assert asked == [["Better Loom"]]


def test_without_such_abilities_clean_up_has_no_listener_and_asks_nothing() -> None:
    game = build_game({"kingdom": ["Village"], "setup": {"p1": {
        "hand": ["Village", "Copper"], "deck": ["Copper"] * 9}}}, library_for([CARDS_DIR]))
    run_step(game, {"play": "Village"})
    assert "leave_play" not in game.listeners and "cleanup" not in game.listeners
    run_step(game, {"end_turn": True})  # any decision would fail: no answers are given
    assert len(game.players[0].hand) == 5
