"""One meaning for one text, in any layout: a block written on one line (`head: A and B`) is
the same statement as the block nested under its head, and fails with the same error."""

from __future__ import annotations

from pathlib import Path

import pytest
from kingdom.compiler.build import BUILTIN_CARDS, compile_folders
from kingdom.compiler.nodes import Node

CARD = "dsl: 1\nname: Trial\ncost: 3\ntypes: [Action]\nplay:\n"
PLACES = {"line", "column", "item_path"}  # where a node was written, not what it means


def _shape(value) -> object:
    """A node tree as plain data, without positions: equal for equal meanings."""
    if isinstance(value, Node):
        return (type(value).__name__,
                {k: _shape(v) for k, v in sorted(vars(value).items()) if k not in PLACES})
    if isinstance(value, (list, tuple)):
        return [_shape(v) for v in value]
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    return value


def _compile(tmp_path: Path, play: str):
    folder = tmp_path / str(len(list(tmp_path.iterdir())))
    folder.mkdir()
    (folder / "trial.yaml").write_text(CARD + play)
    library, diagnostics = compile_folders([BUILTIN_CARDS, folder], strict=False)
    return library, diagnostics


def _statement(tmp_path: Path, play: str):
    """(the tree of the card's last statement, its rendered text)."""
    library, diagnostics = _compile(tmp_path, play)
    assert not diagnostics, [f"{d.line}:{d.column} {d.message}" for d in diagnostics]
    card = library["Trial"]
    return _shape(card.tree.play.lines[-1]), card.text.splitlines()[-1]


LAYOUTS = {  # one line, nested
    "and": ("  - discard a card\n  - 'if you did: +1 card and +1 action'\n",
            "  - discard a card\n  - if you did:\n    - +1 card and +1 action\n"),
    "comma then": ("  - discard a card\n  - 'if you did: +1 card, then discard a card'\n",
                   "  - discard a card\n  - if you did:\n    - +1 card, then discard a card\n"),
    "then": ("  - discard a card\n  - 'if you did: gain a Silver then gain a Gold'\n",
             "  - discard a card\n  - if you did:\n    - gain a Silver then gain a Gold\n"),
    "may to choose": (
        "  - 'you may discard a card to choose one: +1 card | +1 action'\n",
        "  - you may discard a card to:\n    - 'choose one: +1 card | +1 action'\n"),
    "may to choose, the head nested": (
        "  - 'you may discard a card to choose one: +1 card | +1 action'\n",
        "  - you may discard a card to choose one: +1 card | +1 action\n"),
    "may to: choose": (
        "  - 'you may discard a card to: choose one: +1 card | +1 action'\n",
        "  - you may discard a card to:\n    - 'choose one: +1 card | +1 action'\n"),
    "options as a mapping": ("  - 'choose one: +1 card | +1 action'\n",
                             "  - choose one: +1 card | +1 action\n"),
    "a head in the block": (
        "  - 'repeat 2: discard a card; if you did: +1 card and +1 action'\n",
        "  - repeat 2:\n    - discard a card; if you did: +1 card and +1 action\n"),
    # h-fixes: ", then" after a card name (a comma there could also start "gain a card, costing")
    "comma then after a card name": (
        "  - discard a card\n  - 'if you did: gain a Silver, then gain a Gold'\n",
        "  - discard a card\n  - if you did:\n    - gain a Silver, then gain a Gold\n"),
    "options of one step": ("  - 'choose one: +1 card | +1 action'\n",
                            "  - choose one:\n    - +1 card\n    - +1 action\n"),
    "options of two steps": (
        "  - 'choose one: +1 card and +1 action | gain a Silver, then +1 card'\n",
        "  - choose one:\n    - +1 card and +1 action\n    - gain a Silver, then +1 card\n"),
    "an option the player may decline": (
        "  - 'choose one: you may trash a card from your hand | +2 cards'\n",
        "  - choose one:\n    - you may trash a card from your hand\n    - +2 cards\n"),
    "a one-option choice": ("  - 'choose one: gain a Silver, then +1 card'\n",
                            "  - choose one:\n    - gain a Silver, then +1 card\n"),
}


