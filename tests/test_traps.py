"""Phrasings that used to compile and play differently from their text are now compile errors
pointing at the word, with a hint listing what to write instead (compiler.references and
Ability.place)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from kingdom.compiler.references import REFERENCES

from kingdom.cli.main import main

CARD = "dsl: 1\nname: Trap\ncost: 3\ntypes: [Action]\n"

CASES = {
    "unplaced-trigger": (
        "play: +1 card\ntriggers:\n  - 'when you gain a card: +$1'\n",
        "K320", 7, 6, "'in games using this, when you gain a card: ...'"),
    "ambiguous-it": (
        "play: trash a card from your hand; gain a card costing exactly $1 more than it; "
        "gain a card costing exactly $1 less than it\n",
        "K321", 5, 122, "say 'the trashed card' or 'the gained card'"),
    "unbound-it": ("play: trash it\n", "K301", 5, 13, "no earlier step"),
    "unbound-them": ("play: +1 card; put them onto your deck\n", "K301", 5, 20, "no earlier step"),
    "unbound-participle": ("play: +1 card; gain a card costing up to the trashed card\n",
                           "K301", 5, 42, "nothing is bound here yet"),
    "plural-cost": (
        "play: trash 2 cards from your hand; gain a card costing exactly the trashed cards\n",
        "K322", 5, 65, "'the total cost of the trashed cards'"),
    "game-wide-this": (
        "play: +1 card\ntriggers:\n  - 'in games using this, when you gain a card: you may "
        "reveal this for +$1'\n",
        "K323", 7, 64, "'while this is in play, when you ...'"),
    # Reactions in hand (h-react)
    "reaction-to-itself": (
        "play: +1 card\ntriggers:\n  - 'when you gain this, you may reveal this from your "
        "hand: +1 card'\n", "K350", 7, 6, "answers another card's event"),
    "reaction-doing-nothing": (
        "play: +1 card\ntriggers:\n  - when you gain a card, you may reveal this from your hand\n",
        "K351", 7, 5, "say what it is for"),
    "reaction-first-not-attack": (
        "play: +1 card\ntriggers:\n  - 'when you gain a card, you may first reveal this from "
        "your hand: +1 card'\n", "K352", 7, 6, "drop 'first'"),
    "reaction-in-play-section": (
        "play: 'this turn, when another player plays an Attack, you may first reveal this from "
        "your hand: +1 card'\n", "K353", 5, 8, "an item of `triggers:`"),
    # the cards leaving play are known only at the start of Clean-up (a Foundry design)
    "leaving-play-outside-cleanup": (
        "play: +1 card\ntriggers:\n  - 'when you discard this from play: you may put an Action "
        "card you would discard from play this turn onto your deck'\n", "K355", 7, 54,
        "'at the start of clean-up: ...'"),
    "ability-in-play": (
        "play:\n  - +1 card\n  - 'when you gain this: +1 vp'\n",
        "K375", 7, 6, "its own item of 'triggers:'"),
    "start-of-turn-in-play": (
        "play:\n  - +1 card\n  - 'at the start of your turn: +1 card'\n", "K375", 7, 6,
        "'this turn, when you ...'"),
    "in-play-ability-nested": (
        "play:\n  - choose one:\n    - +1 card\n"
        "    - 'while this is in play, when you gain a card: +$1'\n",
        "K375", 8, 8, "as an item of 'play:' itself"),
    # h-gaps2
    "exchange-for-a-type": (
        "play: gain a Silver; exchange it for a Treasure\n", "K380", 5, 22,
        "'exchange the card for a Silver'"),
}


def check(tmp_path: Path, body: str) -> tuple[int, str]:
    (tmp_path / "trap.yaml").write_text(CARD + body)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["check", str(tmp_path)])
    return status, err.getvalue()


@pytest.mark.parametrize("case", sorted(CASES))
def test_trap_is_a_positioned_error_with_a_hint(tmp_path: Path, case: str) -> None:
    body, code, line, column, hint = CASES[case]
    status, report = check(tmp_path, body)
    assert status == 1, report
    found = re.findall(rf"trap\.yaml:(\d+):(\d+): error\[{code}\]", report)
    assert found == [(str(line), str(column))], report
    assert hint in report


def test_naming_the_card_settles_it(tmp_path: Path) -> None:
    """Replace's wording: 'the gained card' names which card the next 'it' is."""
    status, report = check(tmp_path, (
        "play:\n  - trash a card from your hand; gain a card costing up to $2 more than it\n"
        "  - 'if the gained card is an Action: put it onto your deck'\n"))
    assert status == 0, report


def test_placed_triggers_compile(tmp_path: Path) -> None:
    status, report = check(tmp_path, (
        "triggers:\n  - 'while this is in play, when you gain a card: +$1'\n"
        "  - 'in games using this, when you trash a card: +1 coffers'\n"))
    assert status == 0, report


def test_the_reference_table_covers_every_reference() -> None:
    text = " ".join(f"{step} {meaning}" for step, meaning in REFERENCES)
    for word in ("it", "them", "those cards", "the trashed", "the other one", "in it",
                 "the rest"):
        assert word in text
