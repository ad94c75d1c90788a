"""Hints a designer can act on: every suggested wording compiles where it is offered, did-you-
mean goes only to the language's words and card names, card names are read in any case, and
every error of a file is reported (issue 20, "Errors a designer can act on")."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
import yaml
from compiled import card_diagnostics, compile_statement
from corpus_lines import corpus_lines
from kingdom.compiler.expectations import expected_at
from kingdom.compiler.parser import DSLSyntaxError, parse
from kingdom.compiler.structure.ability import Ability
from test_error_cuts import internal_names

from kingdom.cli.main import main

CARD = {"dsl": 1, "name": "Trial Card", "cost": 3, "types": ["Action"]}
SCOPES = ("while this is in play, ", "in games using this, ")


def _card(**sections: object) -> str:
    return yaml.safe_dump({**CARD, **sections}, sort_keys=False, width=10**6)


def _unplaced_abilities() -> list[str]:
    """Every trigger of the corpus that says where its card is (or is an Ally's), without
    that: what a designer writes on a card before K320 tells them."""
    found = []
    for line in corpus_lines():
        if line.section != "triggers" or line.nested or line.start != "statements":
            continue
        nodes = parse(line.text)
        if len(nodes) != 1 or not isinstance(nodes[0], Ability) or not nodes[0].is_placed():
            continue
        text = next((line.text.removeprefix(s) for s in SCOPES if line.text.startswith(s)),
                    line.text if line.kind == "ally" else "")
        if text and not text.startswith(SCOPES):
            found.append(text)
    return sorted(set(found))


def test_every_k320_suggestion_compiles() -> None:
    """K320 for each unplaced trigger of the corpus (at the start of your turn, when you gain
    a card, ...): its suggestion compiles as the card's trigger, and so does every wording
    its hint offers."""
    abilities = _unplaced_abilities()
    assert len(abilities) >= 10
    assert "at the start of your turn: +$1" in abilities or any(
        a.startswith("at the start of your turn") for a in abilities)
    suggested = 0
    for text in abilities:
        found = [d for d in card_diagnostics(_card(triggers=[text])) if d.code == "K320"]
        if not found:  # (it says where already: "when another player buys a Province")
            continue
        assert len(found) == 1, (text, found)
        if not found[0].suggestion:  # (an Ally's alone: "after playing a Liaison")
            assert "no wording of it says where" in found[0].hint, found[0]
            continue
        suggested += 1
        assert compile_statement(found[0].suggestion, "triggers") == "", (text, found[0])
        body = text.split(":", 1)[1]
        for wording in found[0].hint.split("'")[1::2]:
            if wording.endswith(": ..."):
                assert compile_statement(wording.removesuffix(" ...") + body, "triggers") == "", (
                    text, wording)
    assert suggested >= 10


def test_the_start_of_the_turn_on_a_card_suggests_what_compiles() -> None:
    """The hint that led to a refused wording: now it offers 'while this is in play, at the
    start of your turn: ...', which compiles, and nothing else."""
    found = card_diagnostics(_card(triggers=["at the start of your turn: +$1"]))
    assert [d.code for d in found] == ["K320"]
    assert found[0].suggestion == "while this is in play, at the start of your turn: +$1"
    assert "in games using this, at" not in found[0].hint
    assert compile_statement(found[0].suggestion, "triggers") == ""


# What a designer wrote, and the suggestion the help line gives (None: none is given).
MISTAKES = {
    "+1 card; +2 actoins": "+1 card; +2 actions",
    "if yo did: +1 card": "if you did: +1 card",
    "gain a card costing up to 4": "gain a card costing up to $4",
    "trash a card frm your hand": "trash a card from your hand",
    "smash a card from your hand": "trash a card from your hand",
    "discard a card; if you did; +1 card": None,
    "when you gain this: put it into your hand, +1 action": None,
    "if they're both Actions: +1 card": None,
    "gain a Silvr": "Silver",
}


@pytest.mark.parametrize("text", sorted(MISTAKES))
def test_a_mistake_is_told_with_a_help_line_and_a_suggestion_that_compiles(text: str) -> None:
    found = card_diagnostics(_card(play=[text]))
    assert found, text
    for diagnostic in found:
        assert diagnostic.hint.strip(), diagnostic
        assert not internal_names().search(f"{diagnostic.message} {diagnostic.hint}")
        assert "did you mean 'there'" not in diagnostic.hint
        if diagnostic.suggestion:
            line = (text.replace("Silvr", diagnostic.suggestion) if diagnostic.code == "K300"
                    else diagnostic.suggestion)
            assert compile_statement(line) == "", (text, diagnostic)
    wanted = MISTAKES[text]
    if wanted is not None:
        assert found[0].suggestion in (wanted, ""), found[0]
        assert found[0].suggestion, found[0]


def test_did_you_mean_never_offers_another_english_word() -> None:
    """'they're' is no misspelt 'there', 'they' no misspelt 'then': an English word written
    where it does not fit is meant as itself, and the help says what fits instead."""
    for text in ("if they're both Actions: +1 card",
                 "reveal the top 3 cards of your deck; put them back in any order they choose"):
        with pytest.raises(DSLSyntaxError) as caught:
            parse(text)
        assert "did you mean '" not in caught.value.hint, caught.value.hint
        assert "expected " in caught.value.hint


@pytest.mark.parametrize("written, proper", [
    ("gain a silver", "gain a Silver"),
    ("gain a throne room", "gain a Throne Room"),
    ("gain two silvers and a gold", "gain two Silvers and a Gold"),
    ("trash a copper from your hand; +$1", "trash a Copper from your hand; +$1"),
    ("gain an action card costing up to $4", "gain an Action card costing up to $4"),
])
def test_card_names_are_read_in_any_case(written: str, proper: str) -> None:
    """The tree holds the name as printed, and the card compiles."""
    assert parse(written) == parse(proper)
    assert compile_statement(written) == ""


def test_a_name_in_another_case_resolves_to_the_printed_one() -> None:
    assert compile_statement("gain a Throne room") == ""
    assert card_diagnostics(_card(play=["gain a Thrown Room"]))[0].hint == (
        "did you mean 'Throne Room'?")


def test_a_misspelt_keyword_is_no_card_name() -> None:
    """'cardsx' where 'cards' goes is a syntax error at the word, not an unknown card."""
    with pytest.raises(DSLSyntaxError) as caught:
        parse("gain a cardsx costing up to $4")
    assert caught.value.message == "unexpected 'cardsx'"


def test_every_error_of_a_file_is_reported(tmp_path: Path) -> None:
    """Three syntax errors in one item (each after the statement at fault), the misspelt
    name of a statement between them, the misspelt type beside them and the next item's
    unknown card: all at once, each at its line and column."""
    (tmp_path / "many.yaml").write_text(
        "dsl: 1\nname: Many Faults\ncost: 3\ntypes: [Acton]\nplay:\n"
        "  - +1 card, +1 acton; gain a silvr; trash a card frm your hand; +2 actoins\n"
        "  - gain a Silvr\n", encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["check", str(tmp_path)]) == 1
    report = err.getvalue()
    found = sorted(line.split(": error")[0].split("many.yaml:")[1] + " " + line.split("[")[1][:4]
                   for line in report.splitlines() if "many.yaml:" in line and "error[" in line)
    assert found == ["4:9 K300", "6:17 K200", "6:31 K300", "6:51 K200", "6:69 K200",
                     "7:12 K300"], report
    assert "6 error(s)" in report


def test_expected_at_gives_what_may_come_in_the_designers_words() -> None:
    """The service an editor completes with: a half-written word ranks what it begins
    first; each item has a label, an example from the reference and the text to insert."""
    items = expected_at("+1 ca", 5)
    assert [i.insert for i in items[:2]] == ["card", "cards"]
    assert items[0].label == "'card'" and items[0].kind == "word" and "+1 card" in items[0].example
    names = [i for i in expected_at("gain a ", 7) if i.kind == "name"]
    assert names and names[0].label == "a card or type name such as Silver"
    assert expected_at("gain a Silver; +", 16) and all(
        not internal_names().search(i.label) for i in expected_at("gain a Silver; +", 16))
    assert expected_at("gain gain ", 10) == []  # (the text before is wrong already)