@pytest.mark.parametrize("name", LAYOUTS)
def test_one_line_and_nested_mean_the_same(tmp_path: Path, name: str) -> None:
    one_line, nested = LAYOUTS[name]
    assert _statement(tmp_path, one_line)[0] == _statement(tmp_path, nested)[0]


def test_an_inline_otherwise_is_the_if_and_otherwise_statements(tmp_path: Path) -> None:
    """(h-gaps2) "if X: A, otherwise B" on one line is `if X: A` then `otherwise: B`, printed
    as one sentence."""
    one_line = "  - 'discard a card; if you did: +1 card, otherwise +1 action'\n"
    nested = "  - - discard a card\n    - 'if you did: +1 card'\n    - 'otherwise: +1 action'\n"
    trees = []
    for play in (one_line, nested):
        library, diagnostics = _compile(tmp_path, play)
        assert not diagnostics
        trees.append(library["Trial"].tree.play.statements)
    assert trees[0] == trees[1]
    assert library["Trial"].text.endswith("If you did, +1 Card. Otherwise, +1 Action.")
    one = _compile(tmp_path, one_line)[0]["Trial"]
    assert one.text.endswith("If you did, +1 Card, otherwise +1 Action.")
    _, diagnostics = _compile(tmp_path, "  - 'choose one: +1 card, otherwise +1 action'\n")
    assert diagnostics


@pytest.mark.parametrize("play, text, verbs", [
    ("  - gain a Silver and a Gold\n", "Gain a Silver and a Gold.", ["Gain", "Gain"]),
    ("  - gain a Silver and gain a Gold\n", "Gain a Silver and gain a Gold.", ["Gain", "Gain"]),
    ("  - gain a Silver and +1 action\n", "Gain a Silver and +1 Action.", ["Gain", "Bonus"]),
    ("  - 'discard a card; and gain a Silver'\n", "Discard a card and gain a Silver.", None),
])
def test_gain_a_and_b_is_two_gains_and_leaves_other_and_chains(tmp_path: Path, play: str,
                                                                text: str, verbs) -> None:
    """(h-gaps2) "gain A and B": the verb said once; an "and" before a step is a chain."""
    library, diagnostics = _compile(tmp_path, play)
    assert not diagnostics
    card = library["Trial"]
    assert card.text.splitlines()[-1] == text
    if verbs is not None:
        [sequence] = card.tree.play.statements
        assert [type(s).__name__ for s in sequence.steps] == verbs


@pytest.mark.parametrize("second, joined", [
    ("    - 'if it is a Victory card: +$2'\n", ". If"),
    ("    - if it is a Victory card:\n      - +$2\n", "; if"),
    ("    - - 'if it is a Treasure: +$1'\n      - 'if it is a Victory card: +$2'\n", "; if"),
])
def test_two_ifs_print_as_their_items_are_written(tmp_path: Path, second: str,
                                                 joined: str) -> None:
    """(h-gaps2) an "if" written as its own string item of a line is its own sentence; one
    nested under its head (Replace) or in a list of one sentence continues with "; if"."""
    first = "    - 'if it is a Treasure: +$1'\n" if not second.startswith("    - -") else ""
    play = "  - - reveal the top card of your deck\n" + first + second
    library, diagnostics = _compile(tmp_path, play)
    assert not diagnostics
    assert f"+$1{joined} it's a Victory card, +$2." in library["Trial"].text


@pytest.mark.parametrize("play, text", [
    ("  - gain two Silvers or a Gold\n", "Gain two Silvers or a Gold."),
    ("  - gain 2 Silvers or a Gold\n", "Gain 2 Silvers or a Gold."),
    ("  - gain an Action or Victory card\n", "Gain an Action or Victory card."),
    ("  - gain two Silvers\n", "Gain two Silvers."),
])
def test_gain_a_or_b_and_counts_print_as_written(tmp_path: Path, play: str, text: str) -> None:
    """(h-gaps2) "gain A or B" is a choice of one gain; "A or B card" stays one description."""
    library, diagnostics = _compile(tmp_path, play)
    assert not diagnostics
    assert library["Trial"].text.splitlines()[-1] == text


