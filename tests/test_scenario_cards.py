"""`kingdom test --cards`, scenarios dealing cards that are not in the Kingdom, and folders where
one card file does not compile (h-tools, designer trial 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingdom.cli import main

# A while-in-play ability below the line (original card).
WARDEN = """\
dsl: 1
name: Hedge Warden
cost: 5
types: [Action]
play:
  - +1 card
  - +1 action
triggers:
  - "while this is in play, when you gain a Victory card: +1 vp"
"""
BROKEN = """\
dsl: 1
name: Shaky Barge
cost: 5
types: [Action]
play:
  - "either now or later: +3 cards"
"""
# Hedge Warden is dealt into the hand and played, but it is not in `kingdom:`.
SCENARIOS = """\
- name: the warden's ability listens though its pile is not in the Kingdom
  setup:
    p1: {hand: [Hedge Warden], deck: [Copper], coins: 2}
  steps:
    - play: Hedge Warden
    - buy: Estate
  expect:
    p1: {vp_tokens: 1}
- name: a broken card fails its scenario alone
  setup:
    p1: {hand: [Shaky Barge]}
  steps:
    - play: Shaky Barge
"""


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "hedge-warden.yaml").write_text(WARDEN)
    (folder / "shaky-barge.yaml").write_text(BROKEN)
    return folder


def test_test_takes_card_folders_and_a_broken_card_fails_only_its_scenario(
        cards: Path, tmp_path: Path, capsys) -> None:
    scenarios = tmp_path / "scenarios.yaml"
    scenarios.write_text(SCENARIOS)
    assert main(["test", "--cards", str(cards), str(scenarios)]) == 1
    out, err = capsys.readouterr()
    assert "pass  " in out and "the warden's ability listens" in out
    failure = out[out.index("FAIL"):]
    assert "error[K510]: card 'Shaky Barge' did not compile" in failure
    assert "shaky-barge.yaml:6:6: error[K201]: unknown primitive 'either'" in failure
    assert "1 passed, 1 failed" in out
    assert "warning[K201]" in err and "1 card file(s) did not compile" in err


def test_show_a_card_beside_a_broken_one(cards: Path, capsys) -> None:
    assert main(["show", "hedge warden", "--cards", str(cards)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Hedge Warden  ($5)  Action")
    assert "shaky-barge.yaml:6:6: warning[K201]" in err and "Traceback" not in err
    assert main(["show", "Shaky Barge", "--cards", str(cards)]) == 1
    err = capsys.readouterr().err
    assert "Shaky Barge did not compile" in err and "shaky-barge.yaml" in err
