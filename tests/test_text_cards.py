"""A card written as its printed text (`text:`): the same tree as its play/triggers file, shown
back unchanged, a warning with both texts when the tree renders other words, errors at their
place in the printed text, and the printed layout's normaliser (compiler/printed.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from kingdom.compiler.card import ParsedCard, parse_card
from kingdom.compiler.parser import parse
from kingdom.compiler.printed import normalise_line, read_printed

ROOT = Path(__file__).resolve().parent.parent
HEAD = "dsl: 1\nname: Lantern Yard\ncost: 4\ntypes: [Action, Attack]\n"
PRINTED = HEAD + """text: |
  +1 Card
  +1 Action
  Each other player discards a card.
  ---
  When you gain this, +1 Buy.
"""
WRITTEN = HEAD + """play:
  - +1 card
  - +1 action
  - "each other player: discard a card"
triggers:
  - "when you gain this: +1 buy"
"""


def kingdom(*args: str | Path) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("KINGDOM_DEBUG", "KINGDOM_PATH")}
    return subprocess.run([sys.executable, "-m", "kingdom", *map(str, args)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env=environ)


def card(tmp_path: Path, text: str) -> ParsedCard | list:
    file = tmp_path / "lantern-yard.yaml"
    file.write_text(text, encoding="utf-8")
    return parse_card(file, "test")


def test_a_printed_text_compiles_to_the_tree_of_its_card_file(tmp_path):
    printed, written = card(tmp_path, PRINTED), card(tmp_path, WRITTEN)
    assert isinstance(printed, ParsedCard) and isinstance(written, ParsedCard)
    assert (printed.play, printed.triggers) == (written.play, written.triggers)
    assert printed.play is not None and len(printed.play.lines) == 3


def test_show_prints_the_text_back_unchanged_and_check_is_quiet(tmp_path):
    (tmp_path / "lantern-yard.yaml").write_text(PRINTED, encoding="utf-8")
    shown = kingdom("show", "--cards", tmp_path, "Lantern Yard")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[1:] == PRINTED.split("text: |\n")[1].replace(
        "  ", "", 1).replace("\n  ", "\n").splitlines()
    checked = kingdom("check", tmp_path)
    assert checked.returncode == 0 and "warning" not in checked.stderr, checked.stderr


def test_check_warns_with_both_texts_where_the_tree_renders_other_words(tmp_path):
    (tmp_path / "lantern-yard.yaml").write_text(
        PRINTED.replace("+1 Card\n", "+1 card\n"), encoding="utf-8")
    checked = kingdom("check", tmp_path)
    assert checked.returncode == 0
    assert "lantern-yard.yaml:5:7: warning[K130]" in checked.stderr, checked.stderr
    assert "* +1 card" in checked.stderr and "| +1 Card" in checked.stderr
    assert "  +1 Action" in checked.stderr  # (a line that is the same has no mark)


def problems_of(result: ParsedCard | list) -> list:
    return result if isinstance(result, list) else result.diagnostics


def test_an_error_in_a_printed_text_is_at_its_place(tmp_path):
    problems = problems_of(card(tmp_path, PRINTED.replace("discards a card", "discards a card at once")))
    assert problems and (problems[0].line, problems[0].column) == (8, 37), problems[0]


def test_play_beside_text_is_refused(tmp_path):
    problems = problems_of(card(tmp_path, PRINTED + "play: +1 card\n"))
    assert problems and problems[0].code == "K101"
    assert "'play:' given beside 'text:'" in problems[0].message


@pytest.mark.parametrize(("printed", "dsl"), [
    ("Gain a Gold.", "gain a Gold."),
    ("+1 Card", "+1 card"),
    ("Choose one: +2 Cards; or +$2.", "choose one: +2 cards|    +$2."),
    ("At the start of your Buy phase, +1 Favor.", "at the start of your buy phase, +1 favor."),
    ("You may trash a card. If you do, +$1.", "you may trash a card. if you do, +$1."),
])
def test_the_normaliser_changes_only_case_and_separators(printed, dsl):
    """(A sentence's stop stays: read_printed reads each sentence on its own.)"""
    normal = normalise_line(printed)
    assert normal == dsl
    assert len(normal) == len(printed)  # every column kept
    assert normalise_line(normal) == normal  # idempotent
    letters = printed.replace("; or ", ";    ")  # (the "or" of a choice's option goes)
    assert all(a.lower() == b.lower() for a, b in zip(letters, normal, strict=True)
               if a.isalnum() or b.isalnum())


def test_a_head_comma_is_read_as_its_colon_and_the_longer_reading_wins():
    assert read_printed(normalise_line("If you did, +1 Card and +1 Action.")) == parse(
        "if you did: +1 card; and +1 action")
    # a Reaction's comma is the grammar's: "reveal this from your hand, to ..." stays one phrase
    reaction = read_printed(normalise_line("When another player plays an Attack card, you may "
                                           "first reveal this from your hand, to be unaffected "
                                           "by it."))
    assert len(reaction) == 1 and type(reaction[0]).__name__ == "Ability"


TEXT_CARDS = ROOT / "tests" / "text-cards"


@pytest.mark.parametrize(("printed", "written"), [
    ("sweep-booth.yaml", "sweep-stall.yaml"), ("dawn-broom.yaml", "dawn-sweep.yaml")])
def test_a_statement_after_an_ifs_semicolon_is_the_ifs_as_printed(printed, written):
    """"If X, A; B." is how "if X: A; B" prints, so B is read into the "if" (the plays:
    tests/scenarios/dsl/if-semicolon.yaml)."""
    text, dsl = parse_card(TEXT_CARDS / printed, "test"), parse_card(TEXT_CARDS / written, "test")
    assert isinstance(text, ParsedCard) and isinstance(dsl, ParsedCard)
    assert text.play == dsl.play and len(text.play.statements) == 1
    assert len(text.play.statements[0].body.statements) == 2


def test_an_if_then_a_statement_in_one_sentence_prints_apart_from_an_ifs_two_statements(tmp_path):
    """A list in a list joins "if X: A" and "+1 buy" in one sentence; "If X, A; +1 Buy." would
    read back as both in the "if", so that tree prints the "+1 Buy" as its own sentence."""
    (tmp_path / "lantern-yard.yaml").write_text(HEAD + 'play:\n  - [["if you have 1 or more cards '
                                                'in hand: discard your hand", "+1 buy"]]\n')
    shown = kingdom("show", "--cards", tmp_path, "Lantern Yard")
    assert shown.stdout.splitlines()[1] == "If you have 1 or more cards in hand, discard your " \
                                           "hand. +1 Buy.", shown.stdout
    written = card(tmp_path, (tmp_path / "lantern-yard.yaml").read_text())
    printed = card(tmp_path, HEAD + f"text: {shown.stdout.splitlines()[1]}\n")
    assert isinstance(printed, ParsedCard) and isinstance(written, ParsedCard)
    assert printed.play == written.play and len(printed.play.statements) == 2


def test_check_warns_of_a_text_card_beside_a_broken_file_in_its_folder(tmp_path):
    (tmp_path / "lantern-yard.yaml").write_text(
        PRINTED.replace("+1 Card\n", "+1 card\n"), encoding="utf-8")
    (tmp_path / "broken-yard.yaml").write_text(
        "dsl: 1\nname: Broken Yard\ncost: 2\ntypes: [Action]\nplay: +1 cardz\n", encoding="utf-8")
    checked = kingdom("check", tmp_path)
    assert checked.returncode == 1
    assert "broken-yard.yaml:5:" in checked.stderr and "error[" in checked.stderr, checked.stderr
    assert "lantern-yard.yaml:5:7: warning[K130]" in checked.stderr, checked.stderr
    assert "* +1 card" in checked.stderr and "| +1 Card" in checked.stderr


def test_vp_printed_in_capitals_is_read_as_the_bonus_it_renders(tmp_path):
    printed = card(tmp_path, HEAD + "text: |\n  +1 Card\n  +1 Action\n  +2 VP\n")
    written = card(tmp_path, HEAD + 'play:\n  - +1 card\n  - +1 action\n  - +2 vp\n')
    assert isinstance(printed, ParsedCard) and not printed.diagnostics, problems_of(printed)
    assert isinstance(written, ParsedCard) and printed.play == written.play
    assert printed.play.render_lines() == ["+1 Card", "+1 Action", "+2 VP"]