def test_the_one_line_block_renders_as_the_nested_one(tmp_path: Path) -> None:
    one_line, nested = LAYOUTS["and"]
    assert _statement(tmp_path, one_line)[1] == "If you did, +1 Card and +1 Action."
    assert _statement(tmp_path, nested)[1] == "If you did, +1 Card and +1 Action."


def test_a_shape_differs_when_the_meaning_does(tmp_path: Path) -> None:
    """(the comparison above can fail)"""
    assert (_statement(tmp_path, "  - 'if you did: +1 card and +1 action'\n")[0]
            != _statement(tmp_path, "  - 'if you did: +1 card and +1 buy'\n")[0])


@pytest.mark.parametrize("play, column, word", [
    ("  - 'discard a card; if you did: +1 card and +1 acton'\n", 49, "acton"),
    ("  - choose one: +1 card | +1 acton\n", 30, "acton"),
    ("  - 'discard a card; if you dd: +1 card'\n", 29, "dd"),
])
def test_an_error_in_a_one_line_block_is_at_the_word(tmp_path: Path, play: str, column: int,
                                                     word: str) -> None:
    _, diagnostics = _compile(tmp_path, play)
    assert [(d.line, d.column) for d in diagnostics] == [(6, column)]
    assert f"'{word}'" in diagnostics[0].message


def test_a_step_nested_as_a_head_says_it_takes_no_block(tmp_path: Path) -> None:
    _, diagnostics = _compile(tmp_path, "  - gain a Silver:\n    - +1 card\n")
    [error] = diagnostics
    assert (error.line, error.column) == (6, 5)
    assert error.hint.startswith("'gain a Silver' is a step, not a head")


def test_two_heads_on_an_unquoted_line_say_to_quote_or_nest(tmp_path: Path) -> None:
    _, diagnostics = _compile(tmp_path, "  - if you did: choose one: +1 card | +1 action\n")
    [error] = diagnostics
    assert error.code == "K100"
    assert "only when quoted; or nest the second head under the first" in error.hint
    quoted = "  - 'if you did: choose one: +1 card | +1 action'\n"
    nested = "  - if you did:\n    - 'choose one: +1 card | +1 action'\n"
    assert _statement(tmp_path, quoted)[0] == _statement(tmp_path, nested)[0]


@pytest.mark.parametrize("play, text", [
    ("  - gain a Silver, then gain a Gold\n", "Gain a Silver, then gain a Gold."),
    ("  - 'choose one: gain a Silver, then +1 card | +1 action'\n",
     "Choose one: Gain a Silver, then +1 Card; or +1 Action."),
    ("  - 'each other player: choose one: draw a card, then discard a card | gain a Curse'\n",
     "Each other player either draws a card, then discards a card or gains a Curse, "
     "their choice."),
    ("  - gain a card, costing up to $4\n", "Gain a card, costing up to $4."),
])
def test_comma_then_after_a_card_name_prints_as_written(tmp_path: Path, play: str,
                                                          text: str) -> None:
    """", then" after a name is the next step, a comma alone still starts a description; an
    option's ", then" is said of "they" too."""
    assert _statement(tmp_path, play)[1] == text


def test_a_reaction_to_without_a_comma_is_the_one_with_it(tmp_path: Path) -> None:
    """(h-gaps2) "... from your hand to gain a Gold" is "..., to gain a Gold", printed as
    written."""
    trigger = "when one of your cards is trashed, you may discard this from your hand{} gain a Gold"
    cards = []
    for sep in (" to", ", to"):
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        (folder / "t.yaml").write_text(CARD.replace("play:\n", "play: +1 card\ntriggers:\n")
                                       + f"  - '{trigger.format(sep)}'\n")
        library, diagnostics = compile_folders([BUILTIN_CARDS, folder], strict=False)
        assert not diagnostics
        cards.append(library["Trial"])
    assert cards[0].tree.triggers == cards[1].tree.triggers
    assert cards[0].text.endswith("W" + trigger.format(" to")[1:] + ".")
    assert cards[1].text.endswith("W" + trigger.format(", to")[1:] + ".")
