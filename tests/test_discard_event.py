"""Discarding as an event: what a Clean-up choice offers, and what a game without such
abilities pays (nothing: no listener, no decision)."""

from pathlib import Path

import pytest
from kingdom.runtime.decisions import CARDS

from kingdom.scenarios.runner import ScriptedAgent, build_game, library_for, run_step

CARDS_DIR = Path(__file__).parent / "dsl-cards"


def _offered_at_clean_up(monkeypatch: pytest.MonkeyPatch, first: str) -> list:
    """Play `first` then Conjurer (a Duration that stays in play), end the turn, and return
    the options (by name) of each card choice Clean-up asked, every one declined."""
    game = build_game({"kingdom": [first, "Wizards"], "setup": {"p1": {
        "hand": [first, "Conjurer"], "deck": ["Copper"] * 9, "actions": 2}}},
        library_for([CARDS_DIR]))
    run_step(game, {"play": first})
    run_step(game, {"play": "Conjurer", "answers": ["Silver"]})
    asked: list = []

    def decide(self, decision):
        if decision.kind == CARDS:
            asked.append(sorted(c.d.name for c in decision.options))
            return []
        raise AssertionError(decision.prompt)

    monkeypatch.setattr(ScriptedAgent, "decide", decide)
    run_step(game, {"end_turn": True})
    assert [c.d.name for c in game.players[0].in_play] == ["Conjurer"]
    return asked


def test_a_duration_staying_in_play_is_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scheme's shape: Conjurer stays in play, so it is not discarded from play."""
    assert _offered_at_clean_up(monkeypatch, "Ruse Plotter") == [["Ruse Plotter"]]


def test_the_start_of_clean_up_offers_only_cards_leaving_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Improve's shape: "an Action card you would discard from play this turn"."""
    assert _offered_at_clean_up(monkeypatch, "Better Loom") == [["Better Loom"]]


def test_without_such_abilities_clean_up_has_no_listener_and_asks_nothing() -> None:
    game = build_game({"kingdom": ["Village"], "setup": {"p1": {
        "hand": ["Village", "Copper"], "deck": ["Copper"] * 9}}}, library_for([CARDS_DIR]))
    run_step(game, {"play": "Village"})
    assert "leave_play" not in game.listeners and "cleanup" not in game.listeners
    run_step(game, {"end_turn": True})  # any decision would fail: no answers are given
    assert len(game.players[0].hand) == 5
