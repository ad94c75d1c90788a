"""Every built-in card against ../shared/reference/cards.yaml: name, cost, types and text."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
import yaml

from compiler.build import builtin_library

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "cards.yaml"
LIBRARY = builtin_library()


def _reference() -> dict[str, dict]:
    if not REFERENCE.exists():
        return {}
    data = yaml.safe_load(REFERENCE.read_text(encoding="utf-8"))
    return {c["name"]: c for c in data["cards"]}


REF = _reference()
pytestmark = pytest.mark.skipif(not REF, reason="reference card data not present")


@pytest.mark.parametrize("name", sorted(c.name for c in LIBRARY))
def test_matches_reference_facts(name: str) -> None:
    card, ref = LIBRARY[name], REF.get(name)
    assert ref is not None, f"{name} is not in the reference"
    assert card.set == ref["set"]
    assert card.cost == (ref["cost"] or {}).get("coins", 0)
    assert (ref["cost"] is None) == (card.kind == "ally")  # an Ally has no cost
    assert card.overpay == bool((ref["cost"] or {}).get("overpay"))
    assert list(card.types) == ref["types"]


def similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def test_rendered_text_against_reference(capsys) -> None:
    """Reports how close each rendered text is; every card must be recognisably its card."""
    scores = {c.name: similarity(c.text, REF[c.name]["text"]) for c in LIBRARY if c.name in REF}
    identical = sum(1 for s in scores.values() if s == 1.0)
    with capsys.disabled():
        print(f"\nrules text: {identical}/{len(scores)} identical to the reference; "
              f"mean similarity {sum(scores.values()) / len(scores):.3f}")
        for name, score in sorted(scores.items(), key=lambda kv: kv[1])[:10]:
            print(f"  {score:.2f} {name}")
    assert min(scores.values()) >= 0.3, min(scores.items(), key=lambda kv: kv[1])
