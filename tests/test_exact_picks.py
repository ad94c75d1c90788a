"""An optional pick of an exact count ("you may discard 2 cards") is none or all of it."""

from pathlib import Path

from kingdom.scenarios.runner import run_scenario

HERE = Path(__file__).parent / "scenarios" / "intrigue" / "mill.yaml"


def _mill(answer: list) -> tuple[bool, str]:
    spec = {"name": "Mill", "setup": {"p1": {"hand": ["Mill", "Estate", "Copper"],
                                             "deck": ["Curse"]}},
            "steps": [{"play": "Mill", "answers": [answer]}]}
    outcome = run_scenario(spec, HERE)
    return outcome.passed, outcome.message


def test_mill_refuses_discarding_one_of_several_cards() -> None:
    passed, message = _mill(["Estate"])
    assert not passed and "pick 0 or 2, not 1" in message


def test_mill_takes_none_or_two() -> None:
    assert _mill([])[0]
    assert _mill(["Estate", "Copper"])[0]
