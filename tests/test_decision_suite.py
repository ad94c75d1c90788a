"""The decision-situation suite (tests/scenarios/decisions): each situation is answered by the
generic bot (`bot:`), says why its outcome is the one right answer (`why:`), and plays a card
through a real game; the suite covers the cards it lists."""

from __future__ import annotations

from pathlib import Path

from kingdom.compiler.build import builtin_library

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


# Shipped cards that ask a decision with no situation yet (the list only shrinks)
NOT_YET = {"City-state", "Forest Dwellers", "Trappers' Lodge", "Woodworkers' Guild"}


def asks_a_decision(d) -> bool:
    """A card with an optional ability, a Reaction or a choice: a "you may", "choose", "unless"
    or a pick of cards in its compiled tree."""
    if d.has_type("Reaction"):
        return True
    for part in (getattr(d.tree, "play", None), getattr(d.tree, "triggers", None)):
        for node in part.walk() if hasattr(part, "walk") else ():
            selection = getattr(node, "selection", None)
            if type(node).__name__ in ("MayStep", "Choose", "Unless") or (
                    getattr(selection, "kind", None) == "pick"):
                return True
    return False


def test_every_shipped_card_that_asks_has_a_situation():
    library = builtin_library()
    covered = set()
    for scenario in situations():
        spec = scenario.spec
        for step in spec.get("steps") or []:
            names = step.get("play", [])
            covered.update([names] if isinstance(names, str) else names)
        covered.add(spec.get("ally"))
        for player in ("p1", "p2"):  # a Reaction, or a Treasure played in the Buy phase
            covered.update(((spec.get("setup") or {}).get(player) or {}).get("hand") or [])
    asking = {d.name for d in library if asks_a_decision(d)}
    assert len(asking) >= 100
    assert sorted(asking - covered - NOT_YET) == []  # a new card asking: give it a situation
    assert sorted(NOT_YET & covered) == []  # covered now: take it off NOT_YET
    assert len(asking & covered) >= 80


def test_no_bot_reads_a_prompt():
    """Bots answer by the decision's topic fields, never by its words."""
    lab = Path(__file__).parent.parent / "kingdom" / "lab"
    readers = [p.name for p in lab.glob("*.py") if ".prompt" in p.read_text()]
    assert readers == []
