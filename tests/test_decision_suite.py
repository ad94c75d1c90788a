"""The decision-situation suite (tests/scenarios/decisions): each situation is answered by the
generic bot (`bot:`), says why its outcome is the one right answer (`why:`), and plays a card
through a real game; the suite covers the cards it lists."""

from __future__ import annotations

from pathlib import Path

from kingdom.scenarios.check import load_file

SUITE = Path(__file__).parent / "scenarios" / "decisions"


def situations() -> list:
    found = []
    for file in sorted(SUITE.glob("*.yaml")):
        scenarios, problems = load_file(file)
        assert not problems, problems
        found.extend(scenarios)
    return found


def test_every_situation_is_the_bots_with_a_reason():
    found = situations()
    assert len(found) >= 30
    for scenario in found:
        assert scenario.spec.get("bot") and scenario.spec.get("why"), scenario.name
        assert not any("answers" in step for step in scenario.spec.get("steps") or []), scenario.name


def test_the_suite_covers_these_cards():
    played = set()
    for scenario in situations():
        for step in scenario.spec.get("steps") or []:
            names = step.get("play", [])
            played.update([names] if isinstance(names, str) else names)
        for player in ("p1", "p2"):
            hand = ((scenario.spec.get("setup") or {}).get(player) or {}).get("hand") or []
            played.update(n for n in hand if n in ("Moat", "Diplomat"))
    assert played >= {"Cellar", "Harbinger", "Militia", "Moat", "Chapel", "Moneylender", "Mine",
                      "Remodel", "Vassal", "Throne Room", "Library", "Bandit", "Poacher",
                      "Sentry", "Artisan", "Mill", "Baron", "Pawn", "Nobles", "Steward",
                      "Minion", "Courtyard", "Masquerade", "Torturer", "Trading Post",
                      "Diplomat"}


def test_no_bot_reads_a_prompt():
    """Bots answer by the decision's topic fields, never by its words."""
    lab = Path(__file__).parent.parent / "kingdom" / "lab"
    readers = [p.name for p in lab.glob("*.py") if ".prompt" in p.read_text()]
    assert readers == []
