"""Scenario keys of issue 22 that a passing scenario file cannot show failing: an answer
expected to be refused that is accepted, or refused for another reason, fails the scenario."""

from __future__ import annotations

from pathlib import Path

from kingdom.scenarios.runner import run_scenario

HERE = Path(__file__).parent


def _pawn(refused: dict) -> dict:
    return {
        "name": "Pawn",
        "setup": {"p1": {"hand": ["Pawn"], "deck": ["Silver"]}},
        "steps": [{"play": "Pawn", "answers": ["+1 Card", refused, "+$1"]}],
    }


def test_an_answer_expected_to_be_refused_that_is_accepted_fails() -> None:
    outcome = run_scenario(_pawn({"refused": "+1 Action"}), HERE)
    assert not outcome.passed
    assert "accepted, expected it to be refused" in outcome.message


def test_an_answer_refused_with_another_message_fails() -> None:
    outcome = run_scenario(_pawn({"refused": "+1 Card", "error": "too many"}), HERE)
    assert not outcome.passed
    assert "expected a message containing 'too many'" in outcome.message


def test_an_answer_refused_as_expected_passes() -> None:
    assert run_scenario(_pawn({"refused": "+1 Card"}), HERE).passed
