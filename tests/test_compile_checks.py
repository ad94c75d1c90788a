"""Cards that compiled but could not be played (a crash, a hang or a silent empty pile in a
game) are compile errors K303-K310, each at the fault and saying the limit it broke."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.compiler.checks import BONUS_LIMIT, PILE_LIMIT, REPEAT_LIMIT

from kingdom.cli.main import main

UNPLAYABLE = Path(__file__).parent / "unplayable"

EXPECTED = {  # file: (code, line, column, message)
    "duplicate-option.yaml": ("K303", 5, 8, "the choice offers '+1 Buy' twice"),
    "per-zero.yaml": ("K304", 5, 5, "'per 0' divides by zero"),
    "per-zero-cost.yaml": ("K304", 5, 30, "'per 0' divides by zero"),
    "per-zero-round-down.yaml": ("K304", 5, 8, "'per 0' divides by zero"),
    "split-unknown-member.yaml": ("K305", 6, 20, "unknown card 'Smithee' in split pile"),
    "split-itself.yaml": ("K306", 6, 20, "'Ouroboros' is a split pile, not a card"),
    "split-no-members.yaml": ("K307", 2, 7, "split pile 'No Members' has no members"),
    "huge-pile.yaml": ("K308", 5, 12, f"over the limit of {PILE_LIMIT} cards in a pile"),
    "split-huge.yaml": ("K308", 7, 9, f"2,000,000,000 cards, over the limit of {PILE_LIMIT}"),
    "repeat-forever.yaml": ("K309", 7, 6, f"999,999,999 times; the limit is {REPEAT_LIMIT}"),
    "nested-repeats.yaml": ("K309", 6, 3, f"400 times; the limit is {REPEAT_LIMIT}"),
    "huge-bonus.yaml": ("K311", 5, 17, f"'+999999999 Coffers' is over the limit of +{BONUS_LIMIT}"),
    "play-this-again.yaml": ("K312", 5, 17, "a card cannot play itself while it is being played"),
    "play-this-to-gain.yaml": ("K312", 5, 16, "'play this': a card cannot play itself"),
    "play-again-unplayed.yaml": ("K313", 5, 48, "'again' replays a card this effect played"),
    "bane-in-play.yaml": ("K310", 5, 17, "is a setup rule: it can only run before the game"),
    "pile-on-gain.yaml": ("K310", 7, 26, "is a setup rule"),
}


@pytest.fixture(scope="module")
def report() -> str:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["check", str(UNPLAYABLE)]) == 1
    return err.getvalue()


def test_every_file_is_refused_and_nothing_else(report: str) -> None:
    assert "Traceback" not in report
    assert f"{len(EXPECTED)} error(s)" in report


@pytest.mark.parametrize("file", sorted(EXPECTED))
def test_one_error_at_the_fault(report: str, file: str) -> None:
    code, line, column, message = EXPECTED[file]
    found = re.findall(rf"{re.escape(file)}:(\d+):(\d+): error\[(K\d+)\]: (.*)", report)
    assert len(found) == 1, report
    got_line, got_column, got_code, got_message = found[0]
    assert (got_code, int(got_line), int(got_column)) == (code, line, column), found[0]
    assert message in got_message


def test_refused_split_piles_are_not_in_the_library() -> None:
    library, diagnostics = compile_folders([BUILTIN_CARDS, UNPLAYABLE], strict=False)
    assert diagnostics
    assert not {"Misspelt Split", "Ouroboros", "No Members", "Huge Split"} & set(library.split_piles)
    assert "Odysseys" in library.split_piles


def test_a_split_pile_whose_member_failed_to_compile_is_left_out(tmp_path: Path) -> None:
    (tmp_path / "pair.yaml").write_text(
        "dsl: 1\nname: Twin Set\nkind: split-pile\ncost: {coins: 3, special: true}\n"
        "types: [Action]\nmembers: [Village, Broken]\n")
    (tmp_path / "broken.yaml").write_text(
        "dsl: 1\nname: Broken\ncost: 3\ntypes: [Action]\nplay: +1 card; gain a Silvr\n")
    library, diagnostics = compile_folders([BUILTIN_CARDS, tmp_path], strict=False)
    assert [d.code for d in diagnostics] == ["K300"]  # the member's own error, once
    assert "Twin Set" not in library.split_piles


def test_repeats_within_the_limit_compile(tmp_path: Path) -> None:
    (tmp_path / "drill.yaml").write_text(
        "dsl: 1\nname: Drill\ncost: 3\ntypes: [Action]\nplay:\n  - \"repeat 10\":\n"
        "    - \"repeat 10: +1 card\"\n  - \"repeat the number of cards in your hand: +1 buy\"\n")
    library, diagnostics = compile_folders([BUILTIN_CARDS, tmp_path], strict=False)
    assert not diagnostics and "Drill" in library
