"""`kingdom render`: every built-in set in every format, setup notes, rulings, plain layout, PDF."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pytest
from example_sets import EXAMPLE_IDS, EXAMPLES, Example
from kingdom.compiler.build import BUILTIN_CARDS, load_library
from kingdom.compiler.expansions import discover
from markupsafe import escape

from kingdom.cli.main import main
from kingdom.print import render, rulings
from kingdom.print.rulings import RULES_ENV, load_accessibility, load_rulings, parse_rulings, rules_folder
from kingdom.print.selection import Selection, select_kingdom, select_set

LIBRARY, _ = load_library([e.folder for e in EXAMPLES], strict=False, environ={},
                          entry_points=[])  # test_errors checks
BUILTIN = Path(BUILTIN_CARDS).resolve()
SETS = sorted({c.set for c in LIBRARY if BUILTIN in Path(c.source).resolve().parents})
SETUP_HEADING = "Setup for these cards"
GAME_NOTES = {"Platinum and Colony", "Piles for 2 players"}  # every Kingdom's


def summary_for(set_name: str | None = None, kingdom: str | None = None, ally: str | None = None,
                plain: bool = False, paper: str = "a4", rulings=None) -> render.Summary:
    if set_name is not None:
        selection = select_set(LIBRARY, set_name)
    else:
        selection = select_kingdom(LIBRARY, kingdom.split(","), ally)
    return render.build_summary(LIBRARY, selection, plain=plain, paper=paper,
                                rulings={} if rulings is None else rulings)


def _esc(text: str) -> str:
    return str(escape(text))


def _md_unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _text_lines(card) -> list[str]:
    return [x for x in card.text.splitlines() if x != "---"]


def test_every_builtin_set_is_covered() -> None:
    assert {"base", "intrigue"} <= set(SETS)


@pytest.mark.parametrize("set_name", SETS)
def test_html_has_every_card_name_and_text(set_name: str) -> None:
    summary = summary_for(set_name)
    out = render.render(summary, "html").decode()
    assert out.startswith("<!DOCTYPE html>")
    cards = [c for c in LIBRARY if c.set == set_name]
    assert len(summary.cards) >= len(cards)
    for card in cards:
        assert f"<h3>{_esc(card.name)}</h3>" in out
        for line in _text_lines(card):
            assert _esc(line) in out, (card.name, line)
        if "---" in card.text.splitlines():
            assert '<hr class="divider"' in out
    assert "@page" in out and "break-inside: avoid" in out and "page-break-inside: avoid" in out


@pytest.mark.parametrize("set_name", SETS)
def test_markdown_has_every_card_name_and_text(set_name: str) -> None:
    out = render.render(summary_for(set_name), "md").decode()
    text = _md_unescape(out)
    for card in (c for c in LIBRARY if c.set == set_name):
        assert f"### {card.name}\n" in text
        for line in _text_lines(card):
            assert f"\n{line}\n" in text, (card.name, line)
        if "---" in card.text.splitlines():
            assert "\n* * *\n" in out
    assert "<" not in re.sub(r"\\<", "", out)  # no raw HTML in the Markdown


@pytest.mark.parametrize("set_name", SETS)
def test_plain_layout_spells_everything_out(set_name: str) -> None:
    out = render.render(summary_for(set_name, plain=True), "html").decode()
    body = out.split("</style>", 1)[1]
    assert "$" not in body  # costs and coins in words
    assert " VP" not in body
    assert "<hr" not in body and "<table" not in body
    css = out.split("</style>", 1)[0]
    assert not re.search(r"#(?!000\b|fff\b)[0-9a-f]{3,6}\b", css)  # black and white only
    for card in (c for c in LIBRARY if c.set == set_name):
        assert f"<h3>{_esc(card.name)}</h3>" in body
        coins = f"{card.cost} coin" + ("" if card.cost == 1 else "s")
        if card.kind == "ally":
            coins = "none"
        assert f"Cost:</span> {coins}" in body
        if "---" in card.text.splitlines():
            assert "Below the divider:" in body
    md = render.render(summary_for(set_name, plain=True), "md").decode()
    assert "$" not in md and "* * *" not in md


def test_plain_text_conversions() -> None:
    assert render.spell_out("+$1") == "+1 coin"
    assert render.spell_out("Gain a card costing up to $4.") == "Gain a card costing up to 4 coins."
    assert render.spell_out("1 VP") == "1 Victory Point"
    assert render.spell_out("Worth 2 VP per Duchy") == "Worth 2 Victory Points per Duchy"


def _pdf_pages(data: bytes) -> list[str]:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return [re.sub(r"\s+", " ", page.extract_text() or "") for page in reader.pages], reader


@pytest.mark.parametrize("set_name", SETS)
def test_pdf_is_valid_and_keeps_cards_whole(set_name: str) -> None:
    data = render.render(summary_for(set_name), "pdf")
    assert data.startswith(b"%PDF-")
    pages, reader = _pdf_pages(data)
    cards = [c for c in LIBRARY if c.set == set_name]
    assert 1 <= len(pages) <= len(cards)
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4 in points
    for number, text in enumerate(pages, start=1):  # each page's footer counts the pages
        assert f"page {number} of {len(pages)}" in text
    for card in cards:
        first_line = card.text.splitlines()[0]
        holding = [i for i, text in enumerate(pages) if card.name in text]
        assert holding, card.name
        # a card's name and its first line of text are on one page: the card is not split
        assert any(first_line.replace(" ", "") in pages[i].replace(" ", "") for i in holding), card.name


def test_pdf_page_count_and_letter_paper() -> None:
    one = render.render(summary_for(kingdom="Village", paper="letter"), "pdf")
    pages, reader = _pdf_pages(one)
    assert len(pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    assert "Letter" not in pages[0] and "Village" in pages[0]
    base_pages, _ = _pdf_pages(render.render(summary_for("base"), "pdf"))
    assert len(base_pages) > 1  # 33 cards do not fit on one page
    assert "letter portrait" in render.render_html(summary_for(kingdom="Village", paper="letter"))


def test_setup_notes_only_when_needed() -> None:
    for set_name in ("base", "base-1e"):
        if set_name in SETS:
            summary = summary_for(set_name)
            assert summary.setup == []
            assert SETUP_HEADING not in render.render(summary, "html").decode()
            assert SETUP_HEADING not in render.render(summary, "md").decode()
    plain_kingdom = summary_for(kingdom="Village,Smithy,Militia,Moat,Witch")
    assert [n.title for n in plain_kingdom.setup] == ["Platinum and Colony", "Piles for 2 players"]
    harbor = summary_for("harbor")
    titles = {n.title for n in harbor.setup}
    assert {"Toll Bridge", "Coffers", "Overpay"} <= titles
    out = render.render(harbor, "html").decode()
    assert SETUP_HEADING in out and "Setup: Each player" in out
    # one card with a setup rule brings its notes into a Kingdom
    kingdom = summary_for(kingdom="Village,Toll Bridge")
    assert {n.title for n in kingdom.setup} - GAME_NOTES == {"Toll Bridge", "Coffers", "Overpay"}
    assert summary_for(kingdom="Village,Dockhand").setup[0].title == "Coffers"


def test_setup_notes_for_extra_basic_piles() -> None:
    prosperity = [c for c in LIBRARY if c.kind == "basic" and c.name in ("Platinum", "Colony")]
    if not prosperity:
        pytest.skip("no Platinum/Colony cards")
    summary = summary_for(prosperity[0].set)
    assert summary.setup and summary.setup[0].title == "Extra basic piles"


def test_setup_notes_for_favors_and_allies() -> None:
    liaison = next((c for c in LIBRARY if c.has_type("Liaison") and c.kind == "kingdom"), None)
    ally = next((c for c in LIBRARY if c.kind == "ally"), None)
    if liaison is None or ally is None:
        pytest.skip("no Liaison and Ally cards loaded")
    summary = summary_for(kingdom=f"Village,{liaison.name}", ally=ally.name)
    favors = next(n for n in summary.setup if n.title == "Favors")
    assert liaison.name in favors.text and ally.name in favors.text
    assert ally.name in [c.name for c in summary.cards]
    without = summary_for(kingdom=f"Village,{liaison.name}")  # an Ally is drawn, seeded
    drawn = without.cards[-1].name
    assert without.cards[-1].kind == "ally"
    assert f"use exactly one Ally: {drawn}" in next(n for n in without.setup if n.title == "Favors").text
    assert summary_for(kingdom=f"Village,{liaison.name}").cards[-1].name == drawn


def test_split_piles_show_their_order() -> None:
    if not LIBRARY.split_piles:
        pytest.skip("no split piles loaded")
    pile, members = next(iter(LIBRARY.split_piles.items()))
    summary = summary_for(kingdom=f"Village,{pile}")
    note = next(n for n in summary.setup if n.title == pile)
    assert ", ".join(members) in note.text
    out = render.render(summary, "md").decode()
    for member in members:
        assert f"### {member}" in out


def test_rulings_are_parsed_from_both_layouts() -> None:
    text = """Dominion: Something

