"""The English of ad-hoc cards: what a designer writes reads right, not only the built-in cards.

Each case is a card's `play` block (or its `triggers`) and the rules text it must print. All the
cards compile together with the built-in ones, once, as `kingdom check` compiles a folder.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
import yaml
from kingdom.compiler.build import BUILTIN_CARDS, builtin_library, compile_folders

CASES: list[tuple[object, str]] = [
    # number agreement
    ("if the number of cards in your hand >= 5: +1 card",
     "If there are 5 or more cards in your hand, +1 Card."),
    ("if the number of cards in your hand <= 1: +1 card",
     "If there are 1 or fewer cards in your hand, +1 Card."),
    ("if the number of cards in your hand == 1: +1 card",
     "If there is exactly one card in your hand, +1 Card."),
    ("if the number of cards in your hand > 3: +1 card",
     "If there are more than 3 cards in your hand, +1 Card."),
    ("if the number of cards in your hand != 3: +1 card",
     "If the number of cards in your hand is not 3, +1 Card."),
    ("if the number of Treasure cards in your hand >= 2: +$1",
     "If there are 2 or more Treasure cards in your hand, +$1."),
    ("if the number of Golds you have >= 2: +1 card", "If you have 2 or more Golds, +1 Card."),
    ("if the number of empty supply piles >= 2: +1 card",
     "If there are 2 or more empty Supply piles, +1 Card."),
    ("gain a card costing up to $4; if cost(it) >= 3: +1 card",
     "Gain a card costing up to $4. If it costs $3 or more, +1 Card."),
    ("gain a card costing up to $4; if cost(it) != 3: +1 card",
     "Gain a card costing up to $4. If it does not cost $3, +1 Card."),
    ("gain a card costing up to $4; if types(it) == 1: +1 card",
     "Gain a card costing up to $4. If it has exactly one type, +1 Card."),
    ("gain a card costing up to $4; if types(it) >= 2: +1 card",
     "Gain a card costing up to $4. If it has 2 or more types, +1 Card."),
    ("+1 card per empty supply pile", "+1 Card per empty Supply pile."),
    ("+$1 per card in your hand", "+$1 per card in your hand."),
    ("each other player: discard down to 1 card in hand",
     "Each other player discards down to 1 card in hand."),
    ("trash up to 1 card from your hand", "Trash up to 1 card from your hand."),
    ("trash up to 4 cards from your hand", "Trash up to 4 cards from your hand."),
    ("draw 1 card", "Draw a card."),
    ("discard 1 card, then draw 1 card", "Discard a card, then draw a card."),
    ("discard 1 card; gain 1 Silver", "Discard a card. Gain a Silver."),
    ("discard 2 cards, then draw 2 cards", "Discard 2 cards, then draw 2."),
    ("reveal the top 1 card of your deck", "Reveal the top card of your deck."),
    ("repeat 1: draw a card", "Do this once: Draw a card."),
    ("repeat 3: draw a card", "Do this 3 times: Draw a card."),
    ([{"repeat 2": ["draw a card then discard a card"]}],
     "Do this twice: Draw a card then discard a card."),
    # the third person under "each other player": every verb of a chain
    ([{"each other player": [["draw a card", "then discard a card"]]}],
     "Each other player draws a card and then discards a card."),
    ([{"each other player": ["draw a card then discard a card"]}],
     "Each other player draws a card then discards a card."),
    ([{"each other player": ["trash a card from your hand, then gain a card costing up to $2 "
                             "more than it"]}],
     "Each other player trashes a card from their hand, then gains a card costing up to $2 more "
     "than it."),
    ("each other player: discard a card; draw a card",
     "Each other player discards a card and draws a card."),
    ([{"each other player": ["reveal your hand", "then discard a card"]}],
     "Each other player reveals their hand. They then discard a card."),
    ([{"each other player": [{"choose one": ["draw a card then discard a card",
                                            "gain a Silver and trash a card from your hand"]}]}],
     "Each other player either draws a card then discards a card or gains a Silver and trashes "
     "a card from their hand, their choice."),
    ([{"each other player": [{"choose one": ["discard a card", "gain a Curse"]}]}],
     "Each other player either discards a card or gains a Curse, their choice."),
    ([{"each player": ["draw a card then discard a card"]}],
     "Each player (including you) draws a card then discards a card."),
    ([{"each other player": ["gain a Curse", "if you did: draw a card",
                             "otherwise: discard a card"]}],
     "Each other player gains a Curse. If they did they draw a card; otherwise they discard a "
     "card."),
    ([{"each other player": ["you may reveal a Province from your hand",
                             "if you do: draw a card"]}],
     "Each other player may reveal a Province from their hand. If they do, they draw a card."),
    ([{"each other player": [{"you may discard a card": ["+1 card"]}]}],
     "Each other player may discard a card for +1 Card."),
    ([{"each other player": [{"you may trash a card from your hand": ["gain a Silver"]}]}],
     "Each other player may trash a card from their hand to gain a Silver."),
    ([{"each other player": [{"for each Action card in your hand": ["discard it"]}]}],
     "Each other player, for each Action card in their hand, discards it."),
    ([{"each other player": ["draw a card", {"for each Treasure card in your hand": ["+$1"]}]}],
     "Each other player draws a card. For each Treasure card in their hand, they get +$1."),
    ([{"each other player": ["draw a card", "+1 buy"]}],
     "Each other player draws a card. They get +1 Buy."),
    ([{"each other player": ["draw a card", "if you have 5 or more cards in hand: +1 buy"]}],
     "Each other player draws a card. If they have 5 or more cards in hand, they get +1 Buy."),
    ([{"each other player": ["gain a Curse; if you have 5 or more cards in hand: draw a card"]}],
     "Each other player gains a Curse, and if they have 5 or more cards in hand, draws a card."),
    ([{"each other player": [{"you may trash a card from your hand": ["you may gain a Silver"]}]}],
     "Each other player may trash a card from their hand, and if they do, they may gain a "
     "Silver."),
    ([{"each other player": [{"each other player": ["gain a Curse"]}]}],
     "Each other player has each other player gain a Curse."),
    ("each other player: gain a Curse unless you discard a card",
     "Each other player gains a Curse unless they discard a card."),
    ({"play": "+1 card",
      "triggers": [{"when you gain this": [{"each other player": [
          "draw a card then discard a card"]}]}]},
     "+1 Card\n---\nWhen you gain this, each other player draws a card then discards a card."),
    # you may X: a bonus is had "for" X, a step done "to" it
    ("you may discard a card: +1 card", "You may discard a card for +1 Card."),
    ("you may discard 2 cards: +1 card; +1 action",
     "You may discard 2 cards for +1 Card and +1 Action."),
    ("you may trash a Copper from your hand: +$3",
     "You may trash a Copper from your hand for +$3."),
    ("you may spend a favor: +1 card", "You may spend a Favor for +1 Card."),
    ("you may discard a card: draw a card", "You may discard a card to draw a card."),
    ([{"you may trash a card from your hand": ["you may gain a Silver"]}],
     "You may trash a card from your hand, and if you do, you may gain a Silver."),
    ([{"you may trash a card from your hand": ["then gain a Silver"]}],
     "You may trash a card from your hand, and if you do, gain a Silver."),
    ("you may discard a card for +1 card", "You may discard a card for +1 Card."),
    ("you may trash this to gain a Silver and +1 buy",
     "You may trash this to gain a Silver and +1 Buy."),
    # choices
    ([{"choose one": ["draw a card then discard a card", "gain a Silver and +1 buy"]}],
     "Choose one: Draw a card then discard a card; or gain a Silver and +1 Buy."),
    ([{"choose two": ["+1 card", "+1 action", "+$1"]}], "Choose two: +1 Card; +1 Action; +$1."),
    ([{"repeat 2": [{"choose one": ["+1 card", "+1 action"]}]}],
     "Do this twice: Choose one: +1 Card; or +1 Action."),
    ([{"at the start of your next turn": [{"choose one": ["+2 cards", "+$2"]}]}],
     "At the start of your next turn, choose one: +2 Cards; or +$2."),
    # a choice opening a sentence capitalises its first option, as printed; inside one, not
    ([{"choose one": ["draw a card", "gain a Silver"]}],
     "Choose one: Draw a card; or gain a Silver."),
    ("+1 card; choose one: gain a Silver | trash a card from your hand",
     "+1 Card. Choose one: Gain a Silver; or trash a card from your hand."),
    ([{"at the start of your next turn": [
        "choose one: gain a Silver | trash a card from your hand"]}],
     "At the start of your next turn, choose one: gain a Silver; or trash a card from your "
     "hand."),
    ([{"repeat 2": ["choose one: gain a Silver | trash a card from your hand"]}],
     "Do this twice: Choose one: Gain a Silver; or trash a card from your hand."),
    ([{"each other player": [{"choose two": ["discard a card", "gain a Curse",
                                            "trash a card from your hand"]}]}],
     "Each other player chooses two: discard a card; gain a Curse; trash a card from their "
     "hand."),
    ([{"each other player": [{"choose one": ["discard a card", "gain a Curse",
                                            "trash a card from your hand"]}]}],
     "Each other player chooses one: discard a card; or gain a Curse; or trash a card from "
     "their hand."),
    ([{"each other player": ["reveal the top card of your deck",
                             {"you choose one": ["discard it", "put it back"]}]}],
     "Each other player reveals the top card of their deck. They either discard it or put it "
     "back, your choice."),
    ([{"each other player": ["draw a card", {"choose one": ["discard a card", "gain a Curse"]}]}],
     "Each other player draws a card. They either discard a card or gain a Curse, their "
     "choice."),
    ([{"each other player": [{"if you have 5 or more cards in hand": ["discard a card"]},
                             {"otherwise": ["draw a card"]}]}],
     "Each other player: if they have 5 or more cards in hand they discard a card; otherwise "
     "they draw a card."),
    # several statements on one line: each ends with a stop
    (["+2 cards; +1 action; +1 buy"], "+2 Cards. +1 Action. +1 Buy."),
    (["+1 card; discard a card"], "+1 Card. Discard a card."),
    (["discard a card; +1 card"], "Discard a card. +1 Card."),
    ("+1 card and +1 action", "+1 Card and +1 Action"),
    # what the author wrote is kept: reminders, "in any order"
    ({"triggers": ["when you gain this: gain a Silver (it goes to your discard pile)"]},
     "When you gain this, gain a Silver (it goes to your discard pile)."),
    ({"triggers": ["when you trash this: +1 card (even on another player's turn)"]},
     "When you trash this, +1 Card (even on another player's turn)."),
    ("if you have 5 or more cards in hand (after drawing): +1 card",
     "If you have 5 or more cards in hand (after drawing), +1 Card."),
    ("look at the top 2 cards of your deck; put them back in any order",
     "Look at the top 2 cards of your deck. Put them back in any order."),
    ("reveal the top card of your deck; you choose one: discard it | put it back",
     "Reveal the top card of your deck. Your choice: discard it; or put it back."),
    # Durations and delayed steps
    ([{"at the start of your next turn": ["draw a card then discard a card"]}],
     "At the start of your next turn, draw a card then discard a card."),
    ([{"at the start of your next turn": [{"each other player": ["gain a Curse"]}]}],
     "At the start of your next turn, each other player gains a Curse."),
    ("set aside a card from your hand; play it at the start of your next turn",
     "Set aside a card from your hand. Play it at the start of your next turn."),
    (["trash a card from your hand", {"if you did": ["+$2"]}, {"otherwise": ["+1 card"]}],
     "Trash a card from your hand.\nIf you did, +$2.\nOtherwise, +1 Card."),
]


def _name(index: int) -> str:
    return f"English Case {chr(65 + index // 26)}{chr(65 + index % 26)}"


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    with tempfile.TemporaryDirectory() as folder:
        for i, (effect, _text) in enumerate(CASES):
            card = {"dsl": 1, "name": _name(i), "cost": 3, "types": ["Action"]}
            card.update(effect if isinstance(effect, dict) else {"play": effect})
            Path(folder, f"case-{i}.yaml").write_text(yaml.safe_dump(card), encoding="utf-8")
        library, diagnostics = compile_folders([BUILTIN_CARDS, Path(folder)], strict=False)
    assert not diagnostics, [str(d) for d in diagnostics]
    return {card.name: card.text for card in library}


@pytest.mark.parametrize("index", range(len(CASES)), ids=lambda i: str(CASES[i][0])[:60])
def test_reads_right(rendered: dict[str, str], index: int) -> None:
    assert rendered[_name(index)] == CASES[index][1]


def test_no_doubled_words(rendered: dict[str, str]) -> None:
    """No "the the", "then then", "each other player each other player" in any card's text."""
    texts = {**{c.name: c.text for c in builtin_library()}, **rendered}
    doubled = {name: m.group(0) for name, text in texts.items()
               for m in re.finditer(r"\b([A-Za-z]+(?: [A-Za-z]+)*) \1\b", text)}
    assert not doubled
