"""`kingdom test --cards`, scenarios dealing cards that are not in the Kingdom, and folders where
one card file does not compile (h-tools, designer trial 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingdom.cli.main import main

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
  - "perhaps now or later: +3 cards"
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
    assert "shaky-barge.yaml:6:6: error[K201]: unknown primitive 'perhaps'" in failure
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


SIEVE = """\
dsl: 1
name: Tidal Sieve
cost: 4
types: [Action, Duration]
play:
  - +3 cards
  - +1 action
  - "at the start of your next turn: discard 2 cards"
"""


def _sieve_scenario(answers: str, tmp_path: Path) -> Path:
    folder = tmp_path / "sieve"
    folder.mkdir(exist_ok=True)
    (folder / "tidal-sieve.yaml").write_text(SIEVE)
    scenario = tmp_path / "sieve.yaml"
    scenario.write_text(f"""\
- name: the sieve's choice at the start of p1's next turn
  expansions: [sieve]
  setup:
    p1:
      hand: [Tidal Sieve]
      deck: [Copper, Copper, Copper, Estate, Estate, Silver, Silver, Gold]
  steps:
    - play: Tidal Sieve
    - end_turn: true
    - end_turn: true
      answers: {answers}
  expect:
    p1: {{hand: [Silver, Silver, Gold], discard: {{Copper: 3, Estate: 2}}}}
""")
    return scenario


@pytest.mark.parametrize("answers", ["[[Estate, Estate]]", "{p1: [[Estate, Estate]]}"])
def test_a_list_on_an_end_turn_step_answers_whose_turn_it_becomes(answers: str, tmp_path: Path,
                                                                  capsys) -> None:
    """The list is p2's (p2's turn as the step begins); p2 is asked nothing, so p1, whose turn
    the step starts, takes it: the mapping form means the same."""
    assert main(["test", str(_sieve_scenario(answers, tmp_path))]) == 0, capsys.readouterr().out


def test_answers_of_another_player_say_how_to_write_them(tmp_path: Path, capsys) -> None:
    """Militia's discard is p2's during p1's turn: a list (p1's) does not answer it."""
    scenario = tmp_path / "militia.yaml"
    scenario.write_text("""\
- name: militia answered with a list
  setup:
    p1: {hand: [Militia]}
    p2: {hand: [Copper, Copper, Estate, Estate, Silver]}
  steps:
    - play: Militia
      answers: [[Estate, Estate]]
""")
    assert main(["test", str(scenario)]) == 1
    out = capsys.readouterr().out
    assert "decision left without an answer for p2" in out
    assert "the step's list answers p1" in out and "{p1: [...], p2: [...]}" in out


def test_failures_print_values_as_the_scenario_writes_them(tmp_path: Path, capsys) -> None:
    scenario = tmp_path / "values.yaml"
    scenario.write_text("""\
- name: an answer too many, and a hand that differs
  setup:
    p1: {hand: [Smithy], deck: [Copper, Copper, Copper]}
  steps:
    - play: Smithy
      answers: [yes]
- name: a hand that differs
  setup:
    p1: {hand: [Smithy], deck: [Copper, Copper, Copper]}
  steps:
    - play: Smithy
  expect:
    p1: {hand: [Copper, Estate]}
""")
    assert main(["test", str(scenario)]) == 1
    out = capsys.readouterr().out
    assert "step {play: Smithy, answers: [yes]}: answers left unused for p1: [yes]" in out
    assert "p1.hand: expected [Copper, Estate], got [Copper, Copper, Copper]" in out
    assert "True" not in out and "'" not in out.split("FAIL", 1)[1]


def test_a_scenario_file_in_a_card_folder_is_named_as_such(tmp_path: Path, capsys) -> None:
    (tmp_path / "smithy-tests.yaml").write_text(
        "- name: Smithy draws\n  setup: {p1: {hand: [Smithy]}}\n  steps: [{play: Smithy}]\n")
    assert main(["check", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "smithy-tests.yaml:1:1: error[K511]: this looks like a scenario file" in err
    assert "`scenarios/` subfolder" in err
