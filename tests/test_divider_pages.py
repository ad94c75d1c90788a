"""Dividers looked at as page images (pdftoppm, from poppler-utils, which .ci/run installs):
each tab's outline is drawn where its layout puts it, the name and cost stay inside their tab,
and the body's text stays inside the body's margins, for every tab position, sleeved or not,
with the longest names of a set. Text positions alone (tests/test_print_and_play.py) would not
see an outline drawn in the wrong place or a name running out of its tab."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from kingdom.compiler.build import builtin_library
from reportlab.pdfbase.pdfmetrics import stringWidth

from kingdom.print import dividers, fonts, proxies, render
from kingdom.print.selection import select_set

DPI = 144
SCALE = DPI / 72  # pixels per point
DARK = 160  # a grey level below this is ink
SLACK = 2  # pixels: anti-aliasing and a line's width

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                reason="pdftoppm (poppler-utils) is not installed: divider pages "
                                "are not looked at here")


def _page_image(pdf: bytes, folder: Path) -> tuple[int, int, bytes]:
    """The first page as 8-bit grey pixels (width, height, rows top to bottom)."""
    (folder / "d.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-gray", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile",
                    str(folder / "d.pdf"), str(folder / "d")], check=True, timeout=120)
    data = (folder / "d.pgm").read_bytes()
    magic, width, height, depth, pixels = data.split(maxsplit=4)
    assert (magic, depth) == (b"P5", b"255")
    return int(width), int(height), pixels


def _longest_named_piles(count: int) -> list:
    """Of every built-in set's piles, those with the longest names: half with a cost on the tab
    (Candlestick Maker), half without (the Allies: Order of Astrologers); first, a longer one
    made up, that must be set smaller to fit beside its cost."""
    library = builtin_library()
    piles = [p for set_id in sorted({c.set for c in library})
             for p in render.divider_piles(render.build_summary(
                 library, select_set(library, set_id), layout="dividers"))]
    longest = sorted({p.name: p for p in piles}.values(), key=lambda p: (-len(p.name), p.name))
    costed, free = [p for p in longest if p.cost], [p for p in longest if not p.cost]
    made_up = proxies.Proxy("Lighthouse Keepers' Guildhall", "$10", "Action", ["+1 Card"], [], "Mine")
    return [made_up, *(pile for pair in zip(costed, free, strict=False) for pile in pair)][:count]


@pytest.mark.parametrize("size", list(dividers.SIZES))
@pytest.mark.parametrize("tabs", dividers.TABS)
def test_tabs_names_and_texts_where_they_belong_on_the_page(tabs, size, tmp_path) -> None:
    layout = dividers.Layout(tabs, size)
    body_w, body_h = dividers.SIZES[size]
    cells = list(proxies.grid(99, "a4", (body_w + 2 * dividers.GAP,
                                         body_h + dividers.TAB_H + 2 * dividers.GAP)))
    per_page = sum(c.page == 0 for c in cells)
    piles = _longest_named_piles(per_page)
    width, height, pixels = _page_image(dividers.dividers_pdf(piles, "a4", layout), tmp_path)
    page_h = proxies.PAGES["a4"][1]
    assert abs(height - page_h * SCALE) <= 1  # an A4 page, at DPI

    def ink(rows: range, columns: range) -> list[int]:
        """The columns in `columns` with ink in any of `rows`."""
        return [x for x in columns if any(pixels[y * width + x] < DARK for y in rows)]

    def px(x: float) -> int:
        return round(x * SCALE)

    def py(y: float) -> int:  # PDF points from the bottom to pixel rows from the top
        return round((page_h - y) * SCALE)

    for i, cell in enumerate(cells[:len(piles)]):
        left, bottom = cell.x + dividers.GAP, cell.y + dividers.GAP
        top = bottom + body_h
        tab = left + dividers.tab_x(i, body_w, tabs)
        name = piles[i].name
        cell_columns = range(px(cell.x), px(cell.x + cell.w))
        # the tab's top edge: from its left slant's top to its right slant's top, nowhere else
        edge = ink(range(py(top + dividers.TAB_H) - SLACK, py(top + dividers.TAB_H) + SLACK + 1),
                   cell_columns)
        assert edge, (tabs, size, name)
        assert abs(min(edge) - px(tab + 2 * proxies.mm)) <= SLACK, (tabs, size, name, "left")
        assert abs(max(edge) - px(tab + dividers.TAB_W - 2 * proxies.mm)) <= SLACK, (tabs, name)
        # everything drawn in the tab's band (the name, the cost, the slants) is inside the tab
        band = ink(range(py(top + dividers.TAB_H) + SLACK + 1, py(top) - SLACK), cell_columns)
        assert band and px(tab) - SLACK <= min(band) and max(band) <= px(tab + dividers.TAB_W) + SLACK, \
            (tabs, size, name)
        text = ink(range(py(top + dividers.TAB_H) + SLACK + 1, py(top + 2 * proxies.mm)),
                   range(px(tab) + 3 * SLACK, px(tab + dividers.TAB_W) - 3 * SLACK))
        assert text, (tabs, name, "the name and cost are drawn")
        if piles[i].cost:  # the name ends before the cost (right-aligned in the tab) begins
            cost_left = tab + dividers.TAB_W - 3 * proxies.mm - stringWidth(piles[i].cost, fonts.BOLD, 10.5)
            between = ink(range(py(top + dividers.TAB_H) + SLACK + 1, py(top + 2 * proxies.mm)),
                          range(px(cost_left - proxies.mm), px(cost_left) - SLACK))
            assert not between, (tabs, name, "runs into its cost")
        # the body's outline: a card's size across, in a sleeve or not (as --help says)
        middle = py(bottom + body_h / 2)
        sides = ink(range(middle, middle + 1), cell_columns)
        measured = (max(sides) - min(sides)) / SCALE / proxies.mm
        assert measured == pytest.approx({"unsleeved": 91, "sleeved": 94}[size], abs=0.3), name
        column = px(left + 2 * proxies.mm)  # (left of any tab and of the text's margin)
        rows = [y for y in range(py(top) - 3 * SLACK, py(bottom) + 3 * SLACK)
                if pixels[y * width + column] < DARK]
        assert (max(rows) - min(rows)) / SCALE / proxies.mm == pytest.approx(
            {"unsleeved": 59, "sleeved": 62}[size], abs=0.3), name
        # the body's text keeps to its margins: no ink between the outline and the margin
        inside = ink(range(py(top) + SLACK + 1, py(bottom) - SLACK),
                     range(px(left) + SLACK + 1, px(left + body_w) - SLACK))
        assert inside, name
        assert px(left + dividers.PAD) - SLACK <= min(inside), (tabs, size, name, "left margin")
        assert max(inside) <= px(left + body_w - dividers.PAD) + SLACK, (tabs, size, name, "right")
