"""Phrasings that would print one thing and do another are compile errors with a hint naming
what is accepted (K370-K374), the accepted phrasing does what it prints, and what a designer
writes prints as plain English."""

from __future__ import annotations

from pathlib import Path

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders

CARD = "dsl: 1\nname: Trial\ncost: 3\ntypes: [Action, Duration, Attack]\nplay:\n"


def _diagnostics(tmp_path: Path, play: str):
    (tmp_path / "trial.yaml").write_text(CARD + play)
    library, diagnostics = compile_folders([BUILTIN_CARDS, tmp_path], strict=False)
    return library, diagnostics


@pytest.mark.parametrize("play, subject", [
    ("  - 'each other player: at the start of your next turn: gain a Curse'\n",
     "each other player"),
    ("  - each other player:\n    - at the start of your next turn:\n      - gain a Curse\n",
     "each other player"),
    ("  - 'each other player: gain a Curse at the start of your next turn'\n", "each other player"),
    ("  - 'each player: at the start of your next turn: +1 card'\n", "each player"),
    ("  - 'the player to your left: if you did: gain a Curse at the start of your next turn'\n",
     "the player to your left"),
])
def test_your_next_turn_inside_each_other_player_is_refused(tmp_path: Path, play: str,
                                                             subject: str) -> None:
    """It would print "at the start of their next turn" and run on yours."""
    _, diagnostics = _diagnostics(tmp_path, play)
    [error] = diagnostics
    assert error.code == "K370"
    assert f"inside '{subject}' is your next turn, not theirs" in error.message
    assert f"'at the start of your next turn: {subject}: ...'" in error.hint


def test_the_delay_written_first_is_accepted(tmp_path: Path) -> None:
    library, diagnostics = _diagnostics(
        tmp_path, "  - at the start of your next turn:\n    - each other player: gain a Curse\n")
    assert not diagnostics
    assert library["Trial"].text == "At the start of your next turn, each other player gains a Curse."


@pytest.mark.parametrize("play, text", [
    # the bonus is theirs: "and +1 Card" read as yours
    ("  - 'each other player: discard a card; +1 card'\n",
     "Each other player discards a card and gets +1 Card."),
    # "you have" said once
    ("  - 'if you have 3 or more Action cards in play: +2 cards'\n",
     "If you have 3 or more Action cards in play, +2 Cards."),
    ("  - 'if you have 2 or fewer Treasure cards you have in play: +1 card'\n",
     "If you have 2 or fewer Treasure cards in play, +1 Card."),
])
def test_a_designers_phrasing_prints_as_plain_english(tmp_path: Path, play: str,
                                                      text: str) -> None:
    library, diagnostics = _diagnostics(tmp_path, play)
    assert not diagnostics
    assert library["Trial"].text == text


def test_an_otherwise_on_the_line_of_its_if_says_where_it_goes(tmp_path: Path) -> None:
    """On one line the "if" takes the rest of the line, "otherwise" too: the hint says so."""
    _, diagnostics = _diagnostics(
        tmp_path, "  - 'discard a card; if you did: gain a Gold; otherwise: gain a Silver'\n")
    [error] = diagnostics
    assert error.code == "K302"
    assert "on a line of its own right after its 'if'" in error.hint