Setup

Young Witch adds a Bane pile.

Card-by-Card Clarifications

Advisor

Reveal up to the top three cards of your deck.
If fewer than three cards are available, use whatever you can reveal.

Baker

Draw a card. Baker also changes setup.

Ally Clarifications

Band of Nomads: When you gain a card costing $3 or more, you may spend a Favor.

Split Pile Clarifications

Augurs: Herb Gatherer → Acolyte → Sorceress → Sibyl

Herb Gatherer: Gives +1 Buy.

Accessibility Notes

Keep Coffers totals public.
"""
    rulings = parse_rulings(text)
    assert rulings["Advisor"] == ["Reveal up to the top three cards of your deck.",
                                  "If fewer than three cards are available, use whatever you can reveal."]
    assert rulings["Baker"] == ["Draw a card. Baker also changes setup."]
    assert rulings["Band of Nomads"] == ["When you gain a card costing $3 or more, you may spend a Favor."]
    assert rulings["Herb Gatherer"] == ["Gives +1 Buy."]
    assert "Augurs" not in rulings  # its line is the pile order, shown with the pile
    assert "Young Witch" not in rulings and "Keep Coffers totals public." not in str(rulings)


def test_rulings_appear_with_their_cards(tmp_path) -> None:
    (tmp_path / "harbor.txt").write_text(
        "Harbor Rules\n\nCard-by-Card Clarifications\n\nDockhand\n\nThe Coffers can be spent "
        "at once.\n\nAccessibility Notes\n\nSay it aloud.\n")
    rulings = load_rulings(tmp_path)
    summary = summary_for(kingdom="Dockhand,Village", rulings=rulings)
    for fmt in ("html", "md"):
        out = render.render(summary, fmt).decode()
        assert "The Coffers can be spent at once." in out
        assert out.count("Rulings") == 1
    plain = render.render(summary_for(kingdom="Dockhand", plain=True, rulings=rulings), "html").decode()
    assert "Rulings for Dockhand" in plain


def test_accessibility_notes_come_with_their_rules_file(tmp_path) -> None:
    (tmp_path / "harbor.txt").write_text(
        "Harbor Rules\n\nCard-by-Card Clarifications\n\nDockhand\n\nA ruling.\n\n"
        "Accessibility Notes\n\nAnnounce every change of $1 or more in Coffers.\n\nSource\n\nHere.\n")
    access = load_accessibility(tmp_path)
    assert access == [(frozenset({"Dockhand"}), ["Announce every change of $1 or more in Coffers."])]
    summary = render.build_summary(LIBRARY, select_kingdom(LIBRARY, ["Dockhand", "Village"]),
                                   accessibility=access)
    assert summary.access == ["Announce every change of $1 or more in Coffers."]
    for fmt in ("html", "md"):
        out = render.render(summary, fmt).decode()
        assert "Accessibility notes" in out and "Announce every change" in out
    plain = render.build_summary(LIBRARY, select_kingdom(LIBRARY, ["Dockhand"]), plain=True,
                                 accessibility=access)
    assert plain.access == ["Announce every change of 1 coin or more in Coffers."]
    unrelated = render.build_summary(LIBRARY, select_kingdom(LIBRARY, ["Village"]),
                                     accessibility=access)
    assert unrelated.access == []
    assert "Accessibility notes" not in render.render(unrelated, "html").decode()


def test_rules_folder_is_optional(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(rulings, "DEFAULT_RULES", tmp_path / "missing")
    monkeypatch.delenv(RULES_ENV, raising=False)
    assert rules_folder() is None
    assert load_rulings() == {}
    assert load_rulings(tmp_path / "missing-too") == {}


def test_shared_rules_give_rulings_for_their_cards() -> None:
    rulings = load_rulings()
    if not rulings:
        pytest.skip("no rules folder here")
    card = next((c for c in LIBRARY if c.name in rulings), None)
    if card is None:
        pytest.skip("no loaded card has a ruling")
    bare = dataclasses.replace(card, rulings=())  # cards' own `rulings:` come first: drop them
    selection = Selection(title=card.name, cards=[bare])
    out = render.render(render.build_summary(LIBRARY, selection, rulings=rulings), "md").decode()
    assert _md_unescape(rulings[card.name][0]) in _md_unescape(out)


@pytest.mark.parametrize("example", EXAMPLES, ids=EXAMPLE_IDS)
def test_cli_render_formats(example: Example, tmp_path) -> None:
    for fmt in ("html", "md", "pdf"):
        out = tmp_path / f"summary.{fmt}"
        assert main(["render", "--cards", str(example.folder), "--set", example.set, "--format", fmt,
                     "--output", str(out)]) == 0
        assert out.stat().st_size > 500
    assert (tmp_path / "summary.pdf").read_bytes().startswith(b"%PDF")
    summary = (tmp_path / "summary.md").read_text()
    assert f"{example.title} 1.0.0" in summary
    assert all(name in summary for name in example.cards)


def test_cli_render_refuses_bad_input(capsys) -> None:
    assert main(["render", "--kingdom", "Vilage,Smithy"]) == 2
    assert "did you mean 'Village'" in capsys.readouterr().err
    assert main(["render", "--set", "no-such-set"]) == 2
    assert "unknown set" in capsys.readouterr().err
    assert main(["render", "--kingdom", "Village", "--ally", "Smithy"]) == 2
    assert "not an Ally" in capsys.readouterr().err
    assert main(["render"]) == 2


@pytest.mark.parametrize("example", EXAMPLES, ids=EXAMPLE_IDS)
def test_discovery_is_used_by_render(example: Example, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("KINGDOM_PATH", str(example.folder))
    assert example.folder in discover(entry_points=[])
    out = tmp_path / "k.md"
    card = example.sample_card
    assert main(["render", "--kingdom", f"{card},Village", "--format", "md", "-o", str(out)]) == 0
    assert f"### {card}" in out.read_text()


def test_an_ally_prints_no_empty_cost(capsys) -> None:
    assert main(["render", "--kingdom", "Village,Smithy", "--ally", "City-state", "--format", "md"]) == 0
    ally = capsys.readouterr().out.split("### City-state", 1)[1]
    assert "**Types:** Ally" in ally and "Cost:" not in ally.split("###")[0]


def test_a_ruling_longer_than_a_page_is_printed_across_pages(tmp_path) -> None:
    """A ruling of ~3,500 words in a rules file: the card's box, kept on one page, could not be
    laid out (an internal error, exit 70); the box of a card with long rulings may break now."""
    from pypdf import PdfReader

    words = " ".join(f"word{i % 50}" for i in range(3500))
    (tmp_path / "long.txt").write_text(f"Base Clarifications\n\nSmithy: {words}.\n\nSource\n")
    summary = summary_for(kingdom="Smithy", rulings=load_rulings(tmp_path))
    pdf = PdfReader(io.BytesIO(render.render(summary, "pdf")))
    text = "".join(page.extract_text() for page in pdf.pages)
    assert len(pdf.pages) > 1 and text.count("word") == 3500
