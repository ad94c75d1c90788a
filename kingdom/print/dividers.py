"""Pile dividers for a box of cards, drawn as PDF with ReportLab, as dominiontabs makes them: one
divider per pile (a split pile is one pile), its name and cost on a tab, its types, its text (a
split pile: its members in order with their costs) and its set on the body.

The body lies across the box: as wide as a card is tall, as high as a card is wide, for cards
in sleeves or without (SIZES). The tab sits left, right, centred, or alternating left and right
along the box (TABS), so neighbouring tabs do not hide each other. The outline is the cut line.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kingdom.print.fonts import BOLD, FONT
from kingdom.print.proxies import PAGES, Cell, Proxy, fit_text, grid, one_line, printable

# The body: a Dominion card is 59 x 91 mm, 61.5 x 94 mm or so in a sleeve (dominiontabs' sizes).
SIZES = {"unsleeved": (91 * mm, 59 * mm), "sleeved": (94 * mm, 62 * mm)}
TAB_W, TAB_H = 44 * mm, 9 * mm
TABS = ("alternate", "left", "right", "centre")
PAD = 4 * mm
GAP = 1 * mm  # inside the grid cell, between neighbouring outlines


@dataclass(frozen=True)
class Layout:
    """How the dividers are cut: `tabs` one of TABS, `size` one of SIZES."""

    tabs: str = "alternate"
    size: str = "unsleeved"


def tab_x(index: int, width: float, tabs: str) -> float:
    """Where the tab of the `index`-th divider starts, from the body's left edge."""
    side = ("left", "right")[index % 2] if tabs == "alternate" else tabs
    return {"left": PAD, "right": width - TAB_W - PAD, "centre": (width - TAB_W) / 2}[side]


def dividers_pdf(piles: list[Proxy], paper: str, layout: Layout | None = None,
                 title: str = "") -> bytes:
    """A divider per pile, as many to a page as fit, in the given order."""
    printable(piles, title)
    layout = layout or Layout()
    body_w, body_h = SIZES[layout.size]
    cells = list(grid(len(piles), paper, (body_w + 2 * GAP, body_h + TAB_H + 2 * GAP)))
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=PAGES[paper], pageCompression=1)
    canvas.setTitle(title)
    for i, (pile, cell) in enumerate(zip(piles, cells, strict=True)):
        if i and cell.page != cells[i - 1].page:
            canvas.showPage()
        draw_divider(canvas, pile, cell, tab_x(i, body_w, layout.tabs), (body_w, body_h))
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def draw_divider(canvas: Canvas, pile: Proxy, cell: Cell, tab: float,
                 body: tuple[float, float]) -> None:
    """One divider in its cell: the outline with its tab at `tab` from the left, then the text."""
    (w, h), x, y = body, cell.x + GAP, cell.y + GAP
    top, tab_left = y + h, x + tab
    canvas.setStrokeGray(0)
    canvas.setLineWidth(0.5)
    path = canvas.beginPath()
    path.moveTo(x, y)
    for px, py in ((x + w, y), (x + w, top), (tab_left + TAB_W, top),
                   (tab_left + TAB_W - 2 * mm, top + TAB_H), (tab_left + 2 * mm, top + TAB_H),
                   (tab_left, top), (x, top)):
        path.lineTo(px, py)
    path.close()
    canvas.drawPath(path)
    room = TAB_W - (16 if pile.cost else 6) * mm  # an Ally has no cost: its name takes the tab
    one_line(canvas, pile.name, BOLD, 10.5, tab_left + 3 * mm, top + 3 * mm, room)
    one_line(canvas, pile.cost, BOLD, 10.5, tab_left + TAB_W - 3 * mm, top + 3 * mm, 11 * mm, "right")
    one_line(canvas, pile.types.upper(), BOLD, 7, x + PAD, top - 5 * mm, w - 2 * PAD)
    one_line(canvas, pile.set_name, FONT, 7, x + w - PAD, y + 2.5 * mm, w - 2 * PAD, "right")
    text_top, text_bottom = top - 7 * mm, y + 6 * mm
    size, above, below, _ = fit_text(pile, w - 2 * PAD, text_top - text_bottom, centre=False,
                                     what="divider")
    cursor = text_top
    for para in [*above, None, *below] if below else above:
        if para is None:  # the card's dividing line, as on the card
            canvas.line(x + PAD, cursor - size * 0.4, x + PAD + 25 * mm, cursor - size * 0.4)
            cursor -= size
            continue
        _, used = para.wrap(w - 2 * PAD, text_top - text_bottom)
        para.drawOn(canvas, x + PAD, cursor - used)
        cursor -= used + para.style.spaceAfter
