"""The font of every PDF (proxies, dividers, summaries, sheets): every character the built-in cards
print is in it, names in Latin Extended, Greek and Cyrillic print as themselves, and a character
it lacks is refused with the card's name (exit status 1), not drawn as a black box."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from kingdom.compiler.build import builtin_library
from pypdf import PdfReader

from kingdom.cli.main import main
from kingdom.print import fonts, render
from kingdom.print.rulings import load_accessibility, load_rulings
from kingdom.print.selection import select_set

LIBRARY = builtin_library()
CARDS = {"zolw": "Żółw Šabat", "omega": "Ωμέγα Λύρα", "drakon": "Дракон Ёж"}


def _card(folder: Path, file: str, name: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / f"{file}.yaml").write_text(f"dsl: 1\nname: {name}\ncost: 3\ntypes: [Action]\n"
                                         "play:\n  - +2 cards\n", encoding="utf-8")


def test_every_character_the_builtin_cards_print_is_in_the_font() -> None:
    """Read with fontTools from the font files themselves, not through ReportLab: every string
    a proxy, divider, summary or sheet prints (rulings and setup notes too)."""
    maps = [TTFont(fonts.font_file(name)).getBestCmap() for name in fonts.TEXT_FACES]
    printed = set()
    rulings, access = load_rulings(), load_accessibility()
    for set_id in sorted({c.set for c in LIBRARY}):
        summary = render.build_summary(LIBRARY, select_set(LIBRARY, set_id), rulings=rulings,
                                       accessibility=access)
        printed |= set("".join(text for _, text in render.printed_texts(summary)))
        for card in summary.cards:
            printed |= set("".join([card.name, card.cost, card.type_line, card.type_line.upper(),
                                    card.set_name, summary.title, *card.above, *card.below]))
    lacking = sorted(c for c in printed - set(fonts.UNDRAWN) if any(ord(c) not in m for m in maps))
    assert not lacking, lacking
    assert len(printed) > 60  # (the strings were gathered)
    for text in ("ŻźŠšŁłŐő", "ΑΒΓΩαβγωέ", "АБВЯабвяЁё"):  # Latin Extended-A, Greek, Cyrillic
        assert all(ord(c) in m for c in text for m in maps), text


def _embedded(reader: PdfReader) -> set[str]:
    return {f["/FontDescriptor"]["/FontName"] for p in reader.pages
            for f in p["/Resources"]["/Font"].values() if "/FontDescriptor" in f}


@pytest.mark.parametrize("layout", ["summary", "sheet"])
def test_summaries_and_sheets_print_such_names_in_the_embedded_font(tmp_path, capsys, layout) -> None:
    """A summary or sheet (drawn from HTML) printed them as black boxes in Times, exit 0."""
    for file, name in CARDS.items():
        _card(tmp_path / "mine", file, name)
    pdf = tmp_path / "out.pdf"
    chosen = ["--set", "mine"] if layout == "summary" else ["--kingdom", ",".join(CARDS.values())]
    assert main(["render", "--cards", str(tmp_path / "mine"), *chosen, "--layout", layout,
                 "--seed", "1", "-o", str(pdf)]) == 0
    assert capsys.readouterr().err.splitlines() == [f"wrote {pdf} (3 cards, pdf, {layout})"]
    reader = PdfReader(io.BytesIO(pdf.read_bytes()))
    text = reader.pages[0].extract_text()
    for name in CARDS.values():
        assert name in text, (name, text)
    faces = _embedded(reader)
    assert any(n.endswith("SourceSerifPro-Regular") for n in faces), faces
    assert not [n for n in faces if "Times" in n or "Helvetica" in n], faces


def test_names_outside_latin_1_print_as_themselves(tmp_path) -> None:
    for file, name in CARDS.items():
        _card(tmp_path / "mine", file, name)
    pdf = tmp_path / "proxies.pdf"
    assert main(["render", "--cards", str(tmp_path / "mine"), "--set", "mine", "--layout", "proxies",
                 "-o", str(pdf)]) == 0
    reader = PdfReader(io.BytesIO(pdf.read_bytes()))
    text = reader.pages[0].extract_text()
    for name in CARDS.values():
        assert name in text, (name, text)
    assert any(n.endswith("SourceSerifPro-Regular") for n in _embedded(reader))


@pytest.mark.parametrize("layout", ["proxies", "dividers", "summary", "sheet"])
def test_a_character_the_font_lacks_is_refused_by_name(tmp_path, capsys, layout) -> None:
    _card(tmp_path / "far", "ryu", "Żółw Šabat 竜")
    pdf = tmp_path / "out.pdf"
    chosen = ["--kingdom", "Żółw Šabat 竜", "--seed", "1"] if layout == "sheet" else ["--set", "far"]
    assert main(["render", "--cards", str(tmp_path / "far"), *chosen, "--layout", layout,
                 "-o", str(pdf)]) == 1
    err = capsys.readouterr().err
    assert "Żółw Šabat 竜" in err and "'竜' (U+7ADC)" in err and "Ż" not in err.split("glyph for")[1]
    assert not pdf.exists()
